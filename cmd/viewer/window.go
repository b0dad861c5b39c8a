package main

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"sync/atomic"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/internal/app"
	"physview/internal/app/viewport"
	"physview/internal/recent"
	"physview/render"
	"physview/render/shot"
	"physview/scene"
	"physview/ui"
)

// windowApp is the windowed viewer: one master window, the 3D view behind
// the giu panel, driving an app.Session. It sets up GL, turns imgui input
// into calls on the session and its viewport.Controller (which shows the
// session in the renderer), and draws the frames.
type windowApp struct {
	wnd      *g.MasterWindow
	s        *app.Session
	panel    ui.State
	renderer *render.Renderer
	ctl      *viewport.Controller // nil until GL is up
	view     render.View
	pacer    render.Pacer
	glErr    error
	// initial is the file to open once GL is up ("" the demo scene).
	initial string
	opened  bool
	// earlyOpen is set while the first frame has not polled the load of
	// initial, started before the window.
	earlyOpen bool
	// initialCompare is the file to compare it with once it is open
	// (viewer compare A B; "" none).
	initialCompare string
	// lastCam, lastView and lastVariant are what the view was last drawn
	// with; opt is lastView as render options (optSet once made).
	lastCam     render.Camera
	lastView    app.ViewOptions
	lastVariant int
	opt         render.Options
	optSet      bool
	// start is when the window opened; firstFrame and textured are
	// reported once each on stderr, so tests and benchmarks can tell when
	// the window shows the scene.
	start                time.Time
	firstFrame, textured bool
	sharp                bool // every texture whole (render.SetPreviewSide) reported
	// Frame pacing (idle.go): wakeFrames after input, when the last frame
	// ended, when this one began and how long the last one's work took
	// (the status bar shows it); frames counts them for PHYSVIEW_LOG_FRAMES.
	wakeFrames               int
	lastFrameEnd, frameStart time.Time
	frameWork                time.Duration
	frames                   int
	// afterUpload is when this frame's texture uploads ended, rest how
	// long the last frame took after them and the warm-up (uploadBudget).
	afterUpload time.Time
	rest        time.Duration
	// shownAt is when the last frame was shown, backToBack whether the
	// next one followed it without sleeping (uploads or warm-up under
	// way), fixed the estimated part of such a gap between two frames
	// that is not uploads or warm-up: the frame's panel, copy and swap,
	// and the backend's loop between frames (uploadBudget).
	shownAt    time.Time
	backToBack bool
	fixed      time.Duration
	// pagesWait is how long the window waited after the last frame for a
	// texture storage's pages (render.Renderer.UploadWait).
	pagesWait time.Duration
	// paced says the next frame follows the last after a sleep to the
	// frame interval (something moves: frames are due every interval, so
	// the sleep is part of the gap the user sees), not after a wait for
	// an event (nothing was due).
	paced bool
	// budgetEnd is when this frame's time for uploads (and the shaders'
	// warm-up) ends; uploaded says the uploads took a millisecond or more
	// of it.
	budgetEnd time.Time
	uploaded  bool
	// deferred says this frame, which came after a sleep, had too little
	// of its gap left for an upload or warm-up step: they wait for the
	// next frame, which comes at once (uploadBudget). restEst is the
	// estimate of a frame's work after its uploads (rest, smoothed).
	deferred bool
	restEst  time.Duration
	// progressAt is when the panel's texture counts were last set, for
	// progressDoc (showProgress); countsLag says newer counts wait,
	// countsNow that this frame shows them (countsDue); panelEst is what
	// drawing the panel anew into its cache costs (measured: the 90th
	// percentile of the last whole redraws, which cost 6-30 ms on
	// llvmpipe as the panel's content changes).
	progressAt  time.Time
	progressDoc *scene.Document
	countsLag   bool
	countsNow   bool
	panelEst    time.Duration
	// partEst is what drawing anew only the part of the panel that
	// changed costs (measured; render.LayerCache.ShowPart), panelLate
	// says this frame's panel redraw was put off to the next frame
	// (cachePanel).
	partEst   time.Duration
	panelLate bool
	// wholeDrawn is what the last whole redraws of the panel cost;
	// panelEst is their 90th percentile.
	wholeDrawn lastFrames
	// docShown says this frame's Poll showed a document (its meshes
	// uploaded): it takes no upload step and leaves its panel to the
	// next frame.
	docShown bool
	// pollTime and uploadTime are how long the session's Poll (a document
	// shown: its meshes uploaded) and the renderer's took this frame,
	// warmTime the warm-up of the new document's shaders or the drawing
	// ahead of its first picture (render.Renderer.Warm, DrawAhead), for
	// PHYSVIEW_FRAME_TIMES and the budget.
	pollTime, uploadTime, warmTime time.Duration
	// ctlTime, presentTime and panelTime are how long the controller's
	// Update, the view's drawing or copy (warm-up aside) and the panel
	// took, for PHYSVIEW_FRAME_TIMES.
	ctlTime, presentTime, panelTime time.Duration
	// filesTime and cacheTime are how long the file dialogs' poll
	// (filesFrame) and the panel's cache (cachePanel) took, for
	// PHYSVIEW_FRAME_TIMES.
	filesTime, cacheTime time.Duration
	// panelDrawn says the panel was drawn anew this frame (cachePanel).
	panelDrawn int
	// wokeAt is when the last frame's sleep or wait ended: the backend's
	// loop runs from then to this frame's start (PHYSVIEW_FRAME_TIMES),
	// and the pacing counts a frame's work from it (presentOnTime).
	wokeAt time.Time
	// frameEnd is when frame returned: the backend then draws the panel
	// and swaps.
	frameEnd time.Time
	// warming says a material is ready to warm or the first picture to
	// draw ahead, or a finished load waits for a frame that follows the
	// last at once (app.Session.HoldLoads): the next frame comes at once.
	warming bool
	// refreshing says the view is being drawn anew ahead, a part a
	// frame, with the whole textures that replaced the reduced ones
	// (render.Renderer.Refresh).
	refreshing bool
	// drewOnce is set once the view was drawn: there is a picture to keep
	// on screen while a new document's shaders warm up.
	drewOnce bool
	// mipmapsWarm is set once the renderer was asked to warm mipmapping.
	mipmapsWarm bool
	drew        bool // the 3D view was drawn this frame (PHYSVIEW_FRAME_TIMES)
	// theme is the panel's style, pushed by giu around each frame;
	// panelCache keeps the panel's pixels (cachePanel).
	theme      *g.StyleSetter
	panelCache render.LayerCache
	pace       pacer        // the moving frames' swaps on the interval (idle.go)
	files      chooserState // the desktop's file chooser (files.go)
	compare    compareView  // the Diff tab's B (compare.go)
}

