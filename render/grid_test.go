package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestGridStep: the ground grid's spacing is the power of ten fitted to
// the scene's size, and a size a hair under a power of ten (a quantized or
// Draco copy of a 2 m model measures 1.999 m) keeps the original's
// spacing instead of dropping to a tenth of it.
func TestGridStep(t *testing.T) {
	tests := []struct {
		name string
		size float64
		step float64
	}{
		{"2 m", 2, 1},
		{"2 m quantized (1.999 m)", 1.999, 1},
		{"2 m through 8-bit meshopt (1.985 m)", 1.985, 1},
		{"1.9 m", 1.9, 0.1},
		{"20 m", 20, 10},
		{"0.5 m", 0.5, 0.1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.size / 2
			lines := gridLines(mgl64.Vec3{-h, 0, -h}, mgl64.Vec3{h, 1, h})
			if len(lines) < 4 {
				t.Fatalf("%d lines", len(lines))
			}
			if got := float64(lines[2].A[0] - lines[0].A[0]); math.Abs(got-tc.step) > 1e-6*tc.step {
				t.Errorf("step %g, want %g", got, tc.step)
			}
		})
	}
}
