package ode

import (
	"io"
	"math"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestErrorHandlers: ODE's dError, dDebug and its own argument checks
// (a box of size -1 passed straight to dCreateBox) come back as a Go error
// in this process instead of aborting it; the world is then broken: every
// later call does nothing and Step returns the error; Destroy still works.
func TestErrorHandlers(t *testing.T) {
	for _, tc := range []struct {
		kind int
		want string
	}{
		{1, "ODE error 7: raised for a test (1)"},
		{2, "ODE internal error 8: raised for a test (2)"},
		{4, "ODE internal error 2: Bad argument(s) in dxBox()"},
	} {
		w, err := NewWorld()
		if err != nil {
			t.Fatal(err)
		}
		b := w.NewBody()
		if err := b.SetMass(1, [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}); err != nil {
			t.Fatal(err)
		}
		err = w.RaiseForTest(tc.kind)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("kind %d: error = %v, want one containing %q", tc.kind, err, tc.want)
		}
		if w.Err() == nil {
			t.Errorf("kind %d: the world is not marked broken", tc.kind)
		}
		if err := w.Step(0.01, nil); err == nil {
			t.Errorf("kind %d: a broken world stepped", tc.kind)
		}
		if _, err := w.NewSphere(1, Surface{}); err == nil {
			t.Errorf("kind %d: a broken world made a geom", tc.kind)
		}
		w.Destroy()
	}
	// A new world after those is fine.
	w, err := NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	if err := w.Step(0.01, nil); err != nil {
		t.Fatal(err)
	}
}

// TestMessages: dMessage becomes a message of the world, each text once.
func TestMessages(t *testing.T) {
	w, err := NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	for i := 0; i < 3; i++ {
		if err := w.RaiseForTest(3); err != nil {
			t.Fatal(err)
		}
	}
	msgs, more := w.Messages()
	if len(msgs) != 1 || msgs[0] != "a message for a test (3)" || more != 0 {
		t.Errorf("messages %q (+%d), want one", msgs, more)
	}
	if msgs, _ := w.Messages(); len(msgs) != 0 {
		t.Errorf("messages read twice: %q", msgs)
	}
}

// TestBadSizes: sizes ODE cannot hold are refused before they reach it.
func TestBadSizes(t *testing.T) {
	w, err := NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	for _, f := range []func() (*Geom, error){
		func() (*Geom, error) { return w.NewBox(0, 1, 1, Surface{}) },
		func() (*Geom, error) { return w.NewBox(1, -1e308, 1, Surface{}) },
		func() (*Geom, error) { return w.NewSphere(-1, Surface{}) },
		func() (*Geom, error) { return w.NewCapsule(-1, 1, Surface{}) },
		func() (*Geom, error) { return w.NewCylinder(1, 1e30, Surface{}) },
	} {
		if _, err := f(); err == nil {
			t.Error("a bad size was accepted")
		}
	}
	if w.Err() != nil {
		t.Errorf("a refused size broke the world: %v", w.Err())
	}
}

// captureStdout runs f with file descriptor 1 going to a pipe and returns
// what was written there (ODE's convex checks fprintf to stdout).
func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	r, wp, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved, err := syscall.Dup(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Dup2(int(wp.Fd()), 1); err != nil {
		t.Fatal(err)
	}
	f()
	FlushStdout()
	syscall.Dup2(saved, 1)
	syscall.Close(saved)
	wp.Close()
	out, _ := io.ReadAll(r)
	r.Close()
	return string(out)
}

// cube returns a unit cube's hull around c as NewConvex wants it.
func cube(c [3]float64) (planes, points []float64, polys []uint32) {
	for i := 0; i < 8; i++ {
		for k := 0; k < 3; k++ {
			v := -0.5
			if i&(1<<k) != 0 {
				v = 0.5
			}
			points = append(points, c[k]+v)
		}
	}
	// Faces, counter-clockwise seen from outside.
	faces := [][5]float64{
		{1, 0, 0, 1, 0}, {-1, 0, 0, 0, 0}, {0, 1, 0, 2, 0}, {0, -1, 0, 0, 0}, {0, 0, 1, 4, 0}, {0, 0, -1, 0, 0},
	}
	quads := [][4]uint32{{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}}
	for i, f := range faces {
		n := [3]float64{f[0], f[1], f[2]}
		d := 0.5 + n[0]*c[0] + n[1]*c[1] + n[2]*c[2]
		planes = append(planes, n[0], n[1], n[2], d)
		polys = append(polys, 4, quads[i][0], quads[i][1], quads[i][2], quads[i][3])
	}
	return planes, points, polys
}

