package scene

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSaveRefusals: issue 31. A save refuses before it writes anything
// when the file (or a resource it replaces) is read-only, when the folder
// is not writable, and, saving in place, when the file's folder was
// deleted; the message names the user's file or folder (never a temporary
// file) and says what to do, and the folder holds what it held.
func TestSaveRefusals(t *testing.T) {
	d := glbSource(t, 400)
	for _, tc := range []struct {
		name string
		// setup makes dir's state; it returns the target.
		setup func(t *testing.T, dir string) string
		kind  error
		want  []string // in the message
	}{
		{"read-only main file", func(t *testing.T, dir string) string {
			os.WriteFile(filepath.Join(dir, "m.gltf"), []byte("old gltf"), 0o444)
			return filepath.Join(dir, "m.gltf")
		}, ErrReadOnly, []string{"m.gltf: the file is read-only", "use Save as"}},
		{"read-only .bin", func(t *testing.T, dir string) string {
			os.WriteFile(filepath.Join(dir, "m.gltf"), []byte("old gltf"), 0o644)
			os.WriteFile(filepath.Join(dir, "m.bin"), []byte("old bin"), 0o444)
			return filepath.Join(dir, "m.gltf")
		}, ErrReadOnly, []string{"m.bin is read-only", "use Save as"}},
		{"read-only folder", func(t *testing.T, dir string) string {
			sub := filepath.Join(dir, "ro")
			os.Mkdir(sub, 0o755)
			os.WriteFile(filepath.Join(sub, "m.gltf"), []byte("old gltf"), 0o644)
			os.Chmod(sub, 0o555)
			t.Cleanup(func() { os.Chmod(sub, 0o755) })
			return filepath.Join(sub, "m.gltf")
		}, ErrFolderNotWritable, []string{"the folder " + "DIR/ro is not writable", "use Save as"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			target := tc.setup(t, dir)
			before := folder(t, filepath.Dir(target))
			err := d.Save(target)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("Save: %v, want %v", err, tc.kind)
			}
			for _, w := range tc.want {
				if w = strings.ReplaceAll(w, "DIR", dir); !strings.Contains(err.Error(), w) {
					t.Errorf("message %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), ".tmp") {
				t.Errorf("message names a temporary file: %q", err)
			}
			if after := folder(t, filepath.Dir(target)); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("the refused save changed the folder: %q, was %q", after, before)
			}
		})
	}

	t.Run("folder deleted while open", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "model")
		os.Mkdir(dir, 0o755)
		src := filepath.Join(dir, "m.glb")
		if err := glbSource(t, 100).Save(src); err != nil {
			t.Fatal(err)
		}
		doc := mustLoad(t, src)
		os.RemoveAll(dir)
		err := doc.Save(src)
		if !errors.Is(err, ErrFolderGone) || !strings.Contains(err.Error(), dir+" does not exist any more") {
			t.Errorf("Save in place into a deleted folder: %v", err)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the deleted folder is back: %v", err)
		}
		// Save as into a new folder makes it.
		if err := doc.Save(filepath.Join(dir, "new", "m.glb")); err != nil {
			t.Errorf("Save as into a new folder: %v", err)
		}
	})
}

// TestSaveKeepsOwnerAndMode: a save replaces the file by a new one, which
// gets the old one's mode, owner and group (root may give any; others
// keep what they may, tested where the test runs as root).
func TestSaveKeepsOwnerAndMode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file another owner needs root")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "m.gltf")
	for name, mode := range map[string]os.FileMode{"m.gltf": 0o640, "m.bin": 0o604} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("old"), mode)
		if err := os.Chown(p, 1234, 5678); err != nil {
			t.Fatal(err)
		}
	}
	if err := glbSource(t, 400).Save(target); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{"m.gltf": 0o640, "m.bin": 0o604} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sys := st.Sys().(*syscall.Stat_t)
		if sys.Uid != 1234 || sys.Gid != 5678 || st.Mode().Perm() != mode {
			t.Errorf("%s after the save: owner %d group %d mode %v, want 1234 5678 %v", name, sys.Uid, sys.Gid, st.Mode().Perm(), mode)
		}
		if st.Size() == 3 {
			t.Errorf("%s was not written", name)
		}
	}
}

