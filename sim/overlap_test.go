package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// overlapRun plays s for seconds and returns the top speed any dynamic
// body reached and when.
func overlapRun(t *testing.T, s *Sim, seconds float64) (top, at float64) {
	t.Helper()
	for s.Time+s.StepSize()/2 < seconds {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		for _, b := range s.Bodies {
			if v := b.LinearVelocity.Len(); v > top {
				top, at = v, s.Time
			}
		}
	}
	return top, at
}

// TestOverlapSeparates: bodies placed overlapping come apart at no more
// than the separation bound (plus what gravity adds: g × the time they
// fall), where ODE's unbounded push sent them off at tens of m/s.
func TestOverlapSeparates(t *testing.T) {
	const g = 9.81
	for _, tc := range []struct {
		name string
		ts   tscene
		// apart returns how far the bodies still overlap (m) after the run.
		apart func(s *Sim) float64
		// fall is how long gravity may speed a body up beyond the bound
		// (s): the time it may fall freely after coming free.
		fall float64
	}{
		{
			// Two 1 m boxes in zero gravity, 0.5 m inside each other.
			name: "boxes in zero gravity",
			ts: tscene{shapes: []string{box(1, 1, 1)}, gravity: `{"gravity": 0, "direction": [0, -1, 0]}`, nodes: []tnode{
				{name: "a", t: [3]float64{0, 0, 0}, ext: dynamic(1, 0, "")},
				{name: "b", t: [3]float64{0.5, 0, 0}, ext: dynamic(1, 0, "")},
			}},
			apart: func(s *Sim) float64 { return 1 - (s.Bodies[1].Position[0] - s.Bodies[0].Position[0]) },
		},
		{
			// A 1 m box sunk 0.5 m into another one resting on the floor.
			name: "box sunk into a box on the floor",
			ts: tscene{shapes: []string{box(1, 1, 1), box(20, 1, 20)}, gravity: earth, nodes: []tnode{
				{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
				{name: "lower", t: [3]float64{0, 0.5, 0}, ext: dynamic(1, 0, "")},
				{name: "upper", t: [3]float64{0, 1, 0}, ext: dynamic(1, 0, "")},
			}},
			apart: func(s *Sim) float64 { return 1 - (s.Bodies[1].Position[1] - s.Bodies[0].Position[1]) },
			fall:  0.2,
		},
		{
			// A ball of radius 0.5 m half sunk into a static floor.
			name: "ball half sunk into the floor",
			ts: tscene{shapes: []string{sphere(0.5), box(20, 1, 20)}, gravity: earth, nodes: []tnode{
				{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
				{name: "ball", t: [3]float64{0, 0, 0}, ext: dynamic(1, 0, "")},
			}},
			apart: func(s *Sim) float64 { return 0.5 - s.Bodies[0].Position[1] },
			fall:  0.2,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, tc.ts, Options{})
			top, at := overlapRun(t, s, 1)
			over := tc.apart(s)
			t.Logf("top speed %.3g m/s at t = %.3g s; overlap after 1 s %.3g mm", top, at, over*1000)
			if limit := MaxSeparationSpeed + g*tc.fall; top > limit {
				t.Errorf("a body reached %.3g m/s at t = %.3g s, want at most %g m/s (the bound + gravity over %g s)", top, at, limit, tc.fall)
			}
			if v := s.Bodies[len(s.Bodies)-1].LinearVelocity.Len(); tc.fall > 0 && v > 0.05 {
				t.Errorf("after 1 s %s moves at %.3g m/s, want at rest (under 0.05)", s.Bodies[len(s.Bodies)-1].Name, v)
			}
			if over > ContactSurfaceLayer+0.0005 {
				t.Errorf("after 1 s the bodies still overlap by %.3g mm, want at most the %g mm surface layer", over*1000, ContactSurfaceLayer*1000)
			}
			// ODE's own unbounded push: what the bound is for.
			raw := newSim(t, tc.ts, Options{SeparationSpeed: math.Inf(1)})
			rawTop, rawAt := overlapRun(t, raw, 1)
			t.Logf("unbounded: top speed %.3g m/s at t = %.3g s", rawTop, rawAt)
			if rawTop < 3*top {
				t.Errorf("unbounded the top speed is %.3g m/s, bounded %.3g: the bound makes no difference", rawTop, top)
			}
		})
	}
}

