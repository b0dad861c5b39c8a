package decompose

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// Voxel states.
const (
	voxEmpty   = iota // not reached yet: inside once the outside is filled
	voxOutside        // reached from the grid's border
	voxSurface        // a triangle crosses it
	voxInside
)

// grid is the voxelized mesh: n[0] x n[1] x n[2] cubes of edge size from
// origin, with a margin of one empty voxel on every side.
type grid struct {
	n      [3]int
	origin mgl64.Vec3
	size   float64
	state  []uint8
	// triStart and triList list, for each surface voxel, the triangles
	// crossing it: triList[triStart[i]:triStart[i+1]] for voxel index i
	// in surf order; surfIndex maps a voxel to that order.
	surfIndex map[int32]int32
	triStart  []int32
	triList   []int32
	solid     int
	inside    int
	// mark and stamp serve components.
	mark  []int32
	stamp int32
}

func (g *grid) vol() float64 { return g.size * g.size * g.size }

func (g *grid) index(x, y, z int) int32 { return int32(x + g.n[0]*(y+g.n[1]*z)) }

func (g *grid) coords(v int32) (x, y, z int) {
	i := int(v)
	x = i % g.n[0]
	i /= g.n[0]
	return x, i % g.n[1], i / g.n[1]
}

// corner returns the position of lattice point (x, y, z): the low corner
// of voxel (x, y, z).
func (g *grid) corner(x, y, z int) mgl64.Vec3 {
	return g.origin.Add(mgl64.Vec3{float64(x), float64(y), float64(z)}.Mul(g.size))
}

// voxelAt returns the voxel holding p.
func (g *grid) voxelAt(p mgl64.Vec3) (int32, bool) {
	var c [3]int
	for k := 0; k < 3; k++ {
		c[k] = int(math.Floor((p[k] - g.origin[k]) / g.size))
		if c[k] < 0 || c[k] >= g.n[k] {
			return 0, false
		}
	}
	return g.index(c[0], c[1], c[2]), true
}

// trisOf returns the triangles crossing surface voxel v.
func (g *grid) trisOf(v int32) []int32 {
	i, ok := g.surfIndex[v]
	if !ok {
		return nil
	}
	return g.triList[g.triStart[i]:g.triStart[i+1]]
}

