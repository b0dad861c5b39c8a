package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/assets"
	"physview/scene"
)

// engineCase is one analytic check that holds in every engine: a scene,
// and what to assert after playing it.
type engineCase struct {
	name  string
	scene tscene
	opt   Options
	check func(t *testing.T, s *Sim)
}

// engineCases are the analytic tests of sim_test.go and drive_test.go in
// a form run once per engine (TestAnalyticEngines).
func engineCases() []engineCase {
	bounceMat := `{"staticFriction": 0.5, "dynamicFriction": 0.5, "restitution": 1}`
	// A ramp of 20°: gravity tilted by 20° over a flat floor.
	ramp := 20 * math.Pi / 180
	tilted := `{"gravity": 9.81, "direction": [` + ftoa(math.Sin(ramp)) + `, ` + ftoa(-math.Cos(ramp)) + `, 0]}`
	hinge := `{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [1, 2], "min": 0, "max": 0}]}`
	L, theta := 1.0, 0.1
	pivot := mgl64.Vec3{0, 3, 0}
	bob := pivot.Add(mgl64.Vec3{0, -L * math.Cos(theta), L * math.Sin(theta)})
	slider := `{"limits": [{"linearAxes": [0, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1, 2], "min": 0, "max": 0}, {"linearAxes": [1], "min": -1, "max": 2}]}`
	softSlider := `{"limits": [{"linearAxes": [0, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1, 2], "min": 0, "max": 0}, {"linearAxes": [1], "min": -1, "max": 2, "stiffness": 100, "damping": 10}]}`
	field := `"OMI_physics_body": {"trigger": {"shape": 1}}, "OMI_physics_gravity": {"type": "directional", "gravity": 0, "replace": true, "stop": true, "directional": {"direction": [0, -1, 0]}}`
	return []engineCase{
		{"free fall", tscene{shapes: []string{sphere(0.5)}, gravity: earth,
			nodes: []tnode{{name: "ball", t: [3]float64{0, 10, 0}, ext: dynamic(2, 0, "")}}}, Options{},
			func(t *testing.T, s *Sim) {
				run(t, s, 1)
				within(t, "drop after 1 s", 10-s.Bodies[0].Position[1], 4.905, 0.01)
				within(t, "speed after 1 s", -s.Bodies[0].LinearVelocity[1], 9.81, 0.01)
			}},
		{"gravityFactor 0.5", tscene{shapes: []string{sphere(0.5)}, gravity: earth,
			nodes: []tnode{{name: "ball", t: [3]float64{0, 10, 0}, ext: dynamic(2, 0, `"gravityFactor": 0.5`)}}}, Options{},
			func(t *testing.T, s *Sim) {
				run(t, s, 1)
				within(t, "drop after 1 s", 10-s.Bodies[0].Position[1], 2.4525, 0.01)
			}},
		{"box resting on a ground box", tscene{shapes: []string{box(1, 1, 1), box(20, 1, 20)}, gravity: earth, nodes: []tnode{
			{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
			{name: "crate", t: [3]float64{0, 0.6, 0}, ext: dynamic(10, 0, "")},
		}}, Options{},
			func(t *testing.T, s *Sim) {
				run(t, s, 3)
				b := s.Bodies[0]
				if d := math.Abs(b.Position[1] - 0.5); d > 0.002 {
					t.Errorf("the box rests at y = %.4f, want 0.5 within 2 mm", b.Position[1])
				}
				if h := math.Hypot(b.Position[0], b.Position[2]); h > 0.001 {
					t.Errorf("the box slid %.3g m sideways", h)
				}
			}},
		{"sphere rolling down a ramp", tscene{shapes: []string{sphere(0.5), box(100, 1, 100)}, gravity: tilted, nodes: []tnode{
			{name: "ramp", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
			{name: "ball", t: [3]float64{0, 0.5, 0}, ext: dynamic(1, 0, "")},
		}}, Options{NoSleep: true},
			func(t *testing.T, s *Sim) {
				run(t, s, 2)
				// A solid sphere rolling without slipping: a = 5/7 g sin θ.
				within(t, "distance rolled in 2 s", s.Bodies[0].Position[0], 0.5*5.0/7*9.81*math.Sin(ramp)*4, 0.02)
			}},
		{"elastic bounce", tscene{shapes: []string{sphere(0.5), box(10, 1, 10)}, materials: []string{bounceMat}, gravity: earth,
			nodes: []tnode{
				{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, `, "physicsMaterial": 0`)},
				{name: "ball", t: [3]float64{0, 2.5, 0}, ext: `"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1}, "collider": {"shape": 0, "physicsMaterial": 0}}`},
			}}, Options{},
			func(t *testing.T, s *Sim) {
				bounced, top := false, 0.0
				for s.Time < 3 {
					step(t, s)
					b := s.Bodies[0]
					bounced = bounced || b.LinearVelocity[1] > 0
					if bounced {
						top = math.Max(top, b.Position[1])
						if b.LinearVelocity[1] < 0 {
							break
						}
					}
				}
				within(t, "height of the bottom after the bounce", top-0.5, 2, 0.02)
			}},
		{"gravity volume replace and stop", tscene{shapes: []string{sphere(0.25), box(20, 20, 20)}, gravity: earth,
			nodes: []tnode{
				{name: "zero-g room", ext: field},
				{name: "inside", t: [3]float64{0, 5, 0}, ext: dynamic(1, 0, "")},
				{name: "outside", t: [3]float64{50, 5, 0}, ext: dynamic(1, 0, "")},
			}}, Options{},
			func(t *testing.T, s *Sim) {
				run(t, s, 1)
				if d := 5 - s.Bodies[0].Position[1]; math.Abs(d) > 0.05 {
					t.Errorf("inside the field the body dropped %g m, want 0", d)
				}
				within(t, "drop outside the field", 5-s.Bodies[1].Position[1], 4.905, 0.01)
			}},
		{"point gravity fall", tscene{shapes: []string{sphere(100)}, nodes: []tnode{
			{name: "planet", ext: pointField(1, 10)},
			{name: "apple", t: [3]float64{0, 10, 0}, ext: dynamic(1, -1, "")},
		}}, Options{Step: 1.0 / 1000, NoDefaultGravity: true},
			func(t *testing.T, s *Sim) {
				x := 0.1
				want := math.Sqrt(1000.0/200) * (math.Sqrt(x*(1-x)) + math.Acos(math.Sqrt(x)))
				for s.Bodies[0].Position.Len() > 1 && s.Time < 10 {
					step(t, s)
				}
				within(t, "time to fall from 10 m to 1 m", s.Time, want, 0.01)
			}},
		{"hinge pendulum", tscene{shapes: []string{sphere(0.05)}, joints: []string{hinge}, gravity: earth, nodes: []tnode{
			{name: "bob", t: bob, children: []int{1}, ext: dynamic(1, 0, "")},
			{name: "hinge", t: pivot.Sub(bob), ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 2}`},
			{name: "pivot", t: pivot},
		}}, Options{},
			func(t *testing.T, s *Sim) {
				var crossings []float64
				prev := s.Bodies[0].Position[2]
				for s.Time < 8 {
					step(t, s)
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
				within(t, "pendulum period", period, 2*math.Pi*math.Sqrt((L*L+0.4*0.05*0.05)/(9.81*L)), 0.01)
			}},
		{"slider stop", tscene{shapes: []string{box(0.5, 0.5, 0.5)}, joints: []string{slider}, gravity: earth, nodes: []tnode{
			{name: "rail", t: [3]float64{0, 5, 0}, children: []int{1}},
			{name: "slide", ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 2}`},
			{name: "carriage", t: [3]float64{0, 5, 0}, children: []int{3}, ext: dynamic(1, 0, `"angularVelocity": [0, 3, 0]`)},
			{name: "attach"},
		}}, Options{},
			func(t *testing.T, s *Sim) {
				run(t, s, 2)
				if y := s.Bodies[0].Position[1]; math.Abs(y-4) > 0.01 {
					t.Errorf("the carriage is at y = %g, want 4 (1 m down, at the stop)", y)
				}
				if a, ok := s.JointAngle(1); !ok || math.Abs(a+1) > 0.01 {
					t.Errorf("slider position = %g, %v, want -1", a, ok)
				}
			}},
		{"soft limit", tscene{shapes: []string{box(0.5, 0.5, 0.5)}, joints: []string{softSlider}, gravity: earth, nodes: []tnode{
			{name: "rail", t: [3]float64{0, 5, 0}, children: []int{1}},
			{name: "slide", ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 2}`},
			{name: "carriage", t: [3]float64{0, 5, 0}, children: []int{3}, ext: dynamic(1, 0, "")},
			{name: "attach"},
		}}, Options{},
			func(t *testing.T, s *Sim) {
				run(t, s, 4)
				// The limit is a spring of 100 N/m: 1 kg hangs m g / k past it.
				within(t, "drop past the soft stop at rest", 4-s.Bodies[0].Position[1], 9.81/100, 0.01)
			}},
		{"drive spring", driveScene(`{"type": "linear", "mode": "force", "axis": 1, "positionTarget": 1.2, "velocityTarget": 0, "stiffness": 10, "damping": 0.1}`), Options{},
			func(t *testing.T, s *Sim) {
				y0 := s.Bodies[0].Position[1]
				var sum float64
				n := 0
				for s.Time < 6 {
					step(t, s)
					sum += s.Bodies[0].Position[1] - y0
					n++
				}
				within(t, "mean slider position over 6 s", sum/float64(n), 1.2-9.81/10, 0.05)
			}},
		{"hinge velocity drive", tscene{shapes: []string{box(0.5, 0.5, 0.5), box(0.14, 0.6, 0.14)},
			joints:  []string{`{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1], "min": 0, "max": 0}], "drives": [{"type": "angular", "mode": "acceleration", "axis": 2, "velocityTarget": -1.57, "stiffness": 0, "damping": 1}]}`},
			gravity: earth, nodes: []tnode{
				{name: "post", t: [3]float64{0, 3, 0}, children: []int{1}, ext: static(0, "")},
				{name: "pin", t: [3]float64{0, 0, 0.25}, ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 3}`},
				{name: "bar", t: [3]float64{0, 3, 0.3}, children: []int{3}, ext: dynamic(1, 1, "")},
				{name: "attach", t: [3]float64{0, 0, -0.05}},
			}}, Options{},
			func(t *testing.T, s *Sim) {
				run(t, s, 2)
				within(t, "spin rate after 2 s", -s.Bodies[0].AngularVelocity[2], 1.57*(1-math.Exp(-2)), 0.03)
			}},
		{"trigger", tscene{shapes: []string{sphere(0.25), box(2, 1, 2)}, gravity: earth, nodes: []tnode{
			{name: "gate", ext: `"OMI_physics_body": {"trigger": {"shape": 1}}`},
			{name: "ball", t: [3]float64{0, 3, 0}, ext: dynamic(1, 0, "")},
		}}, Options{},
			func(t *testing.T, s *Sim) {
				var enter, leave float64
				for s.Time < 2 {
					step(t, s)
					in := len(s.Inside(0)) > 0
					if in && enter == 0 {
						enter = s.Time
					}
					if !in && enter > 0 && leave == 0 {
						leave = s.Time
					}
				}
				within(t, "time the ball enters", enter, math.Sqrt(2*2.25/9.81), 0.02)
				within(t, "time the ball leaves", leave, math.Sqrt(2*3.75/9.81), 0.02)
			}},
	}
}

