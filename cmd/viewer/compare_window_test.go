package main

import (
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWindowCompareGhosts: in the thin wall scene (a ball at 100 m/s that
// tunnels through the wall in ODE and stops at it in Bullet), "Compare
// engines" in the Play tab, then stepping and scrubbing the recording
// draws both engines' balls at the time shown: ODE's orange ghost past the
// wall, Bullet's cyan one before it.
func TestWindowCompareGhosts(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	src, err := os.ReadFile("../../internal/app/testdata/compare/thin_wall.gltf")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "thin_wall.gltf")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	display := startXvfb(t)
	log := startEditor(t, display, file)
	click(t, display, 1156, 119) // the Play tab
	x, y := log.lastAt(t, "compare engines")
	click(t, display, x, y)
	log.wait(t, "compared engines over")
	xdo(t, display, "mousemove", "300", "700")
	time.Sleep(400 * time.Millisecond)
	view := image.Rect(0, 30, 790, 740)
	before := captureScreen(t, display, "compare-tracks.png")
	// Seven steps (t = 0.029 s): ODE's ball is 1 m past the wall.
	for range 7 {
		xdo(t, display, "key", "period")
	}
	time.Sleep(600 * time.Millisecond)
	live := captureScreen(t, display, "compare-ghosts-live.png")
	if n := changedPixels(before, live, view); n < 50 {
		t.Errorf("stepping changed %d pixels of the view: no ghosts drawn?", n)
	}
	// Two steps back: a scrubbed frame, with the ghosts there.
	xdo(t, display, "key", "comma")
	xdo(t, display, "key", "comma")
	time.Sleep(600 * time.Millisecond)
	scrubbed := captureScreen(t, display, "compare-ghosts-scrubbed.png")
	if n := changedPixels(live, scrubbed, view); n < 50 {
		t.Errorf("scrubbing back two steps changed %d pixels of the view: the ghosts did not follow", n)
	}
	orange, cyan := 0, 0
	b := scrubbed.Bounds().Intersect(view)
	for py := b.Min.Y; py < b.Max.Y; py++ {
		for px := b.Min.X; px < b.Max.X; px++ {
			r, g, bl, _ := scrubbed.At(px, py).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch {
			case r > 200 && g > 100 && g < 170 && bl < 80:
				orange++
			case r < 90 && g > 180 && bl > 200:
				cyan++
			}
		}
	}
	if orange < 20 || cyan < 20 {
		t.Errorf("the scrubbed view has %d orange and %d cyan pixels: want both engines drawn", orange, cyan)
	}
}
