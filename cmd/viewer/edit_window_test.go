package main

import (
	"bufio"
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"physview/scene"
)

// viewerLog collects the window's stderr lines so a test can wait for what
// the viewer reports (a selection, a handle's position, a finished drag).
type viewerLog struct {
	mu    sync.Mutex
	lines []string
	next  int
	// frames counts the frame lines (PHYSVIEW_LOG_FRAMES=1).
	frames int
}

func (l *viewerLog) add(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	if strings.HasPrefix(s, "viewer: frame ") {
		l.frames++
	}
	l.mu.Unlock()
}

// wait returns the first line after the ones already read that starts with
// "viewer: "+prefix, failing after windowWait.
func (l *viewerLog) wait(t *testing.T, prefix string) string {
	t.Helper()
	deadline := time.Now().Add(windowWait)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		for ; l.next < len(l.lines); l.next++ {
			if strings.HasPrefix(l.lines[l.next], "viewer: "+prefix) {
				s := l.lines[l.next]
				l.next++
				l.mu.Unlock()
				return strings.TrimPrefix(s, "viewer: ")
			}
		}
		l.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t.Fatalf("the viewer did not report %q; it said:\n%s", prefix, strings.Join(l.lines, "\n"))
	return ""
}

// startEditor runs the viewer on display with its screen log on and returns
// the log once the first textured frame is up.
func startEditor(t *testing.T, display string, args ...string) *viewerLog {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PHYSVIEW_RUN_MAIN=1", "PHYSVIEW_LOG_SCREEN=1", "PHYSVIEW_LOG_FRAMES=1", "DISPLAY="+display, "XDG_RUNTIME_DIR="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	log := &viewerLog{}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.add(sc.Text())
		}
	}()
	dumpOnFailure(t, log)
	watchFrames(t, display, func() int { return frameCount(log) })
	log.wait(t, "textured frame")
	time.Sleep(300 * time.Millisecond)
	// What came before the first frame (node positions) is read from the start.
	log.mu.Lock()
	log.next = 0
	log.mu.Unlock()
	return log
}

// xdo runs xdotool commands on display; a press and release get a short
// pause between them, since ImGui needs a frame to see a button down.
func xdo(t *testing.T, display string, args ...string) {
	t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("xdotool %v: %v: %s", args, err, b)
	}
}

// click moves to (x, y) and clicks, each step a frame after the last
// (afterFrames): imgui acts on a press on a tab only when the frame before
// had the mouse over it.
func click(t *testing.T, display string, x, y float64) {
	t.Helper()
	xdo(t, display, "mousemove", fmt.Sprint(int(x)), fmt.Sprint(int(y)))
	afterFrames(display, 150*time.Millisecond)
	xdo(t, display, "mousedown", "1")
	afterFrames(display, 120*time.Millisecond)
	xdo(t, display, "mouseup", "1")
	time.Sleep(150 * time.Millisecond)
}

// drag presses at (x, y), moves by (dx, dy) in steps and, unless escape is
// set (then Escape is pressed first), releases.
func drag(t *testing.T, display string, x, y, dx, dy float64, escape bool) {
	t.Helper()
	xdo(t, display, "mousemove", fmt.Sprint(int(x)), fmt.Sprint(int(y)))
	afterFrames(display, 150*time.Millisecond)
	xdo(t, display, "mousedown", "1")
	afterFrames(display, 120*time.Millisecond)
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		xdo(t, display, "mousemove", fmt.Sprint(int(math.Round(x+dx*f))), fmt.Sprint(int(math.Round(y+dy*f))))
		time.Sleep(60 * time.Millisecond)
	}
	if escape {
		xdo(t, display, "key", "Escape")
		time.Sleep(150 * time.Millisecond)
	}
	xdo(t, display, "mouseup", "1")
	time.Sleep(150 * time.Millisecond)
}

// chord presses key with modifiers held down the way a person does: the
// modifiers first, a frame later the key, then the modifiers go up. (xdotool's
// "key ctrl+z" can release Ctrl within the frame that sees Z.)
func chord(t *testing.T, display string, key string, mods ...string) {
	t.Helper()
	for _, m := range mods {
		xdo(t, display, "keydown", m)
	}
	time.Sleep(80 * time.Millisecond)
	xdo(t, display, "key", key)
	time.Sleep(80 * time.Millisecond)
	for _, m := range mods {
		xdo(t, display, "keyup", m)
	}
}

