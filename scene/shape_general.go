package scene

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene/internal/jsonobj"
)

// This file holds the G4MF shape kinds: general (a box Minkowski-summed with
// curves), plane, ray and heightmap. OMI_physics_shape has none of them; in
// glTF they are written as OMI_physics_shape entries whose "type" is the G4MF
// type name, with a sub-object of that name holding the G4MF keys:
//
//	{"type": "general", "general": {"size": [1, 1, 1], "curves": [{"radii": [0.25, 0.25, 0.25], "exponent": 2}]}}
//	{"type": "plane", "plane": {}}
//	{"type": "ray", "ray": {"length": 1}}
//	{"type": "heightmap", "heightmap": {"size": [3, 1, 2], "heights": [0, 0.5, 0, 0, 1, 0]}}
//
// A heightmap carries its heights inline (G4MF keeps them in an accessor), so
// the entry stands alone.

// Curve is one curve of a general shape: a superellipsoid over the axes
// where Radii is non-zero, {x : sum |x_i / r_i|^Exponent <= 1}, in metres.
// Exponent 2 is an ellipsoid; below 2 it is pointier along the axes, above 2
// squarer (0 reads as 2). Taper, when present, gives the radii at positions
// along the shape instead: the curve becomes the convex hull of those
// sections (a cone is a disc at one end and a point at the other), and
// replaces the box's extent along the axes the positions span.
type Curve struct {
	Radii    [3]float64
	Exponent float64
	Taper    []Taper
	// Extra holds the curve's keys the model does not interpret.
	Extra Members
}

// Taper is one section of a tapered curve, centred at Position (metres).
type Taper struct {
	Position [3]float64
	Radii    [3]float64
	// Exponent 0 means the curve's own.
	Exponent float64
	// Extra holds the section's keys the model does not interpret.
	Extra Members
}

func init() {
	registerShapeKind(ShapeGeneral, shapeKind{
		name: "general",
		defaults: func(s *Shape) {
			// A rounded unit box.
			s.Size = [3]float64{1, 1, 1}
			s.Curves = []Curve{{Radii: [3]float64{0.25, 0.25, 0.25}, Exponent: 2}}
		},
		decode: func(s *Shape, p *reader, _ string, _ *findings, _ bool) {
			s.Size = p.vec3("size", s.Size)
			s.Curves = nil
			for i, raw := range p.array("curves") {
				s.Curves = append(s.Curves, decodeCurve(raw, p.at("curves")+"/"+itoa(i), p.fs))
			}
		},
		encode: func(s Shape, p *writer) {
			p.set("size", s.Size)
			if len(s.Curves) > 0 {
				p.set("curves", encodeCurves(s.Curves))
			}
		},
		validate: validateGeneral,
		params:   generalParams,
		distance: func(s Shape, p, _, _ mgl64.Vec3) float64 {
			g, _ := s.General()
			return g.SignedDistance(p)
		},
		bounds: func(s Shape, _, _ mgl64.Vec3) (lo, hi mgl64.Vec3) {
			g, _ := s.General()
			return g.Bounds()
		},
		general: func(s Shape) (General, bool) {
			return General{Size: s.Size, Curves: s.Curves}, true
		},
	})
}

