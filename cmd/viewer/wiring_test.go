package main

import (
	"image"
	"strings"
	"testing"
	"time"
)

// TestWindowPanelStaysPut checks the wiring of the window to the session
// and issue 22's panel items: a click in the tree reaches the session
// (selected node 2), a refused value shows its message in the fixed
// message area and the widgets below do not move (the same widget stays
// under the cursor), and a launch with no XDG_RUNTIME_DIR prints no
// complaint about it.
func TestWindowPanelStaysPut(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	display := startXvfb(t)
	v := startViewerProc(t, display, t.TempDir(), []string{"XDG_RUNTIME_DIR="})
	for _, l := range v.seen {
		if strings.Contains(l, "XDG_RUNTIME_DIR") {
			t.Errorf("launch printed %q", l)
		}
	}
	// Scene tab: the Ball row (under the hint line); then the Inspector tab.
	v.click(900, 194)
	if got := v.wait("selected node", windowWait); got != "viewer: selected node 2" {
		t.Fatalf("a click on the Ball row: %q", got)
	}
	v.click(885, 119)
	// The mouse rests on the radius field, as it will after typing.
	v.xdotool("mousemove", "870", "495")
	afterFrames(v.display, 500*time.Millisecond) // the field drawn hovered
	before := captureScreen(t, display, "panel-before.png")
	// The radius field: type -1, which is refused.
	v.click(870, 495)
	v.ctrl("a")
	v.xdotool("type", "--delay", "80", "--", "-1")
	time.Sleep(200 * time.Millisecond)
	v.key("Return")
	message := image.Rect(836, 60, 1275, 100)
	after := waitScreen(t, display, "panel-refused.png", func(img image.Image) bool { return countColour(img, message, 0) >= 20 })

	if n := countColour(after, message, 0); n < 20 {
		t.Errorf("no red message in the message area (%d red pixels)", n)
	}
	if n := countColour(before, message, 0); n > 0 {
		t.Errorf("red in the message area before the refused value (%d pixels)", n)
	}
	// Everything below the message area is where it was: the tabs, the
	// fields, the shape-type dropdown above the radius field.
	below := image.Rect(836, 108, 1275, 720)
	if d := diffFraction(before, after, below, 24); d > 0.002 {
		t.Errorf("%.2f%% of the panel below the message moved or changed", d*100)
	}
}
