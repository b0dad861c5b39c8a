package main

import (
	"bytes"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWindowFitsCompound drives the window as a user would: click the U's
// mesh, choose "fit compound of convex hulls" in Add collider, preview (the
// hulls are drawn in cyan), apply, and undo; the file is never written.
func TestWindowFitsCompound(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	for _, tool := range []string{"xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (bash .ci/install-deps)", tool)
		}
	}
	src, err := os.ReadFile(compoundFixture)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "u.glb")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	display := startXvfb(t)
	log := startEditor(t, display, file)

	x, y := parseXY(t, log.wait(t, "node 1 mesh base at"), "at ")
	before := captureScreen(t, display, "compound-before.png")
	click(t, display, x, y)
	if got := log.wait(t, "selected node"); got != "selected node 1" {
		t.Fatalf("clicking the U: %s", got)
	}
	x, y = settled(t, log, "add collider")
	click(t, display, x, y)
	x, y = settled(t, log, "compound entry")
	click(t, display, x, y)
	x, y = settled(t, log, "compound preview")
	click(t, display, x, y)
	got := log.wait(t, "decomposed node 1 into")
	if !strings.Contains(got, "into 4 hulls") && !strings.Contains(got, "into 3 hulls") {
		t.Errorf("the U: %s, want 3 or 4 hulls", got)
	}
	ax, ay := settled(t, log, "compound apply")
	xdo(t, display, "mousemove", "600", "700")
	preview := captureScreen(t, display, "compound-preview.png")
	if c0, c1 := cyan(before), cyan(preview); c1 < c0+200 {
		t.Errorf("the preview draws %d cyan pixels (%d before), want the hulls' edges", c1, c0)
	}
	click(t, display, ax, ay)
	if got := log.wait(t, "applied"); !strings.HasPrefix(got, "applied Fit compound of") {
		t.Errorf("apply: %s", got)
	}
	xdo(t, display, "mousemove", "600", "700")
	// The log line comes before the frame without the preview is on the
	// screen: under load a capture can still catch the last one.
	c := 0
	for deadline := time.Now().Add(3 * time.Second); ; {
		if c = cyan(captureScreen(t, display, "compound-applied.png")); c <= cyan(before)+50 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if c > cyan(before)+50 {
		t.Errorf("the preview is still drawn after Apply (%d cyan pixels)", c)
	}
	chord(t, display, "z", "ctrl")
	if got := log.wait(t, "undo"); !strings.HasPrefix(got, "undo Fit compound of") {
		t.Errorf("ctrl+z: %s", got)
	}
	if data, _ := os.ReadFile(file); !bytes.Equal(data, src) {
		t.Error("the file was written")
	}
}

// settled waits until the viewer has reported an item's position (now or
// before: a position is reported when it changes), then for the panel to
// settle (a popup moves on its second frame), and returns the last
// position reported.
func settled(t *testing.T, log *viewerLog, item string) (x, y float64) {
	t.Helper()
	find := func() string {
		log.mu.Lock()
		defer log.mu.Unlock()
		last := ""
		for _, l := range log.lines {
			if strings.HasPrefix(l, "viewer: item "+item+" at") {
				last = l
			}
		}
		return last
	}
	for deadline := time.Now().Add(windowWait); find() == ""; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the viewer did not report where %q is", item)
		}
	}
	// Two frames more (a slow machine's frames take longer than the pause).
	start, f0 := time.Now(), frameCount(log)
	for deadline := start.Add(windowWait); frameCount(log) < f0+2 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if d := 500*time.Millisecond - time.Since(start); d > 0 {
		time.Sleep(d)
	}
	return parseXY(t, find(), "at ")
}

// cyan counts the pixels of the preview's colour in the 3D view.
func cyan(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < min(b.Max.X, 800); x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 < 120 && g>>8 > 180 && bl>>8 > 200 {
				n++
			}
		}
	}
	return n
}
