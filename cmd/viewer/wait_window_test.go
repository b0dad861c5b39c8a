package main

import (
	"image"
	"strings"
	"sync"
	"testing"
	"time"
)

// How the window tests wait (docs/architecture.md, "The window tests"): a
// test does not sleep a fixed time before it looks at what input changed;
// it waits for what it can observe (a line the viewer logs, frames, the
// screen showing the change) with a deadline that a cold start on a busy
// machine meets (a bare CI machine has no Mesa shader cache: llvmpipe's
// first draw of each material costs up to a second of CPU). Only a test
// that fails waits its deadline out.

// windowWait is the deadline for something the window will show or log.
const windowWait = 60 * time.Second

// waitScreen captures the screen until ok holds for the capture, for at
// most windowWait, and returns the last capture, which the caller checks
// as before (so that a timeout fails with the test's own message). The
// viewer logs an event in the frame that handles it, before that frame is
// on the screen; a loaded machine can show it a second later.
func waitScreen(t *testing.T, display, name string, ok func(image.Image) bool) image.Image {
	t.Helper()
	var img image.Image
	for end := time.Now().Add(windowWait); ; time.Sleep(150 * time.Millisecond) {
		img = captureScreen(t, display, name)
		if ok(img) || time.Now().After(end) {
			return img
		}
	}
}

// stillScreen captures the screen until two captures 300 ms apart agree
// in r (the frames after an event are drawn and nothing moves), for at
// most windowWait, and returns the last capture.
func stillScreen(t *testing.T, display, name string, r image.Rectangle) image.Image {
	t.Helper()
	prev := captureScreen(t, display, name)
	for end := time.Now().Add(windowWait); ; {
		time.Sleep(300 * time.Millisecond)
		img := captureScreen(t, display, name)
		if changedPixels(prev, img, r) == 0 || time.Now().After(end) {
			return img
		}
		prev = img
	}
}

// dumpOnFailure prints what the viewer logged when the test fails, for a
// failure seen only on CI.
func dumpOnFailure(t *testing.T, log *viewerLog) {
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the viewer said:\n%s", strings.Join(log.all(), "\n"))
		}
	})
}

// frameCounters holds, by display, how many frames the viewer on it has
// reported (PHYSVIEW_LOG_FRAMES=1), for afterFrames.
var frameCounters sync.Map

// watchFrames makes afterFrames on display count the frames count reports.
func watchFrames(t *testing.T, display string, count func() int) {
	frameCounters.Store(display, count)
	t.Cleanup(func() { frameCounters.Delete(display) })
}

// afterFrames waits at least least, then until the window on display has
// finished two more frames (the second began after this call, so it took
// in the input sent before), for at most windowWait. Without a counter for
// display it only waits least. A press on a tab must come a frame after
// the move onto it: imgui counts a tab hovered from the frame before, and
// takes a move and a press in one frame when a frame is slower than the
// test's pause between them.
func afterFrames(display string, least time.Duration) {
	c, ok := frameCounters.Load(display)
	start := time.Now()
	if !ok {
		time.Sleep(least)
		return
	}
	count := c.(func() int)
	want := count() + 2
	for end := start.Add(windowWait); count() < want && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if d := least - time.Since(start); d > 0 {
		time.Sleep(d)
	}
}

// dragUntil presses the left button at (300, 400) in the view and drags
// back and forth within it, 30 moves or more, 5 at a time, until done
// says enough frames drew during the drag (a loaded machine draws fewer
// frames a second) or windowWait passes; the button stays down.
func dragUntil(t *testing.T, display string, done func() bool) {
	t.Helper()
	xdo(t, display, "mousemove", "300", "400", "mousedown", "1")
	for batch, end := 0, time.Now().Add(windowWait); time.Now().Before(end); batch++ {
		dx := []string{"6", "-6"}[batch/10%2] // back and forth within the view
		var steps []string
		for i := 0; i < 5; i++ {
			steps = append(steps, "mousemove_relative", "--", dx, "0", "sleep", "0.03")
		}
		xdo(t, display, steps...)
		if batch >= 5 && done() {
			return
		}
	}
}
