package debugdraw

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// tilted is a world matrix that moves, rotates about a skew axis and scales
// non-uniformly: handles and drags must work in shape space.
var tilted = mgl64.Translate3D(5, -2, 1).
	Mul4(mgl64.HomogRotate3D(0.7, mgl64.Vec3{1, 2, 3}.Normalize())).
	Mul4(mgl64.Scale3D(2, 3, 0.5))

var worlds = []struct {
	name string
	m    mgl64.Mat4
}{
	{"identity", mgl64.Ident4()},
	{"rotated and scaled", tilted},
}

var handleShapes = []struct {
	name string
	s    scene.Shape
	// onLines marks the handles that are also vertices of the drawn
	// wireframe (box faces and cylinder discs lie on the surface between
	// the drawn edges).
	onLines []bool
}{
	{"box", scene.Shape{Type: scene.ShapeBox, Size: [3]float64{1, 2, 3}}, []bool{false, false, false, false, false, false}},
	{"sphere", scene.Shape{Type: scene.ShapeSphere, Radius: 0.7}, []bool{true}},
	{"capsule", scene.Shape{Type: scene.ShapeCapsule, Height: 1, RadiusTop: 0.5, RadiusBottom: 0.5}, []bool{true, true, true, true}},
	{"tapered capsule", scene.Shape{Type: scene.ShapeCapsule, Height: 1.2, RadiusTop: 0.3, RadiusBottom: 0.6}, []bool{true, true, true, true}},
	{"capsule wide top", scene.Shape{Type: scene.ShapeCapsule, Height: 2, RadiusTop: 0.9, RadiusBottom: 0.2}, []bool{true, true, true, true}},
	{"capsule no mid", scene.Shape{Type: scene.ShapeCapsule, Height: 0, RadiusTop: 0.4, RadiusBottom: 0.4}, []bool{true, true, true, true}},
	{"cylinder", scene.Shape{Type: scene.ShapeCylinder, Height: 2, RadiusTop: 0.5, RadiusBottom: 0.5}, []bool{false, false, true, true}},
	{"cone", scene.Shape{Type: scene.ShapeCylinder, Height: 1.5, RadiusTop: 0.2, RadiusBottom: 0.8}, []bool{false, false, true, true}},
}

// TestHandlesOnSurface: every handle lies on the shape's surface (placed by
// the world matrix), on a vertex of the drawn wireframe where it says so,
// and its axis is the world image of its shape-space direction.
func TestHandlesOnSurface(t *testing.T) {
	for _, w := range worlds {
		for _, c := range handleShapes {
			t.Run(w.name+"/"+c.name, func(t *testing.T) {
				hs := ShapeHandles(c.s, w.m)
				if len(hs) != len(c.onLines) {
					t.Fatalf("%d handles, want %d", len(hs), len(c.onLines))
				}
				inv := w.m.Inv()
				verts := points(Shape(c.s, w.m, [4]float32{}, nil))
				for i, h := range hs {
					local := inv.Mul4x1(h.Pos.Vec4(1)).Vec3()
					if d := c.s.Distance(local, mgl64.Vec3{}, mgl64.Vec3{}); math.Abs(d) > 1e-9 {
						t.Errorf("handle %d (%v) at local %v is %g from the surface", i, h.Param, local, d)
					}
					if math.Abs(h.Axis.Len()-1) > 1e-12 {
						t.Errorf("handle %d axis %v is not unit", i, h.Axis)
					}
					// Moving the handle along its axis moves it away from
					// the shape: the axis points outwards.
					out := inv.Mul4x1(h.Pos.Add(h.Axis.Mul(0.01)).Vec4(1)).Vec3()
					if d := c.s.Distance(out, mgl64.Vec3{}, mgl64.Vec3{}); d <= 0 {
						t.Errorf("handle %d axis %v points inwards", i, h.Axis)
					}
					if !c.onLines[i] {
						continue
					}
					found := false
					for _, v := range verts {
						if v.Sub(h.Pos).Len() < 1e-5 {
							found = true
							break
						}
					}
					if !found {
						t.Errorf("handle %d (%v) at %v is not on the drawn wireframe", i, h.Param, h.Pos)
					}
				}
			})
		}
	}
}

