package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"physview/assets"
	"physview/internal/portal/portaltest"
	"physview/scene"
)

// boxGLTF is a 1 m box (12 triangles, no indices) in colour rgba, as a
// .gltf text and its .bin.
func boxGLTF(rgba [4]float64, binName string) (gltfText, bin []byte) {
	bin = boxPositions()
	doc := map[string]any{
		"asset":       map[string]any{"version": "2.0"},
		"scene":       0,
		"scenes":      []any{map[string]any{"nodes": []int{0}}},
		"nodes":       []any{map[string]any{"name": "Box", "mesh": 0}},
		"meshes":      []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]int{"POSITION": 0}, "material": 0}}}},
		"materials":   []any{map[string]any{"pbrMetallicRoughness": map[string]any{"baseColorFactor": rgba, "metallicFactor": 0, "roughnessFactor": 1}}},
		"accessors":   []any{map[string]any{"bufferView": 0, "componentType": 5126, "count": 36, "type": "VEC3", "min": []float64{-0.5, -0.5, -0.5}, "max": []float64{0.5, 0.5, 0.5}}},
		"bufferViews": []any{map[string]any{"buffer": 0, "byteLength": len(bin)}},
		"buffers":     []any{map[string]any{"byteLength": len(bin), "uri": binName}},
	}
	text, _ := json.MarshalIndent(doc, "", "  ")
	return text, bin
}

// boxPositions are the 36 corner positions of a unit box's triangles.
func boxPositions() []byte {
	var out []byte
	put := func(v [3]float32) {
		for _, f := range v {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(f))
		}
	}
	for axis := 0; axis < 3; axis++ {
		for _, side := range []float32{-0.5, 0.5} {
			u, w := (axis+1)%3, (axis+2)%3
			corner := func(a, b float32) [3]float32 {
				var v [3]float32
				v[axis], v[u], v[w] = side, a, b
				return v
			}
			q := [4][3]float32{corner(-0.5, -0.5), corner(0.5, -0.5), corner(0.5, 0.5), corner(-0.5, 0.5)}
			if side < 0 {
				q[1], q[3] = q[3], q[1]
			}
			for _, i := range []int{0, 1, 2, 0, 2, 3} {
				put(q[i])
			}
		}
	}
	return out
}

// bigGLB is a box in a .glb whose binary chunk is padded to size bytes.
func bigGLB(size int) []byte {
	text, pos := boxGLTF([4]float64{0.2, 0.4, 0.9, 1}, "")
	var doc map[string]any
	json.Unmarshal(text, &doc)
	doc["buffers"] = []any{map[string]any{"byteLength": size}}
	js, _ := json.Marshal(doc)
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	bin := make([]byte, size)
	copy(bin, pos)
	var out bytes.Buffer
	w := func(v uint32) { binary.Write(&out, binary.LittleEndian, v) }
	w(0x46546C67)
	w(2)
	w(uint32(12 + 8 + len(js) + 8 + len(bin)))
	w(uint32(len(js)))
	w(0x4E4F534A)
	out.Write(js)
	w(uint32(len(bin)))
	w(0x004E4942)
	out.Write(bin)
	return out.Bytes()
}

// viewerProc is a viewer started by a test, with its stderr lines.
type viewerProc struct {
	t       *testing.T
	display string
	cmd     *exec.Cmd
	lines   chan string
	exited  chan error
	// seen are the lines read so far.
	seen []string
	// frames counts the frame lines, which are not sent on lines.
	frames atomic.Int64
}

// startViewerProc starts the viewer with a config folder of its own, no
// portal (so the in-window browser is used) and extra environment.
func startViewerProc(t *testing.T, display, config string, env []string, args ...string) *viewerProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PHYSVIEW_RUN_MAIN=1", "DISPLAY="+display, "XDG_RUNTIME_DIR="+t.TempDir(),
		"XDG_CONFIG_HOME="+config, "DBUS_SESSION_BUS_ADDRESS=", "PHYSVIEW_NO_PORTAL=1", "PHYSVIEW_LOG_FRAMES=1")
	cmd.Env = append(cmd.Env, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	v := &viewerProc{t: t, display: display, cmd: cmd, lines: make(chan string, 100), exited: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "viewer: frame ") {
				v.frames.Add(1)
				continue
			}
			v.lines <- sc.Text()
		}
		close(v.lines)
		v.exited <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	watchFrames(t, display, func() int { return int(v.frames.Load()) })
	v.wait("textured frame", 90*time.Second)
	time.Sleep(300 * time.Millisecond)
	return v
}