func run(t *testing.T, s *Sim, seconds float64) {
	t.Helper()
	if err := s.Run(seconds); err != nil {
		t.Fatal(err)
	}
}

func step(t *testing.T, s *Sim) {
	t.Helper()
	if err := s.Step(); err != nil {
		t.Fatal(err)
	}
}

// TestAnalyticEngines runs every engineCase in every engine.
func TestAnalyticEngines(t *testing.T) {
	for _, eng := range Engines {
		for _, tc := range engineCases() {
			t.Run(eng+"/"+tc.name, func(t *testing.T) {
				opt := tc.opt
				opt.Engine = eng
				s := newSim(t, tc.scene, opt)
				if s.EngineName() != eng {
					t.Fatalf("engine = %q, want %q", s.EngineName(), eng)
				}
				tc.check(t, s)
			})
		}
	}
}

// TestShapesRestEngines: every shape dropped upright rests at the height
// its OMI parameters give, upright, in every engine.
func TestShapesRestEngines(t *testing.T) {
	for _, eng := range Engines {
		for _, tc := range []struct {
			name  string
			shape string
			want  float64
		}{
			{"box", box(0.4, 1.2, 0.4), 0.6},
			{"sphere", sphere(0.3), 0.3},
			{"capsule", `{"type": "capsule", "capsule": {"height": 1, "radiusTop": 0.25, "radiusBottom": 0.25}}`, 0.75},
			{"cylinder", `{"type": "cylinder", "cylinder": {"height": 1, "radiusTop": 0.25, "radiusBottom": 0.25}}`, 0.5},
			{"tapered cylinder", `{"type": "cylinder", "cylinder": {"height": 1, "radiusTop": 0.2, "radiusBottom": 0.35}}`, 0.5},
		} {
			t.Run(eng+"/"+tc.name, func(t *testing.T) {
				s := newSim(t, tscene{shapes: []string{tc.shape, box(10, 1, 10)}, gravity: earth, nodes: []tnode{
					{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
					{name: "thing", t: [3]float64{0, tc.want + 0.2, 0}, ext: dynamic(1, 0, "")},
				}}, Options{Engine: eng})
				run(t, s, 2)
				b := s.Bodies[0]
				if y := b.Position[1]; math.Abs(y-tc.want) > 0.005 {
					t.Errorf("rests at y = %.4f, want %.4f", y, tc.want)
				}
				if up := b.Rotation.Rotate(mgl64.Vec3{0, 1, 0}); up[1] < 0.999 {
					t.Errorf("fell over: its +Y points along %v", up)
				}
			})
		}
	}
}

// TestDemoEngines: the demo (every shape type, compounds, a hinge,
// triggers, every gravity field) plays 5 s in every engine with every
// dynamic body finite, on or above the ground and not flung away.
func TestDemoEngines(t *testing.T) {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, eng := range Engines {
		t.Run(eng, func(t *testing.T) {
			s, err := New(d, Options{Engine: eng})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			run(t, s, 5)
			for _, b := range s.Bodies {
				if b.CenterOfMass[1] < -0.2 || b.CenterOfMass.Len() > 30 {
					t.Errorf("%s ended at %v: through the ground or flung away", b.Name, b.CenterOfMass)
				}
			}
		})
	}
}

// TestHostileEngines: the hostile values of TestHostileValues are refused
// before any engine sees them, and an exception inside Bullet stops the
// run with an error instead of aborting.
func TestHostileEngines(t *testing.T) {
	for _, eng := range Engines {
		for _, tc := range []struct{ name, node, motion, shape, want string }{
			{"velocity 1e30", "", `"linearVelocity": [1e30, 0, 0]`, sphere(0.5), `linear velocity [1e+30 0 0] must be finite`},
			{"scale 0", `"scale": [1, 0, 1]`, "", sphere(0.5), `world transform (scale 1, 0, 1) is degenerate`},
			{"translation 1e10", `"translation": [1e10, 0, 0]`, "", sphere(0.5), `is more than 1e+06 m from the origin`},
			{"box size 0", "", "", box(0, 1, 1), `box size x must be greater than 0`},
			{"mass 1e300", "", `"mass": 1e300`, sphere(0.5), `mass 1e+300 kg is more than 1e+12 kg`},
			{"inertia 1e300", "", `"inertiaDiagonal": [1e300, 1e300, 1e300]`, sphere(0.5), `inertia [1e+300 1e+300 1e+300]`},
		} {
			t.Run(eng+"/"+tc.name, func(t *testing.T) {
				d, err := scene.Decode([]byte(hostileDoc(tc.node, tc.motion, tc.shape)), nil)
				if err != nil {
					t.Fatal(err)
				}
				s, err := New(d, Options{Engine: eng})
				if err == nil {
					s.Close()
					t.Fatalf("accepted, want an error containing %q", tc.want)
				}
				if !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error = %v, want one containing %q", err, tc.want)
				}
			})
		}
	}
	s := newSim(t, tscene{shapes: []string{sphere(0.5)}, gravity: earth,
		nodes: []tnode{{name: "ball", t: [3]float64{0, 5, 0}, ext: dynamic(1, 0, "")}}}, Options{Engine: EngineBullet})
	run(t, s, 0.1)
	if err := s.w.RaiseForTest(2); err == nil {
		t.Fatal("the exception did not come back")
	}
	err := s.Step()
	if err == nil || !strings.Contains(err.Error(), "Bullet failed at t = 0.1 s: Bullet: raised for a test (2)") {
		t.Fatalf("Step after a Bullet exception: %v", err)
	}
}

