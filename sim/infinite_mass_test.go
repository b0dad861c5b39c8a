package sim

import (
	"math"
	"strings"
	"testing"

	"physview/scene"
)

// TestKHRInfiniteMass: in KHR_physics_rigid_bodies a mass of 0 is
// infinite (the draft's words), so testdata/khr_infinite_mass.gltf, whose
// "bulldozer" has mass 0 and 1 m/s along X, plays instead of being refused:
// nothing slows the bulldozer (at 3 s it is 3 m on, at x = 1), and the 5 kg
// crate 1 m ahead is pushed from t = 1 s, 1 m by t = 3 s, at the
// bulldozer's speed. (In OMI a mass of 0 is still refused.)
func TestKHRInfiniteMass(t *testing.T) {
	d, err := scene.Load("testdata/khr_infinite_mass.gltf")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
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
