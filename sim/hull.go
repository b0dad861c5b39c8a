package sim

import (
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// convexHull returns the convex hull ODE plays a convex shape as: the same
// hull debugdraw draws (scene.ConvexHull).
func convexHull(pts []mgl64.Vec3) (*scene.Hull, error) { return scene.ConvexHull(pts) }

// odeArrays returns the hull as ODE's dCreateConvex wants it.
func odeArrays(h *scene.Hull) (planes, points []float64, polygons []uint32) {
	for i, f := range h.Faces {
		n := h.Normals[i]
		planes = append(planes, n[0], n[1], n[2], h.Distance[i])
		polygons = append(polygons, 3, uint32(f[0]), uint32(f[1]), uint32(f[2]))
	}
	for _, p := range h.Points {
		points = append(points, p[0], p[1], p[2])
	}
	return planes, points, polygons
}
