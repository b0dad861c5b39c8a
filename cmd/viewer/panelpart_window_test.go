package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"physview/internal/testcorpus"
)

// panelChecked matches the window's check of a panel redraw
// (PHYSVIEW_PANELCACHE=check).
var panelChecked = regexp.MustCompile(`panel redraw (\d+) \(part (\d+)\) checked: (\d+) bytes of (\d+) differ`)

// TestWindowPanelParts opens StainedGlassLamp through the in-window
// browser over the demo, its panel drawn into its cache with
// PHYSVIEW_PANELCACHE=check: while the textures come the progress bar's
// counts change, and only the part of the panel that changed is drawn
// anew; each redraw, of a part or whole, must leave the cache's pixels
// byte for byte those of the panel drawn whole into a fresh cache.
func TestWindowPanelParts(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	lamp := testcorpus.File(t, "gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp.gltf")
	display := startXvfb(t)
	v := startViewerProc(t, display, t.TempDir(), []string{"PHYSVIEW_PANELCACHE=check"})
	v.ctrl("o")
	v.xdotool("type", "--delay", "30", lamp)
	time.Sleep(500 * time.Millisecond)
	v.key("Return")
	v.wait("loading "+lamp, 10*time.Second)
	v.seen = nil // the demo's lines
	v.wait("full-resolution frame", 120*time.Second)
	redraws, parts := 0, 0
	for _, l := range v.seen {
		m := panelChecked.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		redraws++
		parts, _ = strconv.Atoi(m[2])
		if m[3] != "0" {
			t.Errorf("%s", l)
		}
		if n, _ := strconv.Atoi(m[4]); n < 300*700*4 {
			t.Errorf("%s: the panel's rectangle is under 300x700 pixels", l)
		}
	}
	if redraws < 3 || parts < 2 {
		t.Errorf("%d panel redraws checked, %d of them parts, want at least 3 and 2 (the counts of %s):\n%s",
			redraws, parts, filepath.Base(lamp), strings.Join(v.seen, "\n"))
	}
}
