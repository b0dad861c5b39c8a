package sim

import (
	"math"
	"testing"
)

// driveScene is JointTypes.gltf's PositionMotorPrismaticJoint in small: a
// 1 kg box on a vertical slider (stops at 0 and 1.5 m) under a static
// 0.5 m box, the slider's frame a child of the static box, and a drive on
// the slider's axis (raw JSON).
func driveScene(drive string) tscene {
	slider := `{"limits": [{"linearAxes": [0, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1, 2], "min": 0, "max": 0}, {"linearAxes": [1], "min": 0, "max": 1.5}], "drives": [` + drive + `]}`
	return tscene{shapes: []string{box(0.5, 0.5, 0.5)}, joints: []string{slider}, gravity: earth, nodes: []tnode{
		{name: "base", t: [3]float64{0, 3, 0}, children: []int{1}, ext: static(0, "")},
		{name: "frame", t: [3]float64{0, 0.25, 0}, ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 3}`},
		{name: "cart", t: [3]float64{0, 3.504, 0}, children: []int{3}, ext: dynamic(1, 0, "")},
		{name: "attach", t: [3]float64{0, -0.254, 0}},
	}}
}

// TestDriveSpring: a drive with a position target is a damped spring
// (stiffness 10 N/m towards 1.2 m, damping 0.1 N·s/m): the 1 kg cart
// oscillates about 1.2 − 9.81/10 = 0.219 m with the period 2π/√10 =
// 1.987 s. It used to be played as a locking motor whose 1e12 N bound ODE
// applies as a force at a stop: the cart left at 100 m/s in the first step.
func TestDriveSpring(t *testing.T) {
	s := newSim(t, driveScene(`{"type": "linear", "mode": "force", "axis": 1, "positionTarget": 1.2, "velocityTarget": 0, "stiffness": 10, "damping": 0.1}`), Options{})
	y0 := s.Bodies[0].Position[1]
	var sum, top float64
	var ups []float64 // times the cart passes its mean going up
	prev := 0.0
	n := 0
	for s.Time < 6 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		x := s.Bodies[0].Position[1] - y0
		sum += x
		n++
		top = math.Max(top, s.Bodies[0].LinearVelocity.Len())
		if prev < 0.219 && x >= 0.219 {
			ups = append(ups, s.Time)
		}
		prev = x
	}
	within(t, "mean slider position over 6 s", sum/float64(n), 1.2-9.81/10, 0.05)
	if len(ups) < 3 {
		t.Fatalf("the cart crossed its rest position upwards %d times in 6 s, want 3", len(ups))
	}
	within(t, "period", (ups[len(ups)-1]-ups[0])/float64(len(ups)-1), 2*math.Pi/math.Sqrt(10), 0.02)
	// Amplitude 0.219 m at ω = √10: at most 0.69 m/s.
	if top > 0.75 {
		t.Errorf("top speed %.3g m/s, want at most 0.75 (ω × amplitude = 0.69)", top)
	}
}

// TestDriveVelocity: a velocity drive in acceleration mode (damping 1/s
// towards -1.57 rad/s) spins a hinged bar up as 1.57 (1 − e^−t): 0.992
// rad/s after 1 s, 1.357 after 2.
func TestDriveVelocity(t *testing.T) {
	hinge := `{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1], "min": 0, "max": 0}], "drives": [{"type": "angular", "mode": "acceleration", "axis": 2, "velocityTarget": -1.57, "stiffness": 0, "damping": 1}]}`
	s := newSim(t, tscene{shapes: []string{box(0.5, 0.5, 0.5), box(0.14, 0.6, 0.14)}, joints: []string{hinge}, gravity: earth, nodes: []tnode{
		{name: "post", t: [3]float64{0, 3, 0}, children: []int{1}, ext: static(0, "")},
		{name: "pin", t: [3]float64{0, 0, 0.25}, ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 3}`},
		{name: "bar", t: [3]float64{0, 3, 0.3}, children: []int{3}, ext: dynamic(1, 1, "")},
		{name: "attach", t: [3]float64{0, 0, -0.05}},
	}}, Options{})
	for _, at := range []struct{ t, w float64 }{{1, 1.57 * (1 - math.Exp(-1))}, {2, 1.57 * (1 - math.Exp(-2))}} {
		if err := s.Run(at.t); err != nil {
			t.Fatal(err)
		}
		within(t, "spin rate", s.Bodies[0].AngularVelocity.Len(), at.w, 0.03)
	}
	// The target is the connected node's (the bar's) rate in the joint
	// frame, which is the world's here.
	if z := s.Bodies[0].AngularVelocity[2]; !(z < 0) {
		t.Errorf("the bar spins at %g rad/s about +Z, want negative (-1.57 rad/s is its target)", z)
	}
}