// wait returns the first stderr line containing want, also among those
// already read by an earlier wait.
func (v *viewerProc) wait(want string, d time.Duration) string {
	v.t.Helper()
	for i, l := range v.seen {
		if strings.Contains(l, want) {
			v.seen = v.seen[i+1:]
			return l
		}
	}
	v.seen = nil
	deadline := time.After(d)
	for {
		select {
		case l, ok := <-v.lines:
			if !ok {
				v.t.Fatalf("viewer exited while waiting for %q", want)
			}
			v.t.Log(l)
			if strings.Contains(l, want) {
				return l
			}
			v.seen = append(v.seen, l)
		case <-deadline:
			v.t.Fatalf("no %q from the viewer within %v", want, d)
		}
	}
}

func (v *viewerProc) xdotool(args ...string) {
	v.t.Helper()
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+v.display)
	if b, err := cmd.CombinedOutput(); err != nil {
		v.t.Fatalf("xdotool %v: %v %s", args, err, b)
	}
}

// key presses keys (xdotool names) one after another.
func (v *viewerProc) key(keys ...string) {
	for _, k := range keys {
		v.xdotool("key", k)
		time.Sleep(250 * time.Millisecond)
	}
}

// ctrl presses Ctrl+key the slow way (xdotool's "ctrl+o" can reach the
// window within one frame, too fast for imgui to see both).
// Further modifiers in key ("shift+s") are held down the same way.
func (v *viewerProc) ctrl(key string) {
	mods := append([]string{"ctrl"}, strings.Split(key, "+")...)
	key, mods = mods[len(mods)-1], mods[:len(mods)-1]
	for _, m := range mods {
		v.xdotool("keydown", m)
	}
	time.Sleep(100 * time.Millisecond)
	v.xdotool("key", key)
	time.Sleep(100 * time.Millisecond)
	for i := len(mods) - 1; i >= 0; i-- {
		v.xdotool("keyup", mods[i])
	}
	time.Sleep(400 * time.Millisecond)
}

// click moves to x, y and clicks, slowly enough for imgui to see the hover.
func (v *viewerProc) click(x, y int) {
	v.xdotool("mousemove", fmt.Sprint(x), fmt.Sprint(y))
	afterFrames(v.display, 250*time.Millisecond)
	v.xdotool("mousedown", "1")
	afterFrames(v.display, 150*time.Millisecond)
	v.xdotool("mouseup", "1")
	time.Sleep(400 * time.Millisecond)
}

// drag orbits the camera.
func (v *viewerProc) drag(x0, y0, x1, y1 int) {
	v.xdotool("mousemove", fmt.Sprint(x0), fmt.Sprint(y0))
	afterFrames(v.display, 200*time.Millisecond)
	v.xdotool("mousedown", "1")
	for i := 1; i <= 5; i++ {
		time.Sleep(60 * time.Millisecond)
		v.xdotool("mousemove", fmt.Sprint(x0+(x1-x0)*i/5), fmt.Sprint(y0+(y1-y0)*i/5))
	}
	time.Sleep(100 * time.Millisecond)
	v.xdotool("mouseup", "1")
	v.xdotool("mousemove", "450", "780") // off the view, over the status bar
	time.Sleep(600 * time.Millisecond)
}

// title is the window's title.
func (v *viewerProc) title() string {
	v.t.Helper()
	cmd := exec.Command("xdotool", "search", "--name", "physview", "getwindowname")
	cmd.Env = append(os.Environ(), "DISPLAY="+v.display)
	b, _ := cmd.Output()
	return strings.TrimSpace(string(b))
}

// waitTitle returns the window's title once it starts with prefix, or
// after windowWait the title then (a loaded machine sets it a frame or
// more after the input that changed it).
func (v *viewerProc) waitTitle(prefix string) string {
	ti := v.title()
	for end := time.Now().Add(windowWait); !strings.HasPrefix(ti, prefix) && time.Now().Before(end); ti = v.title() {
		time.Sleep(100 * time.Millisecond)
	}
	return ti
}