// TestDocumentLock: issue 31. While this process holds a document's lock,
// another open file of it cannot take it (as another process could not);
// a save keeps the lock, on the new file; a save of a file another holds
// waits SaveLockWait and refuses, naming the file, writing nothing.
func TestDocumentLock(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "m.glb")
	if err := glbSource(t, 100).Save(target); err != nil {
		t.Fatal(err)
	}
	l, err := LockDocument(target, 0)
	if err != nil {
		t.Fatal(err)
	}
	other := func() error {
		f, err := os.Open(target)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return lockFile(f, true)
	}
	if err := other(); !isWouldBlock(err) {
		t.Fatalf("a second lock while held: %v, want EWOULDBLOCK", err)
	}
	if l2, err := LockDocument(target, 0); err != nil || l2 != l {
		t.Fatalf("the same process locking again: %v, %p want %p", err, l2, l)
	}
	l.Release()
	if err := glbSource(t, 200).Save(target); err != nil {
		t.Fatal(err)
	}
	if err := other(); !isWouldBlock(err) {
		t.Errorf("after a save, the new file is not locked: %v", err)
	}
	l.Release()
	if err := other(); err != nil {
		t.Errorf("released, the file is still locked: %v", err)
	}

	// Another holder: the save waits and refuses.
	f, _ := os.Open(target)
	defer f.Close()
	if err := lockFile(f, true); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(target)
	start := time.Now()
	err = glbSource(t, 300).Save(target)
	if !errors.Is(err, ErrLocked) || !strings.HasPrefix(err.Error(), target+": it is open for editing in another process") {
		t.Errorf("a save of a file another holds: %v", err)
	}
	if waited := time.Since(start); waited < SaveLockWait || waited > SaveLockWait+2*time.Second {
		t.Errorf("waited %v, want about %v", waited, SaveLockWait)
	}
	if after, _ := os.ReadFile(target); !bytes.Equal(after, before) {
		t.Error("the refused save changed the file")
	}
	if _, err := LockDocument(target, 100*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Errorf("LockDocument of a file another holds: %v", err)
	}
}

// killPairSizes are the two .bin sizes the killed saver alternates between.
var killPairSizes = [2]int{300_000, 200_004}

// TestKilledPairSave: issue 31. A process saves a .gltf and its .bin in a
// loop, alternating between two documents, and is killed (SIGKILL) at a
// random moment, 50 times: after the next open's RecoverSave, the folder
// holds one document's pair or the other's, never a .gltf with the other's
// .bin, and RecoverSave leaves no temporary file of a dead save behind.
func TestKilledPairSave(t *testing.T) {
	if dir := os.Getenv("PHYSVIEW_KILLED_PAIR_DIR"); dir != "" {
		docs := [2]*Document{glbSource(t, killPairSizes[0]), glbSource(t, killPairSizes[1])}
		target := filepath.Join(dir, "m.gltf")
		fmt.Println("SAVING")
		for i := 1; ; i++ {
			if err := docs[i%2].Save(target); err != nil {
				fmt.Println("save:", err)
				return
			}
		}
	}
	if testing.Short() {
		t.Skip("50 processes killed while saving")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "m.gltf")
	var pairs [2]string
	for i, n := range killPairSizes {
		files, err := glbSource(t, n).Encode(target)
		if err != nil || len(files) != 2 {
			t.Fatalf("Encode: %d files, %v", len(files), err)
		}
		pairs[i] = string(files[0].Data) + "\x00" + string(files[1].Data)
		if i == 0 {
			for _, f := range files {
				os.WriteFile(f.Path, f.Data, 0o644)
			}
		}
	}
	rng := rand.New(rand.NewSource(31))
	mixed, finished := 0, 0
	for run := range 50 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledPairSave$")
		cmd.Env = append(os.Environ(), "PHYSVIEW_KILLED_PAIR_DIR="+dir, "TMPDIR="+t.TempDir())
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != "SAVING\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("run %d: the saver said %q", run, line)
		}
		time.Sleep(time.Duration(rng.Intn(60_000)) * time.Microsecond)
		cmd.Process.Kill()
		go io.Copy(io.Discard, out)
		cmd.Wait()
		if pair(t, dir) != pairs[0] && pair(t, dir) != pairs[1] {
			mixed++ // as a reader that does not recover sees it
		}
		if len(RecoverSave(target, filepath.Join(dir, "m.bin"))) > 0 {
			finished++
		}
		if got := pair(t, dir); got != pairs[0] && got != pairs[1] {
			t.Fatalf("run %d: after the kill and RecoverSave the .gltf and .bin are no pair of one save (%d and %d bytes)", run, len(got), len(got))
		}
		if _, err := os.Stat(journalPath(target)); err == nil {
			t.Fatalf("run %d: the journal is left after RecoverSave", run)
		}
	}
	t.Logf("50 kills: %d left a pair that RecoverSave finished (%d mixed before it)", finished, mixed)
	// Temporary files of saves killed while writing stay until they are
	// old enough to be surely dead; then the next open removes them.
	old := time.Now().Add(-time.Minute)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		os.Chtimes(filepath.Join(dir, e.Name()), old, old)
	}
	RecoverSave(target, filepath.Join(dir, "m.bin"))
	if got := folder(t, dir); len(got) != 2 {
		var names []string
		for n := range got {
			names = append(names, n)
		}
		t.Errorf("after RecoverSave the folder holds %v, want m.gltf and m.bin", names)
	}
}

