// Package meshgen makes the plain meshes the render tests and the large
// scene generator (render/testdata/large/gen.go) share: a cube and a UV
// sphere of a chosen size.
package meshgen

import "math"

// Cube is a unit cube of 24 vertices (flat normals) and 36 indices.
func Cube() (pos, nrm [][3]float32, idx []uint32) {
	for f := 0; f < 6; f++ {
		axis, sign := f/2, float32(1-2*(f%2))
		var n [3]float32
		n[axis] = sign
		u, v := (axis+1)%3, (axis+2)%3
		base := uint32(len(pos))
		for _, c := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			var p [3]float32
			p[axis] = sign * 0.5
			p[u], p[v] = c[0]*0.5, c[1]*0.5
			pos, nrm = append(pos, p), append(nrm, n)
		}
		if sign > 0 {
			idx = append(idx, base, base+1, base+2, base, base+2, base+3)
		} else {
			idx = append(idx, base, base+2, base+1, base, base+3, base+2)
		}
	}
	return pos, nrm, idx
}

// Sphere is a UV sphere of radius 0.4 with about verts vertices.
func Sphere(verts int) (pos, nrm [][3]float32, idx []uint32) {
	ring := int(math.Max(2, math.Sqrt(float64(verts)/2)))
	seg := 2 * ring
	for r := 0; r <= ring; r++ {
		th := math.Pi * float64(r) / float64(ring)
		for s := 0; s <= seg; s++ {
			ph := 2 * math.Pi * float64(s) / float64(seg)
			v := [3]float32{float32(math.Sin(th) * math.Cos(ph)), float32(math.Cos(th)), float32(math.Sin(th) * math.Sin(ph))}
			pos, nrm = append(pos, [3]float32{v[0] * 0.4, v[1] * 0.4, v[2] * 0.4}), append(nrm, v)
		}
	}
	for r := 0; r < ring; r++ {
		for s := 0; s < seg; s++ {
			a := uint32(r*(seg+1) + s)
			b := a + uint32(seg) + 1
			idx = append(idx, a, b, a+1, a+1, b, b+1)
		}
	}
	return pos, nrm, idx
}