// closeWindow asks the window to close as a window manager's close button does.
func (v *viewerProc) closeWindow(xclose string) {
	v.t.Helper()
	cmd := exec.Command("xdotool", "search", "--name", "physview")
	cmd.Env = append(os.Environ(), "DISPLAY="+v.display)
	b, err := cmd.Output()
	id := strings.Fields(string(b))
	if err != nil || len(id) == 0 {
		v.t.Fatalf("no physview window: %v", err)
	}
	cmd = exec.Command(xclose, id[0])
	cmd.Env = append(os.Environ(), "DISPLAY="+v.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		v.t.Fatalf("xclose: %v %s", err, out)
	}
	time.Sleep(700 * time.Millisecond)
}

func (v *viewerProc) alive() bool {
	select {
	case err := <-v.exited:
		v.exited <- err
		return false
	default:
		return true
	}
}

// buildXclose builds the WM_DELETE_WINDOW helper.
func buildXclose(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "xclose")
	if b, err := exec.Command("go", "build", "-o", out, "./testdata/xclose").CombinedOutput(); err != nil {
		t.Fatalf("build xclose: %v %s", err, b)
	}
	return out
}

// viewRect is the 3D view without the status bar.
var viewRect = image.Rect(0, 30, 890, 750)

// waitScreenChange captures the screen until r differs from before (a
// dialog or menu has been drawn), for at most windowWait.
func waitScreenChange(t *testing.T, display string, before image.Image, r image.Rectangle, name string) {
	t.Helper()
	for end := time.Now().Add(windowWait); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if diffFraction(before, captureScreen(t, display, name), r, 24) > 0.002 {
			time.Sleep(300 * time.Millisecond) // a frame more for imgui to take keys
			return
		}
	}
	t.Fatalf("the screen did not change within %v (%s)", windowWait, name)
}

// diffFraction is the fraction of pixels (every 2nd) in r that differ by
// more than tol in any channel (0..255).
func diffFraction(a, b image.Image, r image.Rectangle, tol int) float64 {
	n, diff := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			n++
			d := max(absDiff(ar, br), absDiff(ag, bg), absDiff(ab, bb)) >> 8
			if int(d) > tol {
				diff++
			}
		}
	}
	return float64(diff) / float64(n)
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// countColour counts pixels (every 2nd) in r whose channel is dominant:
// 0 red, 1 green, 2 blue, by at least 60 over the other two.
func countColour(img image.Image, r image.Rectangle, ch int) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			c := [3]int{int(cr >> 8), int(cg >> 8), int(cb >> 8)}
			if c[ch]-c[(ch+1)%3] >= 60 && c[ch]-c[(ch+2)%3] >= 60 {
				n++
			}
		}
	}
	return n
}

