package debugdraw

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// General is a G4MF general shape in 3D; its geometry lives in scene.
type General = scene.General

// Curve is one curve of a general shape (see scene.Curve).
type Curve = scene.Curve

// Taper is one section of a tapered curve (see scene.Taper).
type Taper = scene.Taper

// GeneralShape draws a general shape by sampling its support function: the
// outlines in the three principal planes and latitude curves at +-30 and
// +-60 degrees, all on its surface.
func GeneralShape(g General, m mgl64.Mat4, color [4]float32) []Line {
	l := &lines{m: m, color: color}
	trace := func(dir func(a float64) mgl64.Vec3) {
		prev, _ := g.Support(dir(0))
		for i := 1; i <= Segments; i++ {
			p, _ := g.Support(dir(2 * math.Pi * float64(i) / Segments))
			if p != prev {
				l.seg(prev, p)
			}
			prev = p
		}
	}
	trace(func(a float64) mgl64.Vec3 { return mgl64.Vec3{math.Cos(a), math.Sin(a), 0} })
	trace(func(a float64) mgl64.Vec3 { return mgl64.Vec3{0, math.Sin(a), math.Cos(a)} })
	trace(func(a float64) mgl64.Vec3 { return mgl64.Vec3{math.Cos(a), 0, math.Sin(a)} })
	for _, lat := range []float64{-math.Pi / 3, -math.Pi / 6, math.Pi / 6, math.Pi / 3} {
		c, s := math.Cos(lat), math.Sin(lat)
		trace(func(a float64) mgl64.Vec3 { return mgl64.Vec3{c * math.Cos(a), s, c * math.Sin(a)} })
	}
	return l.out
}

// Plane draws a plane through the node's origin with normal +Y: a square of
// the given side (planes are infinite; this is how much of it to show) and
// the normal as an arrow.
func Plane(m mgl64.Mat4, side float64, color [4]float32) []Line {
	l := &lines{m: m, color: color}
	plane(l, side)
	o := m.Mul4x1(mgl64.Vec4{0, 0, 0, 1}).Vec3()
	n := m.Mul4x1(mgl64.Vec4{0, side * 0.1, 0, 1}).Vec3()
	return append(l.out, Arrow(o, n, color)...)
}

// PlaneShape draws plane shape s: the rectangle of its sizeX and sizeZ (the
// square of side PlaneDrawSide along an infinite extent) with its +Y
// normal as an arrow, and for a double-sided plane an arrow down too.
func PlaneShape(s scene.Shape, m mgl64.Mat4, color [4]float32) []Line {
	sx, sz := s.Size[0], s.Size[2]
	if !(sx > 0) {
		sx = scene.PlaneDrawSide
	}
	if !(sz > 0) {
		sz = scene.PlaneDrawSide
	}
	l := &lines{m: m, color: color}
	c := []mgl64.Vec3{{-sx / 2, 0, -sz / 2}, {sx / 2, 0, -sz / 2}, {sx / 2, 0, sz / 2}, {-sx / 2, 0, sz / 2}}
	for i := range c {
		l.seg(c[i], c[(i+1)%4])
	}
	arrow := math.Max(0.25, 0.1*math.Max(sx, sz))
	o := m.Mul4x1(mgl64.Vec4{0, 0, 0, 1}).Vec3()
	out := append(l.out, Arrow(o, m.Mul4x1(mgl64.Vec4{0, arrow, 0, 1}).Vec3(), color)...)
	if s.DoubleSided {
		out = append(out, Arrow(o, m.Mul4x1(mgl64.Vec4{0, -arrow, 0, 1}).Vec3(), color)...)
	}
	return out
}

// plane draws the square shown of a plane.
func plane(l *lines, side float64) {
	h := side / 2
	c := []mgl64.Vec3{{-h, 0, -h}, {h, 0, -h}, {h, 0, h}, {-h, 0, h}}
	for i := range c {
		l.seg(c[i], c[(i+1)%4])
	}
}

// Ray draws a ray from the node's origin along -Y (G4MF's direction; XODE
// rays are mapped onto it) of the given length, with an arrowhead.
func Ray(m mgl64.Mat4, length float64, color [4]float32) []Line {
	o := m.Mul4x1(mgl64.Vec4{0, 0, 0, 1}).Vec3()
	e := m.Mul4x1(mgl64.Vec4{0, -length, 0, 1}).Vec3()
	return Arrow(o, e, color)
}

// heightmap draws the grid lines of a heightmap through its samples.
func heightmap(l *lines, s scene.Shape) {
	nx, nz := int(s.Size[0]), int(s.Size[2])
	if nx < 1 || nz < 1 || len(s.Heights) < nx*nz {
		return
	}
	for k := 0; k < nz; k++ {
		for i := 0; i < nx; i++ {
			p := s.HeightmapPoint(i, k)
			if i+1 < nx {
				l.seg(p, s.HeightmapPoint(i+1, k))
			}
			if k+1 < nz {
				l.seg(p, s.HeightmapPoint(i, k+1))
			}
		}
	}
}
