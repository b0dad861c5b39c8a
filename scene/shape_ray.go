package scene

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The G4MF ray: from the node's origin along -Y, Length metres. It has no
// inside.
func init() {
	registerShapeKind(ShapeRay, shapeKind{
		name:     "ray",
		defaults: func(s *Shape) { s.Length = 1 },
		decode: func(s *Shape, p *reader, _ string, _ *findings, _ bool) {
			s.Length = p.number("length", s.Length)
		},
		encode: func(s Shape, p *writer) { p.set("length", s.Length) },
		validate: func(s Shape, sub string, fs *findings, _ int) {
			if !(s.Length > 0) || math.IsInf(s.Length, 0) {
				fs.errorf("OMI_TYPE_MISMATCH", sub+"/length", "ray length %g must be a finite positive number", s.Length)
			}
		},
		params: func(s Shape) string { return fmt.Sprintf("length %g along -Y", s.Length) },
		distance: func(s Shape, p, _, _ mgl64.Vec3) float64 {
			t := mgl64.Clamp(-p[1], 0, s.Length)
			return p.Sub(mgl64.Vec3{0, -t, 0}).Len()
		},
		bounds: func(s Shape, _, _ mgl64.Vec3) (lo, hi mgl64.Vec3) {
			return mgl64.Vec3{0, -s.Length, 0}, mgl64.Vec3{}
		},
	})
}
