package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/internal/app"
	"physview/internal/recent"
	"physview/render"
	"physview/render/shot"
	"physview/scene"
	"physview/ui"
)

// windowApp is the windowed viewer: one master window, the 3D view behind
// the giu panel, driving an app.Session. It turns imgui input into calls
// on the session and shows what the session holds; it is the session's
// View (renderer and debug-draw cache).
type windowApp struct {
	wnd      *g.MasterWindow
	s        *app.Session
	panel    ui.State
	renderer *render.Renderer
	view     render.View
	debug    *debugdraw.Cache
	glErr    error
	// initial is the file to open once GL is up ("" the demo scene).
	initial string
	opened  bool
	// lastCam and lastView detect changes that need a redraw of the view;
	// lastOpt is lastView as render options (optSet once made).
	lastCam  render.Camera
	lastView app.ViewOptions
	lastOpt  render.Options
	optSet   bool
	// lastProbe is the probe position last drawn.
	lastProbe [3]float32
	probeOn   bool
	start     time.Time
	// firstFrame and textured are reported once each on stderr, so tests
	// and benchmarks can tell when the window shows the scene.
	firstFrame, textured bool

	// meshes reads mesh triangles for picking, once per mesh.
	meshes *debugdraw.DocumentMeshes
	picker debugdraw.Picker
	// pressAt is where the left button went down over the view; orbiting
	// is set once it moved far enough to be a drag, not a click.
	pressAt           imgui.Vec2
	pressed, orbiting bool
	hoverHandle       int
	// overlayDirty asks for the on-top lines (hover, handles, probe) to be
	// rebuilt; probeLines are the probe's part.
	overlayDirty bool
	probeLines   []debugdraw.Line
	wakeFrames   int
	// shownJoints is the Joints view option the overlay was built with
	// (timeline.go).
	shownJoints bool
	// lastFrameEnd paces the frames (idle.go); frames counts them for
	// PHYSVIEW_LOG_FRAMES.
	lastFrameEnd time.Time
	frames       int
	// frameStart is when this frame began; frameWork is how long the last
	// one took, up to its swap (the status bar shows it).
	frameStart time.Time
	frameWork  time.Duration
	// While textures stream in (showView): streaming is set, viewShown
	// is set once the document's view was drawn, lastRedraw is when it
	// last was, and staleView says that textures arrived since.
	streaming   bool
	viewShown   bool
	lastRedraw  time.Time
	staleView   bool
	loggedNodes bool
	// lastSelected is the selection the debug lines were built for.
	lastSelected int
	files        chooserState // the desktop's file chooser (files.go)
	play         playView     // Play's moving lines (play.go)

	// compoundGen is the compound preview last drawn (compound.go).
	compoundGen int
}

// runWindow opens the viewer window on path, or on the demo scene when path
// is empty, and returns when the window is closed.
func runWindow(path string) error {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return fail(2, "%s: %v", path, unwrapErr(err))
		}
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fail(2, "no display to open a window on (DISPLAY is not set); use 'viewer screenshot' to render without one")
	}
	s := app.New()
	a := &windowApp{s: s, start: time.Now(), initial: path, lastSelected: -1}
	logItems(&a.panel) // compound.go
	a.panel.S = s
	s.Views = []app.View{a}
	s.Wake = postWake
	s.Preload = render.Preload
	s.DropPreload = render.DropPreload
	s.Log = func(line string) { fmt.Fprintln(os.Stderr, "viewer:", line) }
	if p, err := recent.DefaultPath(); err == nil {
		if s.Recent, err = recent.Load(p); err != nil {
			fmt.Fprintln(os.Stderr, "viewer:", err)
		}
	}
	windowHints()
	a.wnd = g.NewMasterWindow("physview", 1280, 780, 0)
	a.startIdle()
	a.initFiles()
	a.wnd.SetDropCallback(func(paths []string) {
		if len(paths) == 0 {
			return
		}
		if err := app.CheckOpenable(paths[0]); err != nil {
			s.Fail(err.Error())
			return
		}
		s.Do(app.OpenFile{Path: paths[0]})
	})
	a.wnd.Run(a.frame)
	s.Close()
	a.closeFiles()
	return nil
}

func unwrapErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// cam is the session's camera as the renderer's type.
func (a *windowApp) cam() render.Camera { return render.Camera(a.s.Camera) }

func (a *windowApp) setCam(c render.Camera) { a.s.Camera = app.Camera(c) }

