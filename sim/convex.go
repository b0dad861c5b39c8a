package sim

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/sim/ode"
)

// centredConvexGeom makes the geom of a convex shape under world matrix m
// around the centroid of its hull, and returns that centroid in the node's
// (scaled) space: ODE's convex collider needs its origin inside the hull,
// and the parts of a compound sit anywhere in their node's space.
func (s *Sim) centredConvexGeom(sh scene.Shape, m mgl64.Mat4, sf ode.Surface) (engineGeom, mgl64.Vec3, error) {
	pts, _, err := s.meshPoints(sh.Mesh)
	if err != nil {
		return nil, mgl64.Vec3{}, err
	}
	_, _, sc := rigid(m)
	pts = scaled(pts, sc)
	h, err := convexHull(pts)
	if err != nil {
		return nil, mgl64.Vec3{}, err
	}
	_, c, _ := hullMass(h)
	moved := make([]mgl64.Vec3, len(h.Points))
	for i, p := range h.Points {
		moved[i] = p.Sub(c)
	}
	g, err := s.convexGeom(moved, sf)
	return g, c, err
}

// hullMass returns a closed hull's volume, centroid and inertia per unit
// mass about the centroid (tetrahedra from an inner point: each adds
// v/20 (aaᵀ + bbᵀ + ccᵀ + ssᵀ), s = a + b + c, to the second moment).
func hullMass(h *scene.Hull) (vol float64, centroid mgl64.Vec3, inertia mgl64.Mat3) {
	var o mgl64.Vec3
	for _, p := range h.Points {
		o = o.Add(p)
	}
	o = o.Mul(1 / float64(len(h.Points)))
	var first mgl64.Vec3
	var second mgl64.Mat3
	for _, f := range h.Faces {
		a, b, c := h.Points[f[0]].Sub(o), h.Points[f[1]].Sub(o), h.Points[f[2]].Sub(o)
		v := a.Dot(b.Cross(c)) / 6
		sum := a.Add(b).Add(c)
		vol += v
		first = first.Add(sum.Mul(v / 4))
		second = second.Add(outer(a, a).Add(outer(b, b)).Add(outer(c, c)).Add(outer(sum, sum)).Mul(v / 20))
	}
	if !(vol > 0) || math.IsInf(vol, 0) {
		return 0, o, mgl64.Mat3{}
	}
	m := first.Mul(1 / vol)
	cov := second.Sub(outer(m, m).Mul(vol)).Mul(1 / vol)
	tr := cov.At(0, 0) + cov.At(1, 1) + cov.At(2, 2)
	inertia = mgl64.Diag3(mgl64.Vec3{tr, tr, tr}).Sub(cov)
	return vol, o.Add(m), inertia
}
