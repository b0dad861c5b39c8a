package main

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// alt presses Alt+key the slow way (see ctrl).
func (v *viewerProc) alt(key string) {
	v.xdotool("keydown", "alt")
	time.Sleep(100 * time.Millisecond)
	v.xdotool("key", key)
	time.Sleep(100 * time.Millisecond)
	v.xdotool("keyup", "alt")
	time.Sleep(400 * time.Millisecond)
}

// noneOf fails when a line the viewer reported since the last wait
// contains one of bad.
func (v *viewerProc) noneOf(bad ...string) {
	v.t.Helper()
	for _, l := range v.seen {
		for _, b := range bad {
			if strings.Contains(l, b) {
				v.t.Errorf("the viewer did %q while a prompt was up", l)
			}
		}
	}
}

// TestWindowPromptKeys: issue 31, as a user meets it. While the window
// has the file open, `viewer edit` of it refuses (exit 2). With an unsaved
// edit, Ctrl+O and then typing the path "/srv/deep/c" (s, d, c answered the
// old prompt; e, r switched the gizmo) saves nothing, discards nothing and
// changes no tool, and no file browser opens under the prompt; Escape
// cancels. Then another program rewrites the file: the reload question is
// kept (Escape), and Ctrl+S asks before overwriting that change: Escape
// leaves the other program's file, Alt+O overwrites it. Last, the file is
// made read-only: Ctrl+S does not overwrite it and offers Save as; made
// writable again, Ctrl+Q and Alt+S save and close.
func TestWindowPromptKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an X server and the real window")
	}
	dir, config := t.TempDir(), t.TempDir()
	b := filepath.Join(dir, "b.gltf")
	text, bin := boxGLTF([4]float64{0.9, 0.1, 0.1, 1}, "b.bin")
	os.WriteFile(b, text, 0o644)
	os.WriteFile(filepath.Join(dir, "b.bin"), bin, 0o644)

	display := startXvfb(t)
	v := startViewerProc(t, display, config, nil, b)
	// The window holds the file's lock: `viewer edit` of it waits and
	// refuses rather than write under the window.
	out, err := viewerCmd("edit", b, "rename", "0", "FromTheTerminal").CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "open for editing in another process") {
		t.Errorf("viewer edit of the window's file: exit %d: %s", code, out)
	}
	if got, _ := os.ReadFile(b); !bytes.Equal(got, text) {
		t.Error("viewer edit changed the window's file")
	}
	// An edit: Variants tab, Add variant (the box has none).
	v.click(1004, 119)
	v.click(1050, 172)
	if ti := v.waitTitle("*b.gltf"); !strings.HasPrefix(ti, "*b.gltf") {
		t.Fatalf("title after an edit = %q, want *b.gltf ...", ti)
	}
	before := captureScreen(t, display, "prompt-before.png")

	v.ctrl("o")
	waitScreenChange(t, display, before, image.Rect(0, 0, 1280, 780), "prompt-coming.png")
	prompt := stillScreen(t, display, "prompt-unsaved.png", image.Rect(0, 0, 1280, 755)) // the dimming faded in (the status bar below changes with each frame)
	v.xdotool("type", "--delay", "120", "/srv/deep/c")
	afterFrames(v.display, 800*time.Millisecond) // the frames after the keys drawn
	typed := captureScreen(t, display, "prompt-typed.png")
	// The prompt is still up as it came, with no browser over or under it.
	if d := diffFraction(prompt, typed, image.Rect(0, 0, 1280, 780), 24); d > 0.002 {
		t.Errorf("the screen changed by %.2f%% while typing into the prompt", d*100)
	}
	if ti := v.title(); !strings.HasPrefix(ti, "*b.gltf") {
		t.Errorf("title after typing into the prompt = %q: saved or discarded", ti)
	}
	if got, _ := os.ReadFile(b); !bytes.Equal(got, text) {
		t.Error("typing into the prompt saved the file")
	}
	v.key("Escape")
	v.wait("Unsaved changes: Cancel", windowWait)
	v.noneOf("saved", "gizmo:", "Unsaved changes: Save", "Unsaved changes: Discard", "opened", "loading")
	if ti := v.title(); !strings.HasPrefix(ti, "*b.gltf") {
		t.Errorf("title after Escape = %q, want the edit kept", ti)
	}
	after := captureScreen(t, display, "prompt-cancelled.png")
	if d := diffFraction(before, after, image.Rect(0, 0, 1280, 780), 24); d > 0.01 {
		t.Errorf("after Escape %.1f%% of the window differs from before Ctrl+O (a browser or the prompt is left)", d*100)
	}

	// Another program rewrites the file.
	theirs, _ := boxGLTF([4]float64{0.1, 0.9, 0.1, 1}, "b.bin")
	theirs = append(theirs, []byte("\n\n")...)
	os.WriteFile(b, theirs, 0o644)
	v.wait("changed on disk: b.gltf", windowWait)
	time.Sleep(800 * time.Millisecond)
	captureScreen(t, display, "prompt-reload.png")
	v.key("Escape")
	v.wait("Changed on disk: Keep my edits", windowWait)
	v.ctrl("s")
	v.wait("not saved: "+b+" changed on disk since it was read", windowWait)
	time.Sleep(500 * time.Millisecond)
	captureScreen(t, display, "prompt-overwrite.png")
	v.xdotool("type", "--delay", "120", "sdcr")
	v.key("Escape")
	v.wait("Changed on disk: Cancel", windowWait)
	v.noneOf("saved "+b, "gizmo:")
	if got, _ := os.ReadFile(b); !bytes.Equal(got, theirs) {
		t.Fatal("the other program's change was overwritten")
	}
	v.ctrl("s")
	v.wait("not saved: ", windowWait)
	time.Sleep(500 * time.Millisecond)
	v.alt("o")
	v.wait("saved "+b, windowWait)
	if got, _ := os.ReadFile(b); !bytes.Contains(got, []byte(`"Variant 0"`)) {
		t.Errorf("Overwrite did not save the edit: %.200s", got)
	}
	if ti := v.waitTitle("b.gltf"); strings.HasPrefix(ti, "*") {
		t.Errorf("title after the save = %q", ti)
	}

	// A read-only file: another edit, Ctrl+S says so and offers Save as;
	// Escape leaves the file as it was and the edit unsaved.
	os.Chmod(b, 0o444)
	saved, _ := os.ReadFile(b)
	v.click(1050, 196)
	v.ctrl("s")
	v.wait("not saved: "+b+": the file is read-only", windowWait)
	time.Sleep(500 * time.Millisecond)
	captureScreen(t, display, "prompt-read-only.png")
	v.key("Escape")
	v.wait("Cannot save: Cancel", windowWait)
	if got, _ := os.ReadFile(b); !bytes.Equal(got, saved) {
		t.Error("the read-only file was overwritten")
	}
	if st, _ := os.Stat(b); st.Mode().Perm() != 0o444 {
		t.Errorf("the read-only file's mode is now %v", st.Mode().Perm())
	}
	if ti := v.title(); !strings.HasPrefix(ti, "*b.gltf") {
		t.Errorf("title after the refused save = %q, want the edit kept", ti)
	}

	// Writable again: Ctrl+Q asks, Alt+S saves and the window closes.
	os.Chmod(b, 0o644)
	v.ctrl("q")
	time.Sleep(500 * time.Millisecond)
	v.alt("s")
	select {
	case err := <-v.exited:
		if err != nil {
			t.Errorf("viewer exit: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the viewer did not close after Ctrl+Q, Alt+S")
	}
	if got, _ := os.ReadFile(b); !bytes.Contains(got, []byte(`"Variant 1"`)) {
		t.Errorf("Alt+S on quitting did not save the edit: %.200s", got)
	}
}