// TestWindowOpenRecentUnsaved opens a file through the in-window browser by
// keyboard, reopens the first through File > Open recent (its camera comes
// back), edits it, answers Cancel when the window is closed (the window
// stays, the edit too) and then Save (the file has the edit, the viewer
// exits).
func TestWindowOpenRecentUnsaved(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	dir, config := t.TempDir(), t.TempDir()
	a := filepath.Join(dir, "a.glb")
	os.WriteFile(a, assets.Demo, 0o644)
	text, bin := boxGLTF([4]float64{0.9, 0.1, 0.1, 1}, "b.bin")
	os.WriteFile(filepath.Join(dir, "b.gltf"), text, 0o644)
	os.WriteFile(filepath.Join(dir, "b.bin"), bin, 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not listed"), 0o644)
	xclose := buildXclose(t)

	display := startXvfb(t)
	v := startViewerProc(t, display, config, nil, a)
	v.drag(300, 450, 420, 400)
	orbited := captureScreen(t, display, "files-a-orbited.png")

	// Ctrl+O, Down past "..", Down past a.glb to b.gltf, Enter: the keys
	// only once the browser is drawn (a loaded machine draws it late).
	v.ctrl("o")
	waitScreenChange(t, display, orbited, image.Rect(0, 0, 1280, 780), "files-browser.png")
	// The browser takes the keyboard focus in the frame after it is first
	// drawn; on a loaded machine that frame can be a second later.
	afterFrames(v.display, 1500*time.Millisecond)
	v.key("Down", "Down", "Return")
	v.wait("opened b.gltf", windowWait)

	// File > Open recent > a.glb (second: b.gltf is the most recent).
	v.click(22, 10)
	v.xdotool("mousemove", "60", "53")
	afterFrames(v.display, 500*time.Millisecond) // the submenu opens on hover
	v.xdotool("mousemove", "300", "53")
	afterFrames(v.display, 300*time.Millisecond)
	v.click(300, 71)
	v.wait("opened a.glb", windowWait)
	// Its first frame with the remembered camera, once on the screen.
	reopened := waitScreen(t, display, "files-a-recent.png", func(img image.Image) bool { return diffFraction(orbited, img, viewRect, 24) <= 0.01 })
	if d := diffFraction(orbited, reopened, viewRect, 24); d > 0.01 {
		t.Errorf("reopened from the recent list, %.1f%% of the view differs from when it was left: camera not restored", d*100)
	}

	// An edit: Variants tab (after Scene, Inspector, Physics), Add variant
	// (under a 24-pixel row for "(default)" and each of the demo's
	// variants).
	demo, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	v.click(1004, 119)
	v.click(1050, 148+24*(1+len(demo.Variants)))
	if ti := v.waitTitle("*a.glb"); !strings.HasPrefix(ti, "*a.glb") {
		t.Fatalf("title after an edit = %q, want *a.glb ...", ti)
	}
	v.closeWindow(xclose)
	captureScreen(t, display, "files-unsaved-prompt.png")
	v.key("c") // a bare letter does nothing (issue 31)
	if ti := v.title(); !v.alive() || !strings.HasPrefix(ti, "*a.glb") {
		t.Fatalf("a bare c answered the prompt: title %q", ti)
	}
	v.key("Escape")
	if !v.alive() {
		t.Fatal("the viewer closed although the prompt was answered Cancel")
	}
	if ti := v.title(); !strings.HasPrefix(ti, "*a.glb") {
		t.Errorf("title after Cancel = %q: edit lost?", ti)
	}
	v.closeWindow(xclose)
	v.alt("s")
	select {
	case err := <-v.exited:
		if err != nil {
			t.Errorf("viewer exit: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the viewer did not close after Save")
	}
	saved, _ := os.ReadFile(a)
	// An unnamed variant is named after the count before it.
	if added := fmt.Sprintf("%q", fmt.Sprintf("Variant %d", len(demo.Variants))); !bytes.Contains(saved, []byte(added)) {
		t.Errorf("a.glb after Save lacks the added variant %s", added)
	}
	recent, _ := os.ReadFile(filepath.Join(config, "physview", "recent.json"))
	if !bytes.Contains(recent, []byte(`"variant"`)) && !bytes.Contains(recent, []byte(`"camera"`)) {
		t.Errorf("recent.json keeps no camera: %s", recent)
	}
}

// TestWindowReloadAndProgress rewrites the open file (in two writes, the
// first leaving it half written) and sees the new colour with the camera
// unchanged; then opens a large file and sees the progress bar over the old
// document, and cancels it.
func TestWindowReloadAndProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	dir, config := t.TempDir(), t.TempDir()
	b := filepath.Join(dir, "b.gltf")
	text, bin := boxGLTF([4]float64{0.9, 0.1, 0.1, 1}, "b.bin")
	os.WriteFile(b, text, 0o644)
	os.WriteFile(filepath.Join(dir, "b.bin"), bin, 0o644)
	big := filepath.Join(dir, "big.glb")
	os.WriteFile(big, bigGLB(48<<20), 0o644)

	display := startXvfb(t)
	// 12 MB/s: the 48 MB file takes 4 s to read.
	v := startViewerProc(t, display, config, []string{"PHYSVIEW_TEST_READ_MBPS=12"}, b)
	v.drag(300, 450, 340, 410)
	before := captureScreen(t, display, "reload-before.png")

	// An exporter writing the new file: half, a pause longer than the
	// debounce, then the whole.
	green, _ := boxGLTF([4]float64{0.1, 0.9, 0.1, 1}, "b.bin")
	os.WriteFile(b, green[:len(green)/2], 0o644)
	time.Sleep(900 * time.Millisecond)
	os.WriteFile(b, green, 0o644)
	line := v.wait("reloaded b.gltf", windowWait)
	if !strings.HasSuffix(line, "no node, shape or body changed") {
		t.Errorf("reload summary %q", line)
	}
	redBefore := countColour(before, viewRect, 0)
	// The reloaded document's first frame, once it is on the screen.
	after := waitScreen(t, display, "reload-after.png", func(img image.Image) bool {
		return countColour(img, viewRect, 1) >= 500 && countColour(img, viewRect, 0) <= redBefore/20
	})
	greenAfter := countColour(after, viewRect, 1)
	if redBefore < 500 || greenAfter < 500 || countColour(after, viewRect, 0) > redBefore/20 {
		t.Errorf("red pixels before %d, green after %d, red after %d: new content not shown", redBefore, greenAfter, countColour(after, viewRect, 0))
	}
	// Same camera: the box covers the same pixels, only its colour changed.
	if d := diffFraction(before, after, viewRect, 24); d > float64(redBefore)/float64(viewRect.Dx()*viewRect.Dy()/4)+0.01 {
		t.Errorf("%.1f%% of the view changed, more than the box: the camera moved", d*100)
	}

	// A large file: the progress bar shows over the old document.
	v.ctrl("o")
	// The browser shows b.gltf's folder: a name is enough.
	v.xdotool("type", "--delay", "60", filepath.Base(big))
	time.Sleep(500 * time.Millisecond)
	v.key("Return")
	v.wait("loading "+big, windowWait)
	// The bar's filled part (imgui's yellow) under "Loading big.glb".
	filledBar := func(img image.Image) int {
		filled := 0
		for y := 60; y < 110; y++ {
			for x := 810; x < 1190; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				if r>>8 > 200 && g>>8 > 140 && b>>8 < 60 {
					filled++
				}
			}
		}
		return filled
	}
	// The read takes 4 s: the bar fills meanwhile.
	loading := waitScreen(t, display, "loading-progress.png", func(img image.Image) bool { return filledBar(img) >= 100 })
	if countColour(loading, viewRect, 1) < greenAfter/2 {
		t.Errorf("the old document is gone while the new one loads")
	}
	if !v.alive() {
		t.Fatal("viewer exited")
	}
	if filled := filledBar(loading); filled < 100 {
		t.Errorf("no filled progress bar in the panel (%d yellow pixels)", filled)
	}
	v.click(1203, 85) // Cancel, right of the bar (the panel's width less 100 px)
	v.wait("loading big.glb cancelled", windowWait)
}

