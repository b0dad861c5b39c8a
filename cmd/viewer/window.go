package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl64"

	"physview/assets"
	"physview/debugdraw"
	"physview/render"
	"physview/scene"
	"physview/ui"
)

// loadResult is a document loaded off the GL thread.
type loadResult struct {
	doc  *scene.Document
	name string
	err  error
}

// windowApp is the windowed viewer: one master window, the 3D view behind
// the giu panel.
type windowApp struct {
	wnd      *g.MasterWindow
	renderer *render.Renderer
	view     render.View
	debug    *debugdraw.Cache
	glErr    error
	cam      render.Camera
	// lastCam and lastOpt detect changes that need a redraw of the view.
	lastCam render.Camera
	lastOpt render.Options
	// lastProbe is the probe position last drawn (NaN when off).
	lastProbe [3]float32
	probeOn   bool
	// lastSelected is the selection the overlay was built for.
	lastSelected int
	state        ui.State
	loads        chan loadResult
	start        time.Time
	// firstFrame and textured are reported once each on stderr, so tests
	// and benchmarks can tell when the window shows the scene.
	firstFrame, textured bool

	// hist holds the document's edits (undo and redo).
	hist *scene.History
	// meshes reads mesh triangles for picking, once per mesh.
	meshes *debugdraw.DocumentMeshes
	picker debugdraw.Picker
	// drag is the shape-handle drag in progress; gizmoUsing is set while
	// the transform gizmo is dragged.
	drag       *handleDrag
	gizmoUsing bool
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
	// lastFrameEnd paces the frames (idle.go); frames counts them for
	// PHYSVIEW_LOG_FRAMES.
	lastFrameEnd time.Time
	frames       int
	// frameStart is when this frame began; frameWork is how long the last
	// one took, up to its swap (the status bar shows it).
	frameStart time.Time
	frameWork  time.Duration
	// While textures stream in (showView): streaming is set, docAt and
	// docCam are when the document arrived and its first camera,
	// viewShown is set once its view was drawn, lastRedraw is when it
	// last was, and staleView says that textures arrived since.
	streaming   bool
	docAt       time.Time
	docCam      render.Camera
	viewShown   bool
	lastRedraw  time.Time
	staleView   bool
	loggedNodes bool
	// files is the dialogs, recent files, prompts, async loading and reload (files.go).
	files fileState
	play  player // the Play tab's simulation (play.go)
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
	app := &windowApp{
		loads: make(chan loadResult, 4),
		start: time.Now(),
		state: ui.State{Selected: -1, Variant: -1, Hovered: -1, ShowGrid: true, ShowAxes: true, Debug: render.DefaultOptions().Debug},
		hist:  &scene.History{},
	}
	windowHints()
	app.wnd = g.NewMasterWindow("physview", 1280, 780, 0)
	app.startIdle()
	app.initFiles()
	app.wnd.SetDropCallback(func(paths []string) {
		if len(paths) > 0 {
			app.open(paths[0])
		}
	})
	if path == "" {
		app.openDemo()
	} else {
		app.open(path)
	}
	app.wnd.Run(app.frame)
	app.closeFiles()
	return nil
}

func unwrapErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// open loads path on a goroutine (asking first when there are unsaved
// edits); the result arrives in a later frame.
func (a *windowApp) open(path string) { a.requestOpen(path) }

func (a *windowApp) openDemo() {
	d, err := scene.Decode(assets.Demo, nil)
	a.loads <- loadResult{d, "demo scene (built in)", err}
}

