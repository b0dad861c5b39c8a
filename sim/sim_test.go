package sim

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/assets"
	"physview/scene"
)

func newSim(t *testing.T, ts tscene, opt Options) *Sim {
	t.Helper()
	s, err := New(ts.doc(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func within(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Abs(want) {
		t.Errorf("%s = %.6g, want %.6g within %.2g%% (off by %.3g%%)", what, got, want, rel*100, 100*math.Abs(got-want)/math.Abs(want))
	} else {
		t.Logf("%s = %.6g, want %.6g (off by %.3g%%)", what, got, want, 100*math.Abs(got-want)/math.Abs(want))
	}
}

// TestFreeFall: a sphere falls 1 s under world gravity 9.81 m/s² and drops
// g t²/2 = 4.905 m; a gravityFactor of 0.5 halves that.
func TestFreeFall(t *testing.T) {
	for _, tc := range []struct {
		name   string
		motion string
		want   float64
	}{
		{"gravityFactor 1", "", 4.905},
		{"gravityFactor 0.5", `"gravityFactor": 0.5`, 2.4525},
		{"gravityFactor 0", `"gravityFactor": 0`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, tscene{shapes: []string{sphere(0.5)}, gravity: earth,
				nodes: []tnode{{name: "ball", t: [3]float64{0, 10, 0}, ext: dynamic(2, 0, tc.motion)}}}, Options{})
			if err := s.Run(1); err != nil {
				t.Fatal(err)
			}
			drop := 10 - s.Bodies[0].Position[1]
			if tc.want == 0 {
				if math.Abs(drop) > 1e-9 {
					t.Errorf("drop = %g, want 0", drop)
				}
				return
			}
			within(t, "drop after 1 s", drop, tc.want, 0.01)
			within(t, "speed after 1 s", -s.Bodies[0].LinearVelocity[1], tc.want*2, 0.01)
		})
	}
}

// TestReplaceStop: a directional field of strength 0 with replace and stop
// cancels the world gravity inside its trigger box and nowhere else. (With
// scene.NetGravity's order, world gravity comes after every field, so it is
// stop, not replace alone, that keeps it out.)
func TestReplaceStop(t *testing.T) {
	field := `"OMI_physics_body": {"trigger": {"shape": 1}}, "OMI_physics_gravity": {"type": "directional", "gravity": 0, "replace": true, "stop": true, "directional": {"direction": [0, -1, 0]}}`
	s := newSim(t, tscene{shapes: []string{sphere(0.25), box(20, 20, 20)}, gravity: earth,
		nodes: []tnode{
			{name: "zero-g room", ext: field},
			{name: "inside", t: [3]float64{0, 5, 0}, ext: dynamic(1, 0, "")},
			{name: "outside", t: [3]float64{50, 5, 0}, ext: dynamic(1, 0, "")},
		}}, Options{})
	if err := s.Run(1); err != nil {
		t.Fatal(err)
	}
	in, out := s.Bodies[0], s.Bodies[1]
	if d := 5 - in.Position[1]; math.Abs(d) > 0.01*4.905 {
		t.Errorf("inside the field the body dropped %g m, want 0 (within 1%% of 4.905)", d)
	}
	within(t, "drop outside the field", 5-out.Position[1], 4.905, 0.01)
}

// pointField is a point-gravity volume: a sphere trigger of radius 100 at
// the origin pulling with g0 at unitDistance u (GM = g0 u²).
func pointField(g0, u float64) string {
	return `"OMI_physics_body": {"trigger": {"shape": 0}}, "OMI_physics_gravity": {"type": "point", "gravity": ` +
		ftoa(g0) + `, "point": {"unitDistance": ` + ftoa(u) + `}}`
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// TestPointGravityOrbit: with GM = 100 (1 m/s² at 10 m) a body at r = 10 m
// moving at sqrt(GM/r) circles with period 2π r / v = 19.87 s.
func TestPointGravityOrbit(t *testing.T) {
	gm, r := 100.0, 10.0
	v := math.Sqrt(gm / r)
	period := 2 * math.Pi * r / v
	s := newSim(t, tscene{shapes: []string{sphere(100)}, nodes: []tnode{
		{name: "planet", ext: pointField(1, 10)},
		{name: "moon", t: [3]float64{r, 0, 0}, ext: dynamic(1, -1, `"linearVelocity": [0, 0, `+ftoa(v)+`]`)},
	}}, Options{NoDefaultGravity: true}) // the field alone, in empty space
	minR, maxR := r, r
	for s.Time+s.StepSize()/2 < period {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		d := s.Bodies[0].Position.Len()
		minR, maxR = math.Min(minR, d), math.Max(maxR, d)
	}
	within(t, "smallest radius over one period", minR, r, 0.01)
	within(t, "largest radius over one period", maxR, r, 0.01)
	back := s.Bodies[0].Position.Sub(mgl64.Vec3{r, 0, 0}).Len()
	if back > 0.01*2*math.Pi*r {
		t.Errorf("after one period the body is %.3g m from its start, want within 1%% of the orbit (%.3g m)", back, 0.01*2*math.Pi*r)
	}
}

// TestPointGravityFall: released at rest at r0 = 10 m with GM = 100, a body
// reaches r = 1 m at t = sqrt(r0³/2GM)·(sqrt(x(1-x)) + acos(sqrt x)), x = r/r0
// (radial Kepler fall): 3.4637 s.
func TestPointGravityFall(t *testing.T) {
	gm, r0, r1 := 100.0, 10.0, 1.0
	x := r1 / r0
	want := math.Sqrt(r0*r0*r0/(2*gm)) * (math.Sqrt(x*(1-x)) + math.Acos(math.Sqrt(x)))
	s := newSim(t, tscene{shapes: []string{sphere(100)}, nodes: []tnode{
		{name: "planet", ext: pointField(100, 1)}, // GM = 100, its core inside 0.25 m
		{name: "apple", t: [3]float64{0, r0, 0}, ext: dynamic(1, -1, "")},
	}}, Options{Step: 1.0 / 1000, NoDefaultGravity: true})
	for s.Bodies[0].Position.Len() > r1 && s.Time < 10 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	within(t, "time to fall from 10 m to 1 m", s.Time, want, 0.01)
}

// TestPointGravityThroughCentre: a body released at rest 10 m from a point
// field's centre falls through it and climbs the other side. Energy is
// never gained: it passes the centre no faster than the field's potential
// allows (inverse square down to the core at CoreFraction × unitDistance,
// the core's smooth field inside) and turns back no farther out than it
// started. A bare
// 1/r² flung such a body out at several times that speed.
func TestPointGravityThroughCentre(t *testing.T) {
	for _, tc := range []struct{ g, u float64 }{{9.81, 2}, {30, 2}, {9.81, 0.5}} {
		g, u, r0 := tc.g, tc.u, 10.0
		core := scene.CoreFraction * u
		// Potential per kg: -g u²/r outside the core; inside, the integral of
		// the core's field g K (2.5 r - 1.5 r³/core²), K = u²/core³.
		potential := func(r float64) float64 {
			if r >= core {
				return -g * u * u / r
			}
			k := u * u / (core * core * core)
			return -g*u*u/core + g*k*((1.25*r*r-0.375*r*r*r*r/(core*core))-0.875*core*core)
		}
		vCentre := math.Sqrt(2 * (potential(r0) - potential(0)))
		s := newSim(t, tscene{shapes: []string{sphere(100), sphere(0.1)}, nodes: []tnode{
			{name: "field", ext: pointField(g, u)},
			{name: "ball", t: [3]float64{0, r0, 0}, ext: dynamic(1, -1, "")},
		}}, Options{NoDefaultGravity: true, NoSleep: true})
		var vMax, far float64
		crossed := false
		for s.Time < 60 {
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
			b := s.Bodies[0]
			vMax = math.Max(vMax, b.LinearVelocity.Len())
			if b.Position[1] < 0 {
				crossed = true
				far = math.Max(far, -b.Position[1])
			} else if crossed {
				break // back through the centre: the far side's turning point is known
			}
		}
		if !crossed {
			t.Fatalf("g %g, u %g: the ball never passed the centre", g, u)
		}
		if vMax > vCentre*1.01 {
			t.Errorf("g %g, u %g: fastest %.3g m/s, want at most %.3g (energy gained)", g, u, vMax, vCentre)
		}
		if far > r0*1.01 || far < r0*0.5 {
			t.Errorf("g %g, u %g: turned back %.3g m out on the far side, want at most %.3g (+1%%) and through the centre", g, u, far, r0)
		}
	}
}

// TestBounce: a ball with restitution 1 on a floor with restitution 1
// bounces back to its drop height.
func TestBounce(t *testing.T) {
	mat := `{"staticFriction": 0.5, "dynamicFriction": 0.5, "restitution": 1}`
	s := newSim(t, tscene{shapes: []string{sphere(0.5), box(10, 1, 10)}, materials: []string{mat}, gravity: earth,
		nodes: []tnode{
			{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, `, "physicsMaterial": 0`)},
			{name: "ball", t: [3]float64{0, 2.5, 0}, ext: `"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1}, "collider": {"shape": 0, "physicsMaterial": 0}}`},
		}}, Options{})
	bounced, top := false, 0.0
	for s.Time < 3 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		b := s.Bodies[0]
		if b.LinearVelocity[1] > 0 {
			bounced = true
		}
		if bounced {
			top = math.Max(top, b.Position[1])
			if b.LinearVelocity[1] < 0 {
				break
			}
		}
	}
	if !bounced {
		t.Fatal("the ball never bounced")
	}
	// Drop height of the ball's bottom: 2 m.
	within(t, "height of the bottom after the bounce", top-0.5, 2, 0.01)
}

