package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// frameView matches the view part of a frame line: the size redrawn.
var frameView = regexp.MustCompile(`^viewer: frame (\d+) at [\d.]+ ms, work [\d.]+ ms, view (\d+)x(\d+),`)

// TestWindowOrbitReduced orbits the demo scene with a redraw budget so
// small that every redraw while the camera moves is reduced, and checks
// that the view is drawn reduced while dragging and at full size again
// within two frames of the drag's end, so that what stays on screen is
// the full picture.
func TestWindowOrbitReduced(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a window")
	}
	t.Setenv("PHYSVIEW_LOG_FRAMES", "1")
	t.Setenv("PHYSVIEW_DYNRES", "1us")
	display := startXvfb(t)
	log := startEditor(t, display)
	// The full size: the first redraw's.
	var fullW, fullH int
	redraws := func(from int) (out [][3]int) { // frame, width, height
		log.mu.Lock()
		defer log.mu.Unlock()
		for _, l := range log.lines[from:] {
			if m := frameView.FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[1])
				w, _ := strconv.Atoi(m[2])
				h, _ := strconv.Atoi(m[3])
				out = append(out, [3]int{n, w, h})
			}
		}
		return out
	}
	// The frame line comes after the frame's swap, which on a busy
	// machine can be well after the "textured frame" startEditor waits for.
	for deadline := time.Now().Add(windowWait); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if r := redraws(0); len(r) > 0 {
			fullW, fullH = r[0][1], r[0][2]
			break
		}
	}
	if fullW < 400 || fullH < 400 {
		t.Fatalf("first redraw %dx%d, want the 3D view's size", fullW, fullH)
	}
	log.mu.Lock()
	before := len(log.lines)
	log.mu.Unlock()
	// reducedIn counts the reduced redraws in rs and finds the last.
	reducedIn := func(rs [][3]int) (reduced, lastReduced int) {
		lastReduced = -1
		for i, r := range rs {
			if r[1] < fullW {
				reduced++
				lastReduced = i
			}
		}
		return reduced, lastReduced
	}
	// The drag, until 5 reduced frames drew during it.
	dragUntil(t, display, func() bool { n, _ := reducedIn(redraws(before)); return n >= 5 })
	xdo(t, display, "mouseup", "1")
	// The frames after the drag: the last redraw full-size again.
	var rs [][3]int
	for end := time.Now().Add(windowWait); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		rs = redraws(before)
		if _, last := reducedIn(rs); len(rs) > 0 && last < len(rs)-1 {
			time.Sleep(500 * time.Millisecond) // no reduced frame comes after it
			rs = redraws(before)
			break
		}
	}
	reduced, lastReduced := reducedIn(rs)
	for _, r := range rs {
		if r[1] < fullW && (r[1] < int(float64(fullW)*0.29) || r[2] > fullH) {
			t.Errorf("frame %d redrawn at %dx%d: below the least scale of %dx%d", r[0], r[1], r[2], fullW, fullH)
		}
	}
	var lines []string
	for _, r := range rs {
		lines = append(lines, fmt.Sprintf("frame %d: %dx%d", r[0], r[1], r[2]))
	}
	got := strings.Join(lines, "\n")
	if reduced < 5 {
		t.Fatalf("%d reduced redraws while orbiting, want at least 5:\n%s", reduced, got)
	}
	if lastReduced == len(rs)-1 {
		t.Fatalf("the view was left reduced after the drag:\n%s", got)
	}
	t.Log(got)
	last := rs[len(rs)-1]
	if last[1] != fullW || last[2] != fullH {
		t.Errorf("last redraw %dx%d, want the full %dx%d:\n%s", last[1], last[2], fullW, fullH, got)
	}
	// The first redraw after the last reduced one is the full one (a
	// later frame may redraw in full again).
	if gap := rs[lastReduced+1][0] - rs[lastReduced][0]; gap > 3 {
		t.Errorf("full redraw %d frames after the last reduced one, want within 3:\n%s", gap, got)
	}
}