func parseXY(t *testing.T, line, after string) (x, y float64) {
	t.Helper()
	i := strings.Index(line, after)
	if i < 0 {
		t.Fatalf("no %q in %q", after, line)
	}
	if _, err := fmt.Sscanf(line[i+len(after):], "%g %g", &x, &y); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return x, y
}

// TestWindowEditsAndSaves drives the real window as a user would: click a
// collider in the view, drag its handle, undo, redo, cancel a second drag
// with Escape, save, and check the saved file.
func TestWindowEditsAndSaves(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	for _, tool := range []string{"xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (bash .ci/install-deps)", tool)
		}
	}
	src, err := os.ReadFile("../../scene/testdata/edit/editor.gltf")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "editor.gltf")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	display := startXvfb(t)
	log := startEditor(t, display, file)

	// The ball (node 2, a sphere collider of radius 0.25) is where its lines are.
	var bx, by float64
	for {
		l := log.wait(t, "node ")
		if strings.HasPrefix(l, "node 2 ") {
			bx, by = parseXY(t, l, "at ")
			break
		}
	}
	click(t, display, bx, by)
	if got := log.wait(t, "selected node"); got != "selected node 2" {
		t.Fatalf("clicking the ball's collider: %s", got)
	}
	h := log.wait(t, "handle 0 sphere radius")
	hx, hy := parseXY(t, h, "at ")
	dx, dy := parseXY(t, h, "dir ")
	// The handles are logged in the frame that draws them, before it is shown.
	img := waitScreen(t, display, "edit-handles.png", func(img image.Image) bool { return yellowNear(img, int(hx), int(hy), 6) })
	if !yellowNear(img, int(hx), int(hy), 6) {
		t.Errorf("no yellow handle drawn at %.0f, %.0f", hx, hy)
	}

	// Drag the radius handle 40 pixels outwards.
	drag(t, display, hx, hy, dx*40, dy*40, false)
	if got := log.wait(t, "drag done"); got != "drag done: Drag sphere radius" {
		t.Fatalf("after the drag: %s", got)
	}
	xdo(t, display, "mousemove", "600", "700")
	chord(t, display, "z", "ctrl")
	if got := log.wait(t, "undo"); got != "undo Drag sphere radius" {
		t.Fatalf("ctrl+z: %s", got)
	}
	chord(t, display, "z", "ctrl", "shift")
	if got := log.wait(t, "redo"); got != "redo Drag sphere radius" {
		t.Fatalf("ctrl+shift+z: %s", got)
	}
	// A second drag cancelled with Escape leaves the redone radius.
	h = log.wait(t, "handle 0 sphere radius")
	hx, hy = parseXY(t, h, "at ")
	drag(t, display, hx, hy, dx*30, dy*30, true)
	log.wait(t, "drag cancelled")
	xdo(t, display, "mousemove", "600", "700")
	chord(t, display, "s", "ctrl")
	log.wait(t, "saved "+file)

	d, err := scene.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := scene.Load("../../scene/testdata/edit/editor.gltf")
	if err != nil {
		t.Fatal(err)
	}
	r := d.Shapes[2].Radius
	if !(r > 0.3) || r > 5 {
		t.Errorf("saved radius %g: want the dragged radius, above the original 0.25", r)
	}
	if digits := len(strings.TrimLeft(strings.ReplaceAll(fmt.Sprint(r), ".", ""), "0")); digits > 4 {
		t.Errorf("saved radius %g has more than 4 significant digits", r)
	}
	dims := func(s scene.Shape) string {
		return fmt.Sprint(s.Type, s.Size, s.Radius, s.Height, s.RadiusTop, s.RadiusBottom, s.Mesh)
	}
	for i := range orig.Shapes {
		if i != 2 && dims(orig.Shapes[i]) != dims(d.Shapes[i]) {
			t.Errorf("shape %d changed: %+v -> %+v", i, orig.Shapes[i], d.Shapes[i])
		}
	}
	for n := range orig.GLTF.Nodes {
		if orig.NodeTransform(n) != d.NodeTransform(n) || orig.GLTF.Nodes[n].Name != d.GLTF.Nodes[n].Name {
			t.Errorf("node %d moved or was renamed", n)
		}
	}
}

// yellowNear reports whether a handle-yellow pixel lies within r of (x, y).
func yellowNear(img image.Image, x, y, r int) bool {
	for j := y - r; j <= y+r; j++ {
		for i := x - r; i <= x+r; i++ {
			cr, cg, cb, _ := img.At(i, j).RGBA()
			if cr>>8 > 200 && cg>>8 > 150 && cb>>8 < 110 {
				return true
			}
		}
	}
	return false
}
