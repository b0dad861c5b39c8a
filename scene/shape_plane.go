package scene

import "github.com/go-gl/mathgl/mgl64"

// The G4MF plane: infinite, through the node's origin, normal +Y, solid
// below. It has no parameters and no finite bounds: Bounds gives its
// origin, so framing a scene is not swamped by the square drawn of it.
func init() {
	registerShapeKind(ShapePlane, shapeKind{
		name:   "plane",
		params: func(Shape) string { return "normal +Y through the origin" },
		distance: func(_ Shape, p, _, _ mgl64.Vec3) float64 {
			return p[1]
		},
	})
}
