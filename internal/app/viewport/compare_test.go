package viewport

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/app"
)

// TestCompareLines: each engine's track becomes a polyline in its colour,
// and no comparison draws nothing.
func TestCompareLines(t *testing.T) {
	if n := len(CompareLines(nil)); n != 0 {
		t.Fatalf("%d lines without a comparison", n)
	}
	c := &app.Comparison{Tracks: [][][]mgl64.Vec3{
		{{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}},
		{{{0, 0, 0}, {0, 1, 0}}},
	}}
	lines := CompareLines(c)
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 2 for the first engine and 1 for the second", len(lines))
	}
	for i, want := range []struct {
		b     [3]float32
		color [4]float32
	}{{[3]float32{1, 0, 0}, CompareColors[0]}, {[3]float32{2, 0, 0}, CompareColors[0]}, {[3]float32{0, 1, 0}, CompareColors[1]}} {
		if lines[i].B != want.b || lines[i].Color != want.color {
			t.Errorf("line %d = %+v, want to %v in %v", i, lines[i], want.b, want.color)
		}
	}
}
