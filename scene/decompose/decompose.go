// Package decompose splits a closed triangle mesh into convex parts that
// together follow its shape (an approximate convex decomposition), for
// compound colliders of concave objects that must move: a chair, a cup, a
// ring, a U-shaped bracket.
//
// It follows the approach of V-HACD (Mamou, "Volumetric Hierarchical
// Approximate Convex Decomposition", Game Engine Gems 3, 2016), written
// here in Go:
//
//  1. the mesh is voxelized at a resolution (a number of voxels) and its
//     inside filled: every voxel is outside, on the surface or inside;
//  2. the solid is cut, recursively, by axis-aligned planes between voxels,
//     each cut the one that leaves the least concavity (the volume of a
//     part's convex hull minus the part's own volume) in its two sides;
//     a side that falls apart is split into its connected pieces. The part
//     with the most concavity is cut first, until every part's concavity is
//     small or there are enough parts;
//  3. neighbouring parts are merged while the merged hull stays nearly as
//     full as the two parts, and until at most MaxHulls remain;
//  4. each part's hull is built from points on the mesh's surface (and the
//     corners of the inner voxels along its cuts), and reduced to at most
//     MaxVertices vertices by keeping, face by face, the points farthest
//     out (quickhull with a budget).
//
// The convex hull itself is passed in (Options.Hull): the scene package
// has it.
package decompose

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/guard"
)

// Hull is a convex polyhedron as triangles, each counter-clockwise seen
// from outside with its outward plane (Normals[i] · p = Distance[i]); the
// same fields as scene.Hull, so one converts to the other.
type Hull struct {
	Points   []mgl64.Vec3
	Faces    [][3]int
	Normals  []mgl64.Vec3
	Distance []float64
}

// HullFunc returns the convex hull of points, or an error when they span
// no volume.
type HullFunc func(pts []mgl64.Vec3) (*Hull, error)

// Options control a decomposition. Zero values take the defaults.
type Options struct {
	// MaxHulls caps the number of parts (default 16, at most MaxParts).
	MaxHulls int
	// MaxVertices caps each hull's vertices (default 64, 4 to 255: OMI's
	// limit for a convex mesh).
	MaxVertices int
	// Resolution is the number of voxels the mesh's bounds are divided
	// into (default 100,000, 1,000 to MaxResolution).
	Resolution int
	// Concavity is how much hull volume beyond a part's own volume is
	// accepted, as a fraction of the whole solid's volume (default 0.01):
	// a part with more is cut further, two parts merge when their merged
	// hull adds less.
	Concavity float64
	// Hull computes convex hulls; required.
	Hull HullFunc
}

// Limits of the options.
const (
	MaxParts      = 256
	MaxVertexCap  = 255
	MaxResolution = 4_000_000
)

// Defaults fills in the zero options and checks the others.
func (o Options) Defaults() (Options, error) {
	if o.MaxHulls == 0 {
		o.MaxHulls = 16
	}
	if o.MaxVertices == 0 {
		o.MaxVertices = 64
	}
	if o.Resolution == 0 {
		o.Resolution = 100_000
	}
	if o.Concavity == 0 {
		o.Concavity = 0.01
	}
	switch {
	case o.MaxHulls < 1 || o.MaxHulls > MaxParts:
		return o, fmt.Errorf("max hulls %d is out of range (1 to %d)", o.MaxHulls, MaxParts)
	case o.MaxVertices < 4 || o.MaxVertices > MaxVertexCap:
		return o, fmt.Errorf("max vertices %d is out of range (4 to %d)", o.MaxVertices, MaxVertexCap)
	case o.Resolution < 1000 || o.Resolution > MaxResolution:
		return o, fmt.Errorf("resolution %d is out of range (1000 to %d voxels)", o.Resolution, MaxResolution)
	case !(o.Concavity > 0 && o.Concavity <= 1):
		return o, fmt.Errorf("concavity %g is out of range (above 0, at most 1)", o.Concavity)
	case o.Hull == nil:
		return o, errors.New("no convex hull function")
	}
	return o, nil
}

// Part is one convex piece of a decomposition.
type Part struct {
	// Points are the vertices of the part's convex hull (at most
	// MaxVertices), in the mesh's space.
	Points []mgl64.Vec3
	// Hull is their convex hull.
	Hull *Hull
	// Voxels is the number of voxels of the solid the part stands for.
	Voxels int
}

