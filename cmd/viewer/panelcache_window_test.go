package main

import (
	"image/color"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// framePanel matches a frame line's count of the panel's redraws.
var framePanel = regexp.MustCompile(`^viewer: frame (\d+) at .*, panel drawn (\d+)$`)

// TestWindowPanelCache orbits the demo scene and checks that the side
// panel is copied from its cache while the camera moves (drawn anew at
// most twice in the frames of the drag), drawn anew when it changes (the
// mouse over its rows highlights them), and that the copy on screen is the
// panel (its background in the theme's colour, its text).
func TestWindowPanelCache(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a window")
	}
	t.Setenv("PHYSVIEW_LOG_FRAMES", "1")
	display := startXvfb(t)
	log := startEditor(t, display)
	// last returns the last frame line's frame number and panel count.
	last := func() (frame, panel int) {
		log.mu.Lock()
		defer log.mu.Unlock()
		for i := len(log.lines) - 1; i >= 0; i-- {
			if m := framePanel.FindStringSubmatch(log.lines[i]); m != nil {
				frame, _ = strconv.Atoi(m[1])
				panel, _ = strconv.Atoi(m[2])
				return frame, panel
			}
		}
		return 0, 0
	}
	// The first frames may draw the panel as before while the font
	// atlas fills; a busy machine makes them slow.
	f0, p0 := last()
	for deadline := time.Now().Add(windowWait); p0 < 1 && time.Now().Before(deadline); f0, p0 = last() {
		xdo(t, display, "mousemove", "300", strconv.Itoa(400+f0%2))
		time.Sleep(200 * time.Millisecond)
	}
	// The textures' full resolution arrives while the panel's bar counts
	// it (each count is a redraw): the orbit starts after it.
	log.wait(t, "full-resolution frame")
	xdo(t, display, "mousemove", "300", "400")
	time.Sleep(300 * time.Millisecond)
	f0, p0 = last()
	if p0 < 1 {
		t.Fatalf("panel drawn %d times after the first frames, want at least once (frame %d):\n%s", p0, f0, strings.Join(log.lines, "\n"))
	}
	// The drag, until 5 frames drew during it.
	dragUntil(t, display, func() bool { f, _ := last(); return f-f0 >= 5 })
	xdo(t, display, "mouseup", "1")
	time.Sleep(700 * time.Millisecond)
	f1, p1 := last()
	if f1-f0 < 5 {
		t.Fatalf("%d frames while orbiting, want at least 5", f1-f0)
	}
	if p1-p0 > 2 {
		t.Errorf("panel drawn anew %d times in %d frames of orbiting, want at most 2:\n%s", p1-p0, f1-f0, strings.Join(log.lines, "\n"))
	}
	img := captureScreen(t, display, "panelcache.png")
	// The panel's background (giu's theme: 0.11, 0.15, 0.17) below its
	// last row of the tree, and text somewhere on its first line.
	bg := color.RGBAModel.Convert(img.At(1275, 120)).(color.RGBA)
	if bg.R != 28 || bg.G != 38 || bg.B != 43 {
		t.Errorf("panel background at (1275, 120) is %v, want 28, 38, 43", bg)
	}
	bright := 0
	for x := 805; x < 1000; x++ {
		if c := color.RGBAModel.Convert(img.At(x, 38)).(color.RGBA); c.R > 150 {
			bright++
		}
	}
	if bright < 10 {
		t.Errorf("%d bright pixels along the panel's title line, want its text", bright)
	}
	// The mouse over the tree's rows: each row it enters is highlighted,
	// so the panel is drawn anew.
	for y := 160; y < 300; y += 18 {
		xdo(t, display, "mousemove", "900", strconv.Itoa(y))
		time.Sleep(120 * time.Millisecond)
	}
	p2 := p1
	for deadline := time.Now().Add(5 * time.Second); p2-p1 < 3 && time.Now().Before(deadline); _, p2 = last() {
		time.Sleep(100 * time.Millisecond)
	}
	if p2-p1 < 3 {
		t.Errorf("panel drawn anew %d times while the mouse crossed 8 rows, want at least 3", p2-p1)
	}
}
