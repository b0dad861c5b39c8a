package scene

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The plane: through the node's origin, normal +Y, solid below. glTF 2.1
// and KHR_implicit_shapes give it optional extents sizeX and sizeZ (kept in
// Size[0] and Size[2], 0 for an infinite one); KHR also doubleSided. It
// has no finite bounds: Bounds gives its origin, so framing a scene is not
// swamped by the square drawn of it.
func init() {
	registerShapeKind(ShapePlane, shapeKind{
		name: "plane",
		decode: func(s *Shape, p *reader, _ string, fs *findings, _ bool) {
			for _, k := range []struct {
				key string
				i   int
			}{{"sizeX", 0}, {"sizeZ", 2}} {
				if !p.has(k.key) {
					continue
				}
				v := p.number(k.key, 0)
				if v <= 0 {
					// The schema's exclusiveMinimum 0: infinite is written
					// by leaving the size out.
					fs.errorf(p.code("VALUE_NOT_IN_RANGE"), p.at(k.key), "plane %s = %g must be greater than 0 (leave it out for an infinite plane)", k.key, v)
					v = 0
				}
				s.Size[k.i] = v
			}
			s.DoubleSided = p.boolean("doubleSided", false)
		},
		encode: func(s Shape, p *writer) {
			if s.Size[0] > 0 {
				p.set("sizeX", s.Size[0])
			}
			if s.Size[2] > 0 {
				p.set("sizeZ", s.Size[2])
			}
			if s.DoubleSided {
				p.set("doubleSided", true)
			}
		},
		check: func(s Shape, _ int) error {
			for _, v := range []float64{s.Size[0], s.Size[2]} {
				if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("plane size must be a finite number above 0, or 0 for infinite (got %g)", v)
				}
			}
			return nil
		},
		params: func(s Shape) string {
			size := "infinite"
			switch {
			case s.Size[0] > 0 && s.Size[2] > 0:
				size = fmt.Sprintf("%g x %g", s.Size[0], s.Size[2])
			case s.Size[0] > 0:
				size = fmt.Sprintf("%g along X, infinite along Z", s.Size[0])
			case s.Size[2] > 0:
				size = fmt.Sprintf("infinite along X, %g along Z", s.Size[2])
			}
			sides := "one-sided"
			if s.DoubleSided {
				sides = "double-sided"
			}
			return fmt.Sprintf("normal +Y through the origin, %s, %s", size, sides)
		},
		distance: func(_ Shape, p, _, _ mgl64.Vec3) float64 {
			return p[1]
		},
	})
}