// voxelize builds the grid for the triangles with about res voxels.
func voxelize(ctx context.Context, pos []mgl64.Vec3, tris [][3]uint32, res int) (*grid, error) {
	lo := mgl64.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := lo.Mul(-1)
	for _, t := range tris {
		for _, i := range t {
			for k := 0; k < 3; k++ {
				lo[k], hi[k] = math.Min(lo[k], pos[i][k]), math.Max(hi[k], pos[i][k])
			}
		}
	}
	ext := hi.Sub(lo)
	big := math.Max(ext[0], math.Max(ext[1], ext[2]))
	if !(big > 0) {
		return nil, errors.New("the mesh has no extent")
	}
	dims := func(s float64) ([3]int, int) {
		var n [3]int
		total := 1
		for k := 0; k < 3; k++ {
			n[k] = int(math.Ceil(ext[k]/s)) + 2
			if ext[k]/s > 1<<20 {
				n[k] = 1 << 21
			}
			total *= n[k]
		}
		return n, total
	}
	// The largest voxel count not above res: start where a cube would
	// have res voxels and shrink the voxels while the count stays below.
	s := big / math.Cbrt(float64(res))
	for {
		if _, t := dims(s); t > res {
			break
		}
		ns := s * 0.97
		if _, t := dims(ns); t > res {
			break
		}
		s = ns
	}
	for {
		if _, t := dims(s); t <= res {
			break
		}
		s *= 1.03
	}
	n, total := dims(s)
	mid := lo.Add(hi).Mul(0.5)
	g := &grid{n: n, size: s, state: make([]uint8, total)}
	for k := 0; k < 3; k++ {
		g.origin[k] = mid[k] - float64(n[k])*s/2
	}

	// Surface: every voxel a triangle crosses, as (voxel, triangle) pairs
	// gathered per chunk of triangles on every core.
	chunks := (len(tris) + 4095) / 4096
	pairs := make([][][2]int32, chunks)
	parallel(chunks, func(c int) {
		if ctx.Err() != nil {
			return
		}
		var out [][2]int32
		for t := c * 4096; t < min(len(tris), (c+1)*4096); t++ {
			a, b, cc := pos[tris[t][0]], pos[tris[t][1]], pos[tris[t][2]]
			var vlo, vhi [3]int
			for k := 0; k < 3; k++ {
				m0 := math.Min(a[k], math.Min(b[k], cc[k]))
				m1 := math.Max(a[k], math.Max(b[k], cc[k]))
				vlo[k] = max(0, int(math.Floor((m0-g.origin[k])/s)))
				vhi[k] = min(n[k]-1, int(math.Floor((m1-g.origin[k])/s)))
			}
			half := mgl64.Vec3{s / 2, s / 2, s / 2}
			for z := vlo[2]; z <= vhi[2]; z++ {
				for y := vlo[1]; y <= vhi[1]; y++ {
					for x := vlo[0]; x <= vhi[0]; x++ {
						centre := g.corner(x, y, z).Add(half)
						if triBoxOverlap(centre, half, a, b, cc) {
							out = append(out, [2]int32{g.index(x, y, z), int32(t)})
						}
					}
				}
			}
		}
		pairs[c] = out
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var all [][2]int32
	for _, p := range pairs {
		all = append(all, p...)
	}
	slices.SortFunc(all, func(a, b [2]int32) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	g.surfIndex = map[int32]int32{}
	for i, p := range all {
		if i == 0 || all[i-1][0] != p[0] {
			g.surfIndex[p[0]] = int32(len(g.triStart))
			g.triStart = append(g.triStart, int32(len(g.triList)))
			g.state[p[0]] = voxSurface
		}
		g.triList = append(g.triList, p[1])
	}
	g.triStart = append(g.triStart, int32(len(g.triList)))

	// Outside: everything reached from the border without crossing the
	// surface. What is left is inside.
	stack := []int32{0}
	g.state[0] = voxOutside
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y, z := g.coords(v)
		for _, d := range [6][3]int{{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}} {
			nx, ny, nz := x+d[0], y+d[1], z+d[2]
			if nx < 0 || ny < 0 || nz < 0 || nx >= n[0] || ny >= n[1] || nz >= n[2] {
				continue
			}
			w := g.index(nx, ny, nz)
			if g.state[w] == voxEmpty {
				g.state[w] = voxOutside
				stack = append(stack, w)
			}
		}
	}
	for i, st := range g.state {
		switch st {
		case voxEmpty:
			g.state[i] = voxInside
			g.inside++
			g.solid++
		case voxSurface:
			g.solid++
		}
	}
	return g, nil
}

// neighbours6 calls f with each face neighbour of v inside the grid.
func (g *grid) neighbours6(v int32, f func(w int32)) {
	x, y, z := g.coords(v)
	if x > 0 {
		f(v - 1)
	}
	if x < g.n[0]-1 {
		f(v + 1)
	}
	sy, sz := int32(g.n[0]), int32(g.n[0]*g.n[1])
	if y > 0 {
		f(v - sy)
	}
	if y < g.n[1]-1 {
		f(v + sy)
	}
	if z > 0 {
		f(v - sz)
	}
	if z < g.n[2]-1 {
		f(v + sz)
	}
}

// boundary reports whether voxel v has a face neighbour not in set.
func (g *grid) boundary(v int32, in func(int32) bool) bool {
	out := false
	g.neighbours6(v, func(w int32) {
		if !in(w) {
			out = true
		}
	})
	return out
}

// components splits vox into its face-connected pieces. It marks voxels
// in g.mark (one int32 a voxel, kept between calls: each call takes the
// next stamp), so it must not run on two goroutines at once.
func (g *grid) components(vox []int32) [][]int32 {
	if g.mark == nil {
		g.mark = make([]int32, len(g.state))
	}
	if g.stamp > math.MaxInt32-3 {
		clear(g.mark)
		g.stamp = 0
	}
	member, seen := g.stamp+1, g.stamp+2
	g.stamp += 2
	for _, v := range vox {
		g.mark[v] = member
	}
	var out [][]int32
	for _, v := range vox {
		if g.mark[v] != member {
			continue
		}
		g.mark[v] = seen
		comp := []int32{v}
		for q := 0; q < len(comp); q++ {
			g.neighbours6(comp[q], func(w int32) {
				if g.mark[w] == member {
					g.mark[w] = seen
					comp = append(comp, w)
				}
			})
		}
		out = append(out, comp)
	}
	return out
}

// bounds returns the voxel coordinate bounds of vox.
func (g *grid) bounds(vox []int32) (lo, hi [3]int) {
	lo = [3]int{math.MaxInt, math.MaxInt, math.MaxInt}
	hi = [3]int{-1, -1, -1}
	for _, v := range vox {
		x, y, z := g.coords(v)
		c := [3]int{x, y, z}
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = min(lo[k], c[k]), max(hi[k], c[k])
		}
	}
	return lo, hi
}

// split divides vox by the plane between voxel coordinates at-1 and at
// along axis.
func (g *grid) split(vox []int32, axis, at int) (below, above []int32) {
	for _, v := range vox {
		x, y, z := g.coords(v)
		if [3]int{x, y, z}[axis] < at {
			below = append(below, v)
		} else {
			above = append(above, v)
		}
	}
	return below, above
}

// extremeCorners returns a few of the corners of the voxels in vox that
// include every vertex of their convex hull: a hull vertex is, on each of
// the three lattice lines through it, the first or the last corner of the
// set, so only corners that are so on all three lines are kept.
func (g *grid) extremeCorners(vox []int32) []mgl64.Vec3 {
	lo, hi := g.bounds(vox)
	// Corner lattice of the bounds: m[k] points along axis k.
	m := [3]int{hi[0] - lo[0] + 2, hi[1] - lo[1] + 2, hi[2] - lo[2] + 2}
	type span struct{ lo, hi int32 }
	// rows[k] holds, for each lattice line along axis k (indexed by the
	// other two coordinates), the first and last corner on it.
	var rows [3][]span
	other := [3][2]int{{1, 2}, {0, 2}, {0, 1}}
	for k := 0; k < 3; k++ {
		rows[k] = make([]span, m[other[k][0]]*m[other[k][1]])
		for i := range rows[k] {
			rows[k][i] = span{math.MaxInt32, -1}
		}
	}
	for _, v := range vox {
		x, y, z := g.coords(v)
		c := [3]int{x - lo[0], y - lo[1], z - lo[2]}
		for k := 0; k < 3; k++ {
			a, b := other[k][0], other[k][1]
			for da := 0; da < 2; da++ {
				for db := 0; db < 2; db++ {
					r := &rows[k][(c[a]+da)+m[a]*(c[b]+db)]
					r.lo = min(r.lo, int32(c[k]))
					r.hi = max(r.hi, int32(c[k]+1))
				}
			}
		}
	}
	isEnd := func(k int, c [3]int) bool {
		a, b := other[k][0], other[k][1]
		r := rows[k][c[a]+m[a]*c[b]]
		return int32(c[k]) == r.lo || int32(c[k]) == r.hi
	}
	var out []mgl64.Vec3
	for cz := 0; cz < m[2]; cz++ {
		for cy := 0; cy < m[1]; cy++ {
			r := rows[0][cy+m[1]*cz]
			if r.hi < 0 {
				continue
			}
			for _, cx := range []int32{r.lo, r.hi} {
				c := [3]int{int(cx), cy, cz}
				if isEnd(1, c) && isEnd(2, c) {
					out = append(out, g.corner(c[0]+lo[0], c[1]+lo[1], c[2]+lo[2]))
				}
			}
		}
	}
	return out
}

// triBoxOverlap reports whether triangle abc overlaps the box at centre
// with half extents half (the separating axis test of Akenine-Möller,
// "Fast 3D triangle-box overlap testing", 2001).
func triBoxOverlap(centre, half, a, b, c mgl64.Vec3) bool {
	v0, v1, v2 := a.Sub(centre), b.Sub(centre), c.Sub(centre)
	e := [3]mgl64.Vec3{v1.Sub(v0), v2.Sub(v1), v0.Sub(v2)}
	// The nine axes edge x box axis.
	for _, ed := range e {
		for k := 0; k < 3; k++ {
			var ax mgl64.Vec3
			ax[k] = 1
			axis := ed.Cross(ax)
			p0, p1, p2 := v0.Dot(axis), v1.Dot(axis), v2.Dot(axis)
			r := half[0]*math.Abs(axis[0]) + half[1]*math.Abs(axis[1]) + half[2]*math.Abs(axis[2])
			if math.Min(p0, math.Min(p1, p2)) > r || math.Max(p0, math.Max(p1, p2)) < -r {
				return false
			}
		}
	}
	// The box's own axes.
	for k := 0; k < 3; k++ {
		if math.Min(v0[k], math.Min(v1[k], v2[k])) > half[k] || math.Max(v0[k], math.Max(v1[k], v2[k])) < -half[k] {
			return false
		}
	}
	// The triangle's plane.
	nrm := e[0].Cross(e[1])
	d := nrm.Dot(v0)
	r := half[0]*math.Abs(nrm[0]) + half[1]*math.Abs(nrm[1]) + half[2]*math.Abs(nrm[2])
	return math.Abs(d) <= r
}
