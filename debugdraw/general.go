package debugdraw

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// General is a G4MF general shape in 3D: a box of full extents Size,
// Minkowski-summed with each curve. Its local space is the OMI one: centred
// on the node, metres.
type General struct {
	Size   [3]float64
	Curves []Curve
}

// Curve is a superellipsoid over the axes where Radii is non-zero, with the
// given exponent (2: an ellipse; below 2: pointier along the axes; above 2:
// squarer). Taper, when present, gives the radii at positions along the shape
// instead: the curve becomes the convex hull of those sections (a cone is a
// disc at one end and a point at the other), and replaces the box's extent
// along the axes the positions span.
type Curve struct {
	Radii    [3]float64
	Exponent float64
	Taper    []Taper
}

// Taper is one section of a tapered curve.
type Taper struct {
	Position [3]float64
	Radii    [3]float64
	// Exponent 0 means the curve's own.
	Exponent float64
}

// ballSupport returns the support point and value of the superellipsoid
// {x : sum |x_i / r_i|^p <= 1} in direction d. With q the conjugate exponent
// (1/p + 1/q = 1) the support value is (sum |r_i d_i|^q)^(1/q).
func ballSupport(r [3]float64, p float64, d mgl64.Vec3) (mgl64.Vec3, float64) {
	if p <= 0 {
		p = 2
	}
	if p <= 1 {
		// The cross-polytope: the support is the vertex along the largest |r_i d_i|.
		best, bv := 0, -1.0
		for i := 0; i < 3; i++ {
			if v := math.Abs(r[i] * d[i]); v > bv {
				best, bv = i, v
			}
		}
		var x mgl64.Vec3
		x[best] = math.Copysign(r[best], d[best])
		return x, bv
	}
	q := p / (p - 1)
	sum := 0.0
	for i := 0; i < 3; i++ {
		sum += math.Pow(math.Abs(r[i]*d[i]), q)
	}
	h := math.Pow(sum, 1/q)
	var x mgl64.Vec3
	if h == 0 {
		return x, 0
	}
	for i := 0; i < 3; i++ {
		if r[i] == 0 || d[i] == 0 {
			continue
		}
		x[i] = r[i] * math.Copysign(math.Pow(math.Abs(r[i]*d[i])/h, q-1), d[i])
	}
	return x, h
}

// Support returns the point of the shape farthest in direction d (a point on
// its surface) and the support value d·x.
func (g General) Support(d mgl64.Vec3) (mgl64.Vec3, float64) {
	box := g.Size
	for _, c := range g.Curves {
		for _, t := range c.Taper {
			for i := 0; i < 3; i++ {
				if t.Position[i] != 0 {
					box[i] = 0 // the taper positions span this axis
				}
			}
		}
	}
	var x mgl64.Vec3
	for i := 0; i < 3; i++ {
		if d[i] > 0 {
			x[i] = box[i] / 2
		} else if d[i] < 0 {
			x[i] = -box[i] / 2
		}
	}
	for _, c := range g.Curves {
		if len(c.Taper) == 0 {
			p, _ := ballSupport(c.Radii, c.Exponent, d)
			x = x.Add(p)
			continue
		}
		var best mgl64.Vec3
		bestV := math.Inf(-1)
		for _, t := range c.Taper {
			e := t.Exponent
			if e == 0 {
				e = c.Exponent
			}
			p, v := ballSupport(t.Radii, e, d)
			pos := mgl64.Vec3(t.Position)
			if v += d.Dot(pos); v > bestV {
				best, bestV = pos.Add(p), v
			}
		}
		x = x.Add(best)
	}
	return x, d.Dot(x)
}

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
	h := side / 2
	c := []mgl64.Vec3{{-h, 0, -h}, {h, 0, -h}, {h, 0, h}, {-h, 0, h}}
	for i := range c {
		l.seg(c[i], c[(i+1)%4])
	}
	o := m.Mul4x1(mgl64.Vec4{0, 0, 0, 1}).Vec3()
	n := m.Mul4x1(mgl64.Vec4{0, side * 0.1, 0, 1}).Vec3()
	return append(l.out, Arrow(o, n, color)...)
}

// Ray draws a ray from the node's origin along -Y (G4MF's direction; XODE
// rays are mapped onto it) of the given length, with an arrowhead.
func Ray(m mgl64.Mat4, length float64, color [4]float32) []Line {
	o := m.Mul4x1(mgl64.Vec4{0, 0, 0, 1}).Vec3()
	e := m.Mul4x1(mgl64.Vec4{0, -length, 0, 1}).Vec3()
	return Arrow(o, e, color)
}
