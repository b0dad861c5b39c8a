package sim

import (
	"math"
	"strings"
	"testing"
)

// TestDefaultGravity: a scene without a world gravity plays with standard
// gravity down -Y (issue 22 item 1: ball_pit's balls hung in the air), says
// so, and leaves the document without a world gravity; NoDefaultGravity
// and a gravity field with stop keep it out.
func TestDefaultGravity(t *testing.T) {
	ball := tnode{name: "ball", t: [3]float64{0, 10, 0}, ext: dynamic(1, 0, "")}
	t.Run("default", func(t *testing.T) {
		s := newSim(t, tscene{shapes: []string{sphere(0.5)}, nodes: []tnode{ball}}, Options{})
		if err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		if !s.DefaultGravity {
			t.Error("DefaultGravity = false for a file without world gravity")
		}
		if g := s.GravityVector(); g[0] != 0 || g[1] != -StandardGravity || g[2] != 0 {
			t.Errorf("gravity %v, want (0, -%g, 0)", g, StandardGravity)
		}
		within(t, "drop after 1 s", 10-s.Bodies[0].Position[1], StandardGravity/2, 0.01)
		if s.Doc.WorldGravity != nil {
			t.Errorf("the played document gained a world gravity %+v; it must never be written", s.Doc.WorldGravity)
		}
		if len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0], "no world gravity") || !strings.Contains(s.Warnings[0], "9.80665") {
			t.Errorf("warnings %q, want one saying the default gravity is used", s.Warnings)
		}
	})
	t.Run("file's own", func(t *testing.T) {
		s := newSim(t, tscene{shapes: []string{sphere(0.5)}, gravity: `{"gravity": 3, "direction": [1, 0, 0]}`, nodes: []tnode{ball}}, Options{})
		if err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		if s.DefaultGravity || len(s.Warnings) != 0 {
			t.Errorf("DefaultGravity %v, warnings %q for a file with a world gravity", s.DefaultGravity, s.Warnings)
		}
		p := s.Bodies[0].Position
		within(t, "x after 1 s", p[0], 1.5, 0.01)
		if math.Abs(p[1]-10) > 1e-9 {
			t.Errorf("y = %g, want 10 (the file's gravity pulls along +X only)", p[1])
		}
	})
	t.Run("NoDefaultGravity", func(t *testing.T) {
		s := newSim(t, tscene{shapes: []string{sphere(0.5)}, nodes: []tnode{ball}}, Options{NoDefaultGravity: true})
		if err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		if p := s.Bodies[0].Position; math.Abs(p[1]-10) > 1e-9 || s.DefaultGravity {
			t.Errorf("y = %g (DefaultGravity %v), want 10 without gravity", p[1], s.DefaultGravity)
		}
	})
	t.Run("stopped by a field", func(t *testing.T) {
		field := `"OMI_physics_body": {"trigger": {"shape": 1}}, "OMI_physics_gravity": {"type": "directional", "gravity": 0, "replace": true, "stop": true, "directional": {"direction": [0, -1, 0]}}`
		s := newSim(t, tscene{shapes: []string{sphere(0.25), box(20, 20, 20)}, nodes: []tnode{
			{name: "zero-g room", ext: field},
			{name: "inside", t: [3]float64{0, 5, 0}, ext: dynamic(1, 0, "")},
			{name: "outside", t: [3]float64{50, 5, 0}, ext: dynamic(1, 0, "")},
		}}, Options{})
		if err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		in, out := s.Bodies[s.BodyIndex(1)].Position[1], s.Bodies[s.BodyIndex(2)].Position[1]
		if math.Abs(in-5) > 1e-9 {
			t.Errorf("inside the stopping field y = %g, want 5", in)
		}
		within(t, "drop outside the field", 5-out, StandardGravity/2, 0.01)
	})
}
