package debugdraw

import (
	"math"
	"sort"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// HullEdges returns the edges of the convex hull of pts (scene.ConvexHull,
// the hull Play simulates). Edges between coplanar hull triangles are left
// out, so a cube's hull has 12 edges. Flat point sets give the edges of
// their 2D hull.
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

	h, err := scene.ConvexHull(pts)
	if err != nil {
		return nil
	}
	return h.Edges()
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
