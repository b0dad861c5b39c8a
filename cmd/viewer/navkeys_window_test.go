package main

import (
	"image"
	"testing"
	"time"
)

// TestWindowHomeThenSpace: after a click on the Play button, Home (reset
// the view) leaves no ImGui focus ring on the button, so Space keeps
// toggling Play and nothing else: Space, Home, Space, Space ends paused.
// (ImGui's keyboard navigation, which the backend turns on, used to frame
// the button on Home and press it on every Space as well: two toggles,
// Play could no longer be paused from the keyboard.)
func TestWindowHomeThenSpace(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	display := startXvfb(t)
	startEditor(t, display)
	// The Play tab at (1156, 119); its Play button at (842, 143).
	click(t, display, 1156, 119)
	click(t, display, 842, 143)
	time.Sleep(time.Second)
	xdo(t, display, "mousemove", "300", "700")
	time.Sleep(300 * time.Millisecond)
	xdo(t, display, "key", "space") // pause
	time.Sleep(500 * time.Millisecond)
	xdo(t, display, "key", "Home")
	time.Sleep(600 * time.Millisecond)
	xdo(t, display, "key", "space") // play
	time.Sleep(1500 * time.Millisecond)
	xdo(t, display, "key", "space") // pause
	time.Sleep(800 * time.Millisecond)
	view := image.Rect(0, 30, 790, 740)
	a := captureScreen(t, display, "home-paused-a.png")
	time.Sleep(time.Second)
	b := captureScreen(t, display, "home-paused-b.png")
	if n := changedPixels(a, b, view); n > 50 {
		t.Errorf("%d pixels of the view changed in 1 s after Space, Home, Space, Space: Play still runs", n)
	}
}