// runWindow opens the viewer window on path, or on the demo scene when path
// is empty, and returns when the window is closed.
func runWindow(path string) error { return runWindowWith(path, nil) }

// runWindowWith is runWindow with setup applied to the window's state
// before it opens (viewer compare names the file to compare).
func runWindowWith(path string, setup func(a *windowApp)) error {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return fail(2, "%s: %v", path, unwrapErr(err))
		}
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fail(2, "no display to open a window on (DISPLAY is not set); use 'viewer screenshot' to render without one")
	}
	s := app.New()
	a := &windowApp{s: s, start: time.Now(), initial: path}
	if setup != nil {
		setup(a)
	}
	if screenLog {
		a.panel.LogItems(logLine)
	}
	a.panel.S = s
	s.Wake = wakeWhenUp
	render.BackgroundDecoding = true // the frames first (render.BackgroundDecoding)
	setWindowProcs()
	s.Preload = render.Preload
	s.DropPreload = render.DropPreload
	s.Log = logLine
	if p, err := recent.DefaultPath(); err == nil {
		if s.Recent, err = recent.Load(p); err != nil {
			fmt.Fprintln(os.Stderr, "viewer:", err)
		}
	}
	// Textures larger than the view needs at first come reduced, whole
	// a few frames later (render.SetPreviewSide).
	render.SetPreviewSide(previewSide)
	render.StartEnvironment(renderOptions(s.View, s.Variant).Environment)
	if path != "" {
		// The file is read and its images decoded on workers while
		// GLFW, the GL context and the shaders are made (a few hundred
		// ms on llvmpipe); the first frame takes the document over.
		a.opened, a.earlyOpen = true, true
		s.Open(path)
	}
	render.TraceStart("window: before GLFW")
	windowHints()
	// The size (and the panel's width) the splitter's last drag left.
	w, h := 1280, 780
	if rw, rh, ok := s.RememberedWindow(); ok {
		w, h = rw, rh
	}
	a.wnd = g.NewMasterWindow("physview", w, h, 0)
	a.wnd.SetBgColor(windowClear)
	a.theme = ui.Theme()
	a.wnd.SetStyle(a.theme)
	render.TraceStart("window: GLFW window made")
	windowUp.Store(true)
	a.startIdle()
	a.initFiles()
	a.wnd.SetDropCallback(func(paths []string) {
		if len(paths) == 0 {
			return
		}
		s.Do(app.OpenFile{Path: paths[0]}) // Open says what it cannot open
	})
	a.wnd.Run(a.frame)
	s.Close()
	a.closeFiles()
	return nil
}