func validateGeneral(s Shape, sub string, fs *findings, _ int) {
	for i, v := range s.Size {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			fs.errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/size", "general size[%d] = %g must be 0 or a finite positive number", i, v)
		}
	}
	for ci, c := range s.Curves {
		cp := fmt.Sprintf("%s/curves/%d", sub, ci)
		validateRadii(cp+"/radii", c.Radii, fs)
		nonZero := 0
		for _, r := range c.Radii {
			if r > 0 {
				nonZero++
			}
		}
		if nonZero < 2 && len(c.Taper) == 0 {
			fs.warnf("OMI_GENERAL_CURVE", cp+"/radii", "a curve should have at least two non-zero radii (G4MF leaves others undefined)")
		}
		validateExponent(cp+"/exponent", c.Exponent, fs)
		for ti, t := range c.Taper {
			tp := fmt.Sprintf("%s/taper/%d", cp, ti)
			validateRadii(tp+"/radii", t.Radii, fs)
			if t.Exponent != 0 {
				validateExponent(tp+"/exponent", t.Exponent, fs)
			}
		}
		if len(c.Taper) == 1 {
			fs.warnf("OMI_GENERAL_CURVE", cp+"/taper", "a taper with one section is that section alone, moved to its position")
		}
	}
	if len(s.Curves) == 0 && (s.Size[0] == 0 || s.Size[1] == 0 || s.Size[2] == 0) {
		fs.errorf("OMI_DEGENERATE_SHAPE", sub, "general shape with no curves and a zero size %v has no volume", s.Size)
	}
	if _, ok := s.Classify(); ok {
		fs.infof("OMI_G4MF_SHAPE", sub, "this general shape is exactly an OMI %s; other OMI readers only know the OMI form", func() string { c, _ := s.Classify(); return c.Type.String() }())
	} else {
		fs.infof("OMI_G4MF_SHAPE", sub, "general shape (G4MF): OMI readers other than physview do not know it")
	}
}

func generalParams(s Shape) string {
	var b strings.Builder
	fmt.Fprintf(&b, "size %g x %g x %g", s.Size[0], s.Size[1], s.Size[2])
	for _, c := range s.Curves {
		fmt.Fprintf(&b, ", curve radii %g %g %g", c.Radii[0], c.Radii[1], c.Radii[2])
		if c.Exponent != 2 && c.Exponent != 0 {
			fmt.Fprintf(&b, " exponent %g", c.Exponent)
		}
		if len(c.Taper) > 0 {
			fmt.Fprintf(&b, " tapered (%d sections)", len(c.Taper))
		}
	}
	if o, ok := s.Classify(); ok {
		fmt.Fprintf(&b, " (= %s %s)", o.Type, o.Params())
	}
	return b.String()
}

// General is the geometry of a G4MF general shape: a box of full extents
// Size (metres, centred on the node) Minkowski-summed with each curve.
type General struct {
	Size   [3]float64
	Curves []Curve
}

// General returns the general-shape form of s: its own size and curves for
// a general shape, and the exact G4MF encoding of a box, sphere, capsule or
// cylinder (tapers for tapered capsules and cylinders). ok is false for the
// other kinds.
func (s Shape) General() (g General, ok bool) {
	if k := kindOf(s.Type); k.general != nil {
		return k.general(s)
	}
	return General{}, false
}

// NewGeneralShape returns a general shape of g.
func NewGeneralShape(g General) Shape {
	return Shape{Type: ShapeGeneral, Size: g.Size, Curves: g.Curves, Mesh: -1}
}