// Result is a decomposition.
type Result struct {
	Parts []Part
	// VoxelSize is the edge of one voxel; SolidVoxels the voxels of the
	// solid (surface and inside).
	VoxelSize   float64
	SolidVoxels int
	// Closed reports whether the mesh enclosed a volume at the voxel
	// resolution (otherwise only its surface shell was decomposed).
	Closed bool

	g *grid
}

// Solid reports whether p lies in a voxel of the solid (on the surface or
// inside): the solid as the decomposition saw it, for measuring a mesh
// that is not closed.
func (r *Result) Solid(p mgl64.Vec3) bool {
	v, ok := r.g.voxelAt(p)
	return ok && (r.g.state[v] == voxSurface || r.g.state[v] == voxInside)
}

// Decompose splits the triangles (index triples into pos) into convex
// parts. It stops with ctx's error when ctx is cancelled.
func Decompose(ctx context.Context, pos []mgl64.Vec3, tris [][3]uint32, o Options) (*Result, error) {
	o, err := o.Defaults()
	if err != nil {
		return nil, err
	}
	if len(tris) == 0 {
		return nil, errors.New("the mesh has no triangles")
	}
	for _, t := range tris {
		for _, i := range t {
			if int(i) >= len(pos) {
				return nil, fmt.Errorf("triangle index %d is past the %d vertices", i, len(pos))
			}
		}
	}
	for _, p := range pos {
		for _, c := range p {
			if math.IsNaN(c) || math.IsInf(c, 0) {
				return nil, errors.New("the mesh has positions that are not finite numbers")
			}
		}
	}
	g, err := voxelize(ctx, pos, tris, o.Resolution)
	if err != nil {
		return nil, err
	}
	dc := &decomposer{g: g, o: o, ctx: ctx}
	parts, err := dc.run()
	if err != nil {
		return nil, err
	}
	res := &Result{VoxelSize: g.size, SolidVoxels: g.solid, Closed: g.inside > 0, g: g}
	out := make([]Part, len(parts))
	errs := make([]error, len(parts))
	// owner[v] is 1 + the part voxel v is in (the parts do not overlap).
	owner := make([]int32, len(g.state))
	for i, p := range parts {
		for _, v := range p.vox {
			owner[v] = int32(i + 1)
		}
	}
	parallel(len(parts), func(i int) {
		out[i], errs[i] = dc.finalHull(parts[i], func(v int32) bool { return owner[v] == int32(i+1) }, pos, tris)
	})
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	res.Parts = out
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

// parallel runs f(0..n-1) on every core.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	guard.Each(n, workers, f)
}

// part is a set of solid voxels with its proxy hull: the hull of the
// voxels' corners, which is what cutting and merging measure.
type part struct {
	vox       []int32
	hullPts   []mgl64.Vec3
	hullVol   float64
	concavity float64
}

type decomposer struct {
	g   *grid
	o   Options
	ctx context.Context
	// total is the solid's volume; maxConcavity the concavity a part may
	// keep (Options.Concavity of total).
	total, maxConcavity float64
}

