package sim

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// TestKHRInfiniteMass: in KHR_physics_rigid_bodies a mass of 0 is
// infinite (the draft's words), so testdata/khr_infinite_mass.gltf, whose
// "bulldozer" has mass 0 and 1 m/s along X, plays instead of being refused:
// nothing slows the bulldozer (at 3 s it is 3 m on, at x = 1), and the 5 kg
// crate 1 m ahead is pushed from t = 1 s, 1 m by t = 3 s, at the
// bulldozer's speed. (In OMI a mass of 0 is still refused.)
func TestKHRInfiniteMass(t *testing.T) {
	_, s := loadSim(t, "testdata/khr_infinite_mass.gltf")
	if !strings.Contains(strings.Join(s.Warnings, "\n"), `"bulldozer" has mass 0, which KHR_physics_rigid_bodies reads as infinite`) {
		t.Errorf("no note says mass 0 is played as infinite: %q", s.Warnings)
	}
	if err := s.Run(3); err != nil {
		t.Fatal(err)
	}
	dozer, crate := s.Bodies[0], s.Bodies[1]
	if dozer.Type != scene.MotionKinematic || crate.Type != scene.MotionDynamic {
		t.Fatalf("bodies played as %v and %v, want kinematic and dynamic", dozer.Type, crate.Type)
	}
	if x := dozer.Position[0]; math.Abs(x-1) > 1e-9 {
		t.Errorf("the bulldozer is at x = %.6g, want 1 (nothing slows an infinite mass)", x)
	}
	within(t, "crate x after 3 s", crate.Position[0], 2, 0.01)
	within(t, "crate speed", crate.LinearVelocity[0], 1, 0.01)
}

// TestKHRInfiniteInertia: a zero in a KHR inertiaDiagonal is infinite, so
// testdata/khr_locked_inertia.gltf's "upright" pillar, inertia [0, 0.27, 0],
// dropped 0.5 m while sliding at 4 m/s, spinning about Y and tipping about
// Z, lands and stays upright, turned about Y only, where "free", with
// finite moments and the same spin, falls over; "fixed", written [0, 0, 0]
// (infinite about every axis), never turns. In OMI the same zeros mean "computed"
// (as [0, 0, 0] does), and that pillar falls like "free".
func TestKHRInfiniteInertia(t *testing.T) {
	d, s := loadSim(t, "testdata/khr_locked_inertia.gltf")
	up := func(b *Body) float64 { return b.Rotation.Rotate(mgl64.Vec3{0, 1, 0})[1] }
	if !strings.Contains(strings.Join(s.Warnings, "\n"), `"upright": inertia [0 0.27 0] is infinite about its X and Z axes`) {
		t.Errorf("no note says which axes are locked: %q", s.Warnings)
	}
	if err := s.Run(2); err != nil {
		t.Fatal(err)
	}
	upright, free := s.Bodies[0], s.Bodies[1]
	if u := up(upright); u < 1-1e-9 {
		t.Errorf("the locked pillar's +Y is at %.6f of vertical, want 1", u)
	}
	if w := upright.AngularVelocity; math.Abs(w[0]) > 1e-9 || math.Abs(w[2]) > 1e-9 {
		t.Errorf("the locked pillar turns at %v rad/s, want about Y only", w)
	}
	// Its spin about Y turned it (the floor's friction stops it later).
	if x := upright.Rotation.Rotate(mgl64.Vec3{1, 0, 0}); x[0] > 0.99 {
		t.Errorf("the locked pillar's +X is at %v: its spin about Y did not turn it", x)
	}
	if y := upright.Position[1]; math.Abs(y-1) > 0.01 {
		t.Errorf("the locked pillar stands at y = %.4f, want 1", y)
	}
	if u := up(free); u > 0.5 {
		t.Errorf("the free pillar's +Y is at %.3f of vertical: it should have fallen", u)
	}
	// "fixed", inertia written as [0, 0, 0] (infinite about every axis),
	// set spinning and tilted 30° about Z, keeps its tilt exactly; it
	// falls until a corner meets the floor, and slides, never turning.
	fixed := s.Bodies[2]
	start := d.NodeTransform(3).Rotation
	if q := fixed.Rotation; math.Abs(q.V[0]-start[0])+math.Abs(q.V[1]-start[1])+math.Abs(q.V[2]-start[2])+math.Abs(q.W-start[3]) > 1e-6 || fixed.AngularVelocity.Len() != 0 {
		t.Errorf("the pillar of infinite inertia is at %v turning at %v, want %v and still", q, fixed.AngularVelocity, start)
	}
	if !strings.Contains(strings.Join(s.Warnings, "\n"), `"fixed": inertia [0 0 0] is infinite about every axis`) {
		t.Errorf("no note says the body never turns: %q", s.Warnings)
	}
	if y := fixed.Position[1]; y > 1.4 {
		t.Errorf("the pillar of infinite inertia hangs at y = %.3f: it should fall onto a corner", y)
	}

	omi := tscene{shapes: []string{box(20, 1, 20), box(0.4, 2, 0.4)}, gravity: earth, nodes: []tnode{
		{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(0, "")},
		{name: "pillar", t: [3]float64{0, 1, 0}, ext: dynamic(10, 1, `"inertiaDiagonal": [0, 0.27, 0], "angularVelocity": [0, 2, 3]`)},
	}}
	o := newSim(t, omi, Options{})
	if len(o.Bodies[0].locked) != 0 {
		t.Errorf("OMI zeros locked axes %v", o.Bodies[0].locked)
	}
	if in := o.Bodies[0].Inertia; math.Abs(in.At(0, 0)-10*(4+0.16)/12) > 1e-9 || in.At(1, 1) != 0.27 {
		t.Errorf("OMI inertia %v, want the box's own X and Z moments and the given 0.27", in)
	}
	if err := o.Run(2); err != nil {
		t.Fatal(err)
	}
	if u := up(o.Bodies[0]); u > 0.5 {
		t.Errorf("the OMI pillar's +Y is at %.3f of vertical: zeros there mean computed, it should fall", u)
	}
}