// TestConvexOffOrigin: a hull that does not contain its geom's origin
// (issue 24 item 8) makes ODE print nothing on standard output, and the geom
// stays where its points are: a sphere dropped on it lands on its top.
func TestConvexOffOrigin(t *testing.T) {
	w, err := NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	out := captureStdout(t, func() {
		planes, points, polys := cube([3]float64{5, 0.5, 0})
		g, err := w.NewConvex(planes, points, polys, Surface{Friction: 0.5, Category: 1, Collide: ^uint64(0)})
		if err != nil {
			t.Error(err)
			return
		}
		g.SetPosition([3]float64{0, 0, 0})
		g.SetRotation([4]float64{0, 0, 0, 1})
	})
	if out != "" {
		t.Fatalf("ODE wrote on stdout:\n%s", out)
	}
	w.SetGravity(0, -9.81, 0)
	b := w.NewBody()
	b.SetPosition([3]float64{5, 3, 0})
	b.SetGravityMode(true)
	if err := b.SetMass(1, [9]float64{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}); err != nil {
		t.Fatal(err)
	}
	s, err := w.NewSphere(0.25, Surface{Friction: 0.5, Category: 1, Collide: ^uint64(0)})
	if err != nil {
		t.Fatal(err)
	}
	s.SetBody(b)
	for i := 0; i < 480; i++ {
		if err := w.Step(1.0/240, nil); err != nil {
			t.Fatal(err)
		}
	}
	if y := w.States()[1]; y < 1.2 || y > 1.3 {
		t.Errorf("sphere at y = %g, want resting on the cube's top (1.25)", y)
	}
}

// TestStatesAfterSet: States after a Step returns what the Step read, and
// after a body is moved, where it is now.
func TestStatesAfterSet(t *testing.T) {
	w, err := NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	b := w.NewBody()
	b.SetLinearVel([3]float64{1, 0, 0})
	if err := w.Step(0.5, nil); err != nil {
		t.Fatal(err)
	}
	if x := w.States()[0]; x != 0.5 {
		t.Errorf("after the step x = %g, want 0.5", x)
	}
	b.SetPosition([3]float64{7, 8, 9})
	if st := w.States(); st[0] != 7 || st[1] != 8 || st[2] != 9 {
		t.Errorf("after SetPosition the state is at %v, want (7, 8, 9)", st[:3])
	}
}

// TestAMotorStops: an angular motor in user mode, given the angle of a
// body spinning about Z before each step, holds it between its stops (a
// stop met at 5 rad/s is passed by one step's turn, 0.021 rad, and ODE's
// correction of that sends the body back at 1 rad/s); a motor with no axis
// or four is refused, an axis it lacks ignored.
func TestAMotorStops(t *testing.T) {
	cases := []struct {
		name   string
		spin   float64 // rad/s about Z
		lo, hi float64 // the stops (rad)
	}{
		{"hi stop first", 5, -1, 0.5},
		{"lo stop first", -5, -0.3, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := NewWorld()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Destroy()
			w.SetGravity(0, 0, 0)
			b := w.NewBody()
			if err := b.SetMass(1, [9]float64{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}); err != nil {
				t.Fatal(err)
			}
			b.SetAngularVel([3]float64{0, 0, tc.spin})
			m, err := w.NewAMotor(b, nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			m.SetParam(ParamLoStop, tc.lo)
			m.SetParam(ParamHiStop, tc.hi)
			lo, hi := 0.0, 0.0
			for range 480 {
				st := w.States()
				angle := 2 * math.Atan2(st[6], st[3]) // quaternion w, x, y, z
				lo, hi = math.Min(lo, angle), math.Max(hi, angle)
				m.SetAMotorAxis(0, [3]float64{0, 0, 1}, angle)
				if x, _ := m.State(0); x != angle {
					t.Fatalf("State gives angle %g, set %g", x, angle)
				}
				if err := w.Step(1.0/240, nil); err != nil {
					t.Fatal(err)
				}
			}
			if lo < tc.lo-0.025 || hi > tc.hi+0.025 {
				t.Errorf("angle in [%.4f, %.4f], stops [%g, %g]", lo, hi, tc.lo, tc.hi)
			}
			if hi < tc.hi-0.01 && lo > tc.lo+0.01 {
				t.Errorf("angle in [%.4f, %.4f]: the body never reached a stop", lo, hi)
			}
		})
	}
	w, err := NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	m, err := w.NewAMotor(w.NewBody(), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	m.SetAMotorAxis(1, [3]float64{0, 0, 1}, 0.5) // no axis 1: ignored
	if err := w.Err(); err != nil {
		t.Errorf("setting an axis the motor lacks: %v", err)
	}
	for _, n := range []int{0, 4} {
		if _, err := w.NewAMotor(w.NewBody(), nil, n); err == nil || !strings.Contains(err.Error(), "1 to 3 axes") {
			t.Errorf("an angular motor of %d axes: error %v", n, err)
		}
	}
}