// TestBoxHandlesAtFaceCentres: the six box handles are the face centres, in
// the order +X, -X, +Y, -Y, +Z, -Z.
func TestBoxHandlesAtFaceCentres(t *testing.T) {
	s := scene.Shape{Type: scene.ShapeBox, Size: [3]float64{1, 2, 3}}
	want := []struct {
		p     HandleParam
		pos   mgl64.Vec3
		axis  mgl64.Vec3
		label string
	}{
		{BoxX, mgl64.Vec3{0.5, 0, 0}, mgl64.Vec3{1, 0, 0}, "box size x"},
		{BoxX, mgl64.Vec3{-0.5, 0, 0}, mgl64.Vec3{-1, 0, 0}, "box size x"},
		{BoxY, mgl64.Vec3{0, 1, 0}, mgl64.Vec3{0, 1, 0}, "box size y"},
		{BoxY, mgl64.Vec3{0, -1, 0}, mgl64.Vec3{0, -1, 0}, "box size y"},
		{BoxZ, mgl64.Vec3{0, 0, 1.5}, mgl64.Vec3{0, 0, 1}, "box size z"},
		{BoxZ, mgl64.Vec3{0, 0, -1.5}, mgl64.Vec3{0, 0, -1}, "box size z"},
	}
	m := mgl64.Translate3D(10, 20, 30)
	hs := ShapeHandles(s, m)
	if len(hs) != len(want) {
		t.Fatalf("%d handles, want %d", len(hs), len(want))
	}
	for i, w := range want {
		h := hs[i]
		if h.Param != w.p || !h.Pos.ApproxEqual(w.pos.Add(mgl64.Vec3{10, 20, 30})) || !h.Axis.ApproxEqual(w.axis) || h.Param.String() != w.label {
			t.Errorf("handle %d = %+v %q, want %v at %v along %v %q", i, h, h.Param, w.p, w.pos, w.axis, w.label)
		}
	}
}

// rayThrough returns a ray that passes through world point p coming from
// direction from (not along the handle axis).
func rayThrough(p, from mgl64.Vec3) (origin, dir mgl64.Vec3) {
	return p.Add(from.Mul(10)), from.Mul(-1)
}