// TestKHRInfiniteMassTurns: a KHR body of mass 0 (infinite) with a finite
// moment about Y, testdata/khr_turnstile.gltf's bar, is not moved by the
// ball that hits its end but turns about Y (a turnstile, the KHR sample's
// Wheel_InfiniteMassFiniteInertia), and about Y only.
func TestKHRInfiniteMassTurns(t *testing.T) {
	_, s := loadSim(t, "testdata/khr_turnstile.gltf")
	if !strings.Contains(strings.Join(s.Warnings, "\n"), `"turnstile" has mass 0, which KHR_physics_rigid_bodies reads as infinite: it keeps its velocity and turns only about its axes of finite inertia`) {
		t.Errorf("no note says how the bar plays: %q", s.Warnings)
	}
	if err := s.Run(2); err != nil {
		t.Fatal(err)
	}
	bar, ball := s.Bodies[0], s.Bodies[1]
	if bar.Type != scene.MotionDynamic {
		t.Fatalf("the bar plays as %v, want dynamic (it turns)", bar.Type)
	}
	if p := bar.Position; p.Sub(mgl64.Vec3{0, 1, 0}).Len() > 1e-9 || bar.LinearVelocity.Len() > 1e-9 {
		t.Errorf("the bar of infinite mass moved to %v at %v m/s", p, bar.LinearVelocity)
	}
	// The ball pushes +Z at x = 0.8: a turn about -Y.
	if w := bar.AngularVelocity; w[1] > -0.1 || math.Abs(w[0]) > 1e-9 || math.Abs(w[2]) > 1e-9 {
		t.Errorf("the bar turns at %v rad/s, want about -Y only", w)
	}
	if v := ball.LinearVelocity[2]; v > 2.5 {
		t.Errorf("the ball goes on at %.3f m/s along Z: it should have been slowed by the bar", v)
	}
}

// loadSim loads a test file and builds its simulation, closed at the end
// of the test.
func loadSim(t *testing.T, path string) (*scene.Document, *Sim) {
	t.Helper()
	d, err := scene.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return d, s
}
