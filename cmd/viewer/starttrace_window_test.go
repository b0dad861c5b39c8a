package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWindowStartTraceEnds: the start's trace (PHYSVIEW_TRACE_START=1)
// ends with the start, so that the frames after it print nothing: at the
// full-resolution frame of a file, and when the file named on the command
// line cannot be opened (then there is never such a frame, and every
// frame printed its lines for as long as the window stayed open).
func TestWindowStartTraceEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a window")
	}
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.gltf")
	if err := os.WriteFile(broken, []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	display := startXvfb(t)
	cases := []struct {
		name string
		args []string
		end  string // the line after which no frame traces
	}{
		{"the demo", nil, "viewer: full-resolution frame"},
		{"a file that cannot be opened", []string{broken}, "viewer: " + broken + ": broken JSON"},
	}
	for _, c := range cases {
		cmd := exec.Command(os.Args[0], c.args...)
		cmd.Env = append(os.Environ(), "PHYSVIEW_RUN_MAIN=1", "PHYSVIEW_TRACE_START=1", "PHYSVIEW_LOG_FRAMES=1", "DISPLAY="+display, "XDG_RUNTIME_DIR="+t.TempDir())
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		log := &viewerLog{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				log.add(sc.Text())
			}
		}()
		// After the end line, the frame it is in may finish its trace
		// (up to the next frame line); the three frames after that must
		// print none. The mouse moves so that frames come.
		var traced, frames int
		ended := -1
		for deadline := time.Now().Add(30 * time.Second); frames < 4 && time.Now().Before(deadline); {
			xdo(t, display, "mousemove", "300", strconv.Itoa(300+frames%2))
			time.Sleep(100 * time.Millisecond)
			log.mu.Lock()
			traced, frames = 0, 0
			for i, l := range log.lines {
				switch {
				case ended < 0 && strings.HasPrefix(l, c.end):
					ended = i
				case ended < 0:
				case strings.HasPrefix(l, "viewer: frame "):
					frames++
				case frames > 0 && strings.HasPrefix(l, "trace "):
					traced++
				}
			}
			log.mu.Unlock()
		}
		cmd.Process.Kill()
		cmd.Wait()
		<-done
		if ended < 0 || frames < 4 {
			t.Fatalf("%s: no %q and 4 frames after it; the viewer said:\n%s", c.name, c.end, strings.Join(log.lines, "\n"))
		}
		if traced > 0 {
			t.Errorf("%s: %d trace lines in the %d frames after %q", c.name, traced, frames-1, c.end)
		}
	}
}
