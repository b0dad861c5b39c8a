package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/scene"
	"physview/shaders"
)

// TestProgramCache: a document drawn by a second renderer reads its
// programs from the disk cache instead of compiling them, and draws the
// very same bytes; a damaged file is compiled again and rewritten.
func TestProgramCache(t *testing.T) {
	headless(t)
	c := defaultEnvCache()
	if c == nil {
		t.Skip("no disk cache in this process (no build ID)")
	}
	d, err := scene.Decode([]byte(sharedFile(3, triangleBuffer)), nil)
	if err != nil {
		t.Fatal(err)
	}
	draw := func() []byte {
		r := showing(t, d)
		defer r.Delete()
		lo, hi := r.Bounds()
		img, err := r.RenderImage(NewCamera(lo, hi), 64, 48, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return img.Pix
	}
	first := draw()
	files, _ := filepath.Glob(filepath.Join(c.dir, "prog-"+c.gen+"-*.bin"))
	// The line and background programs, and at least one mesh program.
	if len(files) < 3 {
		t.Fatalf("%d program files in %s after a draw, want at least 3", len(files), c.dir)
	}
	before := programsLoaded.Load()
	second := draw()
	loaded := programsLoaded.Load() - before
	if loaded < 3 {
		t.Errorf("the second renderer read %d programs from the cache, want at least 3", loaded)
	}
	if !bytes.Equal(first, second) {
		t.Error("the programs read from the cache draw other pixels than the ones compiled")
	}

	// A damaged file (one byte of the binary flipped) fails its checksum:
	// compiled again, and the file rewritten whole. The line program's:
	// New makes it.
	_, key := programCache(shaders.LineVert, shaders.LineFrag)
	path := c.progPath(key)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(b)
	bad[progCacheHeader+len(bad[progCacheHeader:])/2] ^= 0xff
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	before = programsLoaded.Load()
	third := draw()
	if got := programsLoaded.Load() - before; got != loaded-1 {
		t.Errorf("with one file damaged %d programs were read from the cache, want %d", got, loaded-1)
	}
	if !bytes.Equal(first, third) {
		t.Error("the picture changed after a damaged program file")
	}
	if again, err := os.ReadFile(path); err != nil || !bytes.Equal(again, b) {
		t.Errorf("the damaged file was not rewritten as it was (%v)", err)
	}

	// A whole file whose binary the driver refuses (a byte of it changed
	// and the file's checksum made anew, as another build of the driver
	// would write): compiled again, and no GL error is left for the
	// picture (RenderImage fails on any).
	format, bin, err := c.readProgram(key)
	if err != nil {
		t.Fatal(err)
	}
	bin = bytes.Clone(bin)
	bin[len(bin)/2] ^= 0xff
	if err := c.writeFile(path, programFile(key, format, bin)); err != nil {
		t.Fatal(err)
	}
	before = programsLoaded.Load()
	fourth := draw()
	if got := programsLoaded.Load() - before; got != loaded-1 {
		t.Errorf("with one binary refused %d programs were read from the cache, want %d", got, loaded-1)
	}
	if !bytes.Equal(first, fourth) {
		t.Error("the picture changed after a refused binary")
	}
}

// TestProgramCacheDamaged: a program file that is not a whole file of
// this driver's (cut short, empty, another key, a binary format the
// driver does not know) or not a file at all (a FIFO no one writes to, a
// device, a folder) is compiled again, within a second, leaves no GL
// error, and the regular file is rewritten whole.
func TestProgramCacheDamaged(t *testing.T) {
	headless(t)
	c, key := programCache(shaders.LineVert, shaders.LineFrag)
	if c == nil {
		t.Skip("no disk cache in this process (no build ID)")
	}
	path := c.progPath(key)
	p, err := newProgram(shaders.LineVert, shaders.LineFrag)
	if err != nil {
		t.Fatal(err)
	}
	gl.DeleteProgram(p.id)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the program was not stored: %v", err)
	}
	_, otherKey := programCache(shaders.LineVert, shaders.LineFrag+"\n")
	rewrite := func(b []byte) []byte {
		// The checksum made anew over the damaged bytes.
		return programFile([32]byte(b[20:progCacheHeader]), binary.LittleEndian.Uint32(b[12:]), b[progCacheHeader:len(b)-4])
	}
	cases := []struct {
		name string
		make func() error // puts the damaged entry at path
	}{
		{"empty", func() error { return os.WriteFile(path, nil, 0o644) }},
		{"header only", func() error { return os.WriteFile(path, good[:progCacheHeader], 0o644) }},
		{"binary cut short", func() error { return os.WriteFile(path, good[:len(good)-100], 0o644) }},
		{"binary cut short, length fixed", func() error {
			b := bytes.Clone(good[:len(good)-100])
			binary.LittleEndian.PutUint32(b[16:], uint32(len(b)-progCacheHeader))
			return os.WriteFile(path, rewrite(append(b, 0, 0, 0, 0)), 0o644)
		}},
		{"bytes after", func() error { return os.WriteFile(path, append(bytes.Clone(good), 0), 0o644) }},
		{"length field huge", func() error {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[16:], 0xffffffff)
			return os.WriteFile(path, b, 0o644)
		}},
		{"format", func() error { b := bytes.Clone(good); b[8]++; return os.WriteFile(path, b, 0o644) }},
		{"other key", func() error {
			b := bytes.Clone(good)
			copy(b[20:], otherKey[:])
			return os.WriteFile(path, rewrite(b), 0o644)
		}},
		{"driver format unknown", func() error {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[12:], 0xdeadbeef)
			return os.WriteFile(path, rewrite(b), 0o644)
		}},
		{"binary zeroed", func() error {
			b := bytes.Clone(good)
			clear(b[progCacheHeader : len(b)-4])
			return os.WriteFile(path, rewrite(b), 0o644)
		}},
		{"fifo", func() error { return syscall.Mkfifo(path, 0o644) }},
		{"device", func() error { return os.Symlink("/dev/zero", path) }},
		{"folder", func() error { return os.Mkdir(path, 0o755) }},
	}
	for _, tc := range cases {
		os.RemoveAll(path)
		if err := tc.make(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		before := programsLoaded.Load()
		done := make(chan struct{})
		timer := time.AfterFunc(time.Second, func() {
			select {
			case <-done:
			default:
				// A read that never ends: unblock it by writing, then fail.
				if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			}
		})
		start := time.Now()
		p, err := newProgram(shaders.LineVert, shaders.LineFrag)
		close(done)
		timer.Stop()
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: the program took %v", tc.name, d)
		}
		if got := programsLoaded.Load() - before; got != 0 {
			t.Errorf("%s: %d programs read from the damaged entry", tc.name, got)
		}
		var ok int32
		gl.GetProgramiv(p.id, gl.LINK_STATUS, &ok)
		if ok != gl.TRUE {
			t.Errorf("%s: the program compiled again is not linked", tc.name)
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("%s: GL error 0x%x left", tc.name, e)
		}
		gl.DeleteProgram(p.id)
		if tc.name == "folder" {
			continue // a folder is not replaced by a file
		}
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, good) {
			t.Errorf("%s: the entry was not rewritten whole (%v)", tc.name, err)
		}
	}
	os.RemoveAll(path)
}