// previewSide is the largest side of the textures the window shows first:
// a model filling a 1280x780 window's view is at most about 700 pixels
// high, which a 512x512 texture serves within a level of its mipmaps; the
// whole images follow (the status bar counts them).
const previewSide = 512

// firstWarmBudget is the least time a frame warms the first document's
// materials in (Renderer.Warm): a transmissive material takes four steps.
const firstWarmBudget = 40 * time.Millisecond

// minWarmStart is the least of its budget a frame that came after a sleep
// to the frame interval needs to begin a material's warm-up: a step
// (llvmpipe generating the material's code, even from Mesa's disk cache)
// takes up to 30 ms and cannot be split, so begun late in a gap it makes
// one of 60. With less left the frame only shows the picture and the
// next comes at once, with the whole of its gap (warmNow).
const minWarmStart = 25 * time.Millisecond

// warmNow says whether this frame begins warming materials: the first
// document's frames always (nothing on screen to keep responsive), a
// frame that followed the last at once (or after a wait for an event)
// whatever its budget, one that slept to the frame interval only with
// minWarmStart of its budget left.
func warmNow(first, paced bool, budget time.Duration) bool {
	return first || !paced || budget >= minWarmStart
}

// windowUp is set once giu's window exists: a load started before it
// (the file named on the command line) must not post to GLFW earlier.
var windowUp atomic.Bool

// wakeWhenUp is postWake once the window exists; before, the first frame
// looks at what arrived anyway.
func wakeWhenUp() {
	if windowUp.Load() {
		postWake()
	}
}

// screenLog (PHYSVIEW_LOG_SCREEN=1) reports on stderr where things are on
// screen, for the tests that drive the window.
var screenLog = os.Getenv("PHYSVIEW_LOG_SCREEN") != ""

func logLine(line string) { fmt.Fprintln(os.Stderr, "viewer:", line) }

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

// initGL makes the renderer and the controller that shows the session in it.
func (a *windowApp) initGL() {
	if err := gl.Init(); err != nil {
		a.glErr = fmt.Errorf("OpenGL: %w", err)
	} else if a.renderer, err = render.New(); err != nil {
		a.glErr = err
	}
	if a.glErr != nil {
		a.s.Fail(a.glErr.Error())
		return
	}
	a.renderer.NoteSteps = frameTimes
	a.ctl = viewport.New(a.s, a.renderer)
	a.ctl.Redraw = a.view.Invalidate
	if screenLog {
		a.ctl.Screen = logLine
	}
	a.s.Views = append(a.s.Views, a) // after the controller: it sets the bounds
}

