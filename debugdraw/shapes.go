// Package debugdraw turns physics shapes, bodies, joints and gravity fields
// into line lists (point pairs with colours) for the renderer. It is pure Go:
// no GL, no giu, so it tests anywhere.
//
// Shapes are built in their canonical local space (centred on the node, +Y
// the axis of capsules and cylinders, metres) and placed with the node's
// world matrix.
package debugdraw

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// Line is one coloured segment in world space.
type Line struct {
	A, B  [3]float32
	Color [4]float32
}

// Segments is the number of segments of a full circle: Godot's gizmo
// resolution, smooth at any zoom the viewer allows.
const Segments = 128

// lines accumulates local-space segments and places them.
type lines struct {
	m     mgl64.Mat4
	color [4]float32
	out   []Line
}

func (l *lines) seg(a, b mgl64.Vec3) {
	wa := l.m.Mul4x1(a.Vec4(1)).Vec3()
	wb := l.m.Mul4x1(b.Vec4(1)).Vec3()
	l.out = append(l.out, Line{f32(wa), f32(wb), l.color})
}

func f32(v mgl64.Vec3) [3]float32 { return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])} }

// circle draws a circle of radius r around centre c in the plane spanned by
// the unit vectors u and v.
func (l *lines) circle(c, u, v mgl64.Vec3, r float64) {
	l.arc(c, u, v, r, 0, 2*math.Pi, Segments)
}

// arc draws the part of a circle from angle a0 to a1 (radians, from u towards v).
func (l *lines) arc(c, u, v mgl64.Vec3, r, a0, a1 float64, n int) {
	if n < 1 {
		n = 1
	}
	prev := c.Add(u.Mul(r * math.Cos(a0))).Add(v.Mul(r * math.Sin(a0)))
	for i := 1; i <= n; i++ {
		a := a0 + (a1-a0)*float64(i)/float64(n)
		p := c.Add(u.Mul(r * math.Cos(a))).Add(v.Mul(r * math.Sin(a)))
		l.seg(prev, p)
		prev = p
	}
}

var (
	xAxis = mgl64.Vec3{1, 0, 0}
	yAxis = mgl64.Vec3{0, 1, 0}
	zAxis = mgl64.Vec3{0, 0, 1}
)

// MeshSource gives the triangles of a glTF mesh in mesh space, for convex
// and trimesh shapes.
type MeshSource interface {
	MeshTriangles(mesh int) ([][3]mgl64.Vec3, error)
}

// Shape returns the wireframe of shape s placed with world matrix m. Convex
// and trimesh shapes read their mesh from meshes (nil draws nothing for them).
func Shape(s scene.Shape, m mgl64.Mat4, color [4]float32, meshes MeshSource) []Line {
	l := &lines{m: m, color: color}
	switch s.Type {
	case scene.ShapeBox:
		Box(l, s.Size)
	case scene.ShapeSphere:
		Sphere(l, s.Radius)
	case scene.ShapeCapsule:
		Capsule(l, s.Height, s.RadiusTop, s.RadiusBottom)
	case scene.ShapeCylinder:
		Cylinder(l, s.Height, s.RadiusTop, s.RadiusBottom)
	case scene.ShapeConvex, scene.ShapeTrimesh:
		if meshes == nil || s.Mesh < 0 {
			break
		}
		tris, err := meshes.MeshTriangles(s.Mesh)
		if err != nil {
			break
		}
		if s.Type == scene.ShapeConvex {
			for _, e := range robustHullEdges(trianglePoints(tris)) {
				l.seg(e[0], e[1])
			}
		} else {
			for _, e := range TriangleEdges(tris) {
				l.seg(e[0], e[1])
			}
		}
	case scene.ShapeGeneral:
		g, _ := s.General()
		return GeneralShape(g, m, color)
	case scene.ShapePlane:
		return PlaneShape(s, m, color)
	case scene.ShapeRay:
		return Ray(m, s.Length, color)
	case scene.ShapeHeightmap:
		heightmap(l, s)
	}
	return l.out
}

// Box draws the 12 edges of a box of full extents size.
func Box(l *lines, size [3]float64) {
	h := mgl64.Vec3{size[0] / 2, size[1] / 2, size[2] / 2}
	corner := func(i int) mgl64.Vec3 {
		c := h
		for k := 0; k < 3; k++ {
			if i&(1<<k) == 0 {
				c[k] = -c[k]
			}
		}
		return c
	}
	for i := 0; i < 8; i++ {
		for k := 0; k < 3; k++ {
			if j := i | 1<<k; j != i {
				l.seg(corner(i), corner(j))
			}
		}
	}
}

// Sphere draws three great circles.
func Sphere(l *lines, r float64) {
	o := mgl64.Vec3{}
	l.circle(o, xAxis, zAxis, r)
	l.circle(o, xAxis, yAxis, r)
	l.circle(o, zAxis, yAxis, r)
}