// frame runs once per frame inside giu's loop, with the GL context current.
func (a *windowApp) frame() {
	a.frameStart = time.Now()
	s := a.s
	if a.renderer == nil && a.glErr == nil {
		if err := gl.Init(); err != nil {
			a.glErr = fmt.Errorf("OpenGL: %w", err)
		} else if a.renderer, err = render.New(); err != nil {
			a.glErr = err
		}
		if a.glErr != nil {
			s.Fail(a.glErr.Error())
		}
	}
	if !a.opened {
		a.opened = true
		if a.initial == "" {
			s.OpenDemo()
		} else {
			s.Open(a.initial)
		}
	}
	a.filesFrame()
	s.Poll()
	a.compoundFrame() // compound.go

	io := imgui.CurrentIO()
	size := io.DisplaySize()
	scale := io.DisplayFramebufferScale()
	if scale.X == 0 {
		scale = imgui.Vec2{X: 1, Y: 1}
	}
	viewW := int((size.X - ui.PanelWidth) * scale.X)
	viewH := int((size.Y - 22) * scale.Y)

	if a.renderer != nil && s.Doc != nil {
		a.handleInput(io)
		arrived, pending := a.renderer.Poll()
		a.panel.Progress = 1 - float32(pending)/float32(max(1, len(s.Doc.GLTF.Images)))
		a.panel.Messages = a.renderer.Messages
		if a.debug.Select(s.Selected); s.Selected != a.lastSelected {
			a.lastSelected = s.Selected
			a.overlayDirty = true
		}
		if a.debug.Update() && s.Play.Sim == nil {
			a.renderer.SetDebug(a.debug.Groups())
			a.view.Invalidate()
			a.overlayDirty = true
		}
		a.updateProbe()
		if !io.WantCaptureKeyboard() && imgui.IsKeyPressedBool(imgui.KeySpace) {
			s.Do(app.PlayToggle{})
		}
		s.PlayFrame(time.Now())
		s.TimelineFrame(time.Now()) // the animation timeline (timeline.go)
		if s.View.Joints != a.shownJoints {
			a.shownJoints, a.overlayDirty = s.View.Joints, true
		}
		if s.Play.Sim == nil {
			a.updateOverlay(a.viewport(io))
		}
		// The render options follow the session's view options when they
		// change (they live there, in one place).
		if s.View != a.lastView || s.Variant != a.lastOpt.Variant || !a.optSet {
			a.lastView, a.optSet = s.View, true
			a.lastOpt = renderOptions(s.View, s.Variant)
			a.view.Invalidate()
		}
		if a.cam() != a.lastCam {
			a.view.Invalidate()
			a.lastCam = a.cam()
		}
		opt := a.lastOpt
		show, redraw := a.showView(time.Now(), arrived, pending)
		if redraw {
			a.view.Invalidate()
		}
		if show && a.view.Present(a.renderer, a.cam(), viewW, viewH, opt) {
			a.lastRedraw = time.Now()
			a.staleView, a.viewShown = false, true
		}
		// Leave the state imgui expects: full viewport, framebuffer 0.
		gl.Viewport(0, 0, int32(size.X*scale.X), int32(size.Y*scale.Y))
		if !a.firstFrame && a.viewShown {
			a.firstFrame = true
			fmt.Fprintf(os.Stderr, "viewer: first frame after %d ms\n", time.Since(a.start).Milliseconds())
		}
		if pending == 0 && !a.textured {
			a.textured = true
			fmt.Fprintf(os.Stderr, "viewer: textured frame after %d ms\n", time.Since(a.start).Milliseconds())
		}
	}

	// The time the last frame took to build and show, not the time
	// between frames, which includes the sleep while nothing happens.
	a.panel.FrameMS = float32(a.frameWork.Seconds() * 1000)
	for _, in := range ui.Build(&a.panel, size.X, size.Y) {
		a.do(in)
	}
	if !imgui.IsAnyItemActive() {
		s.Seal()
	}
	if s.ShouldClose() {
		a.quit()
	}
	a.wake(io)
}

// handleInput turns mouse and keys over the 3D view into picks, handle
// and gizmo drags and camera moves, and the shortcuts into intents.
func (a *windowApp) handleInput(io *imgui.IO) {
	a.viewInput(io)
	// Shortcuts work whenever no text field is being typed in (a click on
	// a panel button leaves the panel focused, which should not turn off
	// Ctrl+Z).
	if !io.WantTextInput() {
		switch {
		case imgui.IsKeyPressedBool(imgui.KeyF):
			a.do(app.FrameView{})
		case imgui.IsKeyPressedBool(imgui.KeyHome):
			a.do(app.ResetView{})
		case imgui.IsKeyDown(imgui.ModCtrl) && !imgui.IsKeyDown(imgui.ModShift) && imgui.IsKeyPressedBool(imgui.KeyS):
			a.do(app.Save{})
		default:
			a.editKeys()
		}
	}
}