// frame runs once per frame inside giu's loop, with the GL context current.
func (a *windowApp) frame() {
	a.frameStart = time.Now()
	s := a.s
	render.TraceStart("frame start")
	if a.renderer == nil && a.glErr == nil {
		a.initGL()
		render.TraceStart("initGL done")
	}
	if !a.opened {
		a.opened = true
		if a.initial == "" {
			s.OpenDemo()
		} else {
			s.Open(a.initial)
		}
	}
	filesStart := time.Now()
	a.filesFrame()
	a.filesTime = time.Since(filesStart)
	// A finished load is shown (its meshes uploaded: 6-28 ms on
	// llvmpipe) in a frame that followed the last at once, not in one
	// that slept to the frame interval first, nor in one that draws the
	// panel put off from the last (cachePanel); the next frame then comes
	// at once (below).
	s.HoldLoads = a.ctl != nil && s.Doc != nil && (a.paced || a.panelLate) && !a.earlyOpen
	pollStart, docBefore := time.Now(), s.Doc
	s.Poll()
	if a.earlyOpen {
		// The file the command line named was opened before the
		// window: no file browser was drawn over the frame that started
		// it, so it need not wait for a second Poll (Session.Poll) and is
		// shown in this first frame when it is read already.
		a.earlyOpen = false
		s.Poll()
	}
	a.pollTime = time.Since(pollStart)
	a.docShown = s.Doc != docBefore
	render.TraceStart("session polled")
	if s.Doc == nil && s.Loading() == nil {
		// The file could not be opened: there will be no
		// full-resolution frame to end the start's trace.
		render.EndTraceStart()
	}
	a.startCompare()
	io := imgui.CurrentIO()
	if a.ctl != nil && s.Doc != nil {
		a.handleInput(io)
		a.countsNow = a.countsDue()
		budget := a.uploadBudget()
		a.deferred = budget < 0
		a.renderer.UploadBudget = budget
		beforeUpload := time.Now()
		arrived, pending := a.renderer.Poll()
		a.afterUpload = time.Now()
		a.uploadTime = a.afterUpload.Sub(beforeUpload)
		render.TraceStart("renderer polled: arrived %d pending %d", arrived, pending)
		a.budgetEnd, a.uploaded = beforeUpload.Add(budget), a.uploadTime >= time.Millisecond
		a.panel.Messages = a.renderer.Messages
		s.PlayFrame(time.Now())
		s.TimelineFrame(time.Now())
		ctlStart := time.Now()
		a.ctl.Update(a.viewport(io))
		a.panel.ProbeText = a.ctl.ProbeText
		presentStart := time.Now()
		a.present(io, arrived, pending)
		a.ctlTime, a.presentTime = presentStart.Sub(ctlStart), time.Since(presentStart)-a.warmTime
		a.warming = a.warming || s.HoldLoads && s.LoadHeld()
		a.showProgress(1-float32(pending)/float32(max(1, len(s.Doc.GLTF.Images))), a.renderer.Refining(), pending)
	}
	// The time the last frame took to build and show, not the time
	// between frames, which includes the sleep while nothing happens.
	a.panel.FrameMS = float32(a.frameWork.Seconds() * 1000)
	panelStart := time.Now()
	for _, in := range ui.Build(&a.panel, io.DisplaySize().X, io.DisplaySize().Y) {
		a.do(in)
	}
	a.panelTime = time.Since(panelStart)
	if !imgui.IsAnyItemActive() {
		s.Seal()
	}
	render.TraceStart("panel built")
	if s.ShouldClose() {
		a.quit()
	}
	a.wake()
	panelStart, redraws := time.Now(), a.panelCache.Redraws
	a.cachePanel()
	a.cacheTime = time.Since(panelStart)
	a.panelDrawn = a.panelCache.Redraws - redraws
	a.presentOnTime()
	a.frameEnd = time.Now()
}

// progressEvery is how long the panel's texture counts may lag behind
// (countsDue).
const progressEvery = 250 * time.Millisecond

// countsDue says whether this frame shows the texture counts that changed
// (or a new document's panel). A change of them draws the side panel anew
// into its cache (cachePanel: 15-30 ms of llvmpipe's), which this
// frame's budget then counts (uploadBudget): not in a frame that slept to
// the frame interval first (its gap is mostly gone), unless they lag by
// progressEvery.
func (a *windowApp) countsDue() bool {
	if a.s.Doc != a.progressDoc {
		return true
	}
	return a.countsLag && (!a.paced || time.Since(a.progressAt) >= progressEvery)
}

// showProgress puts the texture counts in the panel's bar when this frame
// shows them (countsNow) or they are all in, and says whether newer ones
// wait (countsLag): a frame then follows within what is left of
// progressEvery (afterFrame), or sooner with the next image decoded.
func (a *windowApp) showProgress(progress float32, refining, pending int) {
	if a.countsNow || pending == 0 && refining == 0 {
		if a.panel.Progress != progress || a.panel.Refining != refining || a.s.Doc != a.progressDoc {
			a.progressAt = time.Now()
		}
		a.panel.Progress, a.panel.Refining, a.progressDoc = progress, refining, a.s.Doc
	}
	a.countsLag = a.panel.Progress != progress || a.panel.Refining != refining
}

// quietFrame reports whether this frame neither uploaded textures nor
// showed a document (its meshes uploaded) nor was deferred: a warm-up
// step or a part of a picture drawn ahead may take the frame's budget.
func (a *windowApp) quietFrame() bool {
	return !a.deferred && !a.uploaded && a.pollTime < time.Millisecond
}

