package scene

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// The mesh kinds, convex (the hull of a glTF mesh) and trimesh (its
// triangles): Mesh. Their geometry here is the bounding box of the mesh,
// which the caller passes.
func init() {
	for _, t := range []ShapeType{ShapeConvex, ShapeTrimesh} {
		name := "convex"
		if t == ShapeTrimesh {
			name = "trimesh"
		}
		registerShapeKind(t, shapeKind{
			name: name,
			decode: func(s *Shape, p *reader, _ string, _ *findings, _ bool) {
				s.Mesh = p.index("mesh", -1)
			},
			encode: func(s Shape, p *writer) { p.set("mesh", s.Mesh) },
			validate: func(s Shape, sub string, fs *findings, meshCount int) {
				if s.Mesh < 0 {
					fs.errorf("OMI_UNDEFINED_PROPERTY", sub+"/mesh", "%s shape needs a mesh", s.Type)
				} else if s.Mesh >= meshCount {
					fs.errorf("OMI_UNRESOLVED_REFERENCE", sub+"/mesh", "mesh %d does not exist (the file has %d meshes)", s.Mesh, meshCount)
				}
			},
			check: func(s Shape, meshCount int) error {
				if s.Mesh < 0 || s.Mesh >= meshCount {
					return fmt.Errorf("%s shape needs a mesh (mesh %d does not exist; the file has %d)", s.Type, s.Mesh, meshCount)
				}
				return nil
			},
			params: func(s Shape) string { return fmt.Sprintf("mesh %d", s.Mesh) },
			distance: func(_ Shape, p, meshMin, meshMax mgl64.Vec3) float64 {
				c := meshMin.Add(meshMax).Mul(0.5)
				return boxDistance(p.Sub(c), meshMax.Sub(meshMin).Mul(0.5))
			},
			nearest: func(_ Shape, p, meshMin, meshMax mgl64.Vec3) mgl64.Vec3 {
				return clampBox(p, meshMin, meshMax)
			},
			bounds: func(_ Shape, meshMin, meshMax mgl64.Vec3) (lo, hi mgl64.Vec3) {
				return meshMin, meshMax
			},
			usesMesh: true,
		})
	}
}
