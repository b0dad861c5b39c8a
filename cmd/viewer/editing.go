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
	"physview/internal/app"
	"physview/ui"
)

// The viewport's input: clicks pick nodes, hovering highlights them, the
// selected node's shapes show handles that drag their size, and the
// transform gizmo moves, turns and scales the node. The session does the
// editing (internal/app: one drag is one undo step, Escape cancels it);
// this file turns imgui's mouse and keys into its calls.

// menuHeight is the height of the main menu bar above the 3D view.
const menuHeight = 22

// clickSlop is how far (pixels) the mouse may move between press and
// release for the press to count as a click (select), not a drag (orbit).
const clickSlop = 4

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
	c := a.cam()
	vp.view = c.View()
	vp.proj = c.Projection(w / math.Max(h, 1))
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

// viewInput handles the mouse and keys over the 3D view: picking, hover,
// handle drags, the gizmo and the camera.
func (a *windowApp) viewInput(io *imgui.IO) {
	s := a.s
	vp := a.viewport(io)
	mouse := imgui.MousePos()
	overView := vp.inView(mouse) && !io.WantCaptureMouse()
	a.gizmo(vp)
	gizmoBusy := s.GizmoActive() || (s.View.Gizmo != app.GizmoOff && imguizmo.IsOver())

	// Escape cancels a drag in progress (handle or gizmo).
	if imgui.IsKeyPressedBool(imgui.KeyEscape) && (s.Dragging() || s.GizmoActive()) {
		s.CancelDrag()
		return
	}

	// A handle drag follows the mouse until the button is released.
	if s.Dragging() {
		if imgui.IsMouseDown(imgui.MouseButtonLeft) {
			if d := io.MouseDelta(); d.X != 0 || d.Y != 0 {
				s.DragTo(vp.ray(mouse))
			}
			return
		}
		s.EndDrag()
		return
	}

	hs, _ := s.Handles()
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
		if hover >= 0 && s.BeginDrag(hover) {
			a.pressed = false
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
				c := a.cam()
				c.Orbit(float64(md.X)*0.008, -float64(md.Y)*0.008)
				a.setCam(c)
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
			c := a.cam()
			c.Pan(float64(md.X), float64(md.Y), vp.h)
			a.setCam(c)
		}
		if w := io.MouseWheel(); w != 0 {
			c := a.cam()
			c.Zoom(float64(w))
			a.setCam(c)
		}
		if (md.X != 0 || md.Y != 0) && !imgui.IsMouseDown(imgui.MouseButtonLeft) {
			a.hover(vp, mouse)
		}
		if n := s.Hovered; n >= 0 && n < len(s.Doc.GLTF.Nodes) && !s.Dragging() && !a.orbiting {
			// SetTooltip takes a format: escape the name's percent signs.
			imgui.SetTooltip(strings.ReplaceAll(ui.NodeLabel(s.Doc, n), "%", "%%"))
		}
	} else if s.Hovered >= 0 && !a.pressed {
		s.Hovered = -1
		a.overlayDirty = true
	}
}

// pick selects the node under the mouse (or nothing on empty space).
func (a *windowApp) pick(vp viewport, m imgui.Vec2) {
	if n := a.pickAt(vp, m); n != a.s.Selected {
		a.s.Do(app.Select{Node: n, FromView: n >= 0})
	}
}

func (a *windowApp) pickAt(vp viewport, m imgui.Vec2) int {
	d, cache, meshes := a.s.Doc, a.debug, a.meshes
	if p := &a.play; a.s.Play.Sim != nil && p.cache != nil {
		// While a simulation is shown, pick what is on screen: the
		// bodies where the simulation has them (same node indices).
		// (The picker's remembered bounds are keyed by the slices they
		// came from, so switching documents needs no reset.)
		d, cache, meshes = a.s.Play.Sim.Doc, p.cache, p.meshes
	}
	if d == nil || cache == nil {
		return -1
	}
	return a.picker.PickNode(d, cache.World(), meshes, cache.PickLines, vp.view, vp.proj,
		float64(m.X)-vp.x, float64(m.Y)-vp.y, vp.w, vp.h, 6)
}

func (a *windowApp) hover(vp viewport, m imgui.Vec2) {
	n := a.pickAt(vp, m)
	if n != a.s.Hovered {
		a.s.Hovered = n
		a.overlayDirty = true
	}
}

