package render

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

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
