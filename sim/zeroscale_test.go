package sim

import (
	"path/filepath"
	"slices"
	"testing"

	"physview/scene"
)

// TestZeroScaleDisabled: a node scaled by 0 on every axis (how exporters
// collapse a hidden object) has its physics disabled, as
// KHR_physics_rigid_bodies says, in ODE and in Bullet: the ball falls
// through the collapsed ground onto the floor 10 m below, and the collapsed
// ball is no body. Before, the zero scale was read as 1 (the ground caught
// the ball); read as 0, it refused the scene as degenerate.
func TestZeroScaleDisabled(t *testing.T) {
	d, err := scene.Load(filepath.Join("testdata", "zero_scale.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"ode", "bullet"} {
		t.Run(engine, func(t *testing.T) {
			s, err := New(d, Options{Engine: engine})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for _, w := range []string{
				`node "CollapsedGround" (node 0) has a scale of 0 on every axis: its physics is disabled (left out)`,
				`node "CollapsedBall" (node 2) has a scale of 0 on every axis: its physics is disabled (left out)`,
			} {
				if !slices.Contains(s.Warnings, w) {
					t.Errorf("no warning %q in %q", w, s.Warnings)
				}
			}
			if len(s.Bodies) != 1 || s.Bodies[0].Name != "Ball" {
				t.Fatalf("bodies %+v, want the ball alone", s.Bodies)
			}
			if err := s.Run(2.5); err != nil {
				t.Fatal(err)
			}
			// Resting on the floor (top at -10): its centre 0.5 above.
			if y := s.Bodies[0].Position.Y(); y < -9.6 || y > -9.4 {
				t.Errorf("the ball is at y = %.3f after 2.5 s, want -9.5 (on the floor, through the collapsed ground)", y)
			}
		})
	}
}

// TestInstancedBody: a body whose mesh is instanced (EXT_mesh_gpu_instancing)
// plays once, at its node, and says so; no physics draft says otherwise,
// and before, nothing told the three drawn crates from the one played.
func TestInstancedBody(t *testing.T) {
	d, err := scene.Load(filepath.Join("testdata", "instanced_body.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := `body "Crates" has 3 instances (EXT_mesh_gpu_instancing): they are drawn, the body is played once, at the node`
	if !slices.Contains(s.Warnings, want) {
		t.Errorf("no warning %q in %q", want, s.Warnings)
	}
	if len(s.Bodies) != 1 {
		t.Errorf("%d bodies, want 1", len(s.Bodies))
	}
}
