package debugdraw

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// HandleParam names the shape parameter a handle changes. The zero value
// means "not set".
type HandleParam int

// Handle parameters, as Godot's collision-shape gizmo has them: a box has a
// handle on each face (both X faces change the size along X), a sphere one on
// its radius, a capsule one on each tip (the mid height) and one on each cap
// (that cap's radius), a cylinder one on each end disc (the full height) and
// one on each rim (that end's radius).
const (
	BoxX HandleParam = iota + 1
	BoxY
	BoxZ
	SphereRadius
	CapsuleHeight
	CapsuleRadiusTop
	CapsuleRadiusBottom
	CylinderHeight
	CylinderRadiusTop
	CylinderRadiusBottom
	// GeneralX, GeneralY and GeneralZ change a G4MF general shape's box
	// size (its curves stay): a handle on each face, as a box has.
	GeneralX
	GeneralY
	GeneralZ
)

var handleParamNames = map[HandleParam]string{
	BoxX: "box size x", BoxY: "box size y", BoxZ: "box size z",
	SphereRadius:  "sphere radius",
	CapsuleHeight: "capsule height", CapsuleRadiusTop: "capsule top radius", CapsuleRadiusBottom: "capsule bottom radius",
	CylinderHeight: "cylinder height", CylinderRadiusTop: "cylinder top radius", CylinderRadiusBottom: "cylinder bottom radius",
	GeneralX: "general size x", GeneralY: "general size y", GeneralZ: "general size z",
}

// handleShapeType is the shape type each parameter belongs to.
var handleShapeType = map[HandleParam]scene.ShapeType{
	BoxX: scene.ShapeBox, BoxY: scene.ShapeBox, BoxZ: scene.ShapeBox, SphereRadius: scene.ShapeSphere,
	CapsuleHeight: scene.ShapeCapsule, CapsuleRadiusTop: scene.ShapeCapsule, CapsuleRadiusBottom: scene.ShapeCapsule,
	CylinderHeight: scene.ShapeCylinder, CylinderRadiusTop: scene.ShapeCylinder, CylinderRadiusBottom: scene.ShapeCylinder,
	GeneralX: scene.ShapeGeneral, GeneralY: scene.ShapeGeneral, GeneralZ: scene.ShapeGeneral,
}

// String names the parameter for the Edit menu ("box size x", "capsule top radius").
func (p HandleParam) String() string {
	if s, ok := handleParamNames[p]; ok {
		return s
	}
	return "unknown"
}

// Handle is one draggable point on a shape, in world space.
type Handle struct {
	// Param is the shape parameter the handle changes.
	Param HandleParam
	// Pos is the world position of the handle, on the shape's surface.
	Pos mgl64.Vec3
	// Axis is the world unit direction the handle moves along, outwards.
	Axis mgl64.Vec3
}

// MinHandleValue is the smallest size, radius or height a drag gives (a
// capsule's mid height may reach 0: the capsule is then a sphere).
const MinHandleValue = 0.001

// handleLine is the line a handle moves along, in shape space: it starts at
// the centre the parameter is measured from and runs along the unit vector
// dir, through the handle at distance dist.
type handleLine struct {
	param  HandleParam
	origin mgl64.Vec3
	dir    mgl64.Vec3
	dist   float64
}