// pair is dir's m.gltf and m.bin, joined.
func pair(t *testing.T, dir string) string {
	a, _ := os.ReadFile(filepath.Join(dir, "m.gltf"))
	b, _ := os.ReadFile(filepath.Join(dir, "m.bin"))
	return string(a) + "\x00" + string(b)
}

// TestJournalAfterMove: a save killed among its renames, whose folder is
// then moved, is finished at the new place (the journal names its files
// relative to its folder).
func TestJournalAfterMove(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a")
	os.Mkdir(dir, 0o755)
	target := filepath.Join(dir, "m.gltf")
	os.WriteFile(target, []byte("old gltf"), 0o644)
	os.WriteFile(filepath.Join(dir, "m.bin"), []byte("new bin"), 0o644) // renamed already
	os.WriteFile(filepath.Join(dir, ".m.gltf.7.tmp"), []byte("new gltf"), 0o644)
	j := saveJournal{Renames: [][2]string{
		{journalName(dir, filepath.Join(dir, ".m.bin.3.tmp")), journalName(dir, filepath.Join(dir, "m.bin"))},
		{journalName(dir, filepath.Join(dir, ".m.gltf.7.tmp")), journalName(dir, target)},
	}}
	if _, err := writeJournal(target, j); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(filepath.Dir(dir), "b")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	done := RecoverSave(filepath.Join(moved, "m.gltf"))
	if len(done) != 1 || done[0] != filepath.Join(moved, "m.gltf") {
		t.Errorf("RecoverSave finished %v", done)
	}
	if got := folder(t, moved); fmt.Sprint(got) != fmt.Sprint(map[string]string{"m.bin": "new bin", "m.gltf": "new gltf"}) {
		t.Errorf("after RecoverSave: %q", got)
	}
}

// TestChangedFiles: what counts as a change on disk since a stamp.
func TestChangedFiles(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	for _, tc := range []struct {
		name string
		// before is the file when stamped ("" none), change what happens
		// after.
		before  string
		recent  bool // written just before the stamp (not settled by time)
		change  func(p string)
		changed bool
	}{
		{"untouched", "abc", false, func(p string) {}, false},
		{"touched", "abc", false, func(p string) { os.Chtimes(p, time.Now(), time.Now()) }, false},
		{"same bytes written again", "abc", false, func(p string) { os.WriteFile(p, []byte("abc"), 0o644) }, false},
		{"same size, other bytes", "abc", false, func(p string) { os.WriteFile(p, []byte("abd"), 0o644) }, true},
		{"other size", "abc", false, func(p string) { os.WriteFile(p, []byte("abcd"), 0o644) }, true},
		{"removed", "abc", false, func(p string) { os.Remove(p) }, true},
		{"made", "", false, func(p string) { os.WriteFile(p, []byte("new"), 0o644) }, true},
		{"still missing", "", false, func(p string) {}, false},
		{"same size and time, written within the racy window", "abc", true, func(p string) {
			st, _ := os.Stat(p)
			os.WriteFile(p, []byte("xyz"), 0o644)
			os.Chtimes(p, st.ModTime(), st.ModTime())
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "m.gltf")
			if tc.before != "" {
				os.WriteFile(p, []byte(tc.before), 0o644)
				if !tc.recent {
					os.Chtimes(p, old, old)
				}
			}
			stamps := StampFiles(p)
			tc.change(p)
			if got := ChangedFiles(stamps); (len(got) == 1) != tc.changed {
				t.Errorf("ChangedFiles = %v, want changed %v", got, tc.changed)
			}
		})
	}
}
