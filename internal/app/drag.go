package app

import (
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
	// joint is the joint node whose handle is dragged (drag_joint.go),
	// -1 for a shape handle; normal is the plane a pivot moves in.
	joint  int
	normal mgl64.Vec3
}

// Handles returns the handles of the selected node's collider and trigger
// shapes (in world space), with the shape each belongs to, then those of
// its joint (limit ends and pivot, shape -1).
func (s *Session) Handles() ([]debugdraw.Handle, []int) { return s.allHandles() }

func (s *Session) shapeHandles() ([]debugdraw.Handle, []int) {
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

// allHandles is Handles with the selected joint's handles after the
// shapes' (their shape is -1).
func (s *Session) allHandles() ([]debugdraw.Handle, []int) {
	hs, shapes := s.shapeHandles()
	for _, h := range s.jointHandles() {
		hs = append(hs, h)
		shapes = append(shapes, -1)
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
	s.drag = &dragState{shape: shapes[i], handle: h, world: s.Doc.WorldMatrix(s.Selected), label: "Drag " + h.Param.String(), joint: -1}
	if shapes[i] < 0 {
		s.drag.joint = s.Selected
	} else if note := SharedShapeNote(s.Doc, s.Selected, shapes[i], "Inspector > Make single gives this node a copy of its own"); note != "" {
		s.Notice(note) // the drag resizes the other nodes' colliders too
	}
	s.Hist.Seal() // the drag is a step of its own
	return true
}

// DragTo moves the dragged handle to where the ray (origin, dir) in world
// space passes closest to its axis; the shape keeps 4 significant digits.
func (s *Session) DragTo(origin, dir mgl64.Vec3) {
	g := s.drag
	if g != nil && g.joint >= 0 {
		s.dragJoint(origin, dir)
		return
	}
	if g == nil || s.Doc == nil || g.shape < 0 || g.shape >= len(s.Doc.Shapes) {
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
	s.changed(scene.Change{}) // validates: the step is sealed
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
	t := DecomposeTRS(local)
	if t == d.NodeTransform(n) {
		return // where it is already: no edit, no undo step
	}
	s.Edit(scene.SetNodeTransform{Node: n, Transform: t, Label: label + " (gizmo)"})
}

// GizmoFrame takes one frame of the transform gizmo: whether it is being
// dragged (using), whether it moved the node this frame (changed) and to
// which world matrix. ImGuizmo reports the first change of a drag on a
// frame where it does not yet say it is in use (and that change moves
// nothing: the matrix's float32 round trip); taken as it came, that was an
// undo step of its own before the drag's. A change starts the drag, a
// change to where the node already is makes no edit, and the drag ends on
// the first frame with neither: one drag, one undo step.
func (s *Session) GizmoFrame(using, changed bool, m mgl64.Mat4) {
	if using || changed {
		s.BeginGizmo()
	} else {
		s.EndGizmo()
	}
	if changed {
		s.GizmoTo(m)
	}
}

// EndGizmo ends a transform-gizmo drag: one undo step, validated now.
func (s *Session) EndGizmo() {
	if !s.gizmoOn {
		return
	}
	s.gizmoOn = false
	s.Hist.Seal()
	s.validate()
}

// DecomposeTRS splits the gizmo's matrix into translation, rotation and
// scale (scene.DecomposeTRS), rounding away its float32 noise: 6
// significant digits, rotations 9 (6 would leave a quaternion off unit
// length by more than validators allow).
func DecomposeTRS(m mgl64.Mat4) scene.Transform {
	t := scene.DecomposeTRS(m)
	for i := range t.Translation {
		t.Translation[i] = scene.RoundSig(t.Translation[i], 6)
		t.Scale[i] = scene.RoundSig(t.Scale[i], 6)
	}
	for i := range t.Rotation {
		t.Rotation[i] = scene.RoundSig(t.Rotation[i], 9)
	}
	return t
}

// RoundShape keeps 4 significant digits of a dragged shape's dimensions:
// a mouse is not more precise than that, and the file stays readable
// (2.133, not 2.1328173633587544).
func RoundShape(sh scene.Shape) scene.Shape {
	r := func(v float64) float64 { return scene.RoundSig(v, 4) }
	for i := range sh.Size {
		sh.Size[i] = r(sh.Size[i])
	}
	sh.Radius, sh.Height, sh.RadiusTop, sh.RadiusBottom = r(sh.Radius), r(sh.Height), r(sh.RadiusTop), r(sh.RadiusBottom)
	return sh
}
