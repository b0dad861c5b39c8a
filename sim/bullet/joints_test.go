package bullet

import (
	"math"
	"strings"
	"testing"
)

// spinner is a world with one body of unit mass and inertia 0.1 at the
// origin, spinning about Z at spin rad/s, and no gravity.
func spinner(t *testing.T, spin float64) (*World, *Body) {
	t.Helper()
	w, err := NewWorld(20, true, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Destroy)
	b := w.NewBody()
	if err := b.SetMass(1, [9]float64{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}); err != nil {
		t.Fatal(err)
	}
	b.SetAngularVel([3]float64{0, 0, spin})
	return w, b
}

// zAngle is body 0's turn about Z (rad) from the world's states.
func zAngle(w *World) float64 {
	st := w.States()
	return 2 * math.Atan2(st[6], st[3]) // quaternion w, x, y, z
}

// stopCases spin a body into one stop or the other.
var stopCases = []struct {
	name   string
	spin   float64 // rad/s about Z
	lo, hi float64 // the stops (rad)
}{
	{"hi stop first", 5, -1, 0.5},
	{"lo stop first", -5, -0.3, 1},
	{"one-sided range", 5, 0, 1.5},
}

// TestHingeStops: a hinge's stops bound the angle State reports, in the
// sense ODE gives them (a hinge about Z to the world turns positively with
// its body): a body spun at 5 rad/s meets the stop ahead of it and stays
// within 0.025 rad of it (one step's turn is 0.021 rad). Bullet measures
// the angle the other way round; stops given in its sense held the door
// of internal/app's tests shut at 0 on its [0, 90] degree hinge.
func TestHingeStops(t *testing.T) {
	for _, tc := range stopCases {
		t.Run(tc.name, func(t *testing.T) {
			w, b := spinner(t, tc.spin)
			j, err := w.NewJoint(JointHinge, b, nil, [3]float64{}, [3]float64{0, 0, 1}, [3]float64{1, 0, 0})
			if err != nil {
				t.Fatal(err)
			}
			j.SetParam(0, ParamLoStop, tc.lo)
			j.SetParam(0, ParamHiStop, tc.hi)
			lo, hi := 0.0, 0.0
			for range 480 {
				if err := w.Step(1.0/240, nil); err != nil {
					t.Fatal(err)
				}
				x, _ := j.State(0)
				if a := zAngle(w); math.Abs(a-x) > 1e-6 {
					t.Fatalf("State gives %.6f rad, the body turned %.6f", x, a)
				}
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			if lo < tc.lo-0.025 || hi > tc.hi+0.025 {
				t.Errorf("angle in [%.4f, %.4f], stops [%g, %g]", lo, hi, tc.lo, tc.hi)
			}
			if reached := tc.hi - 0.01; tc.spin > 0 && hi < reached || tc.spin < 0 && lo > tc.lo+0.01 {
				t.Errorf("angle in [%.4f, %.4f]: the body never reached the stop ahead of it", lo, hi)
			}
		})
	}
}

// TestAMotorStops: an angular motor given the angle of a body spinning
// about Z before each step holds it between its stops, as ODE's does
// (sim/ode TestAMotorStops); a soft stop (CFM) lets it further; a motor
// with no axis or four, or without a body first, is refused, and an axis
// it lacks is ignored.
func TestAMotorStops(t *testing.T) {
	for _, tc := range stopCases {
		t.Run(tc.name, func(t *testing.T) {
			w, b := spinner(t, tc.spin)
			m, err := w.NewAMotor(b, nil, 1)
			if err != nil {
				t.Fatal(err)
			}
			m.SetParam(0, ParamLoStop, tc.lo)
			m.SetParam(0, ParamHiStop, tc.hi)
			lo, hi := 0.0, 0.0
			for range 480 {
				angle := zAngle(w)
				lo, hi = math.Min(lo, angle), math.Max(hi, angle)
				m.SetAxis(0, [3]float64{0, 0, 1}, angle)
				if x := m.Angle(0); x != angle {
					t.Fatalf("Angle gives %g, set %g", x, angle)
				}
				if err := w.Step(1.0/240, nil); err != nil {
					t.Fatal(err)
				}
			}
			if lo < tc.lo-0.025 || hi > tc.hi+0.025 {
				t.Errorf("angle in [%.4f, %.4f], stops [%g, %g]", lo, hi, tc.lo, tc.hi)
			}
			if tc.spin > 0 && hi < tc.hi-0.01 || tc.spin < 0 && lo > tc.lo+0.01 {
				t.Errorf("angle in [%.4f, %.4f]: the body never reached the stop ahead of it", lo, hi)
			}
		})
	}
	// A soft stop: ERP 1 and CFM 2.4, ODE's spring-damper form of a
	// stiffness of 100 N·m/rad without damping at 1/240 s (ERP = h·kp /
	// (h·kp + kd), CFM = 1 / (h·kp + kd)), lets the spinning body past the
	// stop as far as that spring would.
	w, b := spinner(t, 5)
	m, err := w.NewAMotor(b, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	m.SetParam(0, ParamHiStop, 0.5)
	m.SetParam(0, ParamStopERP, 1)
	m.SetParam(0, ParamStopCFM, 2.4)
	hi := 0.0
	for range 60 { // 0.25 s: the body meets the stop and is sent back
		angle := zAngle(w)
		hi = math.Max(hi, angle)
		m.SetAxis(0, [3]float64{0, 0, 1}, angle)
		if err := w.Step(1.0/240, nil); err != nil {
			t.Fatal(err)
		}
	}
	// A spring of 100 N·m/rad stops 0.1 kg·m² at 5 rad/s after 0.158 rad
	// (0.145 rad as the implicit step plays it).
	if hi < 0.63 || hi > 0.67 {
		t.Errorf("a soft stop at 0.5 rad let the body to %.4f rad, want about 0.65", hi)
	}
	m.SetAxis(1, [3]float64{0, 0, 1}, 0.5) // no axis 1: ignored
	if err := w.Err(); err != nil {
		t.Errorf("setting an axis the motor lacks: %v", err)
	}
	for _, n := range []int{0, 4} {
		if _, err := w.NewAMotor(b, nil, n); err == nil || !strings.Contains(err.Error(), "1 to 3 axes") {
			t.Errorf("an angular motor of %d axes: error %v", n, err)
		}
	}
	if _, err := w.NewAMotor(nil, b, 1); err == nil || !strings.Contains(err.Error(), "a body of this world first") {
		t.Errorf("an angular motor without body 1: error %v", err)
	}
}

// TestBallPendulum: a 1 kg ball of radius 0.1 m on a ball joint 1 m from
// its pivot, let go 37 degrees out, swings for 5 s with its length within
// 0.25 mm (Bullet's point-to-point constraint let it stretch 1.7 mm). What
// is left is each step's straight move off the circle, (v·h)² / 2L = 34 µm
// at the bottom (2 m/s), which ERP 0.2 takes back a fifth a step.
func TestBallPendulum(t *testing.T) {
	w, err := NewWorld(20, true, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	b := w.NewBody()
	b.SetPosition([3]float64{-0.6, -0.8, 0})
	i := 0.4 * 0.01
	if err := b.SetMass(1, [9]float64{i, 0, 0, 0, i, 0, 0, 0, i}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.NewJoint(JointBall, b, nil, [3]float64{}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	worst, right := 0.0, 0.0
	for range 1200 {
		if err := w.Step(1.0/240, []float64{0, -9.81, 0}); err != nil {
			t.Fatal(err)
		}
		st := w.States()
		worst = math.Max(worst, math.Abs(math.Sqrt(st[0]*st[0]+st[1]*st[1]+st[2]*st[2])-1))
		right = math.Max(right, st[0])
	}
	if worst > 2.5e-4 {
		t.Errorf("the pendulum's length was %.3g m off 1 m", worst)
	}
	if right < 0.55 {
		t.Errorf("the pendulum swung out to x = %.3f, want near 0.6", right)
	}
}
