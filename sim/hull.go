package sim

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// hull is a convex polyhedron in the form ODE's convex geom takes.
type hull struct {
	points   []mgl64.Vec3
	faces    [][3]int // counter-clockwise seen from outside
	normals  []mgl64.Vec3
	distance []float64 // plane: normal · p = distance
}

// convexHull returns the convex hull of pts as triangles (incremental
// algorithm; shapes have at most a few hundred points). Flat or degenerate
// point sets are an error: ODE needs a solid.
func convexHull(pts []mgl64.Vec3) (*hull, error) {
	if len(pts) < 4 {
		return nil, errors.New("a convex shape needs at least 4 points")
	}
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = math.Min(lo[k], p[k]), math.Max(hi[k], p[k])
		}
	}
	size := hi.Sub(lo).Len()
	if size == 0 || math.IsNaN(size) || math.IsInf(size, 0) {
		return nil, errors.New("the convex shape's points are all the same or not finite")
	}
	eps := 1e-9 * size
	far := func(f func(mgl64.Vec3) float64) int {
		best, bd := 0, -1.0
		for i, p := range pts {
			if d := f(p); d > bd {
				best, bd = i, d
			}
		}
		return best
	}
	i0 := far(func(p mgl64.Vec3) float64 { return -p[0] })
	i1 := far(func(p mgl64.Vec3) float64 { return p.Sub(pts[i0]).Len() })
	dir := pts[i1].Sub(pts[i0]).Normalize()
	i2 := far(func(p mgl64.Vec3) float64 {
		v := p.Sub(pts[i0])
		return v.Sub(dir.Mul(v.Dot(dir))).Len()
	})
	n := pts[i1].Sub(pts[i0]).Cross(pts[i2].Sub(pts[i0]))
	if n.Len() < eps*size {
		return nil, errors.New("the convex shape's points lie on a line")
	}
	n = n.Normalize()
	i3 := far(func(p mgl64.Vec3) float64 { return math.Abs(p.Sub(pts[i0]).Dot(n)) })
	if math.Abs(pts[i3].Sub(pts[i0]).Dot(n)) < eps {
		return nil, errors.New("the convex shape's points lie in a plane")
	}
	type face struct {
		v     [3]int
		n     mgl64.Vec3
		d     float64
		alive bool
	}
	var faces []face
	add := func(a, b, c int) {
		nn := pts[b].Sub(pts[a]).Cross(pts[c].Sub(pts[a])).Normalize()
		faces = append(faces, face{[3]int{a, b, c}, nn, nn.Dot(pts[a]), true})
	}
	centroid := pts[i0].Add(pts[i1]).Add(pts[i2]).Add(pts[i3]).Mul(0.25)
	for _, f := range [][3]int{{i0, i1, i2}, {i0, i2, i3}, {i0, i3, i1}, {i1, i3, i2}} {
		a, b, c := f[0], f[1], f[2]
		if pts[b].Sub(pts[a]).Cross(pts[c].Sub(pts[a])).Dot(centroid.Sub(pts[a])) > 0 {
			b, c = c, b
		}
		add(a, b, c)
	}
	type edge struct{ a, b int }
	for pi, p := range pts {
		if pi == i0 || pi == i1 || pi == i2 || pi == i3 {
			continue
		}
		var visible []int
		for fi := range faces {
			if faces[fi].alive && faces[fi].n.Dot(p)-faces[fi].d > eps {
				visible = append(visible, fi)
			}
		}
		if len(visible) == 0 {
			continue
		}
		directed := map[edge]bool{}
		for _, fi := range visible {
			v := faces[fi].v
			for k := 0; k < 3; k++ {
				directed[edge{v[k], v[(k+1)%3]}] = true
			}
		}
		var horizon []edge
		for _, fi := range visible {
			v := faces[fi].v
			for k := 0; k < 3; k++ {
				if e := (edge{v[k], v[(k+1)%3]}); !directed[edge{e.b, e.a}] {
					horizon = append(horizon, e)
				}
			}
			faces[fi].alive = false
		}
		for _, e := range horizon {
			add(e.a, e.b, pi)
		}
	}
	// Keep only the points the faces use, renumbered.
	h := &hull{}
	index := map[int]int{}
	for _, f := range faces {
		if !f.alive {
			continue
		}
		var t [3]int
		for k, v := range f.v {
			j, ok := index[v]
			if !ok {
				j = len(h.points)
				index[v] = j
				h.points = append(h.points, pts[v])
			}
			t[k] = j
		}
		h.faces = append(h.faces, t)
		h.normals = append(h.normals, f.n)
		h.distance = append(h.distance, f.d)
	}
	return h, nil
}

// odeArrays returns the hull as ODE's dCreateConvex wants it.
func (h *hull) odeArrays() (planes, points []float64, polygons []uint32) {
	for i, f := range h.faces {
		n := h.normals[i]
		planes = append(planes, n[0], n[1], n[2], h.distance[i])
		polygons = append(polygons, 3, uint32(f[0]), uint32(f[1]), uint32(f[2]))
	}
	for _, p := range h.points {
		points = append(points, p[0], p[1], p[2])
	}
	return planes, points, polygons
}

// volume returns the hull's volume (for the inertia of convex shapes).
func (h *hull) volume() float64 {
	v := 0.0
	for _, f := range h.faces {
		a, b, c := h.points[f[0]], h.points[f[1]], h.points[f[2]]
		v += a.Dot(b.Cross(c)) / 6
	}
	return v
}