// TestWindowPortalDialogs opens and saves through a fake desktop file
// chooser portal on a private session bus: the viewer's D-Bus side of
// File > Open and Save as.
func TestWindowPortalDialogs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	addr := portaltest.StartBus(t)
	dir, config := t.TempDir(), t.TempDir()
	a := filepath.Join(dir, "a.glb")
	os.WriteFile(a, assets.Demo, 0o644)
	text, bin := boxGLTF([4]float64{0.9, 0.1, 0.1, 1}, "b.bin")
	b := filepath.Join(dir, "b.gltf")
	os.WriteFile(b, text, 0o644)
	os.WriteFile(filepath.Join(dir, "b.bin"), bin, 0o644)
	open := portaltest.Start(t, addr, 0, "file://"+b)

	display := startXvfb(t)
	v := startViewerProc(t, display, config, []string{"DBUS_SESSION_BUS_ADDRESS=" + addr, "PHYSVIEW_NO_PORTAL="}, a)
	v.wait("using the desktop's file chooser portal", windowWait)
	v.ctrl("o")
	v.wait("opened b.gltf", windowWait)
	call := <-open.Calls
	if call.Method != "OpenFile" || call.Title != "Open a scene" || call.Options["filters"].String() == "" {
		t.Errorf("portal asked %s %q with options %v", call.Method, call.Title, call.Options)
	}
	open.Close()

	out := filepath.Join(dir, "saved.glb")
	save := portaltest.Start(t, addr, 0, "file://"+out)
	v.ctrl("shift+s")
	deadline := time.Now().Add(20 * time.Second)
	for !fileExists(out) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if !fileExists(out) {
		t.Fatal("Save as through the portal wrote nothing")
	}
	call = <-save.Calls
	name, _ := call.Options["current_name"].Value().(string)
	if call.Method != "SaveFile" || name != "b.gltf" {
		t.Errorf("portal asked %s with current_name %q, want SaveFile b.gltf", call.Method, name)
	}
	if _, err := openDocument(out); err != nil {
		t.Errorf("the saved file does not load: %v", err)
	}
}
