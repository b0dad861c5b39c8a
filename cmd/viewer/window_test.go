package main

import (
	"bufio"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"physview/internal/testcorpus"
	"physview/render"
)

// TestMain lets a test start this test binary as the real viewer.
func TestMain(m *testing.M) {
	if os.Getenv("PHYSVIEW_RUN_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	// The window tests compare pictures taken after camera moves: every
	// frame in full, not reduced while moving (TestWindowOrbitReduced
	// sets its own).
	if os.Getenv("PHYSVIEW_DYNRES") == "" {
		os.Setenv("PHYSVIEW_DYNRES", "off")
	}
	// The viewers the tests start keep their lighting cache in a folder of
	// the test run's, not in the user's cache.
	// A test binary a test started (to crash it, say) uses its parent's.
	if os.Getenv(render.CacheDirEnv) != "" {
		os.Exit(m.Run())
	}
	cache, err := os.MkdirTemp("", "physview-test-cache")
	if err == nil {
		os.Setenv(render.CacheDirEnv, cache)
	}
	code := m.Run()
	if err == nil {
		os.RemoveAll(cache)
	}
	os.Exit(code)
}

// startXvfb starts a private X server on a display number it picks itself
// (-displayfd) and returns its DISPLAY. It is stopped with SIGTERM so it
// removes its socket and lock file.
func startXvfb(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Fatal("Xvfb is not installed (bash .ci/install-deps)")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatal("Xvfb did not report its display")
		}
		return ":" + n
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb did not start within 20 s")
	}
	return ""
}

// startViewer runs the viewer in a window on display and waits for the
// line that reports its first frame.
func startViewer(t *testing.T, display string, args ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "PHYSVIEW_RUN_MAIN=1", "PHYSVIEW_LOG_FRAMES=1", "DISPLAY="+display, "XDG_RUNTIME_DIR="+t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string)
	var frames atomic.Int64
	watchFrames(t, display, func() int { return int(frames.Load()) })
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "viewer: frame ") {
				frames.Add(1)
				continue
			}
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(90 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("viewer exited before its first frame")
			}
			t.Log(l)
			if strings.Contains(l, "textured frame") {
				// Let a few more frames reach the screen.
				time.Sleep(500 * time.Millisecond)
				go func() {
					for range lines {
					}
				}()
				return
			}
		case <-deadline:
			t.Fatal("no first frame within 90 s")
		}
	}
}

// captureScreen grabs the X screen with ImageMagick's import.
func captureScreen(t *testing.T, display, name string) image.Image {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("import", "-window", "root", out)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("import: %v: %s (install imagemagick: bash .ci/install-deps)", err, b)
	}
	img := readPNG(t, out)
	if dir := os.Getenv("PHYSVIEW_SCREENSHOTS"); dir != "" {
		data, _ := os.ReadFile(out)
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	return img
}

// readPNG decodes a PNG file the test made.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// distinctColours counts the colours in a rectangle, a cheap sign that
// something was drawn there.
func distinctColours(img image.Image, r image.Rectangle) int {
	seen := map[[3]uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			seen[[3]uint32{cr >> 10, cg >> 10, cb >> 10}] = true
		}
	}
	return len(seen)
}

func TestWindowShowsScene(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	cases := []struct{ name, file string }{{"demo", ""}}
	if dir := os.Getenv("PHYSVIEW_NO_CORPUS"); dir == "" {
		if p := filepath.Join(testcorpus.Root(t), "..", "shared", "corpus", "gltf-sample-assets/Models/BoxTextured/glTF/BoxTextured.gltf"); fileExists(p) {
			cases = append(cases, struct{ name, file string }{"BoxTextured", p})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			display := startXvfb(t)
			var args []string
			if c.file != "" {
				args = append(args, c.file)
			}
			startViewer(t, display, args...)
			view, panel := image.Rect(200, 150, 700, 600), image.Rect(905, 30, 1275, 300)
			// The first textured frame is logged before it is on the
			// screen, which a loaded machine shows a second later.
			img := waitScreen(t, display, "window-"+c.name+".png", func(img image.Image) bool {
				return distinctColours(img, view) >= 20 && distinctColours(img, panel) >= 4
			})
			// The 3D view (left) shows geometry: many colours, not a flat background.
			if n := distinctColours(img, view); n < 20 {
				t.Errorf("3D view has only %d colours: nothing drawn?", n)
			}
			// The panel (right) is there: its text gives it several colours.
			if n := distinctColours(img, panel); n < 4 {
				t.Errorf("panel has only %d colours: not drawn?", n)
			}
		})
	}
}

func TestWindowWithoutDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	code, _, errOut := runCLI()
	if code != 2 || !strings.Contains(errOut, "no display") {
		t.Errorf("exit %d, stderr %q: want a clear 'no display' error", code, errOut)
	}
	code, _, errOut = runCLI("missing-file.gltf")
	if code != 2 || !strings.Contains(errOut, "missing-file.gltf") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
