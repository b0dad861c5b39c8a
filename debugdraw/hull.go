package debugdraw

import (
	"math"
	"sort"

	"github.com/go-gl/mathgl/mgl64"
)

// hullFace is a triangle of the hull, counter-clockwise seen from outside.
type hullFace struct {
	v     [3]int
	n     mgl64.Vec3
	d     float64
	alive bool
}

// HullEdges returns the edges of the convex hull of pts. Edges between
// coplanar hull triangles are left out, so a cube's hull has 12 edges.
// Flat point sets give the edges of their 2D hull.
func HullEdges(pts []mgl64.Vec3) [][2]mgl64.Vec3 {
	pts = dedupe(pts)
	if len(pts) < 2 {
		return nil
	}
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = math.Min(lo[k], p[k]), math.Max(hi[k], p[k])
		}
	}
	scale := hi.Sub(lo).Len()
	if scale == 0 {
		return nil
	}
	eps := 1e-9 * scale

	// Initial tetrahedron from extreme points.
	i0 := 0
	for i, p := range pts {
		if p[0] < pts[i0][0] {
			i0 = i
		}
	}
	i1 := farthest(pts, func(p mgl64.Vec3) float64 { return p.Sub(pts[i0]).Len() })
	dir := pts[i1].Sub(pts[i0]).Normalize()
	i2 := farthest(pts, func(p mgl64.Vec3) float64 {
		v := p.Sub(pts[i0])
		return v.Sub(dir.Mul(v.Dot(dir))).Len()
	})
	n := pts[i1].Sub(pts[i0]).Cross(pts[i2].Sub(pts[i0]))
	if n.Len() < eps*scale {
		return segmentHull(pts, pts[i0], dir)
	}
	n = n.Normalize()
	i3 := farthest(pts, func(p mgl64.Vec3) float64 { return math.Abs(p.Sub(pts[i0]).Dot(n)) })
	if math.Abs(pts[i3].Sub(pts[i0]).Dot(n)) < eps {
		return planarHull(pts, pts[i0], n)
	}

	var faces []hullFace
	addFace := func(a, b, c int) {
		nn := pts[b].Sub(pts[a]).Cross(pts[c].Sub(pts[a])).Normalize()
		faces = append(faces, hullFace{v: [3]int{a, b, c}, n: nn, d: nn.Dot(pts[a]), alive: true})
	}
	centroid := pts[i0].Add(pts[i1]).Add(pts[i2]).Add(pts[i3]).Mul(0.25)
	for _, f := range [][3]int{{i0, i1, i2}, {i0, i2, i3}, {i0, i3, i1}, {i1, i3, i2}} {
		a, b, c := f[0], f[1], f[2]
		nn := pts[b].Sub(pts[a]).Cross(pts[c].Sub(pts[a]))
		if nn.Dot(centroid.Sub(pts[a])) > 0 {
			b, c = c, b
		}
		addFace(a, b, c)
	}
	initial := map[int]bool{i0: true, i1: true, i2: true, i3: true}
	type edge struct{ a, b int }
	for pi, p := range pts {
		if initial[pi] {
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
				e := edge{v[k], v[(k+1)%3]}
				if !directed[edge{e.b, e.a}] {
					horizon = append(horizon, e)
				}
			}
			faces[fi].alive = false
		}
		for _, e := range horizon {
			addFace(e.a, e.b, pi)
		}
	}

	// Keep an edge when its two faces are not coplanar.
	normals := map[edge][]mgl64.Vec3{}
	for _, f := range faces {
		if !f.alive {
			continue
		}
		for k := 0; k < 3; k++ {
			a, b := f.v[k], f.v[(k+1)%3]
			if a > b {
				a, b = b, a
			}
			normals[edge{a, b}] = append(normals[edge{a, b}], f.n)
		}
	}
	var out [][2]mgl64.Vec3
	keys := make([]edge, 0, len(normals))
	for e := range normals {
		keys = append(keys, e)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].a != keys[j].a {
			return keys[i].a < keys[j].a
		}
		return keys[i].b < keys[j].b
	})
	for _, e := range keys {
		ns := normals[e]
		if len(ns) == 2 && ns[0].Dot(ns[1]) > 1-1e-9 {
			continue
		}
		out = append(out, [2]mgl64.Vec3{pts[e.a], pts[e.b]})
	}
	return out
}

func farthest(pts []mgl64.Vec3, dist func(mgl64.Vec3) float64) int {
	best, bd := 0, -1.0
	for i, p := range pts {
		if d := dist(p); d > bd {
			best, bd = i, d
		}
	}
	return best
}

// dedupe drops repeated points (meshes repeat vertices per face).
func dedupe(pts []mgl64.Vec3) []mgl64.Vec3 {
	seen := make(map[mgl64.Vec3]bool, len(pts))
	out := pts[:0:0]
	for _, p := range pts {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// segmentHull is the hull of collinear points: one segment.
func segmentHull(pts []mgl64.Vec3, o, dir mgl64.Vec3) [][2]mgl64.Vec3 {
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		if p.Sub(o).Dot(dir) < lo.Sub(o).Dot(dir) {
			lo = p
		}
		if p.Sub(o).Dot(dir) > hi.Sub(o).Dot(dir) {
			hi = p
		}
	}
	return [][2]mgl64.Vec3{{lo, hi}}
}

// planarHull is the outline of coplanar points (Andrew's monotone chain in
// the plane's own 2D basis).
func planarHull(pts []mgl64.Vec3, o, n mgl64.Vec3) [][2]mgl64.Vec3 {
	u := n.Cross(xAxis)
	if u.Len() < 1e-6 {
		u = n.Cross(yAxis)
	}
	u = u.Normalize()
	v := n.Cross(u)
	type p2 struct {
		x, y float64
		i    int
	}
	ps := make([]p2, len(pts))
	for i, p := range pts {
		d := p.Sub(o)
		ps[i] = p2{d.Dot(u), d.Dot(v), i}
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].x != ps[j].x {
			return ps[i].x < ps[j].x
		}
		return ps[i].y < ps[j].y
	})
	cross := func(o, a, b p2) float64 { return (a.x-o.x)*(b.y-o.y) - (a.y-o.y)*(b.x-o.x) }
	var hull []p2
	for pass := 0; pass < 2; pass++ {
		start := len(hull)
		for _, p := range ps {
			for len(hull) >= start+2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
				hull = hull[:len(hull)-1]
			}
			hull = append(hull, p)
		}
		hull = hull[:len(hull)-1]
		for i, j := 0, len(ps)-1; i < j; i, j = i+1, j-1 {
			ps[i], ps[j] = ps[j], ps[i]
		}
	}
	var out [][2]mgl64.Vec3
	for i := range hull {
		a, b := hull[i], hull[(i+1)%len(hull)]
		out = append(out, [2]mgl64.Vec3{pts[a.i], pts[b.i]})
	}
	return out
}