// TestHingePendulum: a small ball on a 1 m hinge swings with period
// 2π sqrt(L/g) = 2.006 s (a sphere of 5 cm adds 0.1%).
func TestHingePendulum(t *testing.T) {
	L, theta := 1.0, 0.1
	pivot := mgl64.Vec3{0, 3, 0}
	bob := pivot.Add(mgl64.Vec3{0, -L * math.Cos(theta), L * math.Sin(theta)})
	hinge := `{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [1, 2], "min": 0, "max": 0}]}`
	rel := pivot.Sub(bob)
	s := newSim(t, tscene{shapes: []string{sphere(0.05)}, joints: []string{hinge}, gravity: earth, nodes: []tnode{
		{name: "bob", t: bob, children: []int{1}, ext: dynamic(1, 0, "")},
		{name: "hinge", t: rel, ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 2}`},
		{name: "pivot", t: pivot},
	}}, Options{})
	if len(s.Warnings) > 0 {
		t.Logf("warnings: %v", s.Warnings)
	}
	var crossings []float64
	prev := s.Bodies[0].Position[2]
	for s.Time < 8 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		z := s.Bodies[0].Position[2]
		if prev > 0 && z <= 0 {
			crossings = append(crossings, s.Time-s.StepSize()*z/(z-prev))
		}
		prev = z
		if d := s.Bodies[0].Position.Sub(pivot).Len(); math.Abs(d-L) > 0.01 {
			t.Fatalf("the bob is %g m from the pivot at t = %g, want %g", d, s.Time, L)
		}
	}
	if len(crossings) < 3 {
		t.Fatalf("only %d downward crossings in 8 s", len(crossings))
	}
	period := (crossings[len(crossings)-1] - crossings[0]) / float64(len(crossings)-1)
	r := 0.05
	within(t, "pendulum period", period, 2*math.Pi*math.Sqrt((L*L+0.4*r*r)/(9.81*L)), 0.01)
	within(t, "pendulum period vs 2π sqrt(L/g)", period, 2*math.Pi*math.Sqrt(L/9.81), 0.01)
}

// TestRestingBox: a 1 m box on a static floor stays within 1 mm for 10 s.
func TestRestingBox(t *testing.T) {
	s := newSim(t, tscene{shapes: []string{box(1, 1, 1), box(20, 1, 20)}, gravity: earth, nodes: []tnode{
		{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
		{name: "crate", t: [3]float64{0, 0.5, 0}, ext: dynamic(10, 0, "")},
	}}, Options{})
	worst := 0.0
	for s.Time < 10 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		worst = math.Max(worst, s.Bodies[0].Position.Sub(mgl64.Vec3{0, 0.5, 0}).Len())
	}
	t.Logf("largest distance from the start over 10 s: %.3g mm", worst*1000)
	if worst > 0.001 {
		t.Errorf("the box moved %.3g mm, want under 1 mm", worst*1000)
	}
}

// TestTrigger: a ball falling through a trigger box is reported inside it
// while it overlaps and not before or after.
func TestTrigger(t *testing.T) {
	s := newSim(t, tscene{shapes: []string{sphere(0.25), box(2, 1, 2)}, gravity: earth, nodes: []tnode{
		{name: "gate", t: [3]float64{0, 0, 0}, ext: `"OMI_physics_body": {"trigger": {"shape": 1}}`},
		{name: "ball", t: [3]float64{0, 3, 0}, ext: dynamic(1, 0, "")},
	}}, Options{})
	if len(s.Triggers) != 1 || s.Triggers[0] != 0 {
		t.Fatalf("triggers = %v, want [0]", s.Triggers)
	}
	var enter, leave float64
	for s.Time < 2 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		in := len(s.Inside(0)) > 0
		if in && enter == 0 {
			enter = s.Time
		}
		if !in && enter > 0 && leave == 0 {
			leave = s.Time
		}
	}
	// The ball's bottom reaches y = 0.5 after falling 2.25 m, its top leaves
	// y = -0.5 after falling 3.75 m. Overlaps are seen once per step (4 ms)
	// and the integrator falls 0.4% further per second: 2% leaves room.
	within(t, "time the ball enters", enter, math.Sqrt(2*2.25/9.81), 0.02)
	within(t, "time the ball leaves", leave, math.Sqrt(2*3.75/9.81), 0.02)
}

// TestCloneUntouched: playing never changes the document given to New.
func TestCloneUntouched(t *testing.T) {
	d := tscene{shapes: []string{sphere(0.5)}, gravity: earth,
		nodes: []tnode{{name: "ball", t: [3]float64{0, 10, 0}, ext: dynamic(1, 0, "")}}}.doc(t)
	s, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Run(0.5); err != nil {
		t.Fatal(err)
	}
	s.Apply()
	if got := d.GLTF.Nodes[0].Translation; got != [3]float64{0, 10, 0} {
		t.Errorf("the original node moved to %v", got)
	}
	if got := s.Doc.GLTF.Nodes[0].Translation[1]; math.Abs(got-(10-0.5*9.81*0.25)) > 0.02 {
		t.Errorf("the copy's node is at y = %g, want about %g", got, 10-0.5*9.81*0.25)
	}
}

// TestBadScenes: each bad input gives an error naming the problem, never a panic.
func TestBadScenes(t *testing.T) {
	for _, tc := range []struct {
		name string
		ts   tscene
		want string
	}{
		{"zero mass", tscene{shapes: []string{sphere(1)}, nodes: []tnode{{name: "ghost", ext: dynamic(0, 0, "")}}}, `dynamic body "ghost" (node 0): mass 0 must be greater than 0`},
		{"negative mass", tscene{shapes: []string{sphere(1)}, nodes: []tnode{{name: "anti", ext: dynamic(-2, 0, "")}}}, `mass -2 must be greater than 0`},
		{"no bodies", tscene{shapes: []string{sphere(1)}, nodes: []tnode{{name: "rock", ext: static(0, "")}}}, ErrNoBodies.Error()},
		{"empty", tscene{nodes: []tnode{{name: "empty"}}}, ErrNoBodies.Error()},
		{"heightmap on a dynamic body", tscene{shapes: []string{`{"type": "heightmap", "heightmap": {"size": [2, 1, 2], "heights": [0, 0, 0, 0]}}`}, nodes: []tnode{{name: "hill", ext: dynamic(1, 0, "")}}}, `a heightmap collider on dynamic body "hill"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := scene.Decode([]byte(tc.ts.json()), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = New(d, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestHugeGravity: a gravity of 1e308 m/s² is refused before it reaches
// ODE; one of 1e5 m/s² plays until the body leaves the range ODE handles,
// and the run stops there naming the body.
func TestHugeGravity(t *testing.T) {
	d := tscene{shapes: []string{sphere(1)}, gravity: `{"gravity": 1e308, "direction": [0, -1, 0]}`,
		nodes: []tnode{{name: "rocket", ext: dynamic(1000, 0, "")}}}.doc(t)
	if _, err := New(d, Options{}); err == nil || !strings.Contains(err.Error(), "gravity (0, -1e+308, 0)") {
		t.Errorf("gravity 1e308: error = %v, want one naming the gravity", err)
	}
	s := newSim(t, tscene{shapes: []string{sphere(1)}, gravity: `{"gravity": 1e5, "direction": [0, -1, 0]}`,
		nodes: []tnode{{name: "rocket", ext: dynamic(1000, 0, "")}}}, Options{})
	err := s.Run(10)
	var re *RangeError
	if !errors.As(err, &re) || re.Name != "rocket" || re.Node != 0 {
		t.Fatalf("error = %v, want a RangeError naming rocket", err)
	}
	// y = g t²/2 passes 1e6 m at t = sqrt(2e6/1e5) = 4.47 s.
	if re.Time < 4.4 || re.Time > 4.5 {
		t.Errorf("stopped at t = %g s, want about 4.47 s", re.Time)
	}
	if !strings.Contains(err.Error(), `body "rocket" (node 0) is more than 1e+06 m from the origin`) {
		t.Errorf("message %q does not name the body", err)
	}
	if s.Step() == nil {
		t.Error("stepping after a range error should keep failing")
	}
}

// TestHingeLimitSide: OMI limits bound the connected node's angle in the
// joint node's frame. The pendulum of TestHingePendulum swings from z > 0
// to z < 0, which turns the bob +0.2 rad about X, so the connected frame
// (the world) turns -0.2 rad in the bob's joint frame. A limit of
// [-0.05, 1] stops it at 0.05 rad past the start (z = L sin(0.1 - 0.05));
// a limit of [-1, 0.05] leaves that swing free (down to z = -L sin 0.1).
// With the joint node on a (kinematic, resting) pivot body and the
// connected node on the bob, the sides swap.
func TestHingeLimitSide(t *testing.T) {
	L, theta := 1.0, 0.1
	pivot := mgl64.Vec3{0, 3, 0}
	bob := pivot.Add(mgl64.Vec3{0, -L * math.Cos(theta), L * math.Sin(theta)})
	stopped, free := L*math.Sin(theta-0.05), -L*math.Sin(theta)
	for _, tc := range []struct {
		name     string
		onPivot  bool
		min, max float64
		wantMinZ float64
	}{
		{"joint on the bob, limit on the swing's side", false, -0.05, 1, stopped},
		{"joint on the bob, limit on the other side", false, -1, 0.05, free},
		{"joint on the pivot, limit on the swing's side", true, -1, 0.05, stopped},
		{"joint on the pivot, limit on the other side", true, -0.05, 1, free},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hinge := `{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [1, 2], "min": 0, "max": 0}, {"angularAxes": [0], "min": ` + ftoa(tc.min) + `, "max": ` + ftoa(tc.max) + `}]}`
			nodes := []tnode{
				{name: "bob", t: bob, children: []int{1}, ext: dynamic(1, 0, "")},
				{name: "hinge", t: pivot.Sub(bob), ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 2}`},
				{name: "pivot", t: pivot},
			}
			if tc.onPivot {
				nodes = []tnode{
					{name: "bob", t: bob, children: []int{1}, ext: dynamic(1, 0, "")},
					{name: "attachment", t: pivot.Sub(bob)},
					{name: "pivot", t: pivot, children: []int{3}, ext: `"OMI_physics_body": {"motion": {"type": "kinematic"}}`},
					{name: "hinge", ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 1}`},
				}
			}
			s := newSim(t, tscene{shapes: []string{sphere(0.05)}, joints: []string{hinge}, gravity: earth, nodes: nodes}, Options{})
			minZ := math.Inf(1)
			for s.Time < 2 {
				if err := s.Step(); err != nil {
					t.Fatal(err)
				}
				minZ = math.Min(minZ, s.Bodies[0].Position[2])
			}
			// Stopping the bob through its tiny inertia makes QuickStep's
			// constraints give a little (the angle overshoots 0.006 rad and
			// the rod stretches 0.5 mm): 15 mm is close enough to tell the
			// sides apart, 150 mm apart.
			if math.Abs(minZ-tc.wantMinZ) > 0.015 {
				t.Errorf("lowest z = %.4f, want %.4f", minZ, tc.wantMinZ)
			} else {
				t.Logf("lowest z = %.4f, want %.4f", minZ, tc.wantMinZ)
			}
		})
	}
}

// TestShapesRest: each shape dropped upright onto a floor comes to rest at
// the height its OMI parameters give along +Y (ODE's capsules and
// cylinders lie along Z: a wrong turn would leave them lying down).
func TestShapesRest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shape string
		want  float64 // resting height of the centre
	}{
		{"box", box(0.4, 1.2, 0.4), 0.6},
		{"sphere", sphere(0.3), 0.3},
		{"capsule", `{"type": "capsule", "capsule": {"height": 1, "radiusTop": 0.25, "radiusBottom": 0.25}}`, 0.75},
		{"cylinder", `{"type": "cylinder", "cylinder": {"height": 1, "radiusTop": 0.25, "radiusBottom": 0.25}}`, 0.5},
		{"tapered cylinder", `{"type": "cylinder", "cylinder": {"height": 1, "radiusTop": 0.2, "radiusBottom": 0.35}}`, 0.5},
		{"tapered capsule", `{"type": "capsule", "capsule": {"height": 1, "radiusTop": 0.2, "radiusBottom": 0.3}}`, 0.8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, tscene{shapes: []string{tc.shape, box(10, 1, 10)}, gravity: earth, nodes: []tnode{
				{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
				{name: "thing", t: [3]float64{0, tc.want + 0.2, 0}, ext: dynamic(1, 0, "")},
			}}, Options{})
			if err := s.Run(2); err != nil {
				t.Fatal(err)
			}
			b := s.Bodies[0]
			// 2 mm: the contact surface layer (1 mm) and the hull's facets.
			if y := b.Position[1]; math.Abs(y-tc.want) > 0.002 {
				t.Errorf("rests at y = %.4f, want %.4f", y, tc.want)
			}
			if up := b.Rotation.Rotate(mgl64.Vec3{0, 1, 0}); up[1] < 0.999 {
				t.Errorf("fell over: its +Y points along %v", up)
			}
		})
	}
}

