package main

import (
	"image"
	"testing"
	"time"
)

// changedPixels counts the pixels of r that differ between a and b.
func changedPixels(a, b image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				n++
			}
		}
	}
	return n
}

// TestWindowPlay: Space plays the demo scene (the ball rolls, so the view
// changes) and pauses it again (the view then holds still), also right
// after a click on a panel tab (which used to leave Space to the panel).
func TestWindowPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	display := startXvfb(t)
	startViewer(t, display)
	// The View tab (after Scene, Inspector, Physics, Variants, Findings),
	// then the mouse back over the view.
	click(t, display, 1126, 119)
	time.Sleep(150 * time.Millisecond)
	xdo(t, display, "mousemove", "300", "700")
	time.Sleep(300 * time.Millisecond)
	// Left of the panel, above the status bar (whose frame time changes).
	view := image.Rect(0, 30, 790, 740)
	before := captureScreen(t, display, "play-before.png")
	xdo(t, display, "key", "space")
	time.Sleep(2 * time.Second)
	// A loaded machine may not have drawn the moves of those 2 s yet.
	playing := waitScreen(t, display, "play-playing.png", func(img image.Image) bool { return changedPixels(before, img, view) >= 500 })
	if n := changedPixels(before, playing, view); n < 500 {
		t.Errorf("only %d pixels of the view changed after 2 s of play: nothing moved?", n)
	}
	xdo(t, display, "key", "space")
	// The frames after the pause drawn, the view holds still.
	paused := stillScreen(t, display, "play-paused.png", view)
	time.Sleep(700 * time.Millisecond)
	still := captureScreen(t, display, "play-paused-later.png")
	if n := changedPixels(paused, still, view); n > 0 {
		t.Errorf("%d pixels of the view changed while paused", n)
	}
}