// frame runs once per frame inside giu's loop, with the GL context current.
func (a *windowApp) frame() {
	a.frameStart = time.Now()
	if a.renderer == nil && a.glErr == nil {
		if err := gl.Init(); err != nil {
			a.glErr = fmt.Errorf("OpenGL: %w", err)
		} else if a.renderer, err = render.New(); err != nil {
			a.glErr = err
		}
		if a.glErr != nil {
			a.state.Error = a.glErr.Error()
		}
	}
	a.filesFrame()
	a.receiveLoads()

	io := imgui.CurrentIO()
	size := io.DisplaySize()
	scale := io.DisplayFramebufferScale()
	if scale.X == 0 {
		scale = imgui.Vec2{X: 1, Y: 1}
	}
	viewW := int((size.X - ui.PanelWidth) * scale.X)
	viewH := int((size.Y - 22) * scale.Y)

	if a.renderer != nil && a.state.Doc != nil {
		a.handleInput(io)
		arrived, pending := a.renderer.Poll()
		a.state.Progress = 1 - float32(pending)/float32(max(1, len(a.state.Doc.GLTF.Images)))
		a.state.Messages = a.renderer.Messages
		if a.debug.Select(a.state.Selected); a.state.Selected != a.lastSelected {
			a.lastSelected = a.state.Selected
			a.overlayDirty = true
		}
		if a.debug.Update() {
			a.renderer.SetDebug(a.debug.Groups())
			a.view.Invalidate()
			a.overlayDirty = true
		}
		a.updateProbe()
		a.playFrame()
		a.updateOverlay(a.viewport(io))
		opt := render.DefaultOptions()
		opt.Grid, opt.Axes, opt.Variant = a.state.ShowGrid, a.state.ShowAxes, a.state.Variant
		opt.Debug, opt.XRay = a.state.Debug, a.state.XRay
		opt.Environment, opt.Exposure, opt.BackgroundMode = render.Environment(a.state.Environment), a.state.Exposure, render.BackgroundMode(a.state.Background)
		if a.cam != a.lastCam || opt != a.lastOpt {
			a.view.Invalidate()
			a.lastCam, a.lastOpt = a.cam, opt
		}
		show, redraw := a.showView(time.Now(), arrived, pending)
		if redraw {
			a.view.Invalidate()
		}
		if show && a.view.Present(a.renderer, a.cam, viewW, viewH, opt) {
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

	for _, act := range ui.Build(&a.state, size.X, size.Y) {
		a.do(act)
	}
	if a.state.Doc != nil {
		a.sealEdits()
	}
	a.wake(io)
}

func (a *windowApp) receiveLoads() {
	for {
		select {
		case r := <-a.loads:
			a.state.Loading = false
			if r.err != nil {
				a.state.Error = r.err.Error()
				fmt.Fprintln(os.Stderr, "viewer:", r.err)
				continue
			}
			a.state.Error = ""
			a.state.Doc, a.state.Name = r.doc, r.name
			a.state.Selected, a.state.Variant, a.state.Hovered = -1, -1, -1
			a.hist = &scene.History{}
			a.drag, a.gizmoUsing, a.pressed = nil, false, false
			a.meshes = &debugdraw.DocumentMeshes{Doc: r.doc}
			a.picker.Reset()
			a.state.UndoName, a.state.RedoName = "", ""
			a.state.Modified = false
			a.overlayDirty = true
			a.probeOn = false
			a.state.Probe = false
			a.textured = false
			a.loggedNodes = false
			if a.renderer != nil {
				a.renderer.SetDocument(r.doc)
				a.debug = newDebugCache(r.doc, a.renderer)
				a.view.Invalidate()
				lo, hi := a.renderer.Bounds()
				a.cam = render.NewCamera(lo, hi)
				a.docAt, a.viewShown = time.Now(), false
			}
			a.loaded(r.doc)
			// After loaded, which may restore the camera of a reload or of
			// the recent list: a camera that differs from it later was
			// moved by the user.
			a.docCam = a.cam
		default:
			return
		}
	}
}

// handleInput turns mouse and keys over the 3D view into picks, handle
// and gizmo drags and camera moves, and the shortcuts into actions.
func (a *windowApp) handleInput(io *imgui.IO) {
	a.viewInput(io)
	// Shortcuts work whenever no text field is being typed in (a click on
	// a panel button leaves the panel focused, which should not turn off
	// Ctrl+Z).
	if !io.WantTextInput() {
		switch {
		case imgui.IsKeyPressedBool(imgui.KeyF):
			a.do(ui.Action{Kind: ui.ActionFrame})
		case imgui.IsKeyPressedBool(imgui.KeyHome):
			a.do(ui.Action{Kind: ui.ActionReset})
		case imgui.IsKeyDown(imgui.ModCtrl) && !imgui.IsKeyDown(imgui.ModShift) && imgui.IsKeyPressedBool(imgui.KeyS):
			a.do(ui.Action{Kind: ui.ActionSave})
		default:
			a.editKeys()
		}
	}
}

// do carries out one panel action.
func (a *windowApp) do(act ui.Action) {
	d := a.state.Doc
	switch act.Kind {
	case ui.ActionOpen:
		if act.Path != "" {
			a.open(act.Path)
		}
	case ui.ActionOpenDemo:
		a.askUnsaved("opening the demo scene", a.openDemo)
	case ui.ActionSave, ui.ActionSaveAs:
		if d == nil {
			return
		}
		target := d.Path
		if act.Kind == ui.ActionSaveAs {
			target = act.Path
		}
		if target == "" {
			a.state.Error = "the demo scene has no file yet: use File > Save as"
			return
		}
		warnings, err := saveDocument(d, target)
		if err != nil {
			a.state.Error = err.Error()
			return
		}
		d.Path = target
		a.state.Name = filepath.Base(target)
		a.state.Error = ""
		a.hist.MarkSaved()
		a.state.Modified = false
		a.state.Status = "saved " + target
		fmt.Fprintf(os.Stderr, "viewer: saved %s\n", target)
		for _, w := range warnings {
			a.state.Status += "\n" + w
		}
		a.saved(target)
	case ui.ActionFrame:
		if a.renderer == nil {
			return
		}
		lo, hi := a.renderer.Bounds()
		if n := a.state.Selected; d != nil && n >= 0 {
			if blo, bhi, ok := a.renderer.NodeBounds(n); ok {
				lo, hi = blo, bhi
			}
		}
		yaw, pitch := a.cam.Yaw, a.cam.Pitch
		a.cam.Frame(lo, hi)
		a.cam.Yaw, a.cam.Pitch = yaw, pitch
	case ui.ActionReset:
		if a.renderer != nil {
			lo, hi := a.renderer.Bounds()
			a.cam = render.NewCamera(lo, hi)
		}
	case ui.ActionEdit:
		a.edit(act.Edit)
	case ui.ActionUndo:
		a.undo()
	case ui.ActionRedo:
		a.redo()
	case ui.ActionError:
		a.state.Error = act.Path
	case ui.ActionSelect:
		a.state.Selected = act.Index
		a.do(ui.Action{Kind: ui.ActionFrame})
	case ui.ActionSetVariant:
		a.view.Invalidate()
	case ui.ActionCamera:
		if a.renderer != nil && d != nil {
			if c, err := shotCamera(d, a.renderer, act.Index); err == nil {
				a.cam = c
			} else {
				a.state.Error = err.Error()
			}
		}
	default:
		a.doFiles(act)
	}
}

// updateProbe redraws the gravity probe when it is switched or moved.
func (a *windowApp) updateProbe() {
	s := &a.state
	if s.Probe == a.probeOn && s.ProbeAt == a.lastProbe {
		return
	}
	a.probeOn, a.lastProbe = s.Probe, s.ProbeAt
	a.view.Invalidate()
	a.overlayDirty = true
	if !s.Probe {
		a.probeLines = nil
		return
	}
	p := mgl64.Vec3{float64(s.ProbeAt[0]), float64(s.ProbeAt[1]), float64(s.ProbeAt[2])}
	g := s.Doc.NetGravity(s.Doc.WorldMatrices(), p)
	s.ProbeText = fmt.Sprintf("net gravity %.3g m/s² (%.3g, %.3g, %.3g)", g.Len(), g[0], g[1], g[2])
	lo, hi := a.renderer.Bounds()
	scale := hi.Sub(lo).Len() * 0.01
	a.probeLines = debugdraw.Probe(s.Doc, p, scale, 0.02, 200)
}
