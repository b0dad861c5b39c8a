package main

import (
	"strings"
	"testing"
	"time"

	"physview/internal/app"
	"physview/render"
)

// TestShowView follows a scene's view while its textures stream in: drawn
// at once untextured (issue 22: no black view while a file loads), then
// drawn again at most once per interval, and at once when the last
// texture is in.
func TestShowView(t *testing.T) {
	t0 := time.Unix(1000, 0)
	cam := render.Camera{Distance: 3}
	type step struct {
		at               time.Duration // after the document arrived
		arrived, pending int
		cam              render.Camera
		show, redraw     bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"the first frame shows the untextured model", []step{
			{0, 0, 5, cam, true, false},
			{300 * time.Millisecond, 3, 2, cam, true, false},
			{600 * time.Millisecond, 2, 0, cam, true, true},
			{700 * time.Millisecond, 0, 0, cam, true, false},
		}},
		{"slow textures: drawn at once, then every interval", []step{
			{0, 0, 5, cam, true, false},
			{time.Second, 1, 4, cam, true, false},
			{streamRedrawInterval, 1, 3, cam, true, true},
			{streamRedrawInterval + time.Second, 0, 3, cam, true, false},
			{2 * streamRedrawInterval, 0, 3, cam, true, false},
			{2*streamRedrawInterval + 5*time.Millisecond, 1, 2, cam, true, true},
			{2*streamRedrawInterval + 10*time.Millisecond, 0, 3, cam, true, false},
			{2*streamRedrawInterval + 20*time.Millisecond, 3, 0, cam, true, true},
		}},
		{"no images: drawn at once", []step{
			{0, 0, 0, cam, true, false},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &windowApp{s: app.New()}
			for i, s := range tc.steps {
				a.setCam(s.cam)
				now := t0.Add(s.at)
				show, redraw := a.showView(now, s.arrived, s.pending)
				if show != s.show || redraw != s.redraw {
					t.Fatalf("step %d (%v): show, redraw = %v, %v; want %v, %v", i, s.at, show, redraw, s.show, s.redraw)
				}
				if a.streaming != (s.pending > 0) {
					t.Errorf("step %d: streaming = %v with %d pending", i, a.streaming, s.pending)
				}
				if show {
					// What frame() does after Present drew.
					if redraw || !a.viewShown {
						a.lastRedraw, a.staleView = now, false
					}
					a.viewShown = true
				}
			}
		})
	}
}

// frameCount returns how many frames the viewer reported so far.
func frameCount(l *viewerLog) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.lines {
		if strings.HasPrefix(s, "viewer: frame ") {
			n++
		}
	}
	return n
}

// TestWindowSleepsWhenIdle checks that the window draws only when there is
// something to show: a few frames a second at most while nothing happens
// (the backend's loop alone would draw 30), and frames again at once when
// the mouse moves.
func TestWindowSleepsWhenIdle(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a window")
	}
	t.Setenv("PHYSVIEW_LOG_FRAMES", "1")
	display := startXvfb(t)
	log := startEditor(t, display)
	time.Sleep(time.Second) // the frames that follow the first ones
	before := frameCount(log)
	const idle = 3 * time.Second
	time.Sleep(idle)
	idleFrames := frameCount(log) - before
	if limit := int(idle/idleTimeout) + 2; idleFrames > limit {
		t.Errorf("%d frames in %v without input, want at most %d", idleFrames, idle, limit)
	}
	before = frameCount(log)
	xdo(t, display, "mousemove", "700", "400")
	time.Sleep(200 * time.Millisecond)
	xdo(t, display, "mousemove", "720", "410")
	time.Sleep(300 * time.Millisecond)
	if moved := frameCount(log) - before; moved < 4 {
		t.Errorf("%d frames within 0.5 s of moving the mouse, want at least 4 (an event and the frames after it)", moved)
	}
	t.Logf("%d frames in %v idle", idleFrames, idle)
}
