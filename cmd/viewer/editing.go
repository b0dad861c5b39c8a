package main

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/scene"
	"physview/ui"
)

// The viewport editor: clicks pick nodes, hovering highlights them, the
// selected node's shapes show handles that drag their size, and the
// transform gizmo moves, turns and scales the node. Every change is a
// scene.Edit applied through the document's History; one drag is one undo
// step and Escape during a drag cancels it.

// menuHeight is the height of the main menu bar above the 3D view.
const menuHeight = 22

// clickSlop is how far (pixels) the mouse may move between press and
// release for the press to count as a click (select), not a drag (orbit).
const clickSlop = 4

// handleDrag is a shape-handle drag in progress.
type handleDrag struct {
	shape  int
	handle debugdraw.Handle
	world  mgl64.Mat4
	label  string
}

// viewport is the 3D view's rectangle in imgui's logical pixels and its
// camera matrices.
type viewport struct {
	x, y, w, h float64
	view, proj mgl64.Mat4
}

func (a *windowApp) viewport(io *imgui.IO) viewport {
	size := io.DisplaySize()
	w, h := float64(size.X-ui.PanelWidth), float64(size.Y-menuHeight)
	vp := viewport{x: 0, y: menuHeight, w: w, h: h}
	vp.view = a.cam.View()
	vp.proj = a.cam.Projection(w / math.Max(h, 1))
	return vp
}

// inView reports whether the mouse is over the 3D view and not over the panel.
func (vp viewport) inView(m imgui.Vec2) bool {
	x, y := float64(m.X)-vp.x, float64(m.Y)-vp.y
	return x >= 0 && y >= 0 && x < vp.w && y < vp.h
}

// ray returns the world ray under the mouse.
func (vp viewport) ray(m imgui.Vec2) (mgl64.Vec3, mgl64.Vec3) {
	return debugdraw.PickRay(vp.view, vp.proj, float64(m.X)-vp.x, float64(m.Y)-vp.y, vp.w, vp.h)
}

// edit applies e through the history and makes everything follow.
func (a *windowApp) edit(e scene.Edit) {
	d := a.state.Doc
	if d == nil || e == nil {
		return
	}
	nodes := len(d.GLTF.Nodes)
	ch, err := a.hist.Do(d, e)
	if err != nil {
		a.state.Error = "Not applied: " + err.Error()
		return
	}
	a.state.Error = ""
	if len(d.GLTF.Nodes) > nodes {
		// A collider fitted on a new child node: show that node, with
		// its handles.
		a.state.Selected = len(d.GLTF.Nodes) - 1
	}
	a.changed(ch)
}

// changed redraws, re-validates and updates the title after an edit, an
// undo or a redo, as the Change says.
func (a *windowApp) changed(ch scene.Change) {
	d := a.state.Doc
	if a.debug != nil {
		a.debug.Apply(ch)
	}
	if a.renderer != nil && (len(ch.Moved) > 0 || ch.Structure) {
		a.renderer.TransformsChanged()
	}
	// Validation runs once a drag ends (see sealEdits), not per mouse move.
	if !a.hist.Dragging() {
		d.Validate()
	}
	a.state.Modified = a.hist.Modified()
	a.state.UndoName, a.state.RedoName = a.hist.UndoName(), a.hist.RedoName()
	a.state.Status = ""
	if n := a.state.Selected; n >= len(d.GLTF.Nodes) {
		a.state.Selected = -1
	}
	a.probeOn = !a.state.Probe // gravity may have changed: redraw the probe
	a.overlayDirty = true
	a.view.Invalidate()
}

func (a *windowApp) undo() {
	if a.drag != nil {
		a.cancelDrag()
		return
	}
	name := a.hist.UndoName()
	if ch, ok := a.hist.Undo(a.state.Doc); ok {
		a.changed(ch)
		fmt.Fprintf(os.Stderr, "viewer: undo %s\n", name)
	}
}

func (a *windowApp) redo() {
	name := a.hist.RedoName()
	if ch, ok := a.hist.Redo(a.state.Doc); ok {
		a.changed(ch)
		fmt.Fprintf(os.Stderr, "viewer: redo %s\n", name)
	}
}

