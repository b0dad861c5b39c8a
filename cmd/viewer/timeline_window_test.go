package main

import (
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"physview/internal/app"
)

// TestWindowTimelineScrub opens the two-joint skin in the window, scrubs
// the Animation tab's playhead to the start and to the end, and compares
// the view: the two times differ where the top half turned, and each
// equals the headless screenshot at that time (within rendering noise).
func TestWindowTimelineScrub(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a window")
	}
	for _, tool := range []string{"xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (bash .ci/install-deps)", tool)
		}
	}
	display := startXvfb(t)
	fixture, err := filepath.Abs(animFixtures + "skin.gltf")
	if err != nil {
		t.Fatal(err)
	}
	startEditor(t, display, fixture)
	// The window is 1280 x 780 at the screen's corner; the panel starts at
	// x 800 and the Animation tab is its last tab; its playhead slider
	// runs from x 808 to 1268 at y 187.
	click(t, display, 1217, 115)
	// The 3D view is the window left of the panel.
	vw := 1280 - int(app.DefaultViewOptions().PanelFor(1280))
	view := image.Rect(0, 22, vw, 780)
	// The headless screenshots of the same view size at those times.
	dir := t.TempDir()
	heads := map[string]image.Image{}
	for _, tc := range []struct{ name, time string }{{"t0", "0"}, {"t1", "1"}} {
		out := filepath.Join(dir, tc.name+".png")
		if code, _, errOut := runCLI("screenshot", "-size", fmt.Sprintf("%dx758", vw), "-time", tc.time, "-o", out, fixture); code != 0 {
			t.Fatalf("screenshot: exit %d: %s", code, errOut)
		}
		heads[tc.name] = readPNG(t, out)
		if dir := os.Getenv("PHYSVIEW_SCREENSHOTS"); dir != "" {
			data, _ := os.ReadFile(out)
			os.WriteFile(filepath.Join(dir, "timeline-headless-"+tc.name+".png"), data, 0o644)
		}
	}
	// headDiff compares the window capture's view, moved to the origin,
	// with the headless screenshot.
	headDiff := func(win, head image.Image) float64 {
		shifted := image.NewRGBA(image.Rect(0, 0, vw, 758))
		for y := 0; y < 758; y++ {
			for x := 0; x < vw; x++ {
				shifted.Set(x, y, win.At(x, y+22))
			}
		}
		return diffFraction(shifted, head, image.Rect(0, 0, vw, 758), 24)
	}
	shots := map[string]image.Image{}
	for _, at := range []struct {
		name string
		x    float64
	}{{"t0", 810}, {"t1", 1266}} {
		click(t, display, at.x, 187)
		// The scrubbed frame, once it is on the screen.
		shots[at.name] = waitScreen(t, display, "timeline-"+at.name+".png", func(img image.Image) bool {
			return headDiff(img, heads[at.name]) <= 0.01
		})
		if d := headDiff(shots[at.name], heads[at.name]); d > 0.01 {
			t.Errorf("%s: the window's view and the headless screenshot differ in %.2f%% of the pixels", at.name, d*100)
		}
	}
	if d := diffFraction(shots["t0"], shots["t1"], view, 24); d < 0.02 {
		t.Errorf("scrubbed to the start and to the end, %.2f%% of the view differs; want the turned half (>= 2%%)", d*100)
	}
}
