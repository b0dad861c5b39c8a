package app

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"physview/scene"
)

// holdLock has another process (flock(1)) hold the advisory lock on path;
// it returns that process's id (0 when the system does not tell) once it
// holds it, and a func that ends it and waits for the lock to be free.
func holdLock(t *testing.T, path string) (pid int, release func()) {
	t.Helper()
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock(1) is not installed")
	}
	// -o: flock holds the lock itself, sleep (its child) does not
	// inherit it; both are in a process group of their own, ended
	// together.
	cmd := exec.Command("flock", "-x", "-o", path, "sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := false
	release = func() {
		if done {
			return
		}
		done = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		// flock's child may hold the lock's file for a moment after
		// flock is gone (between its fork and its close of the file,
		// or while it exits): wait until the lock is free.
		for range 500 {
			l, err := scene.LockDocument(path, 0)
			if err == nil {
				l.Release()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.Cleanup(release)
	for range 500 {
		l, err := scene.LockDocument(path, 0)
		if errors.Is(err, scene.ErrLocked) {
			pid, _ := scene.LockHolder(path)
			return pid, release
		}
		if err == nil {
			l.Release()
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("flock(1) did not take the lock")
	return 0, nil
}

// TestSaveLockedDoesNotWait: issue 31. The window's save of a file that
// another process holds (it had it when the file was opened) used to wait
// up to scene.SaveLockWait (3 s) for it on the frame thread. It now tries
// the lock and, held, refuses at once: "box.gltf is being saved or edited
// by another program (pid N, ...); try again", the Cannot save prompt
// (Save as / Cancel), the file untouched. Once the other process has let
// go, Save saves, and the session holds the lock from then on.
func TestSaveLockedDoesNotWait(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "box.gltf")
	text, bin := boxGLTF([4]float64{0.9, 0.1, 0.1, 1}, "box.bin")
	os.WriteFile(path, text, 0o644)
	os.WriteFile(filepath.Join(dir, "box.bin"), bin, 0o644)
	pid, release := holdLock(t, path)
	s := New()
	t.Cleanup(s.Close)
	if err := s.LoadNow(path); err != nil {
		t.Fatal(err)
	}
	s.holdFile(path) // as the window's open does: another process has it
	if err := s.RunCommand([]string{"rename", "0", "Crate"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	saved := s.Save()
	took := time.Since(start)
	if saved {
		t.Fatal("saved a file another process holds")
	}
	if took >= scene.SaveLockWait {
		t.Errorf("the save waited %v for the lock", took)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, text) {
		t.Error("the file changed")
	}
	want := "box.gltf is being saved or edited by another program"
	if _, err := os.Stat("/proc/locks"); err == nil && pid == 0 {
		t.Error("/proc/locks does not name the process that holds the lock")
	}
	if pid > 0 {
		want += fmt.Sprintf(" (pid %d,", pid)
	}
	m, _, _ := s.Message()
	if !m.Error || !strings.HasPrefix(m.Text, want) || !strings.HasSuffix(m.Text, "; try again: nothing was saved") {
		t.Errorf("message %q, want it to start with %q", m.Text, want)
	}
	t.Logf("%s", m.Text)
	p := s.Prompt()
	if p == nil || p.Title != "Cannot save" || strings.Join(p.Choices, "|") != "Save as...|Cancel" || !strings.Contains(strings.ReplaceAll(p.Text, "\n", " "), "try again.") {
		t.Fatalf("prompt %+v, want Cannot save", p)
	}
	s.Answer(1) // Cancel
	if !s.Modified() {
		t.Error("Cancel lost the edit")
	}

	// The other process lets go: the same Save saves, and holds the
	// lock.
	release()
	if !s.Save() {
		m, _, _ := s.Message()
		t.Fatalf("save after the lock was released: %s", m.Text)
	}
	if got, _ := os.ReadFile(path); !bytes.Contains(got, []byte(`"Crate"`)) {
		t.Error("the saved file lacks the edit")
	}
	if s.files.lock == nil {
		t.Error("the session does not hold the lock after the save")
	}
}