// windowClear is the colour the window is cleared to each frame, under
// the panel too (the panel's cache is cleared to it).
var windowClear = color.RGBA{A: 255}

// noPanelCache (PHYSVIEW_PANELCACHE=off) draws the panel into the window
// each frame, as the backend does (the orbit benchmark's comparison).
var noPanelCache = os.Getenv("PHYSVIEW_PANELCACHE") == "off"

// checkPanelParts (PHYSVIEW_PANELCACHE=check) draws the panel whole into
// another cache after each redraw and says on stderr whether the two
// agree, byte for byte (the window test of the redraws of a part).
var checkPanelParts = os.Getenv("PHYSVIEW_PANELCACHE") == "check"

// cachePanel ends the frame's ImGui frame and shows the side panel from
// its cache (render.LayerCache), drawn anew only when its draw lists
// changed: while the camera moves only the 3D view and the status bar do,
// and on llvmpipe the panel's blended fill costs about as much CPU as the
// reduced redraw of a heavy model. It must be the frame's last ImGui call.
func (a *windowApp) cachePanel() {
	if a.renderer == nil || noPanelCache {
		return
	}
	// ImGui's frame ends as the backend would end it: after giu pops the
	// theme (it is pushed again for giu's pop).
	a.theme.Pop()
	l, ok := ui.TakePanelLayer()
	a.theme.Push()
	if !ok {
		a.panelCache.Invalidate()
		return
	}
	io := imgui.CurrentIO()
	size, scale := io.DisplaySize(), io.DisplayFramebufferScale()
	if scale.X == 0 {
		scale = imgui.Vec2{X: 1, Y: 1}
	}
	clear := [4]float32{float32(windowClear.R) / 255, float32(windowClear.G) / 255, float32(windowClear.B) / 255, float32(windowClear.A) / 255}
	w, h := int(size.X*scale.X), int(size.Y*scale.Y)
	// A redraw that would make a frame already late (uploads) later
	// than maxUploadGap waits for the next frame, which comes at once;
	// the last picture of the panel stays one frame more. Not twice in a
	// row. A frame that shows a document (its meshes uploaded) always
	// leaves its panel, a whole one (22-31 ms for the lamp's), to the
	// next: an estimate made on the last document's panels fell short
	// of the new one's often enough to make the open's longest gap.
	if rect, same := a.panelCache.Holds(w, h, l.X0, l.Y0, l.X1, l.Y1, l.Key); !same && !a.panelLate {
		// A part costs what the last parts did; the panel of a document
		// just shown (Poll), whatever its part, what a whole one does.
		est := a.panelEst
		if _, _, _, _, ok := l.Damage(); ok && rect && a.pollTime < time.Millisecond {
			est = a.partEst
		}
		if (a.docShown || putOffPanel(a.gapSoFar(), est)) && a.panelCache.Copy(0, w, h) {
			l.Detach()
			a.panelLate, a.warming = true, true
			return
		}
	}
	a.panelLate = false
	// Only the part that changed is drawn anew (the progress bar's
	// counts while a file opens).
	redrawsBefore, partsBefore := a.panelCache.Redraws, a.panelCache.PartRedraws
	start := time.Now()
	a.panelCache.ShowPart(0, w, h, l.X0, l.Y0, l.X1, l.Y1, clear, l.Key, l.Draw, l)
	switch {
	case a.panelCache.PartRedraws != partsBefore:
		a.partEst = fixedPart(a.partEst, time.Since(start))
	case a.panelCache.Redraws != redrawsBefore:
		a.wholeDrawn.add(time.Since(start))
		a.panelEst = a.wholeDrawn.percentile(90)
	}
	if checkPanelParts && a.panelCache.Redraws != redrawsBefore {
		// The same panel drawn whole into another cache: the pixels
		// must be the part's and the ones kept, byte for byte.
		var whole render.LayerCache
		whole.Show(0, int(size.X*scale.X), int(size.Y*scale.Y), l.X0, l.Y0, l.X1, l.Y1, clear, l.Key, l.Draw)
		got, want := a.panelCache.Pixels(l.X0, l.Y0, l.X1, l.Y1), whole.Pixels(l.X0, l.Y0, l.X1, l.Y1)
		whole.Delete()
		diff := 0
		for i := range got {
			if got[i] != want[i] {
				diff++
			}
		}
		logLine(fmt.Sprintf("panel redraw %d (part %d) checked: %d bytes of %d differ", a.panelCache.Redraws, a.panelCache.PartRedraws, diff, len(got)))
	}
	l.Detach()
}