// TestDemoScenePlays: the built-in demo (every shape type, compound
// colliders, hinge, triggers, every gravity field) plays 5 s with every
// dynamic body on or above the ground and the concave bracket at rest.
func TestDemoScenePlays(t *testing.T) {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t.Logf("notes: %v", s.Warnings)
	if err := s.Run(5); err != nil {
		t.Fatal(err)
	}
	bracket := false
	for _, b := range s.Bodies {
		t.Logf("%s at %.3f, %.3f, %.3f", b.Name, b.CenterOfMass[0], b.CenterOfMass[1], b.CenterOfMass[2])
		if b.CenterOfMass[1] < -0.2 || b.CenterOfMass.Len() > 30 {
			t.Errorf("%s ended at %v: through the ground or flung away", b.Name, b.CenterOfMass)
		}
		if len(d.CompoundParts(b.Node)) == 0 || d.GLTF.Nodes[b.Node].Mesh == nil {
			continue
		}
		// The concave bracket (a compound of convex hulls) dropped tilted
		// rests on its base where it fell, its origin (the middle of the
		// base's underside) on the ground.
		bracket = true
		start := d.GLTF.Nodes[b.Node].Translation
		up := b.Rotation.Rotate(mgl64.Vec3{0, 1, 0})
		moved := math.Hypot(b.Position[0]-start[0], b.Position[2]-start[2])
		t.Logf("%s: origin y %.4f, up %.4f, moved %.3f m, speed %.3f m/s", b.Name, b.Position[1], up[1], moved, b.LinearVelocity.Len())
		if math.Abs(b.Position[1]) > 0.02 || up[1] < 0.99 || moved > 0.5 || b.LinearVelocity.Len() > 0.05 {
			t.Errorf("%s is not resting on its base near where it fell: position %v, up %v, speed %g", b.Name, b.Position, up, b.LinearVelocity.Len())
		}
	}
	if !bracket {
		t.Error("no dynamic mesh with a compound of convex hulls in the demo")
	}
}