// Classify returns the OMI box, sphere, capsule or cylinder that is exactly
// the general shape s, as godot-4d's G4MF importer does: no curves is a box;
// one round curve (exponent 2, equal radii) over a zero size is a sphere, and
// over a size along Y only a capsule; a round curve with radius 0 on Y over a
// size along Y is a cylinder; two tapered sections at +-size.y/2 give a
// tapered capsule or cylinder (a cone when one radius is 0). ok is false when
// s is no such shape; s is then kept as it is.
func (s Shape) Classify() (Shape, bool) {
	if s.Type != ShapeGeneral {
		return s, false
	}
	out := DefaultShape(ShapeBox)
	out.Name, out.Extra = s.Name, s.Extra
	if len(s.Curves) == 0 {
		if s.Size[0] <= 0 || s.Size[1] <= 0 || s.Size[2] <= 0 {
			return s, false
		}
		out.Size = s.Size
		return out, true
	}
	if len(s.Curves) != 1 || s.Size[0] != 0 || s.Size[2] != 0 || len(s.SubExtra) > 0 {
		return s, false
	}
	c := s.Curves[0]
	if !round(c.Exponent) || len(c.Extra) > 0 {
		return s, false
	}
	h := s.Size[1]
	if len(c.Taper) == 0 {
		r := c.Radii
		switch {
		case r[0] > 0 && r[0] == r[1] && r[1] == r[2] && h == 0:
			out.Type, out.Size, out.Radius = ShapeSphere, [3]float64{}, r[0]
		case r[0] > 0 && r[0] == r[1] && r[1] == r[2]:
			out = withCaps(out, ShapeCapsule, h, r[0], r[0])
		case r[0] > 0 && r[0] == r[2] && r[1] == 0 && h > 0:
			out = withCaps(out, ShapeCylinder, h, r[0], r[0])
		default:
			return s, false
		}
		return out, true
	}
	if len(c.Taper) != 2 || h <= 0 {
		return s, false
	}
	top, bottom := c.Taper[0], c.Taper[1]
	if top.Position[1] < bottom.Position[1] {
		top, bottom = bottom, top
	}
	for _, t := range []Taper{top, bottom} {
		if t.Position[0] != 0 || t.Position[2] != 0 || math.Abs(t.Position[1]) != h/2 || len(t.Extra) > 0 || (t.Exponent != 0 && !round(t.Exponent)) {
			return s, false
		}
	}
	if top.Position[1] != h/2 {
		return s, false
	}
	rt, rb := top.Radii, bottom.Radii
	switch {
	case rt[0] == rt[1] && rt[1] == rt[2] && rb[0] == rb[1] && rb[1] == rb[2] && rt[0]+rb[0] > 0:
		out = withCaps(out, ShapeCapsule, h, rt[0], rb[0])
	case rt[1] == 0 && rb[1] == 0 && rt[0] == rt[2] && rb[0] == rb[2] && rt[0]+rb[0] > 0:
		out = withCaps(out, ShapeCylinder, h, rt[0], rb[0])
	default:
		return s, false
	}
	return out, true
}

func round(e float64) bool { return e == 2 || e == 0 }

func withCaps(s Shape, t ShapeType, h, rt, rb float64) Shape {
	s.Type, s.Size, s.Height, s.RadiusTop, s.RadiusBottom = t, [3]float64{}, h, rt, rb
	return s
}