// present draws the 3D view when something it shows changed, or copies
// the last drawing, and leaves the GL state imgui expects.
func (a *windowApp) present(io *imgui.IO, arrived, pending int) {
	s := a.s
	// The render options follow the session's view options when they
	// change (they live there, in one place).
	if s.View != a.lastView || s.Variant != a.lastVariant || !a.optSet {
		a.lastView, a.lastVariant, a.optSet = s.View, s.Variant, true
		a.opt = renderOptions(s.View, s.Variant)
		a.view.Invalidate()
	}
	if a.cam() != a.lastCam {
		a.lastCam = a.cam()
		a.view.Invalidate()
	}
	now := time.Now()
	// Once the view is drawn textured, the whole images replacing
	// reduced ones are paced like arrivals: one redraw when all are in
	// (or every StreamRedrawInterval), not one for each.
	refining := a.renderer.Refining()
	streaming := pending
	if pending == 0 && a.pacer.Shown() {
		streaming = refining
	}
	if a.pacer.Arrived(now, arrived, streaming) {
		if a.pacer.Shown() && a.textured && !a.sharp && a.s.CompareDoc() == nil {
			// The whole textures replacing the reduced ones of a
			// document just shown: drawn ahead in parts while the
			// picture shown stays (below).
			a.refreshing = true
		} else {
			a.view.Invalidate()
		}
	}
	size, scale := io.DisplaySize(), io.DisplayFramebufferScale()
	if scale.X == 0 {
		scale = imgui.Vec2{X: 1, Y: 1}
	}
	w, h := int((size.X-a.s.View.PanelFor(size.X))*scale.X), int((size.Y-menuHeight)*scale.Y)
	// The new document's shaders are warmed while the old picture stays
	// (llvmpipe makes each shader's code at its first draw: a few
	// materials a frame rather than all of them in the first).
	warm := 0
	a.warming, a.warmTime = false, 0
	sr := a.renderer
	// The first document is warmed too while its previews arrive (the
	// decoders keep both cores busy then; its first draw would otherwise
	// make every material's code on the GL thread alone, 0.2-0.3 s of
	// CPU for the lamp): each material once all its textures are in,
	// and the ones completed by the last previews in the first draw.
	first := !a.drewOnce && pending > 0
	if (a.drewOnce || first) && !a.pacer.Shown() && a.s.CompareDoc() == nil {
		warm = sr.WarmLeft(a.cam(), w, h, a.opt)
	}
	held := a.pacer.Holding(now, pending+warm)
	if held {
		// The old picture (or none) while the new document's textures
		// go up: drawing it untextured costs the longest frame of all.
		// A material's warm-up takes 1-40 ms of CPU on llvmpipe (its
		// shader code): it is begun in a frame that did nothing else,
		// and more follow while the frame's budget lasts.
		idle := a.quietFrame()
		if warm > 0 && (idle || first) && !warmNow(first, a.paced, time.Until(a.budgetEnd)) {
			a.warming = true // the next frame at once warms
		} else if warm > 0 && (idle || first) {
			start := time.Now()
			budget := time.Until(a.budgetEnd)
			if first {
				// Nothing on screen to keep responsive yet.
				budget = max(budget, firstWarmBudget)
			}
			left, ready := sr.Warm(a.cam(), w, h, a.view.Samples, a.opt, budget)
			render.TraceStart("warm: left %d ready %d", left, ready)
			if first {
				ready = 0 // the decoders wake the window for more
			}
			// Frames at once while there is work for them (the drawing
			// ahead once all is warm); else the decoders wake the window.
			a.warming = ready > 0 || left == 0
			a.warmTime = time.Since(start)
		} else {
			a.warming = warm > 0
		}
		a.view.Show(w, h)
	} else if a.drewOnce && !a.pacer.Shown() && a.s.CompareDoc() == nil && w > 0 && h > 0 {
		// The first picture of the warmed document, a part a frame in
		// frames that did nothing else (render.Renderer.DrawAhead). When
		// the hold ran out with textures still to come (a busy
		// machine), the same with what is in: the materials that can be
		// warmed first, then the picture with stand-ins for the rest,
		// redrawn in parts as they come (Refresh) rather than in one
		// frame of seconds.
		a.warming = true
		start := time.Now()
		done := false
		if a.quietFrame() {
			warmed := false
			if warm > 0 {
				left, _ := sr.Warm(a.cam(), w, h, a.view.Samples, a.opt, time.Until(a.budgetEnd))
				warmed = left < warm
			}
			done = !warmed && sr.DrawAhead(&a.view, a.cam(), w, h, a.opt, time.Until(a.budgetEnd))
		}
		a.warmTime = time.Since(start)
		if done {
			a.pacer.Drawn(now)
			a.drew, a.warming = true, false
		} else {
			a.view.Show(w, h)
			held = true // not textured on screen yet
		}
	} else if a.refreshing && w > 0 && h > 0 {
		// The picture drawn anew a part a frame, in frames that did
		// nothing else (render.Renderer.Refresh), the last one on
		// screen meanwhile.
		a.warming = true
		done, ok := false, false
		if a.quietFrame() {
			start := time.Now()
			done, ok = sr.Refresh(&a.view, a.cam(), w, h, a.opt, time.Until(a.budgetEnd))
			a.warmTime = time.Since(start)
		}
		switch {
		case done:
			a.pacer.Drawn(now)
			a.drew, a.refreshing, a.warming = true, false, false
		case ok:
			a.view.Show(w, h)
		default:
			if a.quietFrame() {
				// No picture to keep: drawn whole, as before.
				a.refreshing = false
				a.view.Invalidate()
			}
			if a.view.Present(a.shownRenderer(), a.cam(), w, h, a.opt) {
				// The camera moved, or the above: drawn whole.
				a.pacer.Drawn(now)
				a.drew, a.refreshing, a.warming = true, false, false
			}
		}
	} else if a.view.Present(a.shownRenderer(), a.cam(), w, h, a.opt) {
		a.pacer.Drawn(now)
		a.drew, a.drewOnce = true, true
	}
	render.TraceStart("view done (drew %v held %v warm %d)", a.drew, held, warm)
	gl.Viewport(0, 0, int32(size.X*scale.X), int32(size.Y*scale.Y))
	if !a.firstFrame && a.pacer.Shown() {
		a.firstFrame = true
		fmt.Fprintf(os.Stderr, "viewer: first frame after %d ms\n", time.Since(a.start).Milliseconds())
	}
	if pending == 0 && !held && !a.textured {
		a.textured = true
		fmt.Fprintf(os.Stderr, "viewer: textured frame after %d ms\n", time.Since(a.start).Milliseconds())
	}
	if pending == 0 && refining == 0 && !a.sharp && a.pacer.Shown() && !a.refreshing {
		a.sharp = true
		fmt.Fprintf(os.Stderr, "viewer: full-resolution frame after %d ms\n", time.Since(a.start).Milliseconds())
		render.EndTraceStart() // the start is over: no trace line a frame from now on
	}
	if a.textured && !a.drew && !a.mipmapsWarm {
		// Once, in a frame that only copied the view: the code of
		// glGenerateMipmap, which the first transmissive document would
		// otherwise make in one long frame (render.Renderer.WarmMipmaps).
		a.mipmapsWarm = true
		a.renderer.WarmMipmaps()
	}
}

