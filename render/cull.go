package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// offScreen reports whether item it lies wholly outside the view volume
// of vp: the eight corners of its bounding box, in clip space, all beyond
// one of the six planes. Such an item draws no pixel, so skipping it
// changes none; on a software rasteriser its vertices are shaded and its
// triangles clipped on the one thread that issues the draws, a cost the
// smaller view of a close-up still paid. Items posed by skins, morph
// targets or instancing (dyn) are never culled: their box is not the
// primitive's.
func offScreen(it *drawItem, vp mgl32.Mat4) bool {
	if it.dyn != nil || it.prim == nil {
		return false
	}
	mvp := vp.Mul4(mat32(it.model))
	// outside[i] counts the corners beyond plane i: x < -w, x > w, y < -w,
	// y > w, z < -w, z > w.
	var outside [6]int
	for _, c := range it.prim.corners {
		p := mvp.Mul4x1(mgl32.Vec4{float32(c[0]), float32(c[1]), float32(c[2]), 1})
		// A corner counts as outside only by a margin of 0.1% of w, which
		// keeps float rounding on the safe side (drawing).
		w := p[3]
		m := 0.001 * float32(math.Abs(float64(w)))
		for k := 0; k < 3; k++ {
			if p[k]+w < -m {
				outside[2*k]++
			}
			if p[k]-w > m {
				outside[2*k+1]++
			}
		}
	}
	for _, n := range outside {
		if n == len(it.prim.corners) {
			return true
		}
	}
	return false
}