// TestUnknownEngine: an engine name that is not known is an error naming it.
func TestUnknownEngine(t *testing.T) {
	_, err := New(tscene{shapes: []string{sphere(0.5)}, nodes: []tnode{{name: "ball", ext: dynamic(1, 0, "")}}}.doc(t), Options{Engine: "havok"})
	if err == nil || !strings.Contains(err.Error(), `unknown physics engine "havok"`) {
		t.Fatalf("error = %v", err)
	}
}

// TestWorldERPCFMEngines: an XODE world's ERP and CFM soften contacts in
// every engine: with CFM 0.01 a 10 kg box rests millimetres deep in the
// ground instead of resting on it, and four times the ERP takes about a
// quarter of that depth. (ODE holds CFM m g h / ERP over its four contact
// points, plus its 1 mm surface layer; Bullet about 1.75 times the whole
// CFM m g h / ERP.)
func TestWorldERPCFMEngines(t *testing.T) {
	const m, h = 10.0, 1.0 / 240
	sink := func(t *testing.T, eng string, erp, cfm float64) float64 {
		d := tscene{shapes: []string{box(1, 1, 1), box(20, 1, 20)}, gravity: earth, nodes: []tnode{
			{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
			{name: "crate", t: [3]float64{0, 0.5, 0}, ext: dynamic(m, 0, "")},
		}}.doc(t)
		var attrs []any
		if erp > 0 {
			attrs = append(attrs, []any{"erp", ftoa(erp)})
		}
		if cfm > 0 {
			attrs = append(attrs, []any{"cfm", ftoa(cfm)})
		}
		d.GLTF.Nodes[0].Extras = map[string]any{"xode": map[string]any{"element": "world", "attributes": attrs}}
		s, err := New(d, Options{Engine: eng, Step: h})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		run(t, s, 3)
		return 0.5 - s.Bodies[0].Position[1]
	}
	for _, tc := range []struct {
		eng              string
		lo, hi           float64 // the depth at CFM 0.01 and ERP 0.2 (m)
		ratioLo, ratioHi float64 // that depth over the depth at ERP 0.8
	}{
		{EngineODE, 0.005, 0.008, 2.5, 4.5},
		{EngineBullet, 0.03, 0.04, 3.5, 4.5},
	} {
		t.Run(tc.eng, func(t *testing.T) {
			plain, soft, stiff := sink(t, tc.eng, 0, 0), sink(t, tc.eng, 0, 0.01), sink(t, tc.eng, 0.8, 0.01)
			t.Logf("rests %.3g mm deep; %.3g mm at CFM 0.01; %.3g mm at CFM 0.01, ERP 0.8 (CFM m g h / ERP = %.3g mm)",
				plain*1000, soft*1000, stiff*1000, 0.01*m*9.81*h/0.2*1000)
			if plain > 0.0015 {
				t.Errorf("without ERP and CFM the box rests %.3g mm deep, want under 1.5 mm", plain*1000)
			}
			if soft < tc.lo || soft > tc.hi {
				t.Errorf("at CFM 0.01 the box rests %.3g mm deep, want %g to %g mm", soft*1000, tc.lo*1000, tc.hi*1000)
			}
			if r := soft / stiff; r < tc.ratioLo || r > tc.ratioHi {
				t.Errorf("ERP 0.8 takes the depth from %.3g to %.3g mm (%.2g times less), want %g to %g times less", soft*1000, stiff*1000, r, tc.ratioLo, tc.ratioHi)
			}
		})
	}
}

// TestCompoundFilterEngines: each collider of a compound body keeps its own
// collision filter in every engine, whichever comes first: a body of two
// stacked boxes whose lower one does not collide with the ground rests on
// its upper one, the lower one sunk through the floor.
func TestCompoundFilterEngines(t *testing.T) {
	filters := []string{
		`{"collisionSystems": ["ground"]}`,
		`{"collisionSystems": ["ghosts"], "notCollideWithSystems": ["ground"]}`,
		`{"collisionSystems": ["props"], "collideWithSystems": ["ground"]}`,
	}
	part := func(filter int) string {
		return `"OMI_physics_body": {"collider": {"shape": 0, "collisionFilter": ` + ftoa(float64(filter)) + `}}`
	}
	for _, eng := range Engines {
		for _, tc := range []struct {
			name     string
			children []int
		}{
			{"ghost first", []int{2, 3}},
			{"prop first", []int{3, 2}},
		} {
			t.Run(eng+"/"+tc.name, func(t *testing.T) {
				s := newSim(t, tscene{shapes: []string{box(0.5, 0.5, 0.5), box(10, 1, 10)}, filters: filters, gravity: earth, nodes: []tnode{
					{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, `, "collisionFilter": 0`)},
					{name: "body", t: [3]float64{0, 1, 0}, children: tc.children, ext: `"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1}}`},
					{name: "ghost part", t: [3]float64{0, -0.6, 0}, ext: part(1)},
					{name: "prop part", ext: part(2)},
				}}, Options{Engine: eng})
				run(t, s, 2)
				if y := s.Bodies[0].Position[1]; math.Abs(y-0.25) > 0.005 {
					t.Errorf("the body rests at y = %.4f, want 0.25 (on its prop part, the ghost part in the floor)", y)
				}
			})
		}
	}
}

