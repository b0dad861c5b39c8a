package watch

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// next returns the next burst, or nil after wait.
func next(w *Watcher, wait time.Duration) []string {
	select {
	case c := <-w.Changes:
		return c
	case <-time.After(wait):
		return nil
	}
}

func TestWatch(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "scene.gltf")
	bin := filepath.Join(dir, "scene.bin")
	img := filepath.Join(dir, "tex", "a.png")
	os.Mkdir(filepath.Join(dir, "tex"), 0o755)
	write(t, scene, "{}")
	write(t, bin, "1234")
	write(t, img, "png")
	write(t, filepath.Join(dir, "other.txt"), "x")

	// Well above the 30 ms between the burst's writes, so that a loaded
	// machine, which can hold the test up between two of them, does not
	// split it.
	const debounce = 400 * time.Millisecond
	w, err := New([]string{scene, bin, img}, debounce)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if got := len(w.Files()); got != 3 {
		t.Fatalf("watching %d files, want 3", got)
	}

	// A burst of writes to two files (an exporter writing in pieces) is one change.
	var last time.Time
	for i := 0; i < 5; i++ {
		if i > 0 {
			time.Sleep(30 * time.Millisecond)
		}
		write(t, scene, `{"asset":{"version":"2.0"}}`[:10+3*i])
		write(t, bin, "123456789"[:5+i%4])
		last = time.Now()
	}
	got := next(w, 3*time.Second)
	if want := []string{bin, scene}; !reflect.DeepEqual(got, want) {
		t.Fatalf("burst: %v, want %v", got, want)
	}
	if d := time.Since(last); d < debounce {
		t.Errorf("reported %v after the last write: before the burst was quiet for %v", d, debounce)
	}
	if c := next(w, 3*debounce); c != nil {
		t.Errorf("a second report %v for one burst", c)
	}

	// Replaced by rename (how editors save), in a subfolder.
	tmp := filepath.Join(dir, "tex", ".a.png.tmp")
	write(t, tmp, "new png")
	if err := os.Rename(tmp, img); err != nil {
		t.Fatal(err)
	}
	if got := next(w, 3*time.Second); !reflect.DeepEqual(got, []string{img}) {
		t.Errorf("rename over: %v, want [%s]", got, img)
	}

	// Other files in the folder and our own saves (Snapshot) are not changes.
	write(t, filepath.Join(dir, "other.txt"), "y")
	write(t, scene, `{"saved":1}`)
	w.Snapshot()
	if c := next(w, 4*debounce); c != nil {
		t.Errorf("own save or unrelated file reported: %v", c)
	}

	// Removing the file is a change too.
	os.Remove(bin)
	if got := next(w, 3*time.Second); !reflect.DeepEqual(got, []string{bin}) {
		t.Errorf("remove: %v", got)
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestWatchMissingFolder(t *testing.T) {
	if _, err := New([]string{"/nonexistent-folder/x.gltf"}, time.Millisecond); err == nil {
		t.Error("watching a file in a missing folder: no error")
	}
}

// TestWatchNotify checks that the notify function runs once per burst,
// after the burst is on Changes (a window woken by it finds it there).
func TestWatchNotify(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "scene.gltf")
	write(t, f, "{}")
	w, err := New([]string{f}, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	woke := make(chan int, 4)
	w.SetNotify(func() { woke <- len(w.Changes) })
	write(t, f, `{"asset":{}}`)
	select {
	case queued := <-woke:
		if queued != 1 {
			t.Errorf("notified with %d bursts waiting on Changes, want 1", queued)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no notification within 5 s of a change")
	}
	select {
	case n := <-woke:
		t.Errorf("a second notification (%d waiting) for one change", n)
	case <-time.After(300 * time.Millisecond):
	}
}