// TestFrictionCombine: a box sliding at 4 m/s stops after v²/(2 μ g); μ
// comes from the two materials by the combine mode OMI_physics_body ranks
// first: average if either uses it, else minimum, else maximum, else
// multiply.
func TestFrictionCombine(t *testing.T) {
	for _, tc := range []struct {
		name      string
		box, dirt string
		mu        float64
	}{
		{"average", `{"dynamicFriction": 0.2, "staticFriction": 0.2}`, `{"dynamicFriction": 0.6, "staticFriction": 0.6}`, 0.4},
		{"average beats minimum", `{"dynamicFriction": 0.2, "staticFriction": 0.2, "frictionCombine": "minimum"}`, `{"dynamicFriction": 0.8, "staticFriction": 0.8}`, 0.5},
		{"minimum beats multiply", `{"dynamicFriction": 0.5, "staticFriction": 0.5, "frictionCombine": "minimum"}`, `{"dynamicFriction": 0.8, "staticFriction": 0.8, "frictionCombine": "multiply"}`, 0.5},
		{"maximum beats multiply", `{"dynamicFriction": 0.5, "staticFriction": 0.5, "frictionCombine": "maximum"}`, `{"dynamicFriction": 0.3, "staticFriction": 0.3, "frictionCombine": "multiply"}`, 0.5},
		{"multiply", `{"dynamicFriction": 0.5, "staticFriction": 0.5, "frictionCombine": "multiply"}`, `{"dynamicFriction": 0.8, "staticFriction": 0.8, "frictionCombine": "multiply"}`, 0.4},
		{"minimum beats maximum", `{"dynamicFriction": 0.3, "staticFriction": 0.3, "frictionCombine": "minimum"}`, `{"dynamicFriction": 0.6, "staticFriction": 0.6, "frictionCombine": "maximum"}`, 0.3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v0 := 4.0
			s := newSim(t, tscene{shapes: []string{box(0.5, 0.5, 0.5), box(40, 1, 40)}, materials: []string{tc.box, tc.dirt}, gravity: earth, nodes: []tnode{
				{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, `, "physicsMaterial": 1`)},
				{name: "puck", t: [3]float64{0, 0.25, 0}, ext: `"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1, "linearVelocity": [` + ftoa(v0) + `, 0, 0]}, "collider": {"shape": 0, "physicsMaterial": 0}}`},
			}}, Options{})
			for s.Time < 5 && s.Bodies[0].LinearVelocity.Len() > 1e-3 {
				if err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}
			within(t, "sliding distance", s.Bodies[0].Position[0], v0*v0/(2*tc.mu*9.81), 0.02)
		})
	}
}

