package scene

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// The box: Size is its full extent along X, Y and Z.
func init() {
	registerShapeKind(ShapeBox, shapeKind{
		name:     "box",
		defaults: func(s *Shape) { s.Size = [3]float64{1, 1, 1} },
		decode: func(s *Shape, p *reader, _ string, _ *findings, _ bool) {
			s.Size = p.vec3("size", s.Size)
		},
		encode: func(s Shape, p *writer) { p.set("size", s.Size) },
		validate: func(s Shape, sub string, fs *findings, _ int) {
			for i, v := range s.Size {
				if v <= 0 {
					fs.errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/size", "box size[%d] = %g must be greater than 0", i, v)
				}
			}
		},
		check: func(s Shape, _ int) error {
			for i, v := range s.Size {
				if err := checkPositive(s, "size "+"xyz"[i:i+1], v, false); err != nil {
					return err
				}
			}
			return nil
		},
		params: func(s Shape) string {
			return fmt.Sprintf("size %g x %g x %g", s.Size[0], s.Size[1], s.Size[2])
		},
		distance: func(s Shape, p, _, _ mgl64.Vec3) float64 {
			return boxDistance(p, mgl64.Vec3{s.Size[0] / 2, s.Size[1] / 2, s.Size[2] / 2})
		},
		nearest: func(s Shape, p, _, _ mgl64.Vec3) mgl64.Vec3 {
			h := mgl64.Vec3{s.Size[0] / 2, s.Size[1] / 2, s.Size[2] / 2}
			return clampBox(p, h.Mul(-1), h)
		},
		bounds: func(s Shape, _, _ mgl64.Vec3) (lo, hi mgl64.Vec3) {
			h := mgl64.Vec3{s.Size[0] / 2, s.Size[1] / 2, s.Size[2] / 2}
			return h.Mul(-1), h
		},
		halfExtents: func(s Shape) [3]float64 {
			return [3]float64{s.Size[0] / 2, s.Size[1] / 2, s.Size[2] / 2}
		},
		fromExtents: func(out *Shape, h [3]float64) {
			out.Size = [3]float64{2 * h[0], 2 * h[1], 2 * h[2]}
		},
		fitSize: func(s *Shape, size mgl64.Vec3) {
			s.Size = [3]float64{fitMin(size[0]), fitMin(size[1]), fitMin(size[2])}
		},
		general: func(s Shape) (General, bool) { return General{Size: s.Size}, true },
	})
}
