package scene

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// glbSource writes a .glb of one triangle whose BIN chunk holds binBytes
// bytes (a vertex buffer padded with a second buffer view), and loads it:
// saving it as .gltf writes two files, the .gltf and a .bin.
func glbSource(t *testing.T, binBytes int) *Document {
	t.Helper()
	bin := make([]byte, binBytes)
	copy(bin, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0})
	for i := 36; i < binBytes; i++ {
		bin[i] = byte(i * 7)
	}
	js := fmt.Sprintf(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":%d,"uri":"data:application/octet-stream;base64,%s"}],
"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":%d}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`,
		binBytes, base64.StdEncoding.EncodeToString(bin), binBytes-36)
	dir := t.TempDir()
	src := filepath.Join(dir, "src.gltf")
	if err := os.WriteFile(src, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	glb := filepath.Join(dir, "src.glb")
	if err := mustLoad(t, src).Save(glb); err != nil {
		t.Fatal(err)
	}
	return mustLoad(t, glb)
}

// fullDisk makes every temporary file's writes fail with ENOSPC once n
// bytes in all have been written, as a disk that fills up during a save.
func fullDisk(t *testing.T, n int) {
	t.Helper()
	left := n
	old := tempWriter
	tempWriter = func(f *os.File) io.Writer { return &failingWriter{f, &left} }
	t.Cleanup(func() { tempWriter = old })
}

type failingWriter struct {
	w    io.Writer
	left *int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) <= *f.left {
		*f.left -= len(p)
		return f.w.Write(p)
	}
	n, _ := f.w.Write(p[:*f.left])
	*f.left = 0
	return n, &os.PathError{Op: "write", Path: "tmp", Err: syscall.ENOSPC}
}

// folder returns the names and contents of dir's files.
func folder(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// TestSaveFullDisk: issue 24 item 6. A .gltf save writes the .gltf and a
// .bin; when the disk fills up at any point of either, the save fails,
// nothing new is left (no orphan .bin, no temporary file) and files that
// were there are byte-identical. With room, the save writes what Encode
// says.
func TestSaveFullDisk(t *testing.T) {
	d := glbSource(t, 4000)
	files, err := d.Encode("/x/m.gltf")
	if err != nil || len(files) != 2 {
		t.Fatalf("Encode: %d files, %v", len(files), err)
	}
	main, bin := len(files[0].Data), len(files[1].Data)
	for _, originals := range []map[string]string{
		{}, // a new file: nothing may appear
		{"m.gltf": "the old gltf\n", "m.bin": "the old bin", "other.txt": "kept"},
	} {
		for _, n := range []int{0, 1, main / 2, main, main + 1, main + bin/2, main + bin - 1} {
			t.Run(fmt.Sprintf("%d originals, fails after %d bytes", len(originals), n), func(t *testing.T) {
				dir := t.TempDir()
				for name, text := range originals {
					os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600)
				}
				fullDisk(t, n)
				err := d.Save(filepath.Join(dir, "m.gltf"))
				if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), filepath.Join(dir, "m.gltf")) {
					t.Errorf("Save: %v, want ENOSPC naming the target", err)
				}
				got := folder(t, dir)
				if fmt.Sprint(got) != fmt.Sprint(originals) {
					t.Errorf("after the failed save the folder holds %q, want %q", got, originals)
				}
			})
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.bin"), []byte("old"), 0o600)
	fullDisk(t, main+bin)
	if err := d.Save(filepath.Join(dir, "m.gltf")); err != nil {
		t.Fatalf("a save with just enough room: %v", err)
	}
	got := folder(t, dir)
	files, _ = d.Encode(filepath.Join(dir, "m.gltf"))
	if len(got) != 2 || got["m.gltf"] != string(files[0].Data) || got["m.bin"] != string(files[1].Data) {
		t.Errorf("the folder holds %d files, not the encoded .gltf and .bin", len(got))
	}
	// The original's mode is kept.
	if st, _ := os.Stat(filepath.Join(dir, "m.bin")); st.Mode().Perm() != 0o600 {
		t.Errorf("m.bin mode %v, want 0600", st.Mode().Perm())
	}
}

// TestStaleTempsRemoved: temporary files an earlier, killed save of the
// same target left (".NAME.N.tmp") are removed by the next save of it;
// one a running save holds (locked), one just created, other targets' and
// names of another pattern are left alone.
func TestStaleTempsRemoved(t *testing.T) {
	d := glbSource(t, 100)
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	made := map[string]bool{ // name: removed by the save
		".m.glb.123456.tmp":     true,
		".m.glb.42.tmp":         true,
		".m.glb.777.tmp":        false, // locked below: a save in progress
		".m.glb.888.tmp":        false, // just created
		".other.glb.1.tmp":      false,
		".m.glb.abc.tmp":        false,
		"m.glb.5.tmp":           false,
		".m.glb.12.tmp.keep":    false,
		".m.glb.bin.99.tmp.txt": false,
	}
	for name := range made {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), 1000), 0o644); err != nil {
			t.Fatal(err)
		}
		if name != ".m.glb.888.tmp" {
			os.Chtimes(p, old, old)
		}
	}
	held, err := os.OpenFile(filepath.Join(dir, ".m.glb.777.tmp"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := lockFile(held, true); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(filepath.Join(dir, "m.glb")); err != nil {
		t.Fatal(err)
	}
	for name, removed := range made {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := errors.Is(err, os.ErrNotExist); gone != removed {
			t.Errorf("%s: removed %v, want %v", name, gone, removed)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "m.glb")); err != nil {
		t.Error(err)
	}
}

// TestKilledSave kills a process in the middle of a save (SIGKILL once
// half of the temporary file is written): the target is byte-identical,
// a ".m.glb.N.tmp" is left, and the next save of the target removes it.
func TestKilledSave(t *testing.T) {
	if dir := os.Getenv("PHYSVIEW_KILLED_SAVE_DIR"); dir != "" {
		// The child: write half of the file, say so, and wait to be killed.
		d := glbSource(t, 1<<20)
		ready := make(chan bool)
		tempWriter = func(f *os.File) io.Writer { return &stallingWriter{f, 1 << 19, ready} }
		go func() {
			<-ready
			fmt.Println("HALF WRITTEN")
		}()
		d.Save(filepath.Join(dir, "m.glb"))
		return
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "m.glb")
	original := []byte("the original file, which must survive")
	if err := os.WriteFile(target, original, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledSave$")
	// The child's own temporary folders go inside dir: it is killed
	// before its test could remove them, and dir's cleanup does.
	cmd.Env = append(os.Environ(), "PHYSVIEW_KILLED_SAVE_DIR="+dir, "TMPDIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	deadline := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	n, _ := io.ReadAtLeast(out, buf, len("HALF WRITTEN"))
	deadline.Stop()
	cmd.Process.Kill()
	cmd.Wait()
	if !strings.Contains(string(buf[:n]), "HALF WRITTEN") {
		t.Fatalf("the child did not start its save: %q", buf[:n])
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, original) {
		t.Errorf("the killed save changed the target: %q", got)
	}
	temps := func() []string {
		var out []string
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".m.glb.") && strings.HasSuffix(e.Name(), ".tmp") {
				out = append(out, e.Name())
			}
		}
		return out
	}
	left := temps()
	if len(left) != 1 {
		t.Fatalf("temporary files after the kill: %v, want one", left)
	}
	// The next save, a while later, removes it.
	old := time.Now().Add(-time.Minute)
	os.Chtimes(filepath.Join(dir, left[0]), old, old)
	if err := glbSource(t, 100).Save(target); err != nil {
		t.Fatal(err)
	}
	if left := temps(); len(left) != 0 {
		t.Errorf("temporary files after the next save: %v", left)
	}
}

// stallingWriter writes up to n bytes, then signals and blocks forever.
type stallingWriter struct {
	w     io.Writer
	n     int
	ready chan bool
}

func (s *stallingWriter) Write(p []byte) (int, error) {
	if len(p) > s.n {
		s.w.Write(p[:s.n])
		s.ready <- true
		select {}
	}
	s.n -= len(p)
	return s.w.Write(p)
}

// TestSaveFullTmpfs: the same on a real full file system (a 64 kB tmpfs;
// needs root to mount, skipped otherwise).
func TestSaveFullTmpfs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	small := glbSource(t, 100)
	if err := small.Save(filepath.Join(dir, "m.gltf")); err != nil {
		t.Fatal(err)
	}
	before := folder(t, dir)
	if len(before) != 2 {
		t.Fatalf("the first save wrote %d files", len(before))
	}
	// A 70 kB .bin cannot fit in 64 kB: the disk fills up while the
	// temporary .bin is written.
	err := glbSource(t, 70_000).Save(filepath.Join(dir, "m.gltf"))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Save on a full disk: %v, want ENOSPC", err)
	}
	if after := folder(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("the failed save changed the folder: %d files", len(after))
	}
	if err := glbSource(t, 20_000).Save(filepath.Join(dir, "m.gltf")); err != nil {
		t.Errorf("a save that fits: %v", err)
	}
}

// TestSaveThroughSymlink: saving to a path that is a symbolic link writes
// the file it points to (in its own folder) and leaves the link a link,
// with no temporary file left beside either.
func TestSaveThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "assets", "crate.gltf")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "crate.gltf")
	if err := os.Symlink(filepath.Join("assets", "crate.gltf"), link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is no longer a link: %v %v", fi.Mode(), err)
	}
	got, err := os.ReadFile(real)
	if err != nil || string(got) != "new" {
		t.Errorf("the linked file holds %q (%v), want %q", got, err, "new")
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Errorf("the linked file's mode is %v, want 0640", fi.Mode().Perm())
	}
	for _, d := range []string{dir, filepath.Dir(real)} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".tmp") {
				t.Errorf("temporary file %s left in %s", e.Name(), d)
			}
		}
	}
}

// TestSaveThroughDanglingSymlink: a link whose file does not exist yet (a
// chain of two links, relative) is written through too: the file is made
// where the last link points, and both links stay links.
func TestSaveThroughDanglingSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	mid := filepath.Join(dir, "assets", "mid.glb")
	if err := os.Symlink("crate.glb", mid); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "crate.glb")
	if err := os.Symlink(filepath.Join("assets", "mid.glb"), link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v %v", l, fi.Mode(), err)
		}
	}
	if got, err := os.ReadFile(filepath.Join(dir, "assets", "crate.glb")); err != nil || string(got) != "new" {
		t.Errorf("the linked file holds %q (%v), want %q", got, err, "new")
	}
}
