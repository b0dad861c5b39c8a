package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"physview/internal/app"
	"physview/internal/recent"
)

// TestWindowSplitter: in a small window (700 x 450, as the last run left
// it) the default panel leaves the 3D view more than a sliver; dragging
// the splitter right widens the view, and the next start comes back with
// the window's size and the panel's width.
func TestWindowSplitter(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a window")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (bash .ci/install-deps)")
	}
	display := startXvfb(t)
	config := t.TempDir()
	list := filepath.Join(config, "physview", "recent.json")
	if err := os.MkdirAll(filepath.Dir(list), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(recent.List{Window: &recent.Layout{Width: 700, Height: 450}})
	if err := os.WriteFile(list, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// splitterX is where the splitter was last reported: the first report,
	// then whatever came within settle after it (a drag reports each step).
	splitterX := func(v *viewerProc, settle time.Duration) int {
		line := v.wait("item splitter at", windowWait)
		for end := time.After(settle); ; {
			select {
			case l := <-v.lines:
				if strings.Contains(l, "item splitter at") {
					line = l
				}
				continue
			case <-end:
			}
			break
		}
		var x, y int
		if _, err := fmt.Sscanf(line[strings.Index(line, "at ")+3:], "%d %d", &x, &y); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		return x
	}
	v := startViewerProc(t, display, config, []string{"PHYSVIEW_LOG_SCREEN=1"})
	x := splitterX(v, time.Second)
	want := 700 - int(app.ViewOptions{}.PanelFor(700))
	if x != want || x < 380 {
		t.Fatalf("in a 700 px window the view is %d px wide, want %d (not a 220 px sliver)", x, want)
	}
	time.Sleep(500 * time.Millisecond)
	drag(t, display, float64(x), 200, 55, 0, false)
	x2 := splitterX(v, 1500*time.Millisecond)
	if x2 <= x+30 {
		t.Fatalf("after dragging the splitter 55 px right the view is %d px wide, was %d", x2, x)
	}
	v.cmd.Process.Kill()
	v.cmd.Wait()
	l, err := recent.Load(list)
	if err != nil || l.Window == nil || l.Window.Width != 700 || l.Window.Height != 450 || int(l.Window.PanelWidth) != 700-x2 {
		t.Fatalf("remembered %+v (%v), want 700x450 with a %d px panel", l.Window, err, 700-x2)
	}
	again := startViewerProc(t, display, config, []string{"PHYSVIEW_LOG_SCREEN=1"})
	if x3 := splitterX(again, time.Second); x3 != x2 {
		t.Errorf("the next start has the view %d px wide, want %d as left", x3, x2)
	}
}
