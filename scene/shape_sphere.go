package scene

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The sphere: Radius.
func init() {
	registerShapeKind(ShapeSphere, shapeKind{
		name:     "sphere",
		defaults: func(s *Shape) { s.Radius = 0.5 },
		decode: func(s *Shape, p *reader, _ string, _ *findings, _ bool) {
			s.Radius = p.number("radius", s.Radius)
		},
		encode: func(s Shape, p *writer) { p.set("radius", s.Radius) },
		validate: func(s Shape, sub string, fs *findings, _ int) {
			if s.Radius <= 0 {
				fs.errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/radius", "sphere radius %g must be greater than 0", s.Radius)
			}
		},
		check: func(s Shape, _ int) error {
			return checkPositive(s, "radius", s.Radius, false)
		},
		params: func(s Shape) string { return fmt.Sprintf("radius %g", s.Radius) },
		distance: func(s Shape, p, _, _ mgl64.Vec3) float64 {
			return p.Len() - s.Radius
		},
		nearest: func(s Shape, p, _, _ mgl64.Vec3) mgl64.Vec3 {
			if l := p.Len(); l > s.Radius {
				return p.Mul(s.Radius / l)
			}
			return p
		},
		bounds: func(s Shape, _, _ mgl64.Vec3) (lo, hi mgl64.Vec3) {
			r := s.Radius
			return mgl64.Vec3{-r, -r, -r}, mgl64.Vec3{r, r, r}
		},
		halfExtents: func(s Shape) [3]float64 {
			return [3]float64{s.Radius, s.Radius, s.Radius}
		},
		fromExtents: func(out *Shape, h [3]float64) {
			out.Radius = math.Max(math.Max(h[0], h[2]), h[1])
		},
		fitSize: func(s *Shape, size mgl64.Vec3) {
			s.Radius = fitMin(math.Max(size[0], math.Max(size[1], size[2])) / 2)
		},
		general: func(s Shape) (General, bool) {
			r := s.Radius
			return General{Curves: []Curve{{Radii: [3]float64{r, r, r}, Exponent: 2}}}, true
		},
	})
}