// TestJointedToStaticNoCollide: a bar hinged inside a static post (0.5 m
// box; the bar pokes 0.026 m into it) does not collide with it, as two
// jointed bodies never do, unless the joint enables collision: then the
// post pushes it.
func TestJointedToStaticNoCollide(t *testing.T) {
	hinge := `{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1], "min": 0, "max": 0}]}`
	for _, tc := range []struct {
		enable string
		moves  bool
	}{{"false", false}, {"true", true}} {
		s := newSim(t, tscene{shapes: []string{box(0.5, 0.5, 0.5), box(0.14, 0.6, 0.14)}, joints: []string{hinge}, nodes: []tnode{
			{name: "post", t: [3]float64{0, 3, 0}, children: []int{1}, ext: static(0, "")},
			{name: "pin", t: [3]float64{0, 0, 0.25}, ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 3, "enableCollision": ` + tc.enable + `}`},
			{name: "bar", t: [3]float64{0, 3, 0.296}, children: []int{3}, ext: dynamic(1, 1, "")},
			{name: "attach", t: [3]float64{0, 0, -0.046}},
		}, gravity: `{"gravity": 0, "direction": [0, -1, 0]}`}, Options{NoSleep: true})
		top, _ := overlapRun(t, s, 1)
		t.Logf("enableCollision %s: top speed %.3g m/s", tc.enable, top)
		if moved := s.Bodies[0].AngularVelocity.Len() > 0.01 || top > 0.01; moved != tc.moves {
			t.Errorf("enableCollision %s: the bar moved %v (%.3g m/s, %.3g rad/s), want %v", tc.enable, moved, top, s.Bodies[0].AngularVelocity.Len(), tc.moves)
		}
	}
}

// TestSliderThroughStaticRail is OMI's slider_ball in small: a ball on a
// slider along a static rail (a body with static motion whose box collider
// is a child node) that runs through the ball. Jointed to the rail, the
// ball does not collide with it: it slides on at its 1 m/s, where the rail
// used to shake it up and down at metres a second and hold it in place.
func TestSliderThroughStaticRail(t *testing.T) {
	slider := `{"limits": [{"linearAxes": [1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1, 2], "min": 0, "max": 0}]}`
	s := newSim(t, tscene{shapes: []string{box(2, 0.1, 0.1), sphere(0.25)}, joints: []string{slider}, gravity: earth, nodes: []tnode{
		{name: "rail", children: []int{1, 2}, ext: `"OMI_physics_body": {"motion": {"type": "static"}}`},
		{name: "rail shape", ext: `"OMI_physics_body": {"collider": {"shape": 0}}`},
		{name: "rail attachment", t: [3]float64{-0.75, 0, 0}},
		{name: "ball", t: [3]float64{-0.75, 0, 0}, children: []int{4}, ext: dynamic(1, 1, `"linearVelocity": [1, 0, 0]`)},
		{name: "slide", ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 2}`},
	}}, Options{})
	top, _ := overlapRun(t, s, 0.5)
	b := s.Bodies[0]
	within(t, "distance slid in 0.5 s", b.Position[0]+0.75, 0.5, 0.01)
	if math.Abs(top-1) > 0.01 || math.Abs(b.LinearVelocity[1]) > 0.01 {
		t.Errorf("top speed %.3g m/s, vertical speed %.3g m/s; want 1 and 0", top, b.LinearVelocity[1])
	}
}

// TestStopOutsideRange: a bar hinged to a static post, authored at angle 0
// with its limits at 1 to 1.5 rad, turns into range at 1 rad/s (the
// separation bound), where ODE's unbounded stop correction spun it in at
// 48 rad/s and slammed it into the far stop in 0.03 s.
func TestStopOutsideRange(t *testing.T) {
	hinge := `{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1], "min": 0, "max": 0}, {"angularAxes": [2], "min": 1, "max": 1.5}]}`
	ts := tscene{shapes: []string{box(0.5, 0.5, 0.5), box(0.1, 1, 0.1)}, joints: []string{hinge}, gravity: `{"gravity": 0, "direction": [0, -1, 0]}`, nodes: []tnode{
		{name: "post", t: [3]float64{0, 3, 0}, children: []int{1}, ext: static(0, "")},
		{name: "pin", t: [3]float64{0, 0, 0.3}, ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 3}`},
		{name: "bar", t: [3]float64{0, 2.5, 0.3}, children: []int{3}, ext: dynamic(1, 1, "")},
		{name: "attach", t: [3]float64{0, 0.5, 0}},
	}}
	for _, tc := range []struct {
		speed    float64
		min, max float64 // bounds of the top spin rate (rad/s)
	}{{0, 0, MaxSeparationSpeed + 0.01}, {math.Inf(1), 40, math.Inf(1)}} {
		s := newSim(t, ts, Options{SeparationSpeed: tc.speed})
		top := 0.0
		for s.Time < 1.2 {
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
			top = math.Max(top, s.Bodies[0].AngularVelocity.Len())
		}
		a, _ := s.JointAngle(1)
		t.Logf("separation bound %g: top spin %.3g rad/s, angle after 1.2 s %.3g rad", tc.speed, top, a)
		if top < tc.min || top > tc.max {
			t.Errorf("separation bound %g: top spin %.3g rad/s, want between %g and %g", tc.speed, top, tc.min, tc.max)
		}
		if a < 1-0.01 || a > 1.5+0.01 {
			t.Errorf("separation bound %g: angle %.3g rad after 1.2 s, want within the limits 1 to 1.5", tc.speed, a)
		}
	}
}