// TestBodyContactsEngines: Play's recording gets, from every engine, the
// contact points of each body and whether it sleeps: a box resting on the
// ground has its four corners on it, a falling ball none, and after 2 s
// the box sleeps and the ball does not. (ODE then reports no contacts for
// the sleeping box, as it stops colliding it; Bullet keeps its four.)
func TestBodyContactsEngines(t *testing.T) {
	for _, eng := range Engines {
		t.Run(eng, func(t *testing.T) {
			s := newSim(t, tscene{shapes: []string{box(1, 1, 1), box(20, 1, 20), sphere(0.25)}, gravity: earth, nodes: []tnode{
				{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
				{name: "crate", t: [3]float64{0, 0.5, 0}, ext: dynamic(10, 0, "")},
				{name: "ball", t: [3]float64{5, 500, 0}, ext: dynamic(1, 2, "")},
			}}, Options{Engine: eng})
			for i := 0; i < 10; i++ {
				step(t, s)
			}
			contacts, asleep := s.BodyContacts()
			if len(contacts) != 2 || contacts[0] != 4 || contacts[1] != 0 {
				t.Errorf("contacts per body after 10 steps = %v, want [4 0]", contacts)
			}
			if len(asleep) != 2 || asleep[0] || asleep[1] {
				t.Errorf("asleep after 10 steps = %v, want [false false]", asleep)
			}
			run(t, s, 2)
			if _, asleep = s.BodyContacts(); len(asleep) != 2 || !asleep[0] || asleep[1] {
				t.Errorf("asleep after 2 s = %v, want [true false]", asleep)
			}
		})
	}
}