// do carries out one intent: the camera ones here (they need the
// renderer's bounds), the rest in the session.
func (a *windowApp) do(in app.Intent) {
	s := a.s
	switch in := in.(type) {
	case app.FrameView:
		a.frameSelection()
	case app.ResetView:
		if a.renderer != nil {
			lo, hi := a.renderer.Bounds()
			a.setCam(render.NewCamera(lo, hi))
		}
	case app.UseCamera:
		if a.renderer != nil && s.Doc != nil {
			if c, err := shot.Camera(s.Doc, a.renderer, in.Index); err == nil {
				a.setCam(c)
			} else {
				s.Fail(err.Error())
			}
		}
	case app.Select:
		s.Do(in)
		if in.Frame {
			a.frameSelection()
		}
	default:
		s.Do(in)
	}
}

// renderOptions turns the session's view options into the renderer's.
func renderOptions(o app.ViewOptions, variant int) render.Options {
	opt := render.DefaultOptions()
	opt.Grid, opt.Axes, opt.Variant = o.Grid, o.Axes, variant
	opt.Debug, opt.XRay = o.Debug, o.XRay
	opt.Environment, opt.Exposure, opt.BackgroundMode = render.Environment(o.Environment), o.Exposure, render.BackgroundMode(o.Background)
	return opt
}

// frameSelection frames the selected node, or everything.
func (a *windowApp) frameSelection() {
	if a.renderer == nil {
		return
	}
	lo, hi := a.renderer.Bounds()
	if n := a.s.Selected; a.s.Doc != nil && n >= 0 {
		if blo, bhi, ok := a.renderer.NodeBounds(n); ok {
			lo, hi = blo, bhi
		}
	}
	c := a.cam()
	yaw, pitch := c.Yaw, c.Pitch
	c.Frame(lo, hi)
	c.Yaw, c.Pitch = yaw, pitch
	a.setCam(c)
}

// DocumentReplaced shows a new document (app.View).
func (a *windowApp) DocumentReplaced(d *scene.Document) {
	a.pressed = false
	a.meshes = &debugdraw.DocumentMeshes{Doc: d}
	a.picker.Reset()
	a.overlayDirty = true
	a.probeOn = false
	a.textured = false
	a.loggedNodes = false
	a.lastSelected = -1
	if a.renderer != nil {
		a.renderer.SetDocument(d)
		a.debug = shot.DebugCache(d, a.renderer)
		a.view.Invalidate()
		lo, hi := a.renderer.Bounds()
		a.setCam(render.NewCamera(lo, hi))
		a.viewShown = false
	}
}

// DocumentChanged redraws after an edit, an undo or a redo, as the Change
// says (app.View).
func (a *windowApp) DocumentChanged(ch scene.Change) {
	if a.debug != nil {
		a.debug.Apply(ch)
	}
	if a.renderer != nil && (len(ch.Moved) > 0 || ch.Structure) {
		a.renderer.TransformsChanged()
	}
	a.probeOn = !a.s.View.Probe // gravity may have changed: redraw the probe
	a.overlayDirty = true
	a.view.Invalidate()
}

// SelectionChanged redraws the selection's lines and handles (app.View).
func (a *windowApp) SelectionChanged(int) { a.overlayDirty = true }

// updateProbe redraws the gravity probe when it is switched or moved.
func (a *windowApp) updateProbe() {
	o := &a.s.View
	if o.Probe == a.probeOn && o.ProbeAt == a.lastProbe {
		return
	}
	a.probeOn, a.lastProbe = o.Probe, o.ProbeAt
	a.view.Invalidate()
	a.overlayDirty = true
	if !o.Probe {
		a.probeLines = nil
		return
	}
	d := a.s.Doc
	p := mgl64.Vec3{float64(o.ProbeAt[0]), float64(o.ProbeAt[1]), float64(o.ProbeAt[2])}
	gv := d.NetGravity(d.WorldMatrices(), p)
	a.panel.ProbeText = fmt.Sprintf("net gravity %.3g m/s² (%.3g, %.3g, %.3g)", gv.Len(), gv[0], gv[1], gv[2])
	lo, hi := a.renderer.Bounds()
	scale := hi.Sub(lo).Len() * 0.01
	a.probeLines = debugdraw.Probe(d, p, scale, 0.02, 200)
}
