// Package concave builds closed triangle meshes of concave solids (an L,
// a U, a torus, a cup) for the convex decomposition's tests, benchmarks and
// fixtures, with an exact inside test for measuring coverage.
// go generate writes the fixture files in testdata (gen/main.go).
package concave

//go:generate go run ./gen

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Mesh is a closed triangle mesh, counter-clockwise seen from outside.
type Mesh struct {
	Pos  []mgl64.Vec3
	Tris [][3]uint32
}

// Polycube returns the closed surface of unit cubes of edge size at the
// given integer cells: one quad (two triangles) per face between a cell
// and a free one.
func Polycube(cells [][3]int, size float64) Mesh {
	in := map[[3]int]bool{}
	for _, c := range cells {
		in[c] = true
	}
	var m Mesh
	index := map[[3]int]uint32{}
	vert := func(p [3]int) uint32 {
		if i, ok := index[p]; ok {
			return i
		}
		i := uint32(len(m.Pos))
		index[p] = i
		m.Pos = append(m.Pos, mgl64.Vec3{float64(p[0]), float64(p[1]), float64(p[2])}.Mul(size))
		return i
	}
	for _, c := range cells {
		for axis := 0; axis < 3; axis++ {
			for _, dir := range []int{-1, 1} {
				nb := c
				nb[axis] += dir
				if in[nb] {
					continue
				}
				// The face's four corners, counter-clockwise seen from
				// the side dir points to.
				u, v := (axis+1)%3, (axis+2)%3
				base := c
				if dir > 0 {
					base[axis]++
				}
				q := [4][3]int{base, base, base, base}
				q[1][u]++
				q[2][u]++
				q[2][v]++
				q[3][v]++
				if dir < 0 {
					q[1], q[3] = q[3], q[1]
				}
				a, b, cc, d := vert(q[0]), vert(q[1]), vert(q[2]), vert(q[3])
				m.Tris = append(m.Tris, [3]uint32{a, b, cc}, [3]uint32{a, cc, d})
			}
		}
	}
	return m
}

// L is an L standing in the XY plane: 3 by 3 cells with arms 1 cell
// thick, 1 cell deep, cells of 0.5 m; x from -0.75 to 0.75, y from 0 to
// 1.5, z from -0.25 to 0.25 (the origin is the middle of its base).
func L() Mesh {
	return Polycube([][3]int{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 2, 0}}, 0.5).Moved(mgl64.Vec3{-0.75, 0, -0.25})
}

// U is a U standing in the XY plane: 3 cells wide, 3 tall, the middle
// column open above the base (the gap is x in -0.25..0.25, y in 0.5..1.5),
// cells of 0.5 m, placed as L.
func U() Mesh {
	return Polycube([][3]int{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 2, 0}, {2, 1, 0}, {2, 2, 0}}, 0.5).Moved(mgl64.Vec3{-0.75, 0, -0.25})
}

// Moved returns the mesh moved by v.
func (m Mesh) Moved(v mgl64.Vec3) Mesh {
	out := Mesh{Tris: m.Tris}
	for _, p := range m.Pos {
		out.Pos = append(out.Pos, p.Add(v))
	}
	return out
}

