package main

import (
	"image"
	"os"
	"path/filepath"
	"testing"
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
	view := image.Rect(0, 30, 790, 740)
	before := stillScreen(t, display, "compare-tracks.png", view)
	// Seven steps (t = 0.029 s): ODE's ball is 1 m past the wall. Each
	// step is a frame of its own; the screen is still once the last is.
	for range 7 {
		xdo(t, display, "key", "period")
	}
	waitScreen(t, display, "compare-ghosts-live.png", func(img image.Image) bool { return changedPixels(before, img, view) >= 50 })
	live := stillScreen(t, display, "compare-ghosts-live.png", view)
	if n := changedPixels(before, live, view); n < 50 {
		t.Errorf("stepping changed %d pixels of the view: no ghosts drawn?", n)
	}
	// Two steps back: a scrubbed frame, with the ghosts there.
	xdo(t, display, "key", "comma")
	xdo(t, display, "key", "comma")
	waitScreen(t, display, "compare-ghosts-scrubbed.png", func(img image.Image) bool { return changedPixels(live, img, view) >= 50 })
	scrubbed := stillScreen(t, display, "compare-ghosts-scrubbed.png", view)
	if n := changedPixels(live, scrubbed, view); n < 50 {
		t.Errorf("scrubbing back two steps changed %d pixels of the view: the ghosts did not follow", n)
	}
	orange, cyan := ghostPixels(scrubbed, view)
	if orange < 20 || cyan < 20 {
		t.Errorf("the scrubbed view has %d orange and %d cyan pixels: want both engines drawn", orange, cyan)
	}
}

// ghostPixels counts the pixels of ODE's orange and Bullet's cyan ghosts in area.
func ghostPixels(img image.Image, area image.Rectangle) (orange, cyan int) {
	b := img.Bounds().Intersect(area)
	for py := b.Min.Y; py < b.Max.Y; py++ {
		for px := b.Min.X; px < b.Max.X; px++ {
			r, g, bl, _ := img.At(px, py).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch {
			case r > 200 && g > 100 && g < 170 && bl < 80:
				orange++
			case r < 90 && g > 180 && bl > 200:
				cyan++
			}
		}
	}
	return orange, cyan
}
