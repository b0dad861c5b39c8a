package scene

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// Hull is a convex polyhedron as triangles, each counter-clockwise seen
// from outside with its outward plane (Normals[i] · p = Distance[i]).
// Convex shapes are drawn from it (debugdraw) and played as it (sim).
type Hull struct {
	Points   []mgl64.Vec3
	Faces    [][3]int
	Normals  []mgl64.Vec3
	Distance []float64
}

// MaxHullPoints bounds the points ConvexHull works on: a larger set is first
// reduced to its support points in that many directions spread over the
// sphere (each one a hull vertex). Engines keep far fewer hull points.
const MaxHullPoints = 2048

// ConvexHull returns the convex hull of pts (an incremental hull). Repeated
// points are dropped first, and a point within 1e-7 of the set's size of a
// face's plane counts as on it, so meshes with many coplanar or nearly
// coplanar vertices (a subdivided box, a latitude-longitude sphere) give a
// clean hull in bounded time. Fewer than four distinct points, or points on
// a line or in a plane, are an error: the hull has no volume.
func ConvexHull(pts []mgl64.Vec3) (*Hull, error) {
	pts = dedupePoints(pts)
	if len(pts) < 4 {
		return nil, errors.New("a convex shape needs at least 4 distinct points")
	}
	if len(pts) > MaxHullPoints {
		pts = supportPoints(pts, MaxHullPoints)
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
	// Farthest from the middle first: the corners of a subdivided box come
	// before the points on its faces and edges, which then lie on the hull
	// so far and are skipped instead of becoming vertices of zero-area
	// triangles.
	mid := lo.Add(hi).Mul(0.5)
	pts = slices.Clone(pts)
	slices.SortStableFunc(pts, func(a, b mgl64.Vec3) int {
		return cmp.Compare(b.Sub(mid).Len(), a.Sub(mid).Len())
	})
	// A tolerance that lets a degenerate face through makes the hull grow
	// without end; then a coarser one is tried (points that close to a
	// face count as on it: the hull shrinks by at most that much).
	var err error
	for _, tol := range []float64{1e-7, 1e-5, 1e-3} {
		var h *Hull
		if h, err = hullWithin(pts, size, tol*size); err == nil {
			return h, nil
		}
	}
	return nil, err
}

// hullWithin builds the hull of pts (sorted farthest first, size their
// extent) treating points within eps of a face's plane as on it.
func hullWithin(pts []mgl64.Vec3, size, eps float64) (*Hull, error) {
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
	type edge struct{ a, b int }
	var faces []face
	// owner finds the face on the other side of an edge: the face whose
	// directed edge (b, a) is the twin of (a, b).
	owner := map[edge]int{}
	add := func(a, b, c int) {
		nn := pts[b].Sub(pts[a]).Cross(pts[c].Sub(pts[a])).Normalize()
		fi := len(faces)
		faces = append(faces, face{[3]int{a, b, c}, nn, nn.Dot(pts[a]), true})
		owner[edge{a, b}], owner[edge{b, c}], owner[edge{c, a}] = fi, fi, fi
	}
	centroid := pts[i0].Add(pts[i1]).Add(pts[i2]).Add(pts[i3]).Mul(0.25)
	for _, f := range [][3]int{{i0, i1, i2}, {i0, i2, i3}, {i0, i3, i1}, {i1, i3, i2}} {
		a, b, c := f[0], f[1], f[2]
		if pts[b].Sub(pts[a]).Cross(pts[c].Sub(pts[a])).Dot(centroid.Sub(pts[a])) > 0 {
			b, c = c, b
		}
		add(a, b, c)
	}
	alive := 4
	for pi, p := range pts {
		if pi == i0 || pi == i1 || pi == i2 || pi == i3 {
			continue
		}
		dist := func(fi int) float64 { return faces[fi].n.Dot(p) - faces[fi].d }
		best, bd := -1, eps
		for fi := range faces {
			if faces[fi].alive {
				if d := dist(fi); d > bd {
					best, bd = fi, d
				}
			}
		}
		if best < 0 {
			continue
		}
		// The faces p sees, grown from the one it sees best across shared
		// edges, so the region is one connected cap whose border is a
		// single loop even when the tolerance makes visibility ragged.
		visible := []int{best}
		seen := map[int]bool{best: true}
		for q := 0; q < len(visible); q++ {
			v := faces[visible[q]].v
			for k := 0; k < 3; k++ {
				nb, ok := owner[edge{v[(k+1)%3], v[k]}]
				if ok && faces[nb].alive && !seen[nb] && dist(nb) > eps {
					seen[nb] = true
					visible = append(visible, nb)
				}
			}
		}
		var horizon []edge
		for _, fi := range visible {
			v := faces[fi].v
			for k := 0; k < 3; k++ {
				e := edge{v[k], v[(k+1)%3]}
				if nb, ok := owner[edge{e.b, e.a}]; !ok || !seen[nb] {
					horizon = append(horizon, e)
				}
			}
		}
		for _, fi := range visible {
			faces[fi].alive = false
			v := faces[fi].v
			for k := 0; k < 3; k++ {
				if e := (edge{v[k], v[(k+1)%3]}); owner[e] == fi {
					delete(owner, e)
				}
			}
		}
		alive += len(horizon) - len(visible)
		for _, e := range horizon {
			add(e.a, e.b, pi)
		}
		// A hull of n points has at most 2n - 4 faces; more means the
		// tolerance let a degenerate face through: stop rather than grow.
		if alive > 2*len(pts) {
			return nil, errors.New("the convex hull did not converge (degenerate points)")
		}
	}
	h := &Hull{}
	index := map[int]int{}
	for _, f := range faces {
		if !f.alive {
			continue
		}
		var t [3]int
		for k, v := range f.v {
			j, ok := index[v]
			if !ok {
				j = len(h.Points)
				index[v] = j
				h.Points = append(h.Points, pts[v])
			}
			t[k] = j
		}
		h.Faces = append(h.Faces, t)
		h.Normals = append(h.Normals, f.n)
		h.Distance = append(h.Distance, f.d)
	}
	return h, nil
}

// Volume returns the hull's volume.
func (h *Hull) Volume() float64 {
	v := 0.0
	for _, f := range h.Faces {
		a, b, c := h.Points[f[0]], h.Points[f[1]], h.Points[f[2]]
		v += a.Dot(b.Cross(c)) / 6
	}
	return v
}

// Edges returns the hull's edges, leaving out those between coplanar
// triangles (a cube's hull has 12).
func (h *Hull) Edges() [][2]mgl64.Vec3 {
	type edge struct{ a, b int }
	normals := map[edge][]mgl64.Vec3{}
	var order []edge
	for i, f := range h.Faces {
		for k := 0; k < 3; k++ {
			a, b := f[k], f[(k+1)%3]
			if a > b {
				a, b = b, a
			}
			e := edge{a, b}
			if _, ok := normals[e]; !ok {
				order = append(order, e)
			}
			normals[e] = append(normals[e], h.Normals[i])
		}
	}
	var out [][2]mgl64.Vec3
	for _, e := range order {
		ns := normals[e]
		if len(ns) == 2 && ns[0].Dot(ns[1]) > 1-1e-9 {
			continue
		}
		out = append(out, [2]mgl64.Vec3{h.Points[e.a], h.Points[e.b]})
	}
	return out
}

// dedupePoints drops repeated points (meshes repeat vertices per face).
func dedupePoints(pts []mgl64.Vec3) []mgl64.Vec3 {
	seen := make(map[mgl64.Vec3]bool, len(pts))
	out := make([]mgl64.Vec3, 0, len(pts))
	for _, p := range pts {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// supportPoints returns the distinct points of pts farthest along n
// directions spread over the sphere (a Fibonacci lattice).
func supportPoints(pts []mgl64.Vec3, n int) []mgl64.Vec3 {
	golden := math.Pi * (3 - math.Sqrt(5))
	seen := map[int]bool{}
	var out []mgl64.Vec3
	for i := 0; i < n; i++ {
		y := 1 - 2*(float64(i)+0.5)/float64(n)
		r := math.Sqrt(1 - y*y)
		a := golden * float64(i)
		d := mgl64.Vec3{r * math.Cos(a), y, r * math.Sin(a)}
		best, bd := 0, math.Inf(-1)
		for j, p := range pts {
			if v := p.Dot(d); v > bd {
				best, bd = j, v
			}
		}
		if !seen[best] {
			seen[best] = true
			out = append(out, pts[best])
		}
	}
	return out
}
