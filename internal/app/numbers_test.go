package app

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

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