// TestCollisionFilter: a box whose filter leaves out the floor's system
// falls through it; one that collides with it lands.
func TestCollisionFilter(t *testing.T) {
	filters := []string{
		`{"collisionSystems": ["ground"]}`,
		`{"collisionSystems": ["ghosts"], "notCollideWithSystems": ["ground"]}`,
		`{"collisionSystems": ["props"], "collideWithSystems": ["ground"]}`,
	}
	s := newSim(t, tscene{shapes: []string{box(0.5, 0.5, 0.5), box(10, 1, 10)}, filters: filters, gravity: earth, nodes: []tnode{
		{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, `, "collisionFilter": 0`)},
		{name: "ghost", t: [3]float64{-1, 1, 0}, ext: `"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1}, "collider": {"shape": 0, "collisionFilter": 1}}`},
		{name: "prop", t: [3]float64{1, 1, 0}, ext: `"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1}, "collider": {"shape": 0, "collisionFilter": 2}}`},
	}}, Options{})
	if err := s.Run(1.5); err != nil {
		t.Fatal(err)
	}
	if y := s.Bodies[0].Position[1]; y > -2 {
		t.Errorf("the ghost is at y = %g: it should have fallen through the floor", y)
	}
	if y := s.Bodies[1].Position[1]; math.Abs(y-0.25) > 0.002 {
		t.Errorf("the prop is at y = %g, want resting at 0.25", y)
	}
}

