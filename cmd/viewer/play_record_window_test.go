package main

import (
	"image"
	"testing"
	"time"
)

// TestWindowPlayRecording plays the demo in the window, pauses, and drags
// the Play tab's recording slider: to the start the view shows the scene
// as it was when Play started (as the screenshot taken then), to the end
// the paused frame again. View > Trajectories draws the paths; Bake to
// animation bakes the recording (the bodies turn kinematic orange) and
// Ctrl+Z undoes it.
func TestWindowPlayRecording(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	display := startXvfb(t)
	log := startEditor(t, display)
	view := image.Rect(0, 30, 790, 740)
	// The panel's tabs are at y 119: View at x 1119, Play at 1156; the
	// recording slider runs from x 810 to 1255 at y 233 (under the Engine
	// row; a scroll bar takes the rest once the recording's lines fill the
	// tab), Bake to animation is below it at (866, 257).
	click(t, display, 1156, 119)
	xdo(t, display, "mousemove", "300", "700")
	start := stillScreen(t, display, "rec-start.png", view)
	xdo(t, display, "key", "space")
	time.Sleep(3 * time.Second)
	xdo(t, display, "key", "space")
	paused := stillScreen(t, display, "rec-paused.png", view)
	if n := changedPixels(start, paused, view); n < 500 {
		t.Fatalf("only %d pixels changed after 3 s of Play: nothing moved?", n)
	}
	// Drag the slider back to the start.
	drag(t, display, 1000, 233, -200, 0, false)
	click(t, display, 810, 233)
	xdo(t, display, "mousemove", "300", "700")
	back := waitScreen(t, display, "rec-back.png", func(img image.Image) bool { return diffFraction(img, start, view, 24) <= 0.002 })
	if d := diffFraction(back, paused, view, 24); d < 0.002 {
		t.Errorf("scrubbed back to the start, only %.3f%% of the view differs from the paused frame", d*100)
	}
	if d := diffFraction(back, start, view, 24); d > 0.002 {
		t.Errorf("scrubbed back to the start, %.3f%% of the view differs from the screenshot taken at the start", d*100)
	}
	// To the end: the paused frame again.
	click(t, display, 1250, 233)
	xdo(t, display, "mousemove", "300", "700")
	end := waitScreen(t, display, "rec-end.png", func(img image.Image) bool { return diffFraction(img, paused, view, 24) <= 0.002 })
	if d := diffFraction(end, paused, view, 24); d > 0.002 {
		t.Errorf("scrubbed to the end, %.3f%% of the view differs from the paused frame", d*100)
	}
	// Trajectories on.
	click(t, display, 1119, 119)
	click(t, display, 818, 353) // View > Trajectories, under Bounding volumes
	xdo(t, display, "mousemove", "300", "700")
	paths := waitScreen(t, display, "rec-trajectories.png", func(img image.Image) bool { return changedPixels(end, img, view) >= 100 })
	if n := changedPixels(end, paths, view); n < 100 {
		t.Errorf("View > Trajectories changed %d pixels of the view, want the paths drawn", n)
	}
	// Bake, then undo.
	click(t, display, 1156, 119)
	click(t, display, 866, 257)
	if l := log.wait(t, "baked "); l == "" {
		t.Fatal("no bake")
	}
	xdo(t, display, "mousemove", "300", "700")
	// The bake shows the document (kinematic bodies) again, once the
	// frames after it are on the screen.
	waitScreen(t, display, "rec-baked.png", func(img image.Image) bool { return changedPixels(paths, img, view) >= 100 })
	baked := stillScreen(t, display, "rec-baked.png", view)
	chord(t, display, "z", "ctrl")
	log.wait(t, "undo Bake simulation")
	undone := waitScreen(t, display, "rec-undone.png", func(img image.Image) bool { return changedPixels(baked, img, view) >= 100 })
	if n := changedPixels(baked, undone, view); n < 100 {
		t.Errorf("undoing the bake changed %d pixels: the bodies should turn from kinematic orange back to dynamic green", n)
	}
}