// ballSupport returns the support point and value of the superellipsoid
// {x : sum |x_i / r_i|^p <= 1} in direction d. With q the conjugate exponent
// (1/p + 1/q = 1) the support value is (sum |r_i d_i|^q)^(1/q). Exponents of
// 1 and below give the cross-polytope (the convex hull of the shape).
func ballSupport(r [3]float64, p float64, d mgl64.Vec3) (mgl64.Vec3, float64) {
	if p <= 0 {
		p = 2
	}
	if p <= 1 {
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

// box returns the box extents after tapers have taken over the axes their
// positions span.
func (g General) box() [3]float64 {
	box := g.Size
	for _, c := range g.Curves {
		for _, t := range c.Taper {
			for i := 0; i < 3; i++ {
				if t.Position[i] != 0 {
					box[i] = 0
				}
			}
		}
	}
	return box
}

// Support returns the point of the shape farthest in direction d (a point on
// its surface) and the support value d·x.
func (g General) Support(d mgl64.Vec3) (mgl64.Vec3, float64) {
	box := g.box()
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

// Bounds returns the shape's axis-aligned bounding box.
func (g General) Bounds() (lo, hi mgl64.Vec3) {
	for i := 0; i < 3; i++ {
		var d mgl64.Vec3
		d[i] = 1
		p, _ := g.Support(d)
		hi[i] = p[i]
		q, _ := g.Support(d.Mul(-1))
		lo[i] = q[i]
	}
	return lo, hi
}

// Implicit returns a function of local point p that is 0 on the surface,
// negative inside and positive outside. It is exact (its zero set is the
// surface) for curves without taper on distinct axes: each curve's term is
// its superellipse norm of p's distance beyond the box, minus 1, times the
// curve's smallest radius (so the value is in metres near the surface).
// Other shapes (tapers, Steinmetz solids) use SignedDistance.
func (g General) Implicit(p mgl64.Vec3) float64 {
	var covered [3]bool
	for _, c := range g.Curves {
		if len(c.Taper) > 0 {
			return g.SignedDistance(p)
		}
		for i, r := range c.Radii {
			if r > 0 {
				if covered[i] {
					return g.SignedDistance(p)
				}
				covered[i] = true
			}
		}
	}
	var q mgl64.Vec3
	for i := 0; i < 3; i++ {
		q[i] = math.Max(math.Abs(p[i])-g.Size[i]/2, 0)
	}
	v := math.Inf(-1)
	for i := 0; i < 3; i++ {
		if !covered[i] {
			v = math.Max(v, math.Abs(p[i])-g.Size[i]/2)
		}
	}
	for _, c := range g.Curves {
		e := c.Exponent
		if e <= 0 {
			e = 2
		}
		e = math.Max(e, 1)
		sum, minR := 0.0, math.Inf(1)
		for i, r := range c.Radii {
			if r > 0 {
				sum += math.Pow(q[i]/r, e)
				minR = math.Min(minR, r)
			}
		}
		if math.IsInf(minR, 1) {
			continue
		}
		v = math.Max(v, (math.Pow(sum, 1/e)-1)*minR)
	}
	return v
}

// SignedDistance returns the Euclidean signed distance from p to the
// shape's surface (negative inside), from the support function: for a convex
// set it is the largest d·p - h(d) over unit directions d, found by sampling
// directions and refining the best.
func (g General) SignedDistance(p mgl64.Vec3) float64 {
	f := func(d mgl64.Vec3) float64 {
		_, h := g.Support(d)
		return d.Dot(p) - h
	}
	const n = 400
	best, bd := math.Inf(-1), mgl64.Vec3{0, 1, 0}
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := 0; i < n; i++ {
		y := 1 - 2*(float64(i)+0.5)/n
		r := math.Sqrt(1 - y*y)
		d := mgl64.Vec3{r * math.Cos(golden*float64(i)), y, r * math.Sin(golden*float64(i))}
		if v := f(d); v > best {
			best, bd = v, d
		}
	}
	step := 0.2
	for it := 0; it < 400 && step > 1e-10; it++ {
		improved := false
		for _, e := range []mgl64.Vec3{{step, 0, 0}, {-step, 0, 0}, {0, step, 0}, {0, -step, 0}, {0, 0, step}, {0, 0, -step}} {
			d := bd.Add(e).Normalize()
			if v := f(d); v > best {
				best, bd, improved = v, d, true
			}
		}
		if !improved {
			step /= 2
		}
	}
	return best
}

// heightAt returns the heightmap's height at local (x, z), bilinear between
// samples one metre apart, the grid centred on the node; ok is false outside.
func (s Shape) heightAt(x, z float64) (float64, bool) {
	nx, nz := int(s.Size[0]), int(s.Size[2])
	if nx < 1 || nz < 1 || len(s.Heights) < nx*nz {
		return 0, false
	}
	fx, fz := x+float64(nx-1)/2, z+float64(nz-1)/2
	// Written so that NaN (a walk that ran off to infinity) is outside too.
	if !(fx >= 0 && fz >= 0 && fx <= float64(nx-1) && fz <= float64(nz-1)) {
		return 0, false
	}
	ix, iz := min(int(fx), max(nx-2, 0)), min(int(fz), max(nz-2, 0))
	tx, tz := fx-float64(ix), fz-float64(iz)
	at := func(i, k int) float64 { return s.Heights[min(k, nz-1)*nx+min(i, nx-1)] }
	a := at(ix, iz)*(1-tx) + at(ix+1, iz)*tx
	b := at(ix, iz+1)*(1-tx) + at(ix+1, iz+1)*tx
	return a*(1-tz) + b*tz, true
}

// HeightmapPoint returns the local position of heightmap sample (i, k):
// column i along X, row k along Z, one metre apart, centred on the node.
func (s Shape) HeightmapPoint(i, k int) mgl64.Vec3 {
	nx, nz := int(s.Size[0]), int(s.Size[2])
	return mgl64.Vec3{float64(i) - float64(nx-1)/2, s.Heights[k*nx+i], float64(k) - float64(nz-1)/2}
}

// PlaneDrawSide is the side in metres of the square drawn for an infinite
// plane (Godot's gizmo draws 20 x 20).
const PlaneDrawSide = 20.0

func decodeCurve(raw json.RawMessage, path string, fs *findings) Curve {
	c := Curve{Exponent: 2}
	r := newReader(raw, path, fs)
	if r == nil {
		return c
	}
	c.Radii = r.vec3("radii", c.Radii)
	c.Exponent = r.number("exponent", 2)
	for i, t := range r.array("taper") {
		tp := path + "/taper/" + itoa(i)
		tr := newReader(t, tp, fs)
		if tr == nil {
			c.Taper = append(c.Taper, Taper{})
			continue
		}
		var e float64
		if v := tr.optNumber("exponent"); v != nil {
			e = *v
		}
		c.Taper = append(c.Taper, Taper{
			Position: tr.vec3("position", [3]float64{}),
			Radii:    tr.vec3("radii", [3]float64{}),
			Exponent: e,
			Extra:    tr.rest(),
		})
	}
	c.Extra = r.rest()
	return c
}

// encodeCurves returns the JSON of a general shape's curves with every
// value explicit (a taper's exponent only when it has its own).
func encodeCurves(cs []Curve) []json.RawMessage {
	out := make([]json.RawMessage, len(cs))
	for i, c := range cs {
		var w writer
		w.set("radii", c.Radii)
		e := c.Exponent
		if e == 0 {
			e = 2
		}
		w.set("exponent", e)
		if len(c.Taper) > 0 {
			ts := make([]json.RawMessage, len(c.Taper))
			for k, t := range c.Taper {
				var tw writer
				tw.set("position", t.Position)
				tw.set("radii", t.Radii)
				if t.Exponent != 0 {
					tw.set("exponent", t.Exponent)
				}
				tw.rest(t.Extra)
				ts[k] = tw.bytes()
			}
			w.set("taper", ts)
		}
		w.rest(c.Extra)
		out[i] = w.bytes()
	}
	return out
}

// EncodeCurves returns a general shape's curves as G4MF JSON, for codecs
// that write G4MF's own form.
func EncodeCurves(cs []Curve) json.RawMessage { return mustJSON(encodeCurves(cs)) }

func validateRadii(path string, r [3]float64, fs *findings) {
	for i, v := range r {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			fs.errorf("OMI_VALUE_NOT_IN_RANGE", path, "radii[%d] = %g must be 0 or a finite positive number", i, v)
		}
	}
}

func validateExponent(path string, e float64, fs *findings) {
	switch {
	case !(e > 0) || math.IsInf(e, 0):
		fs.errorf("OMI_TYPE_MISMATCH", path, "exponent %g must be a finite positive number", e)
	case e < 1:
		fs.warnf("OMI_GENERAL_CURVE", path, "exponent %g is below 1: the curve is not convex; it is drawn and tested as its convex hull (exponent 1)", e)
	}
}

// Params describes the shape's parameters in one line of text, for reports
// and lists (callers ask the shape instead of switching on its kind).
func (s Shape) Params() string {
	if k := kindOf(s.Type); k.params != nil {
		return k.params(s)
	}
	return ""
}

// DecodeCurves reads a general shape's curves in G4MF's JSON form (which is
// also the form inside our glTF "general" entries), for codecs of G4MF
// itself. Problems are findings under path, with defaults used.
func DecodeCurves(raw json.RawMessage, path string) ([]Curve, []Finding) {
	var fs findings
	elems, err := jsonobj.ParseArray(raw)
	if err != nil {
		fs.errorf("OMI_TYPE_MISMATCH", path, "curves must be an array (%v)", err)
		return nil, fs
	}
	var out []Curve
	for i, e := range elems {
		out = append(out, decodeCurve(e, path+"/"+itoa(i), &fs))
	}
	return out, fs
}