// shapeHandleLines lists the handles of s in shape space: the one switch over
// the shape types for handles. Convex, trimesh and unknown shapes have none.
func shapeHandleLines(s scene.Shape) []handleLine {
	o := mgl64.Vec3{}
	switch s.Type {
	case scene.ShapeBox:
		var out []handleLine
		for k, p := range []HandleParam{BoxX, BoxY, BoxZ} {
			var d mgl64.Vec3
			d[k] = 1
			out = append(out,
				handleLine{param: p, origin: o, dir: d, dist: s.Size[k] / 2},
				handleLine{param: p, origin: o, dir: d.Mul(-1), dist: s.Size[k] / 2})
		}
		return out
	case scene.ShapeSphere:
		return []handleLine{{param: SphereRadius, origin: o, dir: xAxis, dist: s.Radius}}
	case scene.ShapeCapsule:
		h, rt, rb := s.Height, s.RadiusTop, s.RadiusBottom
		// The radius handles sit where the drawn rings are: on each cap
		// sphere at the angle phi where the cone touches it (the equator
		// when the radii are equal), so they lie on the surface also when
		// the capsule is tapered.
		phi := 0.0
		if h > 0 && math.Abs(rb-rt) < h {
			phi = math.Asin((rb - rt) / h)
		}
		dir := mgl64.Vec3{math.Cos(phi), math.Sin(phi), 0}
		return []handleLine{
			{param: CapsuleHeight, origin: o, dir: yAxis, dist: h/2 + rt},
			{param: CapsuleHeight, origin: o, dir: yAxis.Mul(-1), dist: h/2 + rb},
			{param: CapsuleRadiusTop, origin: mgl64.Vec3{0, h / 2, 0}, dir: dir, dist: rt},
			{param: CapsuleRadiusBottom, origin: mgl64.Vec3{0, -h / 2, 0}, dir: dir, dist: rb},
		}
	case scene.ShapeCylinder:
		h := s.Height
		return []handleLine{
			{param: CylinderHeight, origin: o, dir: yAxis, dist: h / 2},
			{param: CylinderHeight, origin: o, dir: yAxis.Mul(-1), dist: h / 2},
			{param: CylinderRadiusTop, origin: mgl64.Vec3{0, h / 2, 0}, dir: xAxis, dist: s.RadiusTop},
			{param: CylinderRadiusBottom, origin: mgl64.Vec3{0, -h / 2, 0}, dir: xAxis, dist: s.RadiusBottom},
		}
	case scene.ShapeGeneral:
		// A handle on each face, where the surface crosses the axis: the
		// support distance along it (box half size plus what the curves add).
		g, ok := s.General()
		if !ok {
			return nil
		}
		var out []handleLine
		for k, p := range []HandleParam{GeneralX, GeneralY, GeneralZ} {
			for _, sign := range []float64{1, -1} {
				var d mgl64.Vec3
				d[k] = sign
				_, dist := g.Support(d)
				out = append(out, handleLine{param: p, origin: o, dir: d, dist: dist})
			}
		}
		return out
	}
	return nil
}

// ShapeHandles returns the handles of shape s placed with the node's world
// matrix: box face centres (+X, -X, +Y, -Y, +Z, -Z), the sphere's +X point,
// the capsule's top and bottom tips then its top and bottom cap radii, the
// cylinder's top and bottom disc centres then its top and bottom rims (+X).
// Convex, trimesh and unknown shapes have none.
func ShapeHandles(s scene.Shape, world mgl64.Mat4) []Handle {
	hl := shapeHandleLines(s)
	if len(hl) == 0 {
		return nil
	}
	out := make([]Handle, 0, len(hl))
	for _, l := range hl {
		p := l.origin.Add(l.dir.Mul(l.dist))
		axis := world.Mul4x1(l.dir.Vec4(0)).Vec3()
		if n := axis.Len(); n > 0 {
			axis = axis.Mul(1 / n)
		}
		out = append(out, Handle{Param: l.param, Pos: world.Mul4x1(p.Vec4(1)).Vec3(), Axis: axis})
	}
	return out
}

// DragHandle returns s with the parameter of handle h set from the mouse ray
// (world space; rayDir need not be unit). The ray goes into shape space (the
// inverse of world, which may rotate and scale); the closest point to it on
// the handle's line gives the distance d from the line's centre, in shape
// units:
//
//   - box: size along the axis = 2d (symmetric, as Godot's gizmo with Alt);
//   - sphere radius = d;
//   - capsule tips: mid height = 2d - 2r, r the radius of the dragged end,
//     so the dragged tip follows the mouse and the other moves symmetrically;
//   - capsule and cylinder radii: d from the cap or disc centre;
//   - cylinder full height = 2d.
//
// Sizes, radii and the cylinder height are clamped to at least
// MinHandleValue, a capsule's mid height to at least 0. A ray parallel to
// the handle's line, a singular world matrix or any other non-finite result
// leaves s unchanged, as does a handle whose parameter s does not have.
//
// s may be the shape as it was when the drag started or as the last drag
// step left it: a drag changes only what the dragged handle measures, so
// both give the same result.
func DragHandle(s scene.Shape, world mgl64.Mat4, h Handle, rayOrigin, rayDir mgl64.Vec3) scene.Shape {
	inv := world.Inv()
	if !finiteMat(inv) || inv == (mgl64.Mat4{}) {
		return s
	}
	// The handle's outward direction in shape space picks which of the
	// shape's handles for this parameter is dragged (the +X or -X face).
	local := inv.Mul4x1(h.Axis.Vec4(0)).Vec3()
	var line *handleLine
	best := math.Inf(-1)
	hls := shapeHandleLines(s)
	for i := range hls {
		if hls[i].param != h.Param {
			continue
		}
		if c := hls[i].dir.Dot(local); c > best {
			best, line = c, &hls[i]
		}
	}
	if line == nil {
		return s
	}
	// The handle moves along its own axis, fixed when the drag started (a
	// tapered capsule's radius handles tilt as the radius changes).
	dir := line.dir
	if n := local.Len(); n > 0 && !math.IsInf(n, 0) {
		dir = local.Mul(1 / n)
	}
	o := inv.Mul4x1(rayOrigin.Vec4(1)).Vec3()
	v := inv.Mul4x1(rayDir.Vec4(0)).Vec3()
	d, ok := closestOnLine(line.origin, dir, o, v)
	if !ok {
		return s
	}
	out := s
	switch h.Param {
	case BoxX, BoxY, BoxZ:
		out.Size[h.Param-BoxX] = clampMin(2 * d)
	case SphereRadius:
		out.Radius = clampMin(d)
	case CapsuleHeight:
		r := s.RadiusTop
		if line.dir[1] < 0 {
			r = s.RadiusBottom
		}
		out.Height = math.Max(2*d-2*r, 0)
	case CapsuleRadiusTop, CylinderRadiusTop:
		out.RadiusTop = clampMin(d)
	case CapsuleRadiusBottom, CylinderRadiusBottom:
		out.RadiusBottom = clampMin(d)
	case CylinderHeight:
		out.Height = clampMin(2 * d)
	case GeneralX, GeneralY, GeneralZ:
		// The curves add line.dist - size/2 beyond the box; the box takes
		// the rest, symmetric, and may shrink to 0 (the curves alone).
		k := int(h.Param - GeneralX)
		extra := line.dist - s.Size[k]/2
		out.Size[k] = math.Max(0, 2*(d-extra))
	}
	return out
}