// TestStackStands: a stack of five 1 m boxes on a static floor stays
// standing for 10 s, awake or allowed to sleep: each box sinks into the one
// below by no more than the surface layer (so the top one by five layers)
// and creeps sideways less than 8 mm, no more than with ODE's unbounded
// push (the creep is QuickStep's friction, there before the bound: 0.6 mm
// when the stack may sleep, 4 mm awake).
func TestStackStands(t *testing.T) {
	ts := tscene{shapes: []string{box(1, 1, 1), box(20, 1, 20)}, gravity: earth, nodes: []tnode{
		{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
	}}
	for i := 0; i < 5; i++ {
		ts.nodes = append(ts.nodes, tnode{name: fmt.Sprint("box ", i), t: [3]float64{0, 0.5 + float64(i), 0}, ext: dynamic(10, 0, "")})
	}
	// run returns the largest sideways and vertical distance from the
	// start of any box, over 10 s.
	run := func(opt Options) (side, up float64) {
		s := newSim(t, ts, opt)
		for s.Time < 10 {
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
			for i, b := range s.Bodies {
				d := b.Position.Sub(mgl64.Vec3{0, 0.5 + float64(i), 0})
				side = math.Max(side, math.Hypot(d[0], d[2]))
				if math.Abs(d[1]) > (float64(i)+1)*ContactSurfaceLayer+0.0005 {
					t.Errorf("%s at t = %.3g s is %.3g mm off its height, want at most %d surface layers", b.Name, s.Time, d[1]*1000, i+1)
					return
				}
				up = math.Max(up, math.Abs(d[1]))
			}
		}
		return side, up
	}
	for _, opt := range []Options{{}, {NoSleep: true}} {
		side, up := run(opt)
		opt.SeparationSpeed = math.Inf(1)
		rawSide, _ := run(opt)
		t.Logf("NoSleep %v: over 10 s a box moved %.3g mm sideways (unbounded push: %.3g mm) and %.3g mm vertically", opt.NoSleep, side*1000, rawSide*1000, up*1000)
		if side > 0.008 || side > rawSide+0.0005 {
			t.Errorf("NoSleep %v: a box crept %.3g mm sideways, want under 8 mm and no more than 0.5 mm beyond the unbounded push's %.3g mm", opt.NoSleep, side*1000, rawSide*1000)
		}
	}
}

// TestSunkFile plays testdata/sunk.gltf, a file authored with bodies inside
// the floor and each other (a 1 m crate and a ball of radius 0.5 m half
// in the floor, two 1 m crates 0.5 m into each other), for 2 s: no body
// goes faster than the bound plus 0.2 s of gravity, and each rests on the
// floor, the crates side by side. Before the bound the crate and the ball
// left the floor at 24 m/s and were 28 m up after 2 s.
func TestSunkFile(t *testing.T) {
	d, err := scene.Load("testdata/sunk.gltf")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	top, at := overlapRun(t, s, 2)
	t.Logf("top speed %.3g m/s at t = %.3g s", top, at)
	if limit := MaxSeparationSpeed + 9.81*0.2; top > limit {
		t.Errorf("top speed %.3g m/s at t = %.3g s, want at most %.3g", top, at, limit)
	}
	for _, b := range s.Bodies {
		if y, v := b.Position[1], b.LinearVelocity.Len(); math.Abs(y-0.5) > 0.002 || v > 0.01 {
			t.Errorf("%s at y = %.4g moving at %.3g m/s after 2 s, want resting on the floor at 0.5", b.Name, y, v)
		}
	}
	if gap := s.Bodies[3].Position[0] - s.Bodies[2].Position[0]; gap < 1-ContactSurfaceLayer-0.0005 || gap > 1.2 {
		t.Errorf("crates A and B are %.4g m apart centre to centre, want side by side (1 to 1.2 m)", gap)
	}
}

// TestCrowdAtOnePoint: 500 spheres of radius 0.5 m started at one point
// above a 1 m ground box (the benchmark's overlap scene, smaller) part in
// every direction, never sink through the ground and never go faster
// than 20 m/s; after 1 s each rests on the ground or on other spheres.
// Bullet's own sphere test pushed every pair of coincident centres along
// +x (a line along x), and unbounded, the summed pushes of the crowd
// moved spheres 1 m above the ground 3 m down in a few steps, out of the
// ground's bottom.
func TestCrowdAtOnePoint(t *testing.T) {
	const n, r = 500, 0.5
	for _, tc := range []struct {
		name   string
		height float64 // of the point (m); the ground's top face is at 0
	}{
		{"1 m above the ground", 1},
		{"5 m above the ground", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := tscene{shapes: []string{sphere(r), box(100, 1, 100)}, gravity: earth}
			ts.nodes = append(ts.nodes, tnode{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(1, "")})
			for i := 0; i < n; i++ {
				ts.nodes = append(ts.nodes, tnode{name: fmt.Sprint("s", i), t: [3]float64{0, tc.height, 0}, ext: dynamic(1, 0, "")})
			}
			s := newSim(t, ts, Options{Engine: EngineBullet})
			top, low, lowAt := 0.0, math.Inf(1), 0.0
			for s.Time+s.StepSize()/2 < 1 {
				if err := s.Step(); err != nil {
					t.Fatal(err)
				}
				for _, b := range s.Bodies {
					top = math.Max(top, b.LinearVelocity.Len())
					if y := b.CenterOfMass[1]; y < low {
						low, lowAt = y, s.Time
					}
				}
			}
			var lo, hi mgl64.Vec3
			end := math.Inf(1)
			for i, b := range s.Bodies {
				for k := 0; k < 3; k++ {
					if c := b.CenterOfMass[k]; i == 0 || c < lo[k] {
						lo[k] = c
					}
					if c := b.CenterOfMass[k]; i == 0 || c > hi[k] {
						hi[k] = c
					}
				}
				end = math.Min(end, b.CenterOfMass[1])
			}
			t.Logf("top speed %.3g m/s; lowest centre %.3g m at t = %.3g s, %.4g m after 1 s; spread %.3g × %.3g × %.3g m",
				top, low, lowAt, end, hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2])
			if top > 20 {
				t.Errorf("a sphere reached %.3g m/s, want at most 20", top)
			}
			// A centre past the box's middle plane (-0.5 m) is pushed out at
			// its bottom: half a radius into the ground is the most allowed.
			if low < -r/2 {
				t.Errorf("a sphere's centre went %.3g m below the ground's top face at t = %.3g s, want at most %g m", -low, lowAt, r/2)
			}
			if end < r-0.01 {
				t.Errorf("after 1 s the lowest centre is at %.4g m, want every sphere on the ground (%g m, 1 cm tolerance) or above", end, r)
			}
			if dx, dz := hi[0]-lo[0], hi[2]-lo[2]; dx < 4 || dz < 4 || dx > 3*dz || dz > 3*dx {
				t.Errorf("the crowd spread %.3g m along x and %.3g m along z, want both over 4 m and within a factor 3 of each other", dx, dz)
			}
		})
	}
}
