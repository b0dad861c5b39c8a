package main

/*
// GLFW is linked into the binary by cimgui-go's backend (its libglfw3.a);
// the idle wait needs this one call of it, resolved at the final link.
extern void glfwWaitEventsTimeout(double timeout);
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	g "github.com/AllenDang/giu"

	"physview/render"
)

// The backend's loop (cimgui-go) draws 30 frames a second whether or not
// anything changed, and on a software rasteriser each frame of a
// 1280x780 window costs about 10 ms of CPU: a third of a core while the
// window sits idle, taken from the image decoders while a file loads.
// After each frame the window therefore sleeps until an event arrives
// (input, or a post from a goroutine whose result a frame should show)
// unless it has a reason to keep drawing.
const (
	// frameInterval paces the frames while the window keeps drawing.
	frameInterval = time.Second / 30
	// idleTimeout bounds a sleep, for anything that changes without
	// posting an event (a status message that expires, a file watcher).
	idleTimeout = 500 * time.Millisecond
	// busyTimeout bounds a sleep while a file loads or its textures
	// arrive, so that the progress bar moves.
	busyTimeout = 100 * time.Millisecond
)

// logFrames (PHYSVIEW_LOG_FRAMES=1) reports each frame on stderr with
// when it ended and how long its work took (ms since the window opened),
// how its 3D view was made, how many times the panel was drawn anew
// into its cache so far (cachePanel) and the time from its start, where
// it takes in the input, to its swap ("input": the latency the pacing
// adds to), for the test that the window sleeps
// when nothing happens and for the orbit benchmark (cmd/orbitbench).
var logFrames = os.Getenv("PHYSVIEW_LOG_FRAMES") == "1"

// frameTimes (PHYSVIEW_FRAME_TIMES=1) makes the window draw at the frame
// interval without sleeping, as it does while the user moves the mouse,
// and report when each frame was shown and how long its work took
// ("viewer: frame at 1234.5 ms took 6.7 ms", "drew the view" after it when
// the 3D view was drawn anew rather than copied, then how long the
// session's Poll, the texture uploads and the warm-up or drawing ahead
// took in it): the benchmark of the longest frame gap while a file opens
// (go run ./cmd/startbench -open).
var frameTimes = os.Getenv("PHYSVIEW_FRAME_TIMES") == "1"

// startIdle installs the sleep after each frame and makes background
// results (decoded images, the lighting environment) wake the window.
func (a *windowApp) startIdle() {
	render.SetWake(postWake)
	g.Context.Backend().SetAfterRenderHook(a.afterFrame)
	if !backendClock {
		g.Context.Backend().SetTargetFPS(unpacedFPS)
	}
}

// The backend's loop keeps its own clock of 30 frames a second: a frame
// that follows the last at once (the uploads while a file opens) first
// sleeps until that clock's next tick, 0-33 ms that no budget of the
// window's sees. The window paces every frame itself (afterFrame), so
// the backend's clock is set past any frame rate: its loop then draws
// the next frame as soon as afterFrame returns.
const unpacedFPS = 100000

// backendClock (PHYSVIEW_BACKEND_CLOCK=1) leaves the backend's clock at
// its 30 frames a second, for A/B runs of the opening benchmark.
var backendClock = os.Getenv("PHYSVIEW_BACKEND_CLOCK") == "1"

// wakes guards posting an empty event to the window from goroutines
// against GLFW's shutdown, which the window's closing starts.
var wakes struct {
	sync.Mutex
	stopped bool
}

// postWake wakes the window from any goroutine: a result it should show
// (a file loaded or changed, a dialog answered, an image decoded) is
// waiting for the next frame.
func postWake() {
	wakes.Lock()
	defer wakes.Unlock()
	if !wakes.stopped {
		g.Update()
	}
}

// stopWakes makes postWake do nothing from now on; it returns once no
// post is under way. It is called when the window is about to close, so
// that no goroutine posts an event while GLFW shuts down.
func stopWakes() {
	render.SetWake(nil)
	wakes.Lock()
	wakes.stopped = true
	wakes.Unlock()
}

// nextDeadline returns when the next frame is due (its start, or its
// swap under present pacing), the last one having been due at last and
// this one ending at now: one frameInterval after
// last, so that a sleep that overslept (a busy machine wakes the window
// late) is taken from the next wait rather than added to every frame;
// at once when this frame ran past that, the schedule starting over from
// now (no burst of frames to catch up).
func nextDeadline(last, now time.Time) time.Time {
	next := last.Add(frameInterval)
	if next.Before(now) {
		return now
	}
	return next
}

// afterFrame runs after each frame is shown. While something moves (the
// frames after input, Play) it paces the frames itself: after a long sleep
// the backend's loop would otherwise draw back to back to catch up with
// its clock, and input that arrives meanwhile is taken in by the next
// frame, which asks for frames of its own (wake). Otherwise it sleeps
// until the next event.
func (a *windowApp) afterFrame() {
	now := time.Now()
	// The work, not the sleep that aimed the swap (presentOnTime).
	a.frameWork = now.Sub(a.frameStart) - a.pace.slept
	if a.pace.aimed {
		a.pace.post.add(now.Sub(a.pace.swapFrom))
	}
	a.pace.aimed, a.pace.slept = false, 0
	if !a.afterUpload.IsZero() {
		a.rest = now.Sub(a.afterUpload) - a.warmTime
	}
	if a.backToBack && !a.shownAt.IsZero() {
		// Less the wait for a storage's pages, which a frame that
		// uploads does not pay.
		a.fixed = fixedPart(a.fixed, now.Sub(a.shownAt)-a.uploadTime-a.warmTime-a.pollTime-a.pagesWait)
	}
	a.pagesWait = 0
	a.shownAt, a.backToBack, a.paced = now, false, false
	if logFrames {
		a.frames++
		fmt.Fprintf(os.Stderr, "viewer: frame %d at %.2f ms, work %.2f ms, view %s, redraw %.2f ms, input %.2f ms, panel drawn %d\n", a.frames,
			float64(now.Sub(a.start).Microseconds())/1000, float64(a.frameWork.Microseconds())/1000,
			a.view.Shown(), float64(a.view.Redraw().Microseconds())/1000,
			float64(now.Sub(a.wokeAt).Microseconds())/1000, a.panelCache.Redraws)
	}
	if frameTimes {
		drew := ""
		if a.drew {
			drew = " drew the view"
		}
		if a.panelDrawn > 0 {
			drew += " drew the panel"
		}
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		steps := ""
		if a.renderer != nil && len(a.renderer.Notes) > 0 {
			steps = ": " + strings.Join(a.renderer.Notes, ", ")
			a.renderer.Notes = a.renderer.Notes[:0]
		}
		before := time.Duration(0)
		if !a.wokeAt.IsZero() {
			before = a.frameStart.Sub(a.wokeAt)
		}
		fmt.Fprintf(os.Stderr, "viewer: frame at %.1f ms took %.1f ms%s (before %.1f, files %.1f, poll %.1f, upload %.1f, warm %.1f; controller %.1f, view %.1f, panel %.1f, cache %.1f, after %.1f)%s\n", ms(now.Sub(a.start)), ms(a.frameWork), drew,
			ms(before), ms(a.filesTime), ms(a.pollTime), ms(a.uploadTime), ms(a.warmTime), ms(a.ctlTime), ms(a.presentTime), ms(a.panelTime), ms(a.cacheTime), ms(now.Sub(a.frameEnd)), steps)
	}
	a.drew = false
	wakes.Lock()
	closing := wakes.stopped
	wakes.Unlock()
	if closing {
		return // the loop ends at once
	}
	// Decoded textures wait for their upload, a time budget's worth a
	// frame (or the shaders' warm-up, the drawing ahead): the next frame
	// comes at once, its budget what is left of maxUploadGap.
	if a.renderer != nil && (a.renderer.Uploading() || a.warming) {
		a.lastFrameEnd = now
		a.backToBack = true
		if ch := a.renderer.UploadWait(); ch != nil && !a.warming {
			// Nothing to upload until the next storage's pages are
			// in: the next frame waits for them, at most maxUploadWait.
			t := time.NewTimer(maxUploadWait)
			select {
			case <-ch:
			case <-t.C:
			}
			t.Stop()
			a.pagesWait = time.Since(now)
		}
		a.wokeAt = time.Now()
		return
	}
	// Play is paced from the click on it on, before its simulation is
	// built in the next frame; a message fades smoothly.
	_, alpha, msg := a.s.Message()
	fading := msg && alpha < 1
	// A view drawn reduced while the camera moved is drawn in full in
	// the frames after it stops.
	if a.wakeFrames > 0 || frameTimes || a.s.Play.Playing || a.s.Timeline.Playing || fading || a.view.Settling() {
		// lastFrameEnd is when the next frame is due: its start (start
		// pacing) or its swap (present pacing), which then starts as
		// late as its work allows (startFor).
		a.lastFrameEnd, a.paced = nextDeadline(a.lastFrameEnd, now), true
		at := a.lastFrameEnd
		if !startPacing {
			at, a.pace.aimed = a.pace.startFor(a.lastFrameEnd), true
		}
		if d := time.Until(at); d > 0 {
			time.Sleep(d)
		}
		a.wokeAt = time.Now()
		return
	}
	timeout := idleTimeout
	if a.s.Loading() != nil || a.pacer.Streaming() {
		timeout = busyTimeout
	}
	if a.countsLag {
		// Newer texture counts wait for a frame that did not sleep to
		// the frame interval (countsDue): one after the next event, or
		// when they would lag by progressEvery.
		timeout = min(timeout, max(time.Millisecond, progressEvery-time.Since(a.progressAt)))
	}
	C.glfwWaitEventsTimeout(C.double(timeout.Seconds()))
	a.lastFrameEnd = time.Now()
	a.wokeAt = a.lastFrameEnd
}

// maxUploadWait bounds the wait of a frame whose uploads wait for a
// storage's pages (render.Renderer.UploadWait): the frame after it, which
// allocates the storage and uploads rows, has the rest of maxUploadGap.
const maxUploadWait = 10 * time.Millisecond

// windowProcs is how many goroutines the window lets run Go code at once
// (runtime.GOMAXPROCS): at least 8, twice the cores. With one per core,
// the frame's thread lost its turn to the decoders, the mipmap builders
// and the file's loading: each of the frame's calls into C (GL, GLFW)
// may hand its processor to a waiting goroutine, and on its return the
// frame waits for one of them to be preempted, while the kernel would
// have run it first (the decoders run 5 nice levels below it). With
// more, the kernel alone shares the cores. Opening the lamp on 2 idle
// cores (cmd/startbench -open, four runs of each): the textured lamp
// after 0.89 s at 8 against 1.04 s at 4, the longest gaps 41-47 ms
// either way.
func windowProcs(cpus int) int { return max(8, 2*cpus) }

// setWindowProcs raises GOMAXPROCS to windowProcs, unless the GOMAXPROCS
// environment variable says otherwise.
func setWindowProcs() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(max(runtime.GOMAXPROCS(0), windowProcs(runtime.NumCPU())))
	}
}

// startPacing (PHYSVIEW_PACING=start) paces the moving frames by their
// start, as the window did before present pacing (the orbit benchmark's
// comparison): a frame starts one interval after the last, and is shown
// when its work is done, so every change in the work of a frame from the
// next shows in the time between the frames the user sees.
var startPacing = os.Getenv("PHYSVIEW_PACING") == "start"

// pacer aims the swap of each moving frame at the frame interval's grid,
// as a display's vertical sync does (present pacing): the frame starts as
// late as its work allows, its work done, the window waits for the
// rasteriser (render.Finish) and sleeps until the swap is due less what
// the swap takes. The time between the frames shown is then the interval
// whatever each frame's work, as long as it fits.
type pacer struct {
	// aimed says this frame aims its swap at the window's lastFrameEnd.
	aimed bool
	// swapFrom is when this frame's sleep before the swap ended (its
	// start sleep's end is the window's wokeAt), slept how long that
	// sleep was.
	swapFrom time.Time
	slept    time.Duration
	// pre is the work of the last frames up to their sleep before the
	// swap (ImGui's new frame, the frame's own work, the rasteriser's),
	// post from that sleep's end to the frame's being shown (ImGui's
	// render and the swap), other the part of pre that is not the 3D
	// view's redraw.
	pre, post, other lastFrames
}

// steerMargin is what the view's budget (viewBudget) leaves of the frame
// interval for a redraw slower than its estimate and for the sleeps.
const steerMargin = 3 * time.Millisecond

// viewBudget returns how long the 3D view's redraw may take while the
// camera moves for the frame to be shown on time: the interval less the
// rest of the frame's work at the 90th percentile of the last frames',
// the swap at their median and steerMargin (render.View.Steer takes it
// when it is below its default).
func (p *pacer) viewBudget() time.Duration {
	return max(time.Millisecond, frameInterval-p.other.percentile(90)-p.post.percentile(50)-steerMargin)
}

// paceMargin is what the start of a frame keeps for a sleep that
// oversleeps.
const paceMargin = time.Millisecond

// startFor returns when a frame due to be shown at due should start: its
// work before the swap at the 90th percentile of the last frames', and
// the swap at their median, before due. With no frames measured yet, at
// once.
func (p *pacer) startFor(due time.Time) time.Time {
	if len(p.pre.d) == 0 || len(p.post.d) == 0 {
		return time.Time{}
	}
	return due.Add(-p.pre.percentile(90) - p.post.percentile(50) - paceMargin)
}

// presentOnTime ends a frame aimed at its swap's due time: it waits for
// the rasteriser and sleeps until the swap is due less the swap's own
// time. A frame that shows a document or uploads textures (the opening's
// frames, paced by their upload budget) is shown at once.
func (a *windowApp) presentOnTime() {
	p := &a.pace
	if !p.aimed {
		return
	}
	if a.uploaded || a.warming || a.pollTime >= time.Millisecond {
		p.aimed = false
		return
	}
	render.Finish()
	ready := time.Now()
	pre := ready.Sub(a.wokeAt)
	p.pre.add(pre)
	if a.drew {
		pre -= a.view.Redraw()
	}
	p.other.add(pre)
	a.view.Steer(p.viewBudget())
	if d := a.lastFrameEnd.Add(-p.post.percentile(50)).Sub(ready); d > 0 {
		time.Sleep(d)
	}
	p.swapFrom = time.Now()
	p.slept = p.swapFrom.Sub(ready)
}

// recentFrames is how many frames the pacer's estimates follow.
const recentFrames = 16

// lastFrames keeps the last recentFrames durations.
type lastFrames struct {
	d    []time.Duration
	next int
}

func (r *lastFrames) add(d time.Duration) {
	if len(r.d) < recentFrames {
		r.d = append(r.d, d)
		return
	}
	r.d[r.next] = d
	r.next = (r.next + 1) % recentFrames
}

// percentile returns the p-th percentile of the kept durations (0 when
// there are none).
func (r *lastFrames) percentile(p int) time.Duration {
	if len(r.d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), r.d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*p/100]
}