// The time budget of the texture uploads in one frame (and, in a frame
// without them, of the warm-up or the drawing ahead): what is left of
// maxUploadGap, the gap between two frames shown, once the rest of that
// gap is taken out, within [minUpload, maxUpload]. The rest is the time
// since the last frame was shown (the sleep to the frame interval, the
// backend's loop, this frame's work so far, a document being shown; after
// a wait for an event, when no frame was due, since the frame began) plus
// the estimated work of the frame after its uploads (restEst: the copy of
// the view, the panel, the swap, where llvmpipe rasterises the frame's
// queued work; the panel drawn anew when it shows new texture counts, a
// part of it, or a new document, whole, countsDue; a frame that draws a
// redraw put off from the last, cachePanel, takes no step), and, when frames follow back to back, at
// least the measured rest of the gap between the last two (fixedPart). A
// frame that came after a sleep to the frame interval (paced) with less
// than minUpload left takes no step (deferUpload): the next frame comes
// at once with the whole of its gap. Each frame costs 5-25 ms of CPU on
// llvmpipe besides, so frames that are mostly upload waste the least; on
// a loaded machine, where the rest of a frame alone takes longer than
// maxUploadGap, frames back to back still get half as much time as the
// rest, so that a file's textures do not take many times longer to come.
// maxUploadGap is 40 ms, not more: a step's cost and the rest of a frame
// vary by a few ms from their estimates, and the open's longest gap is to
// stay under 50 (at 45 the longest gaps of idle opens of the lamp were
// 42-49 ms, at 40 41-45; the textured lamp came a little later, 1.0 s
// against 0.8).
const (
	maxUploadGap = 40 * time.Millisecond
	minUpload    = 8 * time.Millisecond
	maxUpload    = 40 * time.Millisecond
	// deferUpload is the budget of a frame that takes no step
	// (render.Renderer.UploadBudget below 0).
	deferUpload = -1
)