// gizmo shows the transform gizmo on the selected node and hands its use
// to the session (one undo step per drag).
func (a *windowApp) gizmo(vp viewport) {
	s := a.s
	d := s.Doc
	n := s.Selected
	if s.View.Gizmo == app.GizmoOff || d == nil || n < 0 || n >= len(d.GLTF.Nodes) {
		s.EndGizmo()
		return
	}
	imguizmo.SetDrawlistV(imgui.BackgroundDrawList())
	imguizmo.SetRect(float32(vp.x), float32(vp.y), float32(vp.w), float32(vp.h))
	view, proj := toF32(vp.view), toF32(vp.proj)
	m := toF32(d.WorldMatrix(n))
	op := map[app.GizmoMode]imguizmo.OPERATION{app.GizmoTranslate: imguizmo.TRANSLATE, app.GizmoRotate: imguizmo.ROTATE, app.GizmoScale: imguizmo.SCALE}[s.View.Gizmo]
	changed := imguizmo.Manipulate(&view[0], &proj[0], op, imguizmo.LOCAL, &m[0])
	if imguizmo.IsUsing() {
		s.BeginGizmo()
	} else {
		s.EndGizmo()
	}
	if !changed {
		return
	}
	var nw mgl64.Mat4
	for i := range m {
		nw[i] = float64(m[i])
	}
	s.GizmoTo(nw)
}

func toF32(m mgl64.Mat4) [16]float32 {
	var out [16]float32
	for i := range m {
		out[i] = float32(m[i])
	}
	return out
}

// editKeys handles the editor's shortcuts.
func (a *windowApp) editKeys() {
	ctrl := imgui.IsKeyDown(imgui.ModCtrl)
	shift := imgui.IsKeyDown(imgui.ModShift)
	switch {
	case ctrl && imgui.IsKeyPressedBool(imgui.KeyZ) && shift, ctrl && imgui.IsKeyPressedBool(imgui.KeyY):
		a.s.Redo()
	case ctrl && imgui.IsKeyPressedBool(imgui.KeyZ):
		a.s.Undo()
	case !ctrl && imgui.IsKeyPressedBool(imgui.KeyW):
		a.s.View.Gizmo = app.GizmoTranslate
	case !ctrl && imgui.IsKeyPressedBool(imgui.KeyE):
		a.s.View.Gizmo = app.GizmoRotate
	case !ctrl && imgui.IsKeyPressedBool(imgui.KeyR):
		a.s.View.Gizmo = app.GizmoScale
	case !ctrl && imgui.IsKeyPressedBool(imgui.KeyQ):
		a.s.View.Gizmo = app.GizmoOff
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
	if n := a.s.Hovered; n >= 0 && n != a.s.Selected {
		for _, l := range a.debug.PickLines(n) {
			l.Color = [4]float32{1, 1, 1, 0.8}
			lines = append(lines, l)
		}
	}
	if n := a.s.Selected; n >= 0 {
		// The selected node's meshes in a yellow box (its colliders are
		// drawn yellow by the cache).
		if lo, hi, ok := a.renderer.NodeBounds(n); ok {
			lines = append(lines, boxLines(lo, hi, debugdraw.ColorSelected)...)
		}
	}
	hs, _ := a.s.Handles()
	if len(hs) > 0 {
		// Handles keep about 12 pixels on screen.
		size := debugdraw.PixelSize(vp.view, vp.proj, hs[0].Pos, vp.h) * 12
		lines = append(lines, debugdraw.HandleLines(hs, size, a.hoverHandle, [4]float32{1, 0.85, 0.1, 1})...)
	}
	lines = append(lines, a.probeLines...)
	lines = append(lines, a.skinLines()...) // timeline.go
	// The compound fit's preview (compound.go).
	lines = append(lines, a.compoundLines()...)
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
		for n := range a.s.Doc.Nodes {
			if ls := a.debug.PickLines(n); len(ls) > 0 {
				l := ls[len(ls)/3]
				mid := mgl64.Vec3{float64(l.A[0]+l.B[0]) / 2, float64(l.A[1]+l.B[1]) / 2, float64(l.A[2]+l.B[2]) / 2}
				if x, y, ok := at(mid); ok {
					fmt.Fprintf(os.Stderr, "viewer: node %d lines at %.0f %.0f\n", n, x, y)
				}
			}
		}
		a.logMeshes(at) // compound.go
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
