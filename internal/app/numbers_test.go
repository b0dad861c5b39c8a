package app

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

func TestRoundSig(t *testing.T) {
	tests := []struct {
		v      float64
		digits int
		want   float64
	}{
		{2.1328173633587544, 4, 2.133},
		{0.000123456, 4, 0.0001235},
		{-98765.4, 3, -98800},
		{0, 4, 0},
	}
	for _, tc := range tests {
		if got := RoundSig(tc.v, tc.digits); got != tc.want {
			t.Errorf("RoundSig(%v, %d) = %v, want %v", tc.v, tc.digits, got, tc.want)
		}
	}
	if !math.IsNaN(RoundSig(math.NaN(), 4)) || !math.IsInf(RoundSig(math.Inf(1), 4), 1) {
		t.Error("NaN and infinity must pass through")
	}
}

// TestDecomposeTRS: what the gizmo hands back as a matrix becomes the
// translation, rotation and scale it was built from (float32 noise rounded).
func TestDecomposeTRS(t *testing.T) {
	q := mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 1, 0})
	m := mgl64.Translate3D(1, 2.5, -3).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(2, 0.5, 1))
	// The gizmo works in float32.
	for i := range m {
		m[i] = float64(float32(m[i]))
	}
	got := DecomposeTRS(m)
	want := scene.Transform{
		Translation: [3]float64{1, 2.5, -3},
		Rotation:    [4]float64{0, 0.707106781, 0, 0.707106781},
		Scale:       [3]float64{2, 0.5, 1},
	}
	if got != want {
		t.Errorf("decomposeTRS = %+v, want %+v", got, want)
	}
}
