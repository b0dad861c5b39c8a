package main

import (
	"fmt"
	"math"
	"os/exec"
	"testing"
	"time"

	"physview/internal/app"
)

// TestWindowFrameTrigger: in the window, a click on the demo's checkpoint
// trigger (a node without a mesh) and F frame the trigger, not the whole
// scene.
func TestWindowFrameTrigger(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a window")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (bash .ci/install-deps)")
	}
	s := app.New()
	s.OpenDemo()
	display := startXvfb(t)
	log := startEditor(t, display)
	// Where each node's lines are on screen (logged once, before the first frame).
	points := map[int][2]float64{}
	for _, l := range log.all() {
		var n int
		var x, y float64
		if _, err := fmt.Sscanf(l, "viewer: node %d lines at %f %f", &n, &x, &y); err == nil {
			points[n] = [2]float64{x, y}
		}
	}
	// Everything first: the scene's bounds.
	xdo(t, display, "mousemove", "300", "300")
	pressKey(t, display, "f")
	var all [6]float64
	scanFramed(t, log.wait(t, "framed node -1"), &all)
	// A trigger or gravity field without a mesh that a click on its lines
	// selects (another body may be in front of the first's point).
	n := -1
	for _, name := range []string{"Checkpoint (trigger)", "Planetoid (point gravity)", "Updraft (directional gravity)", "Disc gravity", "Kill plane (plane trigger)"} {
		c, err := app.FindNode(s.Doc, name)
		if err != nil {
			t.Fatal(err)
		}
		pt, ok := points[c]
		if !ok || s.Doc.GLTF.Nodes[c].Mesh != nil {
			continue
		}
		click(t, display, pt[0], pt[1])
		if log.wait(t, "selected node") == fmt.Sprintf("selected node %d", c) {
			n = c
			break
		}
	}
	if n < 0 {
		t.Fatal("no click selected a trigger without a mesh")
	}
	pressKey(t, display, "f")
	var box [6]float64
	scanFramed(t, log.wait(t, fmt.Sprintf("framed node %d", n)), &box)
	size := math.Hypot(math.Hypot(box[3]-box[0], box[4]-box[1]), box[5]-box[2])
	whole := math.Hypot(math.Hypot(all[3]-all[0], all[4]-all[1]), all[5]-all[2])
	if !(size > 0) || size > 0.5*whole {
		t.Errorf("F on %s framed a box %.3g m across; the whole scene is %.3g m", s.Doc.NodeName(n), size, whole)
	}
	p := s.Doc.WorldMatrix(n).Col(3).Vec3()
	for k := 0; k < 3; k++ {
		if p[k] < box[k]-0.01 || p[k] > box[k+3]+0.01 {
			t.Errorf("the framed box %v does not hold the trigger's origin %v", box, p)
		}
	}
}

func scanFramed(t *testing.T, line string, b *[6]float64) {
	t.Helper()
	var n int
	if _, err := fmt.Sscanf(line, "framed node %d: %f %f %f to %f %f %f", &n, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
}

// pressKey presses key with a frame between down and up, as a person does.
func pressKey(t *testing.T, display, key string) {
	t.Helper()
	xdo(t, display, "keydown", key)
	time.Sleep(120 * time.Millisecond)
	xdo(t, display, "keyup", key)
	time.Sleep(150 * time.Millisecond)
}

// all returns every line the viewer wrote so far.
func (l *viewerLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}
