package main

import (
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// TestWindowDiff opens two versions in the window (viewer compare A B),
// checks that the Diff tab lists their two changes, clicks the mass change
// and checks that the crate is selected and framed (the camera turns about
// its centre, close to it), then shows B as a ghost: cyan edges appear.
func TestWindowDiff(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	for _, tool := range []string{"xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (bash .ci/install-deps)", tool)
		}
	}
	a, b := diffPair(t, "motion", "Crate", "dynamic", "mass=5", "rename", "Lamp", "Lantern")
	display := startXvfb(t)
	log := startEditor(t, display, "compare", a, b)
	if got := log.wait(t, "compared with"); got != "compared with b.gltf: 2 changes" {
		t.Fatalf("compare: %s", got)
	}
	settled(t, log, "diff change 0")
	x, y := settled(t, log, "diff change 1")
	before := captureScreen(t, display, "diff-before.png")
	click(t, display, x, y)
	got := log.wait(t, "change 1 selected")
	var tx, ty, tz, dist float64
	if _, err := fmt.Sscanf(got, "change 1 selected, node 1, camera target %g %g %g distance %g", &tx, &ty, &tz, &dist); err != nil {
		t.Fatalf("%q: %v", got, err)
	}
	// The crate is a unit cube at (0, 2, 0).
	if tx*tx+(ty-2)*(ty-2)+tz*tz > 1e-4 || dist > 5 {
		t.Errorf("the view frames (%g, %g, %g) from %g m, want the crate at (0, 2, 0) from close by", tx, ty, tz, dist)
	}
	x, y = settled(t, log, "diff show 2")
	click(t, display, x, y)
	if got := log.wait(t, "compare shows"); got != "compare shows Both (B as ghost)" {
		t.Fatalf("the Both toggle: %s", got)
	}
	xdo(t, display, "mousemove", "600", "700")
	c := 0
	for deadline := time.Now().Add(windowWait); c <= cyan(before)+100 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		c = cyan(captureScreen(t, display, "diff-ghost.png"))
	}
	if c <= cyan(before)+100 {
		t.Errorf("Both draws %d cyan pixels (%d before), want B's edges", c, cyan(before))
	}
}