// Cylinder draws a cylinder of full height h with radii rTop at +Y and
// rBottom at -Y: two rings and four side lines.
func Cylinder(l *lines, h, rTop, rBottom float64) {
	top, bottom := mgl64.Vec3{0, h / 2, 0}, mgl64.Vec3{0, -h / 2, 0}
	l.circle(top, xAxis, zAxis, rTop)
	l.circle(bottom, xAxis, zAxis, rBottom)
	for _, d := range []mgl64.Vec3{xAxis, zAxis, xAxis.Mul(-1), zAxis.Mul(-1)} {
		l.seg(bottom.Add(d.Mul(rBottom)), top.Add(d.Mul(rTop)))
	}
}

// Capsule draws a capsule exactly, also when tapered: h is the mid height
// (between the cap centres), the caps are spheres of radius rTop at +h/2 and
// rBottom at -h/2, joined by the cone tangent to both. It draws the two rings
// where the cone meets the caps, four tangent lines, and the cap outlines in
// the XY and ZY planes.
func Capsule(l *lines, h, rTop, rBottom float64) {
	cTop, cBottom := mgl64.Vec3{0, h / 2, 0}, mgl64.Vec3{0, -h / 2, 0}
	if h <= 0 || math.Abs(rBottom-rTop) >= h {
		// One cap sphere holds the other (or they coincide): the shape is
		// the larger sphere.
		if rTop >= rBottom+h {
			l.m = l.m.Mul4(mgl64.Translate3D(0, h/2, 0))
			Sphere(l, rTop)
		} else {
			l.m = l.m.Mul4(mgl64.Translate3D(0, -h/2, 0))
			Sphere(l, rBottom)
		}
		return
	}
	// The cone's outward normal in the profile plane makes angle phi with the
	// radial axis: sin(phi) = (rBottom - rTop) / h.
	phi := math.Asin((rBottom - rTop) / h)
	yTop, yBottom := h/2+rTop*math.Sin(phi), -h/2+rBottom*math.Sin(phi)
	ringTop, ringBottom := rTop*math.Cos(phi), rBottom*math.Cos(phi)
	l.circle(mgl64.Vec3{0, yTop, 0}, xAxis, zAxis, ringTop)
	l.circle(mgl64.Vec3{0, yBottom, 0}, xAxis, zAxis, ringBottom)
	capSegs := Segments / 4
	for _, d := range []mgl64.Vec3{xAxis, zAxis, xAxis.Mul(-1), zAxis.Mul(-1)} {
		l.seg(mgl64.Vec3{0, yBottom, 0}.Add(d.Mul(ringBottom)), mgl64.Vec3{0, yTop, 0}.Add(d.Mul(ringTop)))
		// Cap outlines from the tangent point to the pole.
		l.arc(cTop, d, yAxis, rTop, phi, math.Pi/2, capSegs)
		l.arc(cBottom, d, yAxis, rBottom, phi, -math.Pi/2, capSegs)
	}
}

// TriangleEdges returns each distinct edge of the triangles once.
func TriangleEdges(tris [][3]mgl64.Vec3) [][2]mgl64.Vec3 {
	type key [6]float64
	seen := map[key]bool{}
	var out [][2]mgl64.Vec3
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			if a == b {
				continue
			}
			ka := key{a[0], a[1], a[2], b[0], b[1], b[2]}
			kb := key{b[0], b[1], b[2], a[0], a[1], a[2]}
			if seen[ka] || seen[kb] {
				continue
			}
			seen[ka] = true
			out = append(out, [2]mgl64.Vec3{a, b})
		}
	}
	return out
}

// robustHullEdges is HullEdges: scene.ConvexHull drops repeated points,
// reduces large sets to their support points and treats nearly coplanar
// points as coplanar, so meshes that used to make the hull grow without end
// (KHR sample MotionProperties) draw in bounded time.
func robustHullEdges(pts []mgl64.Vec3) [][2]mgl64.Vec3 { return HullEdges(pts) }

func trianglePoints(tris [][3]mgl64.Vec3) []mgl64.Vec3 {
	pts := make([]mgl64.Vec3, 0, 3*len(tris))
	for _, t := range tris {
		pts = append(pts, t[0], t[1], t[2])
	}
	return pts
}

// BoxLines outlines the axis-aligned box [lo, hi] in world space.
// SelectionBrackets marks the box lo..hi by its corners: from each corner a
// bracket along the three edges, a fifth of each edge long. It reads as a
// selection around whatever is inside, never as one more box.
func SelectionBrackets(lo, hi mgl64.Vec3, c [4]float32) []Line {
	var out []Line
	ext := hi.Sub(lo)
	for i := 0; i < 8; i++ {
		p, dir := lo, mgl64.Vec3{1, 1, 1}
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				p[k], dir[k] = hi[k], -1
			}
		}
		for k := 0; k < 3; k++ {
			q := p
			q[k] += dir[k] * ext[k] / 5
			out = append(out, Line{A: f32(p), B: f32(q), Color: c})
		}
	}
	return out
}

func BoxLines(lo, hi mgl64.Vec3, c [4]float32) []Line {
	corner := func(i int) [3]float32 {
		p := lo
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				p[k] = hi[k]
			}
		}
		return [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
	}
	var out []Line
	for i := 0; i < 8; i++ {
		for k := 0; k < 3; k++ {
			if j := i | 1<<k; j != i {
				out = append(out, Line{A: corner(i), B: corner(j), Color: c})
			}
		}
	}
	return out
}