// Revolve returns the closed surface swept by a closed profile of (r, y)
// points turned around the Y axis in segs steps. Points with r = 0 lie on
// the axis and become one vertex.
func Revolve(profile [][2]float64, segs int) Mesh {
	var m Mesh
	rings := make([][]uint32, len(profile))
	for i, p := range profile {
		if p[0] == 0 {
			rings[i] = []uint32{uint32(len(m.Pos))}
			m.Pos = append(m.Pos, mgl64.Vec3{0, p[1], 0})
			continue
		}
		for s := 0; s < segs; s++ {
			a := 2 * math.Pi * float64(s) / float64(segs)
			rings[i] = append(rings[i], uint32(len(m.Pos)))
			m.Pos = append(m.Pos, mgl64.Vec3{p[0] * math.Cos(a), p[1], -p[0] * math.Sin(a)})
		}
	}
	at := func(r []uint32, s int) uint32 { return r[s%len(r)] }
	for i := range profile {
		r0, r1 := rings[i], rings[(i+1)%len(profile)]
		for s := 0; s < segs; s++ {
			a, b := at(r0, s), at(r0, s+1)
			c, d := at(r1, s+1), at(r1, s)
			if a != b {
				m.Tris = append(m.Tris, [3]uint32{a, b, c})
			}
			if c != d {
				m.Tris = append(m.Tris, [3]uint32{a, c, d})
			}
		}
	}
	if m.Volume() < 0 {
		for i := range m.Tris {
			m.Tris[i][1], m.Tris[i][2] = m.Tris[i][2], m.Tris[i][1]
		}
	}
	return m
}

// Torus is a ring around Y of major radius 1 m and tube radius 0.3 m.
func Torus() Mesh {
	var prof [][2]float64
	const n = 16
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / n
		prof = append(prof, [2]float64{1 + 0.3*math.Cos(a), 0.3 * math.Sin(a)})
	}
	return Revolve(prof, 32)
}

// Cup is a cup 0.1 m tall of outer radius 0.05 m, walls and bottom 8 mm
// thick, open at the top, standing on y = 0.
func Cup() Mesh {
	return Revolve([][2]float64{{0, 0}, {0.05, 0}, {0.05, 0.1}, {0.042, 0.1}, {0.042, 0.008}, {0, 0.008}}, 32)
}

// Volume returns the enclosed volume (negative if the mesh is inside out).
func (m Mesh) Volume() float64 {
	v := 0.0
	for _, t := range m.Tris {
		v += m.Pos[t[0]].Dot(m.Pos[t[1]].Cross(m.Pos[t[2]])) / 6
	}
	return v
}

// Bounds returns the mesh's bounding box.
func (m Mesh) Bounds() (lo, hi mgl64.Vec3) {
	lo, hi = m.Pos[0], m.Pos[0]
	for _, p := range m.Pos {
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = math.Min(lo[k], p[k]), math.Max(hi[k], p[k])
		}
	}
	return lo, hi
}

// Inside reports whether p is inside the closed mesh: a ray in a generic
// direction crosses its surface an odd number of times.
func (m Mesh) Inside(p mgl64.Vec3) bool {
	dir := mgl64.Vec3{0.8017, 0.4179, 0.4271}.Normalize()
	n := 0
	for _, t := range m.Tris {
		if rayHits(p, dir, m.Pos[t[0]], m.Pos[t[1]], m.Pos[t[2]]) {
			n++
		}
	}
	return n%2 == 1
}

// rayHits is the Möller-Trumbore ray-triangle test.
func rayHits(o, d, a, b, c mgl64.Vec3) bool {
	e1, e2 := b.Sub(a), c.Sub(a)
	p := d.Cross(e2)
	det := e1.Dot(p)
	if math.Abs(det) < 1e-14 {
		return false
	}
	inv := 1 / det
	s := o.Sub(a)
	u := s.Dot(p) * inv
	if u < 0 || u > 1 {
		return false
	}
	q := s.Cross(e1)
	v := d.Dot(q) * inv
	if v < 0 || u+v > 1 {
		return false
	}
	return e2.Dot(q)*inv > 0
}

// Big returns a closed mesh of at least n triangles: a torus tessellated
// finely enough.
func Big(n int) Mesh {
	segs := int(math.Ceil(math.Sqrt(float64(n) / 2)))
	var prof [][2]float64
	for i := 0; i < segs; i++ {
		a := 2 * math.Pi * float64(i) / float64(segs)
		prof = append(prof, [2]float64{1 + 0.3*math.Cos(a), 0.3 * math.Sin(a)})
	}
	return Revolve(prof, segs)
}