func TestDragHandle(t *testing.T) {
	box := scene.Shape{Type: scene.ShapeBox, Size: [3]float64{2, 2, 2}}
	sphere := scene.Shape{Type: scene.ShapeSphere, Radius: 0.5}
	capsule := scene.Shape{Type: scene.ShapeCapsule, Height: 1, RadiusTop: 0.5, RadiusBottom: 0.3}
	evenCapsule := scene.Shape{Type: scene.ShapeCapsule, Height: 1, RadiusTop: 0.5, RadiusBottom: 0.5}
	cylinder := scene.Shape{Type: scene.ShapeCylinder, Height: 2, RadiusTop: 0.5, RadiusBottom: 0.7}
	phi := math.Asin((0.3 - 0.5) / 1.0)
	capDir := mgl64.Vec3{math.Cos(phi), math.Sin(phi), 0}
	with := func(s scene.Shape, f func(*scene.Shape)) scene.Shape { f(&s); return s }
	cases := []struct {
		name   string
		s      scene.Shape
		handle int
		// local is the shape-space point the ray passes through.
		local mgl64.Vec3
		want  scene.Shape
	}{
		{"box +X grows", box, 0, mgl64.Vec3{1.5, 0, 0}, with(box, func(s *scene.Shape) { s.Size[0] = 3 })},
		{"box -X grows", box, 1, mgl64.Vec3{-2, 0, 0}, with(box, func(s *scene.Shape) { s.Size[0] = 4 })},
		{"box +Y shrinks", box, 2, mgl64.Vec3{0, 0.25, 0}, with(box, func(s *scene.Shape) { s.Size[1] = 0.5 })},
		{"box -Z", box, 5, mgl64.Vec3{0, 0, -0.8}, with(box, func(s *scene.Shape) { s.Size[2] = 1.6 })},
		{"box through the centre clamps", box, 0, mgl64.Vec3{}, with(box, func(s *scene.Shape) { s.Size[0] = MinHandleValue })},
		{"box past the centre clamps", box, 0, mgl64.Vec3{-1, 0, 0}, with(box, func(s *scene.Shape) { s.Size[0] = MinHandleValue })},
		{"sphere radius", sphere, 0, mgl64.Vec3{0.8, 0, 0}, with(sphere, func(s *scene.Shape) { s.Radius = 0.8 })},
		{"sphere radius clamps", sphere, 0, mgl64.Vec3{-0.3, 0, 0}, with(sphere, func(s *scene.Shape) { s.Radius = MinHandleValue })},
		{"capsule top tip", capsule, 0, mgl64.Vec3{0, 2, 0}, with(capsule, func(s *scene.Shape) { s.Height = 3 })},
		{"capsule bottom tip", capsule, 1, mgl64.Vec3{0, -1.5, 0}, with(capsule, func(s *scene.Shape) { s.Height = 2.4 })},
		{"capsule tip clamps to 0", capsule, 0, mgl64.Vec3{0, 0.2, 0}, with(capsule, func(s *scene.Shape) { s.Height = 0 })},
		{"capsule top radius", evenCapsule, 2, mgl64.Vec3{0.9, 0.5, 0}, with(evenCapsule, func(s *scene.Shape) { s.RadiusTop = 0.9 })},
		{"capsule bottom radius", evenCapsule, 3, mgl64.Vec3{0.2, -0.5, 0}, with(evenCapsule, func(s *scene.Shape) { s.RadiusBottom = 0.2 })},
		{"tapered capsule top radius", capsule, 2, mgl64.Vec3{0, 0.5, 0}.Add(capDir.Mul(0.45)), with(capsule, func(s *scene.Shape) { s.RadiusTop = 0.45 })},
		{"tapered capsule bottom radius", capsule, 3, mgl64.Vec3{0, -0.5, 0}.Add(capDir.Mul(0.65)), with(capsule, func(s *scene.Shape) { s.RadiusBottom = 0.65 })},
		{"capsule radius clamps", capsule, 2, mgl64.Vec3{0, 0.5, 0}.Sub(capDir.Mul(0.2)), with(capsule, func(s *scene.Shape) { s.RadiusTop = MinHandleValue })},
		{"cylinder top", cylinder, 0, mgl64.Vec3{0, 1.7, 0}, with(cylinder, func(s *scene.Shape) { s.Height = 3.4 })},
		{"cylinder bottom", cylinder, 1, mgl64.Vec3{0, -0.25, 0}, with(cylinder, func(s *scene.Shape) { s.Height = 0.5 })},
		{"cylinder height clamps", cylinder, 1, mgl64.Vec3{0, 0.5, 0}, with(cylinder, func(s *scene.Shape) { s.Height = MinHandleValue })},
		{"cylinder top radius", cylinder, 2, mgl64.Vec3{1.1, 1, 0}, with(cylinder, func(s *scene.Shape) { s.RadiusTop = 1.1 })},
		{"cylinder bottom radius", cylinder, 3, mgl64.Vec3{0.35, -1, 0}, with(cylinder, func(s *scene.Shape) { s.RadiusBottom = 0.35 })},
	}
	// Rays from several directions, none along a handle axis.
	froms := []mgl64.Vec3{{0.3, 0.4, 0.866}, {-0.6, 0.7, 0.2}, {0.1, -0.3, -0.9}}
	for _, w := range worlds {
		for _, c := range cases {
			t.Run(w.name+"/"+c.name, func(t *testing.T) {
				hs := ShapeHandles(c.s, w.m)
				h := hs[c.handle]
				p := w.m.Mul4x1(c.local.Vec4(1)).Vec3()
				for _, from := range froms {
					o, d := rayThrough(p, from.Normalize())
					got := DragHandle(c.s, w.m, h, o, d)
					if !shapeNear(got, c.want, 1e-9) {
						t.Errorf("from %v: got %+v, want %+v", from, got, c.want)
					}
					// A later step of the same drag, given the shape the
					// last step left, lands on the same value.
					if again := DragHandle(got, w.m, h, o, d); !shapeNear(again, c.want, 1e-9) {
						t.Errorf("from %v, second step: got %+v, want %+v", from, again, c.want)
					}
				}
			})
		}
	}
}

func shapeNear(a, b scene.Shape, tol float64) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) <= tol }
	return a.Type == b.Type && near(a.Size[0], b.Size[0]) && near(a.Size[1], b.Size[1]) && near(a.Size[2], b.Size[2]) &&
		near(a.Radius, b.Radius) && near(a.Height, b.Height) && near(a.RadiusTop, b.RadiusTop) && near(a.RadiusBottom, b.RadiusBottom)
}

// TestDragHandleClosestPoint: a ray that misses the axis line sets the
// parameter from the point of the line closest to it.
func TestDragHandleClosestPoint(t *testing.T) {
	box := scene.Shape{Type: scene.ShapeBox, Size: [3]float64{2, 2, 2}}
	h := ShapeHandles(box, mgl64.Ident4())[0]
	// The ray runs along -Y at x = 1.5, z = 1: nearest the X axis at x = 1.5.
	got := DragHandle(box, mgl64.Ident4(), h, mgl64.Vec3{1.5, 10, 1}, mgl64.Vec3{0, -1, 0})
	if got.Size != [3]float64{3, 2, 2} {
		t.Errorf("size %v, want [3 2 2]", got.Size)
	}
}

