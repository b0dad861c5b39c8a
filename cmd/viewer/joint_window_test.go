package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"physview/scene"
)

// lastAt returns the position of the last "item NAME at X Y" the window
// logged (items are logged again when they move, as when the panel
// scrolls), failing after windowWait without one.
func (l *viewerLog) lastAt(t *testing.T, name string) (x, y float64) {
	t.Helper()
	prefix := "viewer: item " + name + " at "
	deadline := time.Now().Add(windowWait)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		found := ""
		for _, s := range l.lines {
			if strings.HasPrefix(s, prefix) {
				found = s
			}
		}
		l.mu.Unlock()
		if found != "" {
			return parseXY(t, found, " at ")
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the window never said where %q is", name)
	return 0, 0
}

// TestWindowJoint authors a hinge as a user would: select the door, add a
// hinge about Z to the post from its Inspector, limit it, drag the limit
// arc's min end, save, Play (the door swings and stops at the dragged
// limit) and undo every step.
func TestWindowJoint(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (bash .ci/install-deps)")
	}
	src, err := os.ReadFile("../../internal/app/testdata/joints/bodies.gltf")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "bodies.gltf")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	display := startXvfb(t)
	log := startEditor(t, display, file)

	// The door (node 2).
	var dx, dy float64
	for {
		l := log.wait(t, "node ")
		if strings.HasPrefix(l, "node 2 lines") {
			dx, dy = parseXY(t, l, "at ")
			break
		}
	}
	click(t, display, dx, dy)
	if got := log.wait(t, "selected node"); got != "selected node 2" {
		t.Fatalf("clicking the door: %s", got)
	}
	// The joint fields are at the Inspector's foot: scroll down to them.
	ax, _ := log.lastAt(t, "joint add")
	xdo(t, display, "mousemove", fmt.Sprint(int(ax)+60), "400")
	for range 12 {
		xdo(t, display, "click", "5")
	}
	// The frame that takes in the last wheel click scrolls the next one.
	afterFrames(display, 700*time.Millisecond)
	afterFrames(display, 0)
	pick := func(combo, choice string) {
		x, y := log.lastAt(t, combo)
		click(t, display, x, y)
		x, y = settled(t, log, combo+": "+choice)
		click(t, display, x, y)
	}
	pick("joint to", "1 post")
	pick("joint axis", "Z")
	x, y := log.lastAt(t, "joint add")
	click(t, display, x, y)
	log.wait(t, "handle 0 joint pivot")
	x, y = log.lastAt(t, "joint limit")
	click(t, display, x, y)

	// Drag the limit's min end (-45 degrees) 30 pixels on along the arc.
	h := log.wait(t, "handle 0 joint limit min")
	hx, hy := parseXY(t, h, "at ")
	ddx, ddy := parseXY(t, h, "dir ")
	captureScreen(t, display, "joint-limit.png")
	drag(t, display, hx, hy, ddx*30, ddy*30, false)
	if got := log.wait(t, "drag done"); got != "drag done: Drag joint limit min" {
		t.Fatalf("after dragging the arc: %s", got)
	}
	xdo(t, display, "mousemove", "300", "600")
	chord(t, display, "s", "ctrl")
	log.wait(t, "saved "+file)
	d, err := scene.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	jn := len(d.GLTF.Nodes) - 2
	j := d.Nodes[jn].Joint
	if j == nil || d.NodeName(j.ConnectedNode) != "post hinge joint frame" {
		t.Fatalf("node %d (%s) has joint %+v", jn, d.NodeName(jn), j)
	}
	js := d.Joints[j.Joint]
	lim := js.Limits[len(js.Limits)-1]
	lo := lim.Min * 180 / math.Pi
	if len(lim.AngularAxes) != 1 || lim.AngularAxes[0] != 1 || !(lo < -46) || lim.Max != math.Pi/4 {
		t.Fatalf("saved limit %+v: want angular Y from below -45 degrees (dragged) to 45", lim)
	}

	// Play 3 s: gravity turns the door towards its min, where it stops.
	xdo(t, display, "key", "space")
	time.Sleep(3 * time.Second)
	xdo(t, display, "key", "space")
	time.Sleep(500 * time.Millisecond)
	captureScreen(t, display, "joint-played.png")
	var angles []float64
	log.mu.Lock()
	for _, s := range log.lines {
		var n int
		var a float64
		if _, err := fmt.Sscanf(s, "viewer: joint %d angle %g", &n, &a); err == nil && n == jn {
			angles = append(angles, a)
		}
	}
	log.mu.Unlock()
	if len(angles) < 5 {
		t.Fatalf("the hinge reported %d angles while playing: %v", len(angles), angles)
	}
	for _, a := range angles {
		if a < lo-1 {
			t.Errorf("the door went to %.2f degrees, past its %.2f limit", a, lo)
		}
	}
	if last := angles[len(angles)-1]; math.Abs(last-lo) > 2 {
		t.Errorf("the door ended at %.2f degrees, want it at its %.2f limit (angles %v)", last, lo, angles)
	}

	// Undo the drag, the limit and the joint.
	for _, want := range []string{"undo Drag joint limit min", "undo Limit angular-y of door hinge joint", "undo Add hinge joint to door"} {
		chord(t, display, "z", "ctrl")
		if got := log.wait(t, "undo"); !strings.HasPrefix(got, want) {
			t.Fatalf("ctrl+z: %s, want %s", got, want)
		}
	}
}