// TestProgramCacheBounded: past maxProgramFiles program files of the
// build, a store removes the least recently used (a program read counts
// as a use), and nothing else.
func TestProgramCacheBounded(t *testing.T) {
	headless(t)
	defer func(n int) { maxProgramFiles = n }(maxProgramFiles)
	maxProgramFiles = 4
	p, err := newProgram(shaders.LineVert, shaders.LineFrag)
	if err != nil {
		t.Fatal(err)
	}
	defer gl.DeleteProgram(p.id)
	c := newEnvDiskCache(t.TempDir(), "test-build")
	if err := c.writeFile(c.lutPath(), []byte("not pruned")); err != nil {
		t.Fatal(err)
	}
	keys := make([][32]byte, 6)
	for i := range keys {
		keys[i] = sha256.Sum256([]byte{byte(i)})
	}
	base := time.Now().Add(-time.Hour)
	for i := 0; i < 4; i++ {
		if err := c.storeProgram(keys[i], p.id); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(c.progPath(keys[i]), base, base.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	// Program 0, the oldest written, is used: program 1 is then the least
	// recently used, and goes with the fifth file; program 2 with the
	// sixth.
	id := c.loadProgram(keys[0])
	if id == 0 {
		t.Fatal("a stored program was not read back")
	}
	gl.DeleteProgram(id)
	for i := 4; i < 6; i++ {
		if err := c.storeProgram(keys[i], p.id); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []bool{true, false, false, true, true, true} {
		if _, err := os.Stat(c.progPath(keys[i])); (err == nil) != want {
			t.Errorf("program %d kept %v, want %v", i, err == nil, want)
		}
	}
	if b, err := os.ReadFile(c.lutPath()); err != nil || string(b) != "not pruned" {
		t.Errorf("the table's file: %q, %v", b, err)
	}
}