// TestDragHandleUnchanged: a ray along the handle's axis, a non-finite ray,
// a singular world matrix and a handle of another shape type change nothing.
func TestDragHandleUnchanged(t *testing.T) {
	box := scene.Shape{Type: scene.ShapeBox, Size: [3]float64{2, 2, 2}}
	id := mgl64.Ident4()
	h := ShapeHandles(box, id)[0]
	nan := math.NaN()
	cases := []struct {
		name   string
		world  mgl64.Mat4
		h      Handle
		o, dir mgl64.Vec3
	}{
		{"parallel ray", id, h, mgl64.Vec3{0, 1, 0}, mgl64.Vec3{1, 0, 0}},
		{"zero direction", id, h, mgl64.Vec3{0, 1, 0}, mgl64.Vec3{}},
		{"NaN origin", id, h, mgl64.Vec3{nan, 1, 0}, mgl64.Vec3{0, -1, 0}},
		{"infinite direction", id, h, mgl64.Vec3{1, 1, 0}, mgl64.Vec3{0, math.Inf(-1), 0}},
		{"singular world", mgl64.Scale3D(1, 0, 1), h, mgl64.Vec3{1.5, 1, 0}, mgl64.Vec3{0, -1, 0}},
		{"NaN world", mgl64.Translate3D(nan, 0, 0), h, mgl64.Vec3{1.5, 1, 0}, mgl64.Vec3{0, -1, 0}},
		{"sphere handle on a box", id, Handle{Param: SphereRadius, Pos: mgl64.Vec3{1, 0, 0}, Axis: mgl64.Vec3{1, 0, 0}}, mgl64.Vec3{1.5, 1, 0}, mgl64.Vec3{0, -1, 0}},
		{"unset parameter", id, Handle{Axis: mgl64.Vec3{1, 0, 0}}, mgl64.Vec3{1.5, 1, 0}, mgl64.Vec3{0, -1, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DragHandle(box, c.world, c.h, c.o, c.dir); got.Size != box.Size {
				t.Errorf("size %v, want it unchanged %v", got.Size, box.Size)
			}
		})
	}
}

// TestEveryShapeTypeHasHandles: the handle switch covers every shape type
// the model knows (a new type must be added here), every parameter has a
// name and belongs to some shape.
func TestEveryShapeTypeHasHandles(t *testing.T) {
	want := map[scene.ShapeType][]HandleParam{
		scene.ShapeBox:      {BoxX, BoxX, BoxY, BoxY, BoxZ, BoxZ},
		scene.ShapeSphere:   {SphereRadius},
		scene.ShapeCapsule:  {CapsuleHeight, CapsuleHeight, CapsuleRadiusTop, CapsuleRadiusBottom},
		scene.ShapeCylinder: {CylinderHeight, CylinderHeight, CylinderRadiusTop, CylinderRadiusBottom},
		scene.ShapeConvex:   nil,
		scene.ShapeTrimesh:  nil,
		// G4MF kinds are edited in the inspector only.
		scene.ShapeGeneral:   {GeneralX, GeneralX, GeneralY, GeneralY, GeneralZ, GeneralZ},
		scene.ShapePlane:     nil,
		scene.ShapeRay:       nil,
		scene.ShapeHeightmap: nil,
	}
	seen := map[HandleParam]bool{}
	for _, st := range scene.ShapeTypes() {
		w, ok := want[st]
		if !ok {
			t.Errorf("shape type %v has no handle row in this test", st)
			continue
		}
		s := scene.DefaultShape(st)
		s.Mesh = 0
		hs := ShapeHandles(s, mgl64.Ident4())
		if len(hs) != len(w) {
			t.Errorf("%v: %d handles, want %d", st, len(hs), len(w))
			continue
		}
		for i, h := range hs {
			if h.Param != w[i] {
				t.Errorf("%v handle %d is %v, want %v", st, i, h.Param, w[i])
			}
			seen[h.Param] = true
		}
	}
	for _, st := range []scene.ShapeType{0, 99} {
		if hs := ShapeHandles(scene.Shape{Type: st}, mgl64.Ident4()); hs != nil {
			t.Errorf("shape type %d has %d handles, want none", st, len(hs))
		}
	}
	for p := BoxX; p <= CylinderRadiusBottom; p++ {
		if p.String() == "unknown" {
			t.Errorf("parameter %d has no name", p)
		}
		if !seen[p] {
			t.Errorf("parameter %v belongs to no shape", p)
		}
	}
	if HandleParam(0).String() != "unknown" {
		t.Errorf("the unset parameter is named %q", HandleParam(0))
	}
}

