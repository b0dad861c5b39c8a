package main

import (
	"math"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/imguizmo"
	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/app"
	"physview/internal/app/viewport"
	"physview/ui"
)

// The viewport's input: this file reads imgui's mouse and keys and hands
// them on. The controller (internal/app/viewport) picks, hovers, drags
// handles and moves the camera; the session edits (one drag is one undo
// step, Escape cancels it). The transform gizmo is imguizmo's, so it is
// driven here.

// menuHeight is the height of the main menu bar above the 3D view.
const menuHeight = 22

// viewport is the 3D view's rectangle in imgui's logical pixels and its
// camera matrices.
func (a *windowApp) viewport(io *imgui.IO) viewport.Rect {
	size := io.DisplaySize()
	w, h := float64(size.X-a.s.View.PanelFor(size.X)), float64(size.Y-menuHeight)
	c := a.cam()
	return viewport.Rect{X: 0, Y: menuHeight, W: w, H: h, View: c.View(), Proj: c.Projection(w / math.Max(h, 1))}
}

// handleInput turns mouse and keys over the 3D view into picks, handle
// and gizmo drags and camera moves, and the shortcuts into intents.
func (a *windowApp) handleInput(io *imgui.IO) {
	s := a.s
	vp := a.viewport(io)
	a.gizmo(vp)
	pos, delta := imgui.MousePos(), io.MouseDelta()
	x, y := float64(pos.X), float64(pos.Y)
	m := viewport.Mouse{
		X: x, Y: y, DX: float64(delta.X), DY: float64(delta.Y), Wheel: float64(io.MouseWheel()),
		Over:      x >= vp.X && y >= vp.Y && x < vp.X+vp.W && y < vp.Y+vp.H && !io.WantCaptureMouse(),
		Pressed:   imgui.IsMouseClickedBool(imgui.MouseButtonLeft),
		Left:      imgui.IsMouseDown(imgui.MouseButtonLeft),
		Right:     imgui.IsMouseDown(imgui.MouseButtonRight),
		Middle:    imgui.IsMouseDown(imgui.MouseButtonMiddle),
		Escape:    imgui.IsKeyPressedBool(imgui.KeyEscape),
		GizmoBusy: s.GizmoActive() || (s.View.Gizmo != app.GizmoOff && imguizmo.IsOver()),
	}
	c := a.cam()
	if n := a.ctl.Input(vp, m, &c); a.ctl.HandleTip() != "" {
		ui.ViewTooltip(a.ctl.HandleTip(), float32(vp.X+vp.W))
	} else if n >= 0 {
		ui.ViewTooltip(ui.NodeLabel(s.Doc, n), float32(vp.X+vp.W))
	}
	if c != a.cam() {
		// Orbiting, panning, zooming: drawn at a reduced resolution
		// while it lasts when a full one would not keep up (View.Moving);
		// a jump (framing, a file's camera) is drawn in full at once.
		a.view.Moving()
	}
	a.setCam(c)
	k := viewport.Keys{Typing: io.WantTextInput(), Prompt: ui.PromptUp(s), Ctrl: imgui.IsKeyDown(imgui.ModCtrl), Shift: imgui.IsKeyDown(imgui.ModShift)}
	for i, key := range shortcutKeys {
		k.Pressed[i] = imgui.IsKeyPressedBool(key)
	}
	if in := viewport.Shortcut(k); in != nil {
		a.do(in)
	}
	if !k.Typing && !k.Prompt {
		// The keys are the view's shortcuts, not ImGui's keyboard
		// navigation (the backend turns it on): Home would put ImGui's
		// focus ring on the panel button clicked last and every Space
		// after would press it as well as toggle Play (on the Play
		// button: two toggles, Play could no longer be paused from the
		// keyboard). With the ring hidden, Space and Enter press nothing.
		imgui.SetNavCursorVisible(false)
	}
}

// shortcutKeys are imgui's keys for viewport.Key's.
var shortcutKeys = [viewport.NumKeys]imgui.Key{
	viewport.KeyF: imgui.KeyF, viewport.KeyHome: imgui.KeyHome, viewport.KeyS: imgui.KeyS,
	viewport.KeyZ: imgui.KeyZ, viewport.KeyY: imgui.KeyY, viewport.KeyW: imgui.KeyW, viewport.KeyE: imgui.KeyE,
	viewport.KeyR: imgui.KeyR, viewport.KeyQ: imgui.KeyQ, viewport.KeySpace: imgui.KeySpace,
	viewport.KeyComma: imgui.KeyComma, viewport.KeyPeriod: imgui.KeyPeriod,
}

// gizmo shows the transform gizmo on the selected node and hands its use
// to the session (one undo step per drag).
func (a *windowApp) gizmo(vp viewport.Rect) {
	s := a.s
	d, n := s.Doc, s.Selected
	if s.View.Gizmo == app.GizmoOff || d == nil || n < 0 || n >= len(d.GLTF.Nodes) {
		s.EndGizmo()
		return
	}
	imguizmo.SetDrawlistV(imgui.BackgroundDrawList())
	imguizmo.SetRect(float32(vp.X), float32(vp.Y), float32(vp.W), float32(vp.H))
	view, proj, m := toF32(vp.View), toF32(vp.Proj), toF32(d.WorldMatrix(n))
	op := map[app.GizmoMode]imguizmo.OPERATION{app.GizmoTranslate: imguizmo.TRANSLATE, app.GizmoRotate: imguizmo.ROTATE, app.GizmoScale: imguizmo.SCALE}[s.View.Gizmo]
	changed := imguizmo.Manipulate(&view[0], &proj[0], op, imguizmo.LOCAL, &m[0])
	var nw mgl64.Mat4
	for i := range m {
		nw[i] = float64(m[i])
	}
	s.GizmoFrame(imguizmo.IsUsing(), changed, nw)
}

func toF32(m mgl64.Mat4) [16]float32 {
	var out [16]float32
	for i := range m {
		out[i] = float32(m[i])
	}
	return out
}

// wake asks for a few more frames after input, so that what a click
// changes (a tab, a variant, a selection) shows at once rather than at the
// next mouse move: the window only draws when an event arrives (idle.go).
// ImGui spreads a press and its release over frames and acts on a button
// a frame after its release, so every frame that took in input events asks
// for three more (afterFrame draws them, paced, without waiting). Frames
// woken by a background result or by the idle timeout took in none.
func (a *windowApp) wake() {
	if imgui.CurrentContext().InputEventsTrail().Size > 0 || imgui.IsAnyItemActive() {
		a.wakeFrames = 4
	}
	a.wakeFrames = max(0, a.wakeFrames-1)
}
