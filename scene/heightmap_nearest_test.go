package scene

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestHeightmapOffGrid: points off the grid, far away, infinite or NaN
// give an answer (or NaN), never a panic.
func TestHeightmapOffGrid(t *testing.T) {
	s := DefaultShape(ShapeHeightmap)
	s.Size = [3]float64{3, 0, 3}
	s.Heights = []float64{0, 1, 0, 1, 2, 1, 0, 1, 0}
	for _, p := range []mgl64.Vec3{
		{0, 5, 0}, {10, 0, 10}, {-1e300, 0, 1e300}, {math.Inf(1), 0, 0}, {math.NaN(), 0, 0}, {0, math.NaN(), math.Inf(-1)},
	} {
		_ = s.Nearest(p, mgl64.Vec3{}, mgl64.Vec3{})
		_ = s.Distance(p, mgl64.Vec3{}, mgl64.Vec3{})
	}
	if h, ok := s.heightAt(0, 0); !ok || h != 2 {
		t.Errorf("height at the centre %g (%v), want 2", h, ok)
	}
	if _, ok := s.heightAt(math.NaN(), 0); ok {
		t.Error("NaN is on the grid")
	}
}