// HandleValue returns the current value of parameter p of shape s (a box
// size, a radius, a capsule's mid height or a cylinder's full height), for
// labels such as "box size x 2 -> 3"; ok is false when s has no such
// parameter.
func HandleValue(s scene.Shape, p HandleParam) (v float64, ok bool) {
	if t, known := handleShapeType[p]; !known || t != s.Type {
		return 0, false
	}
	switch p {
	case BoxX, BoxY, BoxZ:
		return s.Size[p-BoxX], true
	case SphereRadius:
		return s.Radius, true
	case CapsuleHeight, CylinderHeight:
		return s.Height, true
	case CapsuleRadiusTop, CylinderRadiusTop:
		return s.RadiusTop, true
	case GeneralX, GeneralY, GeneralZ:
		return s.Size[p-GeneralX], true
	}
	return s.RadiusBottom, true
}

func clampMin(v float64) float64 { return math.Max(v, MinHandleValue) }

// closestOnLine returns the parameter t of the point c + t*u (u unit) closest
// to the line o + s*v; ok is false when the lines are parallel or the numbers
// are not finite.
func closestOnLine(c, u, o, v mgl64.Vec3) (t float64, ok bool) {
	w := c.Sub(o)
	a, b, cc := u.Dot(u), u.Dot(v), v.Dot(v)
	dd, e := u.Dot(w), v.Dot(w)
	den := a*cc - b*b
	if !(den > 1e-12*a*cc) {
		return 0, false
	}
	t = (b*e - cc*dd) / den
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return 0, false
	}
	return t, true
}

func finiteMat(m mgl64.Mat4) bool {
	for _, x := range m {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// HandleLines draws each handle as a diamond (an octahedron's 12 edges) with
// a 3-axis cross through it, size world units across, in colour c; the
// hovered one (an index into hs, -1 for none) is drawn 1.6 times bigger. For
// handles of constant screen size, pass PixelSize times the wanted pixels.
func HandleLines(hs []Handle, size float64, hovered int, c [4]float32) []Line {
	out := make([]Line, 0, len(hs)*15)
	axes := [3]mgl64.Vec3{xAxis, yAxis, zAxis}
	for i, h := range hs {
		r := size / 2
		if i == hovered {
			r *= 1.6
		}
		l := &lines{m: mgl64.Translate3D(h.Pos[0], h.Pos[1], h.Pos[2]), color: c, out: out}
		for k := 0; k < 3; k++ {
			a, b := axes[k].Mul(r), axes[(k+1)%3].Mul(r)
			l.seg(a.Mul(-1), a)
			// The four edges of the diamond in the plane of axes k and k+1.
			l.seg(a, b)
			l.seg(b, a.Mul(-1))
			l.seg(a.Mul(-1), b.Mul(-1))
			l.seg(b.Mul(-1), a)
		}
		out = l.out
	}
	return out
}
