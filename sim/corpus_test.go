package sim

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/testcorpus"
	"physview/scene/xode"
)

// TestPyBrainScenes: every PyBrain XODE scene of the corpus plays 10 s with
// no NaN, and every body stays within 50 m of where it started and no lower
// than half a metre below the scene's floor (its XODE plane, y = d; the
// acrobots and the robots have no joint to the world, so they fall to it).
func TestPyBrainScenes(t *testing.T) {
	dir := testcorpus.Dir(t)
	files, err := filepath.Glob(filepath.Join(dir, "pybrain", "pybrain", "rl", "environments", "ode", "models", "*.xode"))
	if err != nil || len(files) == 0 {
		files, _ = filepath.Glob(filepath.Join(dir, "pybrain", "*.xode"))
	}
	if len(files) == 0 {
		t.Skip("no PyBrain XODE files in the corpus")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			d, err := xode.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(d, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			start := make([]mgl64.Vec3, len(s.Bodies))
			for i, b := range s.Bodies {
				start[i] = b.CenterOfMass
			}
			if err := s.Run(10); err != nil {
				t.Fatal(err)
			}
			floor := math.Inf(-1)
			for _, n := range d.GLTF.Nodes {
				if p, ok := xodeExtras(n)["planeSource"].(map[string]any); ok {
					b, _ := p["b"].(float64)
					dd, _ := p["d"].(float64)
					if b > 0 {
						floor = math.Max(floor, dd/b)
					}
				}
			}
			worst, lowest, name := 0.0, math.Inf(1), ""
			for i, b := range s.Bodies {
				if d := b.CenterOfMass.Sub(start[i]).Len(); d > worst {
					worst, name = d, b.Name
				}
				lowest = math.Min(lowest, b.CenterOfMass[1])
			}
			t.Logf("%d bodies, %d steps; farthest moved %.3g m (%s), lowest centre of mass y = %.3g m (floor %g), energy %.4g J",
				len(s.Bodies), s.Steps, worst, name, lowest, floor, s.Energy())
			if worst > 50 || lowest < floor-0.5 {
				t.Errorf("a body left the sane bound: moved %.3g m (%s), lowest y %.3g", worst, name, lowest)
			}
		})
	}
}