// uploadBudget is this frame's time for texture uploads, or deferUpload.
func (a *windowApp) uploadBudget() time.Duration {
	a.restEst = fixedPart(a.restEst, a.rest)
	if a.panelLate || a.docShown {
		// The panel's redraw put off from the last frame has this one
		// to itself (cachePanel), as has a document shown in it.
		return deferUpload
	}
	other := a.gapSoFar() + a.restEst
	switch {
	case a.countsNow && a.s.Doc == a.progressDoc && a.partEst > 0:
		other += a.partEst // new counts: a part of the panel
	case a.countsNow:
		other += a.panelEst
	}
	if a.backToBack {
		other = max(other, a.fixed+a.pollTime)
	}
	left := maxUploadGap - other
	if a.paced && left < minUpload {
		return deferUpload
	}
	return min(maxUpload, max(minUpload, left, a.rest/2))
}

// gapSoFar is the part of the gap between the last frame shown and this
// one that has passed: since the last was shown when this frame followed
// it at once or after a sleep to the frame interval, since this frame
// began after a wait for an event (no frame was due).
func (a *windowApp) gapSoFar() time.Duration {
	if (a.paced || a.backToBack) && !a.shownAt.IsZero() && !a.shownAt.After(a.frameStart) {
		return time.Since(a.shownAt)
	}
	return time.Since(a.frameStart)
}

// putOffPanel says whether a panel redraw estimated to cost est waits for
// the next frame, gap of this frame's gap having passed: when it would
// make the gap longer than maxUploadGap.
func putOffPanel(gap, est time.Duration) bool {
	return gap+est+panelAfter > maxUploadGap
}

// panelAfter is what a frame takes after its panel: the backend's
// drawing of the rest of ImGui's lists and the swap (5-10 ms of
// llvmpipe's).
const panelAfter = 8 * time.Millisecond

// fixedPart takes in the gap between two frames shown back to back less
// the uploads and warm-up in it: a longer one raises the estimate at once
// (the machine got busy), a shorter one lowers it a quarter of the way.
func fixedPart(est, measured time.Duration) time.Duration {
	if measured > est {
		return measured
	}
	return (3*est + measured) / 4
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
			a.frameDefault(s.Doc)
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
	case app.SelectChange:
		a.selectChange(in)
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

// frameSelection frames the selected node, or everything, keeping the
// direction the camera looks in.
func (a *windowApp) frameSelection() {
	if a.ctl != nil {
		c := a.cam()
		lo, hi := a.ctl.SelectionBounds()
		c.Frame(lo, hi)
		a.setCam(c)
		if screenLog {
			logLine(fmt.Sprintf("framed node %d: %.3f %.3f %.3f to %.3f %.3f %.3f", a.s.Selected, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]))
		}
	}
}

// DocumentReplaced frames a new document and waits for its first frame
// and textures again (app.View; the controller shows it).
func (a *windowApp) DocumentReplaced(d *scene.Document) {
	a.textured, a.sharp, a.refreshing = false, false, false
	a.pacer.Reset()
	a.frameDefault(d)
}

// frameDefault views the document as it opens (shot.DefaultCamera) and
// says in the status bar when that is not the whole scene's bounds.
func (a *windowApp) frameDefault(d *scene.Document) {
	if d == nil {
		a.setCam(render.NewCamera(a.renderer.Bounds()))
		return
	}
	cam, note := shot.DefaultCamera(d, a.renderer)
	a.setCam(cam)
	if note != "" {
		a.s.Notice(note)
	}
}

// DocumentChanged and SelectionChanged are the controller's (app.View).
func (a *windowApp) DocumentChanged(scene.Change) {}

// SelectionChanged is the controller's (app.View).
func (a *windowApp) SelectionChanged(int) {}