// sealEdits closes the open undo step once no field is being typed in and
// no drag is going on, and validates what it changed.
func (a *windowApp) sealEdits() {
	if a.hist.Dragging() && a.drag == nil && !a.gizmoUsing && !imgui.IsAnyItemActive() {
		a.hist.Seal()
		a.state.Doc.Validate()
	}
}

func (a *windowApp) cancelDrag() {
	a.drag = nil
	a.gizmoUsing = false
	if ch, ok := a.hist.Cancel(a.state.Doc); ok {
		a.changed(ch)
		a.state.Status = "drag cancelled"
		fmt.Fprintln(os.Stderr, "viewer: drag cancelled")
	}
}

// handles returns the handles of the selected node's collider and trigger
// shapes, with the shape each belongs to.
func (a *windowApp) handles() ([]debugdraw.Handle, []int) {
	d := a.state.Doc
	n := a.state.Selected
	if d == nil || n < 0 || n >= len(d.Nodes) || d.Nodes[n].Body == nil {
		return nil, nil
	}
	world := d.WorldMatrix(n)
	var hs []debugdraw.Handle
	var shapes []int
	b := d.Nodes[n].Body
	for _, s := range []int{colliderShape(b), triggerShape(b)} {
		if s < 0 || s >= len(d.Shapes) {
			continue
		}
		for _, h := range debugdraw.ShapeHandles(d.Shapes[s], world) {
			hs = append(hs, h)
			shapes = append(shapes, s)
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

// viewInput handles the mouse and keys over the 3D view: picking, hover,
// handle drags, the gizmo and the camera.
func (a *windowApp) viewInput(io *imgui.IO) {
	vp := a.viewport(io)
	mouse := imgui.MousePos()
	overView := vp.inView(mouse) && !io.WantCaptureMouse()
	a.gizmo(vp)
	gizmoBusy := a.gizmoUsing || (a.state.Gizmo != ui.GizmoOff && imguizmo.IsOver())

	// Escape cancels a drag in progress (handle or gizmo).
	if imgui.IsKeyPressedBool(imgui.KeyEscape) && (a.drag != nil || a.gizmoUsing) {
		a.cancelDrag()
		return
	}

	// A handle drag follows the mouse until the button is released.
	if a.drag != nil {
		if imgui.IsMouseDown(imgui.MouseButtonLeft) {
			if d := io.MouseDelta(); d.X != 0 || d.Y != 0 {
				o, dir := vp.ray(mouse)
				s := a.state.Doc.Shapes[a.drag.shape]
				ns := roundShape(debugdraw.DragHandle(s, a.drag.world, a.drag.handle, o, dir))
				if ns.Size != s.Size || ns.Radius != s.Radius || ns.Height != s.Height || ns.RadiusTop != s.RadiusTop || ns.RadiusBottom != s.RadiusBottom {
					a.edit(scene.SetShape{Index: a.drag.shape, Shape: ns, Label: a.drag.label})
				}
			}
			return
		}
		a.drag = nil
		a.hist.Seal()
		a.state.Doc.Validate()
		a.changed(scene.Change{})
		fmt.Fprintf(os.Stderr, "viewer: drag done: %s\n", a.hist.UndoName())
		return
	}

	hs, shapes := a.handles()
	hover := -1
	if overView && !gizmoBusy {
		hover = debugdraw.PickHandle(hs, vp.proj.Mul4(vp.view), float64(mouse.X)-vp.x, float64(mouse.Y)-vp.y, vp.w, vp.h, 8)
	}
	if hover != a.hoverHandle {
		a.hoverHandle = hover
		a.overlayDirty = true
	}

	if overView && !gizmoBusy && imgui.IsMouseClickedBool(imgui.MouseButtonLeft) {
		a.pressAt, a.pressed, a.orbiting = mouse, true, false
		if hover >= 0 {
			h := hs[hover]
			a.drag = &handleDrag{shape: shapes[hover], handle: h, world: a.state.Doc.WorldMatrix(a.state.Selected), label: "Drag " + h.Param.String()}
			a.pressed = false
			a.hist.Seal() // the drag is a step of its own
			return
		}
	}
	if a.pressed {
		if imgui.IsMouseDown(imgui.MouseButtonLeft) {
			d := mgl64.Vec2{float64(mouse.X - a.pressAt.X), float64(mouse.Y - a.pressAt.Y)}
			if !a.orbiting && d.Len() > clickSlop {
				a.orbiting = true
			}
			if a.orbiting {
				md := io.MouseDelta()
				a.cam.Orbit(float64(md.X)*0.008, -float64(md.Y)*0.008)
			}
		} else {
			a.pressed = false
			if !a.orbiting {
				a.pick(vp, a.pressAt)
			}
		}
	}
	if overView {
		md := io.MouseDelta()
		if imgui.IsMouseDown(imgui.MouseButtonRight) || imgui.IsMouseDown(imgui.MouseButtonMiddle) {
			a.cam.Pan(float64(md.X), float64(md.Y), vp.h)
		}
		if w := io.MouseWheel(); w != 0 {
			a.cam.Zoom(float64(w))
		}
		if (md.X != 0 || md.Y != 0) && !imgui.IsMouseDown(imgui.MouseButtonLeft) {
			a.hover(vp, mouse)
		}
		if n := a.state.Hovered; n >= 0 && n < len(a.state.Doc.GLTF.Nodes) && a.drag == nil && !a.orbiting {
			// SetTooltip takes a format: escape the name's percent signs.
			imgui.SetTooltip(strings.ReplaceAll(ui.NodeLabel(a.state.Doc, n), "%", "%%"))
		}
	} else if a.state.Hovered >= 0 && !a.pressed {
		a.state.Hovered = -1
		a.overlayDirty = true
	}
}

// pick selects the node under the mouse (or nothing on empty space).
func (a *windowApp) pick(vp viewport, m imgui.Vec2) {
	n := a.pickAt(vp, m)
	if n != a.state.Selected {
		a.state.Selected = n
		a.state.ShowInspector = n >= 0
		a.overlayDirty = true
		fmt.Fprintf(os.Stderr, "viewer: selected node %d\n", n)
	}
}

func (a *windowApp) pickAt(vp viewport, m imgui.Vec2) int {
	d, cache, meshes := a.state.Doc, a.debug, a.meshes
	if p := &a.play; p.sim != nil && p.cache != nil {
		// While a simulation is shown, pick what is on screen: the
		// bodies where the simulation has them (same node indices).
		// (The picker's remembered bounds are keyed by the slices they
		// came from, so switching documents needs no reset.)
		d, cache, meshes = p.sim.Doc, p.cache, p.meshes
	}
	if d == nil || cache == nil {
		return -1
	}
	return a.picker.PickNode(d, cache.World(), meshes, cache.PickLines, vp.view, vp.proj,
		float64(m.X)-vp.x, float64(m.Y)-vp.y, vp.w, vp.h, 6)
}

func (a *windowApp) hover(vp viewport, m imgui.Vec2) {
	n := a.pickAt(vp, m)
	if n != a.state.Hovered {
		a.state.Hovered = n
		a.overlayDirty = true
	}
}

// gizmo shows the transform gizmo on the selected node and turns its use
// into SetNodeTransform edits (one undo step per drag).
func (a *windowApp) gizmo(vp viewport) {
	d := a.state.Doc
	n := a.state.Selected
	if a.state.Gizmo == ui.GizmoOff || d == nil || n < 0 || n >= len(d.GLTF.Nodes) {
		a.gizmoUsing = false
		return
	}
	imguizmo.SetDrawlistV(imgui.BackgroundDrawList())
	imguizmo.SetRect(float32(vp.x), float32(vp.y), float32(vp.w), float32(vp.h))
	view, proj := toF32(vp.view), toF32(vp.proj)
	world := d.WorldMatrix(n)
	m := toF32(world)
	op := map[ui.GizmoMode]imguizmo.OPERATION{ui.GizmoTranslate: imguizmo.TRANSLATE, ui.GizmoRotate: imguizmo.ROTATE, ui.GizmoScale: imguizmo.SCALE}[a.state.Gizmo]
	changed := imguizmo.Manipulate(&view[0], &proj[0], op, imguizmo.LOCAL, &m[0])
	using := imguizmo.IsUsing()
	if using && !a.gizmoUsing {
		a.hist.Seal() // a new drag: a step of its own
	}
	if !using && a.gizmoUsing {
		a.hist.Seal()
		d.Validate()
	}
	a.gizmoUsing = using
	if !changed {
		return
	}
	var nw mgl64.Mat4
	for i := range m {
		nw[i] = float64(m[i])
	}
	local := nw
	if p := d.Parent(n); p >= 0 {
		local = d.WorldMatrix(p).Inv().Mul4(nw)
	}
	t := decomposeTRS(local)
	label := map[ui.GizmoMode]string{ui.GizmoTranslate: "Move node", ui.GizmoRotate: "Rotate node", ui.GizmoScale: "Scale node"}[a.state.Gizmo]
	a.edit(scene.SetNodeTransform{Node: n, Transform: t, Label: label + " (gizmo)"})
}

func toF32(m mgl64.Mat4) [16]float32 {
	var out [16]float32
	for i := range m {
		out[i] = float32(m[i])
	}
	return out
}

// decomposeTRS splits an affine matrix into translation, rotation and
// scale, rounding away float32 noise from the gizmo.
func decomposeTRS(m mgl64.Mat4) scene.Transform {
	round := func(v float64) float64 { return roundSig(v, 6) }
	c0, c1, c2 := m.Col(0).Vec3(), m.Col(1).Vec3(), m.Col(2).Vec3()
	s := [3]float64{c0.Len(), c1.Len(), c2.Len()}
	if c0.Cross(c1).Dot(c2) < 0 {
		s[0] = -s[0]
	}
	for i := range s {
		if s[i] == 0 {
			s[i] = 1
		}
	}
	r := mgl64.Mat3FromCols(c0.Mul(1/s[0]), c1.Mul(1/s[1]), c2.Mul(1/s[2]))
	q := mgl64.Mat4ToQuat(r.Mat4()).Normalize()
	t := scene.Transform{
		Translation: [3]float64{round(m[12]), round(m[13]), round(m[14])},
		// Rotations keep 9 digits: 6 would leave a quaternion off unit
		// length by more than validators allow.
		Rotation: [4]float64{roundSig(q.V[0], 9), roundSig(q.V[1], 9), roundSig(q.V[2], 9), roundSig(q.W, 9)},
		Scale:    [3]float64{round(s[0]), round(s[1]), round(s[2])},
	}
	return t
}

// editKeys handles the editor's shortcuts.
func (a *windowApp) editKeys() {
	ctrl := imgui.IsKeyDown(imgui.ModCtrl)
	shift := imgui.IsKeyDown(imgui.ModShift)
	switch {
	case ctrl && imgui.IsKeyPressedBool(imgui.KeyZ) && shift, ctrl && imgui.IsKeyPressedBool(imgui.KeyY):
		a.redo()
	case ctrl && imgui.IsKeyPressedBool(imgui.KeyZ):
		a.undo()
	case !ctrl && imgui.IsKeyPressedBool(imgui.KeyW):
		a.state.Gizmo = ui.GizmoTranslate
	case !ctrl && imgui.IsKeyPressedBool(imgui.KeyE):
		a.state.Gizmo = ui.GizmoRotate
	case !ctrl && imgui.IsKeyPressedBool(imgui.KeyR):
		a.state.Gizmo = ui.GizmoScale
	case !ctrl && imgui.IsKeyPressedBool(imgui.KeyQ):
		a.state.Gizmo = ui.GizmoOff
	}
}

// updateOverlay rebuilds the lines drawn on top: the hovered node's
// colliders, the selected node's handles and the gravity probe.
func (a *windowApp) updateOverlay(vp viewport) {
	if !a.overlayDirty || a.renderer == nil || a.debug == nil {
		return
	}
	a.overlayDirty = false
	var lines []debugdraw.Line
	if n := a.state.Hovered; n >= 0 && n != a.state.Selected {
		for _, l := range a.debug.PickLines(n) {
			l.Color = [4]float32{1, 1, 1, 0.8}
			lines = append(lines, l)
		}
	}
	if n := a.state.Selected; n >= 0 {
		// The selected node's meshes in a yellow box (its colliders are
		// drawn yellow by the cache).
		if lo, hi, ok := a.renderer.NodeBounds(n); ok {
			lines = append(lines, boxLines(lo, hi, debugdraw.ColorSelected)...)
		}
	}
	hs, _ := a.handles()
	if len(hs) > 0 {
		// Handles keep about 12 pixels on screen.
		size := debugdraw.PixelSize(vp.view, vp.proj, hs[0].Pos, vp.h) * 12
		lines = append(lines, debugdraw.HandleLines(hs, size, a.hoverHandle, [4]float32{1, 0.85, 0.1, 1})...)
	}
	lines = append(lines, a.probeLines...)
	a.renderer.SetOverlay(lines)
	a.view.Invalidate()
	a.logHandles(vp, hs)
}

// logHandles tells a test driving the window where things are on screen
// (PHYSVIEW_LOG_SCREEN=1), since it cannot see them otherwise: a point on
// each node's collider or trigger lines, and each handle with the screen
// direction it drags along.
func (a *windowApp) logHandles(vp viewport, hs []debugdraw.Handle) {
	if os.Getenv("PHYSVIEW_LOG_SCREEN") == "" {
		return
	}
	vpm := vp.proj.Mul4(vp.view)
	at := func(p mgl64.Vec3) (float64, float64, bool) {
		x, y, ok := debugdraw.ScreenPoint(vpm, p, vp.w, vp.h)
		return x + vp.x, y + vp.y, ok && x >= 0 && y >= 0 && x < vp.w && y < vp.h
	}
	if !a.loggedNodes {
		a.loggedNodes = true
		for n := range a.state.Doc.Nodes {
			if ls := a.debug.PickLines(n); len(ls) > 0 {
				l := ls[len(ls)/3]
				mid := mgl64.Vec3{float64(l.A[0]+l.B[0]) / 2, float64(l.A[1]+l.B[1]) / 2, float64(l.A[2]+l.B[2]) / 2}
				if x, y, ok := at(mid); ok {
					fmt.Fprintf(os.Stderr, "viewer: node %d lines at %.0f %.0f\n", n, x, y)
				}
			}
		}
	}
	for i, h := range hs {
		x, y, ok := at(h.Pos)
		x2, y2, ok2 := at(h.Pos.Add(h.Axis.Mul(debugdraw.PixelSize(vp.view, vp.proj, h.Pos, vp.h) * 10)))
		if ok && ok2 {
			dx, dy := x2-x, y2-y
			l := math.Hypot(dx, dy)
			fmt.Fprintf(os.Stderr, "viewer: handle %d %s at %.0f %.0f dir %.3f %.3f\n", i, h.Param, x, y, dx/l, dy/l)
		}
	}
}

// wake asks for a few more frames after input, so that what a click
// changes (a tab, a variant, a selection) shows at once rather than at the
// next mouse move: the window only draws when an event arrives (idle.go).
// ImGui spreads a press and its release over frames and acts on a button
// a frame after its release, so every frame that took in input events asks
// for three more (afterFrame draws them, paced, without waiting). Frames
// woken by a background result or by the idle timeout took in none.
func (a *windowApp) wake(io *imgui.IO) {
	if imgui.CurrentContext().InputEventsTrail().Size > 0 || imgui.IsAnyItemActive() {
		a.wakeFrames = 4
	}
	a.wakeFrames = max(0, a.wakeFrames-1)
}

// boxLines outlines the box [lo, hi].
func boxLines(lo, hi mgl64.Vec3, c [4]float32) []debugdraw.Line {
	corner := func(i int) [3]float32 {
		p := lo
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				p[k] = hi[k]
			}
		}
		return [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
	}
	var out []debugdraw.Line
	for i := 0; i < 8; i++ {
		for k := 0; k < 3; k++ {
			if j := i | 1<<k; j != i {
				out = append(out, debugdraw.Line{A: corner(i), B: corner(j), Color: c})
			}
		}
	}
	return out
}

// roundShape keeps 4 significant digits of a dragged shape's dimensions:
// a mouse is not more precise than that, and the file stays readable
// (2.133, not 2.1328173633587544).
func roundShape(s scene.Shape) scene.Shape {
	r := func(v float64) float64 { return roundSig(v, 4) }
	for i := range s.Size {
		s.Size[i] = r(s.Size[i])
	}
	s.Radius, s.Height, s.RadiusTop, s.RadiusBottom = r(s.Radius), r(s.Height), r(s.RadiusTop), r(s.RadiusBottom)
	return s
}

// roundSig keeps digits significant digits of v (0, NaN and infinities as
// they are).
func roundSig(v float64, digits int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	p := math.Pow(10, float64(digits)-math.Ceil(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}
