package scene

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The G4MF heightmap: Size[0] x Size[2] samples one metre apart, centred on
// the node, Heights along +Y (X varying fastest); solid below its surface
// over the grid.
func init() {
	registerShapeKind(ShapeHeightmap, shapeKind{
		name: "heightmap",
		defaults: func(s *Shape) {
			s.Size = [3]float64{2, 1, 2}
			s.Heights = []float64{0, 0, 0, 0}
		},
		decode: func(s *Shape, p *reader, _ string, _ *findings, _ bool) {
			s.Size = p.vec3("size", s.Size)
			if hs, ok := p.numbers("heights"); ok {
				s.Heights = hs
			}
		},
		encode: func(s Shape, p *writer) {
			p.set("size", s.Size)
			hs := s.Heights
			if hs == nil {
				hs = []float64{}
			}
			p.set("heights", hs)
		},
		validate: func(s Shape, sub string, fs *findings, _ int) {
			nx, nz := s.Size[0], s.Size[2]
			if nx != math.Trunc(nx) || nz != math.Trunc(nz) || nx < 2 || nz < 2 {
				fs.errorf("OMI_TYPE_MISMATCH", sub+"/size", "heightmap size %v must hold whole numbers of samples, at least 2 along X and Z", s.Size)
			} else if len(s.Heights) != int(nx)*int(nz) {
				fs.errorf("OMI_UNDEFINED_PROPERTY", sub+"/heights", "heightmap of %g x %g samples needs %d heights, has %d", nx, nz, int(nx)*int(nz), len(s.Heights))
			}
		},
		params: func(s Shape) string {
			return fmt.Sprintf("%g x %g samples, 1 m apart", s.Size[0], s.Size[2])
		},
		distance: func(s Shape, p, _, _ mgl64.Vec3) float64 {
			if h, ok := s.heightAt(p[0], p[2]); ok {
				return p[1] - h
			}
			return math.Inf(1)
		},
		bounds: func(s Shape, _, _ mgl64.Vec3) (lo, hi mgl64.Vec3) {
			nx, nz := s.Size[0], s.Size[2]
			lo = mgl64.Vec3{-(nx - 1) / 2, 0, -(nz - 1) / 2}
			hi = mgl64.Vec3{(nx - 1) / 2, 0, (nz - 1) / 2}
			for i, h := range s.Heights {
				if i == 0 || h < lo[1] {
					lo[1] = h
				}
				if i == 0 || h > hi[1] {
					hi[1] = h
				}
			}
			return lo, hi
		},
	})
}