func (dc *decomposer) run() ([]*part, error) {
	g := dc.g
	var all []int32
	for i, s := range g.state {
		if s == voxSurface || s == voxInside {
			all = append(all, int32(i))
		}
	}
	if len(all) == 0 {
		return nil, errors.New("the mesh fills no voxel")
	}
	dc.total = float64(len(all)) * g.vol()
	dc.maxConcavity = dc.o.Concavity * dc.total
	var parts []*part
	for _, c := range g.components(all) {
		p, err := dc.newPart(c)
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	// Cut the most concave part first while any is too concave and there
	// is room: twice the hulls wanted, so merging has choices.
	limit := min(2*dc.o.MaxHulls+2, MaxParts)
	for len(parts) < limit {
		if err := dc.ctx.Err(); err != nil {
			return nil, err
		}
		worst := -1
		for i, p := range parts {
			if p.concavity > dc.maxConcavity && len(p.vox) > 1 && (worst < 0 || p.concavity > parts[worst].concavity) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		sides, err := dc.cut(parts[worst])
		if err != nil {
			return nil, err
		}
		if sides == nil {
			// No cut helps: leave the part as it is.
			parts[worst].concavity = 0
			continue
		}
		parts = slices.Delete(parts, worst, worst+1)
		parts = append(parts, sides...)
	}
	return dc.merge(parts)
}

// newPart measures a voxel set.
func (dc *decomposer) newPart(vox []int32) (*part, error) {
	pts := dc.g.extremeCorners(vox)
	h, err := dc.o.Hull(pts)
	if err != nil {
		return nil, fmt.Errorf("convex hull of a part: %w", err)
	}
	v := h.volume()
	return &part{vox: vox, hullPts: h.Points, hullVol: v, concavity: math.Max(0, v-float64(len(vox))*dc.g.vol())}, nil
}

// concavityOf returns the concavity of a voxel set (-1 if it is empty).
func (dc *decomposer) concavityOf(vox []int32) float64 {
	if len(vox) == 0 {
		return -1
	}
	h, err := dc.o.Hull(dc.g.extremeCorners(vox))
	if err != nil {
		return 0
	}
	return math.Max(0, h.volume()-float64(len(vox))*dc.g.vol())
}

// cut splits p by the axis-aligned plane that leaves the least concavity,
// each side split into its connected pieces. It returns nil when no plane
// gives two non-empty sides.
func (dc *decomposer) cut(p *part) ([]*part, error) {
	g := dc.g
	lo, hi := g.bounds(p.vox)
	type cand struct {
		axis, at int
		score    float64
	}
	var cands []cand
	for axis := 0; axis < 3; axis++ {
		n := hi[axis] - lo[axis] + 1
		if n < 2 {
			continue
		}
		step := max(1, n/16)
		for at := lo[axis] + step; at <= hi[axis]; at += step {
			cands = append(cands, cand{axis: axis, at: at})
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	longest := max(hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2]) + 1
	score := func(cs []cand) {
		parallel(len(cs), func(i int) {
			c := &cs[i]
			if dc.ctx.Err() != nil {
				c.score = math.Inf(1)
				return
			}
			a, b := g.split(p.vox, c.axis, c.at)
			ca, cb := dc.concavityOf(a), dc.concavityOf(b)
			if ca < 0 || cb < 0 {
				c.score = math.Inf(1)
				return
			}
			// Between cuts that leave as much concavity, the more even one
			// across the part's longer extent: a ring is cut into arcs, not
			// into thinner rings.
			balance := math.Abs(float64(len(a)-len(b))) / float64(len(p.vox))
			across := 1 - float64(hi[c.axis]-lo[c.axis]+1)/float64(longest)
			c.score = ca + cb + (0.05*balance+0.1*across)*p.concavity
		})
	}
	score(cands)
	if err := dc.ctx.Err(); err != nil {
		return nil, err
	}
	best := 0
	for i, c := range cands {
		if c.score < cands[best].score {
			best = i
		}
	}
	// The planes were tried every step voxels: try every voxel around the
	// best one (the corner of an L is rarely on the coarse grid).
	b := cands[best]
	step := max(1, (hi[b.axis]-lo[b.axis]+1)/16)
	var fine []cand
	for at := max(lo[b.axis]+1, b.at-step+1); at <= min(hi[b.axis], b.at+step-1); at++ {
		if at != b.at {
			fine = append(fine, cand{axis: b.axis, at: at})
		}
	}
	score(fine)
	if err := dc.ctx.Err(); err != nil {
		return nil, err
	}
	cands = append(cands, fine...)
	for i, c := range cands {
		if c.score < cands[best].score {
			best = i
		}
	}
	// The best cut is taken even when it leaves as much concavity (a ring
	// cut in two is two half rings as hollow): the cuts after it help.
	if math.IsInf(cands[best].score, 1) {
		return nil, nil
	}
	a, bv := g.split(p.vox, cands[best].axis, cands[best].at)
	var out []*part
	for _, side := range [][]int32{a, bv} {
		for _, c := range g.components(side) {
			np, err := dc.newPart(c)
			if err != nil {
				return nil, err
			}
			out = append(out, np)
		}
	}
	return out, nil
}

// merge joins the pair of parts whose merged hull adds the least volume,
// while that is under the concavity allowed or there are more parts than
// MaxHulls.
func (dc *decomposer) merge(parts []*part) ([]*part, error) {
	type pair struct {
		i, j int
		cost float64
		pts  []mgl64.Vec3
		vol  float64
	}
	vox := dc.g.vol()
	mergeCost := func(a, b *part) (float64, []mgl64.Vec3, float64) {
		pts := append(slices.Clone(a.hullPts), b.hullPts...)
		h, err := dc.o.Hull(pts)
		if err != nil {
			return math.Inf(1), nil, 0
		}
		v := h.volume()
		return v - float64(len(a.vox)+len(b.vox))*vox, h.Points, v
	}
	// costs[i][j] for i < j, computed once and refreshed for merged parts.
	costs := map[[2]*part]pair{}
	key := func(a, b *part) [2]*part { return [2]*part{a, b} }
	fill := func() {
		var todo [][2]int
		for i := range parts {
			for j := i + 1; j < len(parts); j++ {
				if _, ok := costs[key(parts[i], parts[j])]; !ok {
					todo = append(todo, [2]int{i, j})
				}
			}
		}
		res := make([]pair, len(todo))
		parallel(len(todo), func(k int) {
			a, b := parts[todo[k][0]], parts[todo[k][1]]
			c, pts, v := mergeCost(a, b)
			res[k] = pair{cost: c, pts: pts, vol: v}
		})
		for k, t := range todo {
			costs[key(parts[t[0]], parts[t[1]])] = res[k]
		}
	}
	for len(parts) > 1 {
		if err := dc.ctx.Err(); err != nil {
			return nil, err
		}
		fill()
		bi, bj := -1, -1
		var best pair
		for i := range parts {
			for j := i + 1; j < len(parts); j++ {
				c := costs[key(parts[i], parts[j])]
				if bi < 0 || c.cost < best.cost {
					bi, bj, best = i, j, c
				}
			}
		}
		if len(parts) <= dc.o.MaxHulls && best.cost > dc.maxConcavity {
			break
		}
		if math.IsInf(best.cost, 1) {
			break
		}
		a, b := parts[bi], parts[bj]
		m := &part{vox: append(slices.Clone(a.vox), b.vox...), hullPts: best.pts, hullVol: best.vol, concavity: math.Max(0, best.cost)}
		parts = slices.Delete(parts, bj, bj+1)
		parts[bi] = m
	}
	return parts, nil
}

// finalHull builds part p's hull from the mesh surface inside it and the
// inner voxels along its cuts (in reports a voxel of p), reduced to
// MaxVertices vertices.
func (dc *decomposer) finalHull(p *part, in func(int32) bool, pos []mgl64.Vec3, tris [][3]uint32) (Part, error) {
	g := dc.g
	seen := map[[3]int64]bool{}
	var pts []mgl64.Vec3
	q := g.size / 64 // points closer than this are one
	addPt := func(x mgl64.Vec3) {
		k := [3]int64{int64(math.Round(x[0] / q)), int64(math.Round(x[1] / q)), int64(math.Round(x[2] / q))}
		if !seen[k] {
			seen[k] = true
			pts = append(pts, x)
		}
	}
	for _, v := range p.vox {
		x, y, z := g.coords(v)
		switch g.state[v] {
		case voxSurface:
			for _, t := range g.trisOf(v) {
				tri := tris[t]
				a, b, c := pos[tri[0]], pos[tri[1]], pos[tri[2]]
				for k := 0; k < 8; k++ {
					corner := g.corner(x+k&1, y+(k>>1)&1, z+(k>>2)&1)
					addPt(closestOnTriangle(corner, a, b, c))
				}
				for _, w := range []mgl64.Vec3{a, b, c} {
					if vi, ok := g.voxelAt(w); ok && in(vi) {
						addPt(w)
					}
				}
			}
		case voxInside:
			if g.boundary(v, in) {
				for k := 0; k < 8; k++ {
					addPt(g.corner(x+k&1, y+(k>>1)&1, z+(k>>2)&1))
				}
			}
		}
	}
	h, err := dc.reduce(pts)
	if err != nil {
		// A sliver of surface with no volume: use the voxels' own hull.
		h, err = dc.reduce(p.hullPts)
		if err != nil {
			return Part{}, fmt.Errorf("convex hull of a part: %w", err)
		}
	}
	return Part{Points: h.Points, Hull: h, Voxels: len(p.vox)}, nil
}

// reduce returns the hull of at most MaxVertices of pts: starting from the
// extreme points along 26 directions, the point farthest outside each face
// joins, farthest first, until none is more than a thousandth of the
// points' extent outside or the budget is spent.
func (dc *decomposer) reduce(pts []mgl64.Vec3) (*Hull, error) {
	if len(pts) < 4 {
		return nil, errors.New("fewer than 4 points")
	}
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = math.Min(lo[k], p[k]), math.Max(hi[k], p[k])
		}
	}
	tol := 1e-3 * hi.Sub(lo).Len()
	budget := dc.o.MaxVertices
	chosen := map[int]bool{}
	var cur []mgl64.Vec3
	for dx := -1.0; dx <= 1; dx++ {
		for dy := -1.0; dy <= 1; dy++ {
			for dz := -1.0; dz <= 1; dz++ {
				if dx == 0 && dy == 0 && dz == 0 {
					continue
				}
				d := mgl64.Vec3{dx, dy, dz}
				best, bd := 0, math.Inf(-1)
				for i, p := range pts {
					if v := p.Dot(d); v > bd {
						best, bd = i, v
					}
				}
				if !chosen[best] {
					chosen[best] = true
					cur = append(cur, pts[best])
				}
			}
		}
	}
	if len(cur) > budget {
		// Fewer vertices than directions: the six axis extremes first.
		cur = cur[:budget]
	}
	h, err := dc.o.Hull(cur)
	if err != nil {
		h, err = dc.o.Hull(pts)
		if err != nil {
			return nil, err
		}
		if len(h.Points) <= budget {
			return h, nil
		}
		cur = h.Points[:budget]
		if h, err = dc.o.Hull(cur); err != nil {
			return nil, err
		}
	}
	for len(h.Points) < budget {
		type far struct {
			i int
			d float64
		}
		best := make([]far, len(h.Faces))
		for f := range best {
			best[f] = far{-1, tol}
		}
		for i, p := range pts {
			for f := range h.Faces {
				if d := h.Normals[f].Dot(p) - h.Distance[f]; d > best[f].d {
					best[f] = far{i, d}
				}
			}
		}
		var add []far
		got := map[int]bool{}
		for _, b := range best {
			if b.i >= 0 && !got[b.i] {
				got[b.i] = true
				add = append(add, b)
			}
		}
		if len(add) == 0 {
			break
		}
		slices.SortFunc(add, func(a, b far) int { return -cmpFloat(a.d, b.d) })
		room := budget - len(h.Points)
		if len(add) > room {
			add = add[:room]
		}
		next := slices.Clone(h.Points)
		for _, a := range add {
			next = append(next, pts[a.i])
		}
		nh, err := dc.o.Hull(next)
		if err != nil {
			break
		}
		h = nh
	}
	return h, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// volume returns the hull's volume.
func (h *Hull) volume() float64 {
	v := 0.0
	for _, f := range h.Faces {
		a, b, c := h.Points[f[0]], h.Points[f[1]], h.Points[f[2]]
		v += a.Dot(b.Cross(c)) / 6
	}
	return v
}

// closestOnTriangle returns the point of triangle abc closest to p
// (Ericson, Real-Time Collision Detection, 5.1.5).
func closestOnTriangle(p, a, b, c mgl64.Vec3) mgl64.Vec3 {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return a.Add(ab.Mul(d1 / (d1 - d3)))
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return a.Add(ac.Mul(d2 / (d2 - d6)))
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return b.Add(c.Sub(b).Mul((d4 - d3) / ((d4 - d3) + (d5 - d6))))
	}
	den := 1 / (va + vb + vc)
	v, w := vb*den, vc*den
	if math.IsNaN(v) || math.IsNaN(w) {
		return a // a degenerate triangle
	}
	return a.Add(ab.Mul(v)).Add(ac.Mul(w))
}

// ReduceHull returns the convex hull of at most maxVertices (4 to
// MaxVertexCap) of pts, chosen as a decomposition chooses each part's:
// the extreme points along 26 directions, then the point farthest outside
// each face, farthest first, until none is more than a thousandth of the
// points' extent outside or the budget is spent. Fit convex uses it so a
// collider over a 14,000-vertex mesh is a hull engines take.
func ReduceHull(pts []mgl64.Vec3, maxVertices int, hull HullFunc) (*Hull, error) {
	if maxVertices < 4 || maxVertices > MaxVertexCap {
		return nil, fmt.Errorf("max vertices %d is out of range (4 to %d)", maxVertices, MaxVertexCap)
	}
	if hull == nil {
		return nil, errors.New("no convex hull function")
	}
	dc := &decomposer{o: Options{MaxVertices: maxVertices, Hull: hull}}
	return dc.reduce(pts)
}