func TestHandleLines(t *testing.T) {
	c := [4]float32{1, 0.5, 0, 1}
	hs := ShapeHandles(scene.Shape{Type: scene.ShapeBox, Size: [3]float64{2, 2, 2}}, mgl64.Ident4())
	ls := HandleLines(hs, 0.1, 2, c)
	if len(ls) != 15*len(hs) {
		t.Fatalf("%d lines, want %d", len(ls), 15*len(hs))
	}
	for i, h := range hs {
		r := 0.05
		if i == 2 {
			r *= 1.6
		}
		far := 0.0
		for _, l := range ls[15*i : 15*(i+1)] {
			if l.Color != c {
				t.Fatalf("colour %v, want %v", l.Color, c)
			}
			for _, p := range []mgl64.Vec3{vec(l.A), vec(l.B)} {
				far = math.Max(far, p.Sub(h.Pos).Len())
			}
		}
		if math.Abs(far-r) > 1e-6 {
			t.Errorf("handle %d drawn %g from its centre, want %g", i, far, r)
		}
	}
	if ls := HandleLines(nil, 0.1, -1, c); len(ls) != 0 {
		t.Errorf("no handles drew %d lines", len(ls))
	}
}

// TestHandleValue: every handle reads back the parameter a drag sets.
func TestHandleValue(t *testing.T) {
	for _, c := range handleShapes {
		for i, h := range ShapeHandles(c.s, tilted) {
			o, d := rayThrough(h.Pos.Add(h.Axis.Mul(0.25)), mgl64.Vec3{0.3, 0.4, 0.866})
			dragged := DragHandle(c.s, tilted, h, o, d)
			before, ok1 := HandleValue(c.s, h.Param)
			after, ok2 := HandleValue(dragged, h.Param)
			if !ok1 || !ok2 || !(after > before) {
				t.Errorf("%s handle %d (%v): %g (%v) before, %g (%v) after a drag outwards", c.name, i, h.Param, before, ok1, after, ok2)
			}
		}
	}
	if v, ok := HandleValue(scene.Shape{Type: scene.ShapeBox, Size: [3]float64{1, 2, 3}}, BoxZ); !ok || v != 3 {
		t.Errorf("box size z = %g, %v; want 3", v, ok)
	}
	if _, ok := HandleValue(scene.Shape{Type: scene.ShapeBox}, SphereRadius); ok {
		t.Error("a box has a sphere radius")
	}
	if _, ok := HandleValue(scene.Shape{Type: scene.ShapeSphere}, 0); ok {
		t.Error("the unset parameter has a value")
	}
}

// TestGeneralShapeHandles: a rounded box (G4MF general: size 1 and curves of
// radius 0.2) has its face handles on the rounded surface, 0.7 from the
// centre, and dragging the +X one out to 1.0 makes the box part 1.6 wide
// (the curves keep their 0.2).
func TestGeneralShapeHandles(t *testing.T) {
	s := scene.NewGeneralShape(scene.General{Size: [3]float64{1, 1, 1}, Curves: []scene.Curve{{Radii: [3]float64{0.2, 0.2, 0.2}, Exponent: 2}}})
	world := mgl64.Translate3D(3, 0, 0)
	hs := ShapeHandles(s, world)
	if len(hs) != 6 {
		t.Fatalf("%d handles, want one per face", len(hs))
	}
	px := hs[0]
	if px.Param != GeneralX || px.Pos.Sub(mgl64.Vec3{3.7, 0, 0}).Len() > 1e-9 {
		t.Fatalf("first handle %v at %v, want general size x at (3.7, 0, 0)", px.Param, px.Pos)
	}
	g, _ := s.General()
	if dist := g.SignedDistance(mgl64.Vec3{0.7, 0, 0}); math.Abs(dist) > 1e-9 {
		t.Errorf("the handle is %g off the surface", dist)
	}
	eye := mgl64.Vec3{4, 5, 10}
	got := DragHandle(s, world, px, eye, mgl64.Vec3{4, 0, 0}.Sub(eye))
	if math.Abs(got.Size[0]-1.6) > 1e-9 || got.Size[1] != 1 || got.Size[2] != 1 {
		t.Errorf("dragged to x = 1.0: size %v, want [1.6 1 1]", got.Size)
	}
	if v, ok := HandleValue(got, GeneralX); !ok || math.Abs(v-1.6) > 1e-9 {
		t.Errorf("HandleValue = %g, %v", v, ok)
	}
	// Dragged inside the curves, the box part is 0, never negative.
	if got := DragHandle(s, world, px, eye, mgl64.Vec3{3.1, 0, 0}.Sub(eye)); got.Size[0] != 0 {
		t.Errorf("dragged to x = 0.1: size x %g, want 0", got.Size[0])
	}
}
