package app

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/scene"
)

// The handle-drag protocol, as Godot's gizmo has it: BeginDrag when the
// button goes down on a handle, DragTo while the mouse moves, EndDrag on
// release (the whole drag is one undo step) or CancelDrag (Escape), which
// restores the shape. The transform gizmo follows the same steps with
// BeginGizmo, GizmoTo and EndGizmo.

type dragState struct {
	shape  int
	handle debugdraw.Handle
	world  mgl64.Mat4
	label  string
}

// Handles returns the handles of the selected node's collider and trigger
// shapes (in world space), with the shape each belongs to.
func (s *Session) Handles() ([]debugdraw.Handle, []int) {
	d := s.Doc
	n := s.Selected
	if d == nil || n < 0 || n >= len(d.Nodes) || d.Nodes[n].Body == nil {
		return nil, nil
	}
	world := d.WorldMatrix(n)
	var hs []debugdraw.Handle
	var shapes []int
	b := d.Nodes[n].Body
	for _, sh := range []int{colliderShape(b), triggerShape(b)} {
		if sh < 0 || sh >= len(d.Shapes) {
			continue
		}
		for _, h := range debugdraw.ShapeHandles(d.Shapes[sh], world) {
			hs = append(hs, h)
			shapes = append(shapes, sh)
		}
	}
	return hs, shapes
}

func colliderShape(b *scene.Body) int {
	if b.Collider == nil {
		return -1
	}
	return b.Collider.Shape
}

func triggerShape(b *scene.Body) int {
	if b.Trigger == nil || b.Trigger.Nodes != nil {
		return -1
	}
	return b.Trigger.Shape
}

// Dragging reports whether a handle drag is under way.
func (s *Session) Dragging() bool { return s.drag != nil }

// BeginDrag starts dragging handle i of Handles(); false when there is no
// such handle.
func (s *Session) BeginDrag(i int) bool {
	hs, shapes := s.Handles()
	if i < 0 || i >= len(hs) {
		return false
	}
	h := hs[i]
	s.drag = &dragState{shape: shapes[i], handle: h, world: s.Doc.WorldMatrix(s.Selected), label: "Drag " + h.Param.String()}
	s.Hist.Seal() // the drag is a step of its own
	return true
}

// DragTo moves the dragged handle to where the ray (origin, dir) in world
// space passes closest to its axis; the shape keeps 4 significant digits.
func (s *Session) DragTo(origin, dir mgl64.Vec3) {
	g := s.drag
	if g == nil || s.Doc == nil || g.shape >= len(s.Doc.Shapes) {
		return
	}
	old := s.Doc.Shapes[g.shape]
	ns := RoundShape(debugdraw.DragHandle(old, g.world, g.handle, origin, dir))
	if ns.Size != old.Size || ns.Radius != old.Radius || ns.Height != old.Height || ns.RadiusTop != old.RadiusTop || ns.RadiusBottom != old.RadiusBottom {
		s.Edit(scene.SetShape{Index: g.shape, Shape: ns, Label: g.label})
	}
}

// EndDrag ends the drag: what it did is one undo step, validated now.
func (s *Session) EndDrag() {
	if s.drag == nil {
		return
	}
	s.drag = nil
	s.Hist.Seal()
	s.Doc.Validate()
	s.changed(scene.Change{})
	s.logf("drag done: %s", s.Hist.UndoName())
}

// CancelDrag undoes what the drag (handle or gizmo) did so far.
func (s *Session) CancelDrag() {
	s.drag = nil
	s.gizmoOn = false
	if s.Doc == nil {
		return
	}
	if ch, ok := s.Hist.Cancel(s.Doc); ok {
		s.changed(ch)
		s.Notice("drag cancelled")
		s.logf("drag cancelled")
	}
}

// GizmoActive reports whether the transform gizmo is being dragged.
func (s *Session) GizmoActive() bool { return s.gizmoOn }

// BeginGizmo starts a transform-gizmo drag: a step of its own.
func (s *Session) BeginGizmo() {
	if !s.gizmoOn {
		s.gizmoOn = true
		s.Hist.Seal()
	}
}

// GizmoTo places the selected node at world matrix m (what the gizmo shows).
func (s *Session) GizmoTo(m mgl64.Mat4) {
	d, n := s.Doc, s.Selected
	if d == nil || n < 0 || n >= len(d.GLTF.Nodes) {
		return
	}
	local := m
	if p := d.Parent(n); p >= 0 {
		local = d.WorldMatrix(p).Inv().Mul4(m)
	}
	label := map[GizmoMode]string{GizmoTranslate: "Move node", GizmoRotate: "Rotate node", GizmoScale: "Scale node"}[s.View.Gizmo]
	if label == "" {
		label = "Move node"
	}
	s.Edit(scene.SetNodeTransform{Node: n, Transform: DecomposeTRS(local), Label: label + " (gizmo)"})
}

// EndGizmo ends a transform-gizmo drag: one undo step, validated now.
func (s *Session) EndGizmo() {
	if !s.gizmoOn {
		return
	}
	s.gizmoOn = false
	s.Hist.Seal()
	if s.Doc != nil {
		s.Doc.Validate()
	}
}

// DecomposeTRS splits an affine matrix into translation, rotation and
// scale, rounding away float32 noise from the gizmo (6 significant digits;
// rotations 9, since 6 would leave a quaternion off unit length by more
// than validators allow).
func DecomposeTRS(m mgl64.Mat4) scene.Transform {
	round := func(v float64) float64 { return RoundSig(v, 6) }
	c0, c1, c2 := m.Col(0).Vec3(), m.Col(1).Vec3(), m.Col(2).Vec3()
	sc := [3]float64{c0.Len(), c1.Len(), c2.Len()}
	if c0.Cross(c1).Dot(c2) < 0 {
		sc[0] = -sc[0]
	}
	for i := range sc {
		if sc[i] == 0 {
			sc[i] = 1
		}
	}
	r := mgl64.Mat3FromCols(c0.Mul(1/sc[0]), c1.Mul(1/sc[1]), c2.Mul(1/sc[2]))
	q := mgl64.Mat4ToQuat(r.Mat4()).Normalize()
	return scene.Transform{
		Translation: [3]float64{round(m[12]), round(m[13]), round(m[14])},
		Rotation:    [4]float64{RoundSig(q.V[0], 9), RoundSig(q.V[1], 9), RoundSig(q.V[2], 9), RoundSig(q.W, 9)},
		Scale:       [3]float64{round(sc[0]), round(sc[1]), round(sc[2])},
	}
}

// RoundShape keeps 4 significant digits of a dragged shape's dimensions:
// a mouse is not more precise than that, and the file stays readable
// (2.133, not 2.1328173633587544).
func RoundShape(sh scene.Shape) scene.Shape {
	r := func(v float64) float64 { return RoundSig(v, 4) }
	for i := range sh.Size {
		sh.Size[i] = r(sh.Size[i])
	}
	sh.Radius, sh.Height, sh.RadiusTop, sh.RadiusBottom = r(sh.Radius), r(sh.Height), r(sh.RadiusTop), r(sh.RadiusBottom)
	return sh
}

// RoundSig keeps digits significant digits of v (0, NaN and infinities as
// they are).
func RoundSig(v float64, digits int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	p := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}