// TestSliderLimit: a body on a vertical slider with min -1 m falls 1 m and
// stops there; its rotation stays locked.
func TestSliderLimit(t *testing.T) {
	slider := `{"limits": [{"linearAxes": [0, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1, 2], "min": 0, "max": 0}, {"linearAxes": [1], "min": -1, "max": 2}]}`
	s := newSim(t, tscene{shapes: []string{box(0.5, 0.5, 0.5)}, joints: []string{slider}, gravity: earth, nodes: []tnode{
		{name: "rail", t: [3]float64{0, 5, 0}, children: []int{1}},
		{name: "slide", ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 2}`},
		{name: "carriage", t: [3]float64{0, 5, 0}, children: []int{3}, ext: dynamic(1, 0, `"angularVelocity": [0, 3, 0]`)},
		{name: "attach"},
	}}, Options{})
	if err := s.Run(2); err != nil {
		t.Fatal(err)
	}
	b := s.Bodies[0]
	if y := b.Position[1]; math.Abs(y-4) > 0.01 {
		t.Errorf("the carriage is at y = %g, want 4 (1 m down, at the stop)", y)
	}
	if w := b.AngularVelocity.Len(); w > 1e-3 {
		t.Errorf("the carriage turns at %g rad/s on a slider", w)
	}
}
