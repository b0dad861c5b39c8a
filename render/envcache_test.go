package render

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain keeps the package's tests out of the user's cache: the
// environments they prefilter go to a temporary directory, or to
// PHYSVIEW_TEST_CACHE_DIR when set (to run the golden images again on a
// warm cache).
func TestMain(m *testing.M) {
	dir := os.Getenv("PHYSVIEW_TEST_CACHE_DIR")
	if dir == "" {
		tmp, err := os.MkdirTemp("", "physview-envcache-test")
		if err != nil {
			panic(err)
		}
		dir = tmp
	}
	os.Setenv(CacheDirEnv, dir)
	code := m.Run()
	if dir != os.Getenv("PHYSVIEW_TEST_CACHE_DIR") {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// The environment and table the cache tests store, computed once.
var (
	testEnvOnce sync.Once
	testEnv     *envMaps
	testLUT     *brdfLUT
)

const testEnvironment = EnvOutdoor

func computedEnv(tb testing.TB) (*envMaps, *brdfLUT) {
	testEnvOnce.Do(func() {
		testEnv = prefilter(radianceFunc(testEnvironment))
		testLUT = computeLUT(lutSize, lutSamples)
		tb.Logf("computed: environment %v, table %v", testEnv.elapsed, testLUT.elapsed)
	})
	return testEnv, testLUT
}

// sameBits reports the first float whose bits differ, or -1.
func sameBits(a, b []float32) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

func checkSameEnv(t *testing.T, got, want *envMaps) {
	t.Helper()
	for level := range want.specular {
		for f := range want.specular[level] {
			if i := sameBits(got.specular[level][f], want.specular[level][f]); i >= 0 {
				t.Fatalf("level %d face %d differs at float %d (lengths %d, %d)", level, f, i, len(got.specular[level][f]), len(want.specular[level][f]))
			}
		}
	}
	for k := range want.sh {
		if i := sameBits(got.sh[k][:], want.sh[k][:]); i >= 0 {
			t.Fatalf("irradiance term %d differs: %v, want %v", k, got.sh[k], want.sh[k])
		}
	}
}

func TestExecutableBuildID(t *testing.T) {
	start := time.Now()
	id, err := executableBuildID()
	d := time.Since(start)
	if err != nil || id == "" {
		t.Fatalf("build ID %q, %v", id, err)
	}
	// The fastest of a few reads: a loaded machine can take the CPU
	// away from one of them for longer than the bound.
	for range 4 {
		start := time.Now()
		executableBuildID()
		d = min(d, time.Since(start))
	}
	t.Logf("build ID %s read in %v", id, d)
	if d > 50*time.Millisecond {
		t.Errorf("reading the build ID took %v", d)
	}
	if again, _ := executableBuildID(); again != id {
		t.Errorf("build ID %q then %q", id, again)
	}
}

func TestParseGoBuildIDNote(t *testing.T) {
	note := func(name string, typ uint32, desc string) []byte {
		var b []byte
		b = binary.LittleEndian.AppendUint32(b, uint32(len(name)+1))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(desc)))
		b = binary.LittleEndian.AppendUint32(b, typ)
		b = append(b, name...)
		for len(b)%4 != 0 || len(b) < 12+len(name)+1 {
			b = append(b, 0)
		}
		b = append(b, desc...)
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		return b
	}
	for _, c := range []struct {
		name string
		note []byte
		want string
		ok   bool
	}{
		{"go note", note("Go", 4, "abc/def"), "abc/def", true},
		{"as the linker pads it", note("Go\x00", 4, "abc/def"), "abc/def", true},
		{"after another note", append(note("GNU", 3, "xxxxxxxx"), note("Go", 4, "id")...), "id", true},
		{"other type", note("Go", 1, "abc"), "", false},
		{"other name", note("GNU", 4, "abc"), "", false},
		{"truncated", note("Go", 4, "abcdefgh")[:18], "", false},
		{"empty", nil, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseGoBuildIDNote(c.note, binary.LittleEndian)
			if got != c.want || (err == nil) != c.ok {
				t.Errorf("got %q, %v; want %q, ok %v", got, err, c.want, c.ok)
			}
		})
	}
}

// TestEnvCacheRoundTrip: what is stored loads back bit for bit, as a hit
// of cachedPrefilter and cachedLUT too.
func TestEnvCacheRoundTrip(t *testing.T) {
	want, wantLUT := computedEnv(t)
	c := newEnvDiskCache(t.TempDir(), "test-build")
	if _, err := c.loadEnv(testEnvironment); err == nil {
		t.Fatal("an empty cache hit")
	}
	if err := c.storeEnv(testEnvironment, want); err != nil {
		t.Fatal(err)
	}
	if err := c.storeLUT(wantLUT); err != nil {
		t.Fatal(err)
	}
	got, err := c.loadEnv(testEnvironment)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded in %v", got.elapsed)
	if got.elapsed <= 0 {
		t.Error("no load time")
	}
	checkSameEnv(t, got, want)
	checkSameEnv(t, cachedPrefilter(c, testEnvironment), want)
	if _, err := c.loadEnv(EnvStudio); err == nil {
		t.Error("another environment hit")
	}
	l, err := c.loadLUT()
	if err != nil {
		t.Fatal(err)
	}
	if i := sameBits(l.data, wantLUT.data); i >= 0 {
		t.Fatalf("table differs at float %d", i)
	}
	if i := sameBits(cachedLUT(c).data, wantLUT.data); i >= 0 {
		t.Fatalf("cachedLUT differs at float %d", i)
	}
}

// TestEnvCacheCorrupt: a damaged file or one of another key is a miss,
// and cachedPrefilter then computes the same data and rewrites the file.
func TestEnvCacheCorrupt(t *testing.T) {
	want, _ := computedEnv(t)
	for _, c := range []struct {
		name   string
		damage func(b []byte, other []byte) []byte
	}{
		{"truncated", func(b, _ []byte) []byte { return b[:len(b)-100] }},
		{"header only", func(b, _ []byte) []byte { return b[:envCacheHeader] }},
		{"empty", func(b, _ []byte) []byte { return nil }},
		{"longer", func(b, _ []byte) []byte { return append(b, 0, 0, 0, 0) }},
		{"payload byte flipped", func(b, _ []byte) []byte { b[envCacheHeader+len(b)/2] ^= 1; return b }},
		{"checksum flipped", func(b, _ []byte) []byte { b[len(b)-1] ^= 0x80; return b }},
		{"magic", func(b, _ []byte) []byte { b[0] = 'P'; return b }},
		{"format", func(b, _ []byte) []byte { b[8]++; return b }},
		{"other key", func(_, other []byte) []byte { return other }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cache := newEnvDiskCache(dir, "test-build")
			if err := cache.storeEnv(testEnvironment, want); err != nil {
				t.Fatal(err)
			}
			other := newEnvDiskCache(t.TempDir(), "another-build")
			if err := other.storeEnv(testEnvironment, want); err != nil {
				t.Fatal(err)
			}
			path := cache.envPath(testEnvironment)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ob, err := os.ReadFile(other.envPath(testEnvironment))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, c.damage(bytes.Clone(b), ob), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := cache.loadEnv(testEnvironment); err == nil {
				t.Fatal("a damaged file was used")
			} else {
				t.Log(err)
			}
			checkSameEnv(t, cachedPrefilter(cache, testEnvironment), want)
			got, err := cache.loadEnv(testEnvironment)
			if err != nil {
				t.Fatalf("not rewritten: %v", err)
			}
			checkSameEnv(t, got, want)
			if nb, _ := os.ReadFile(path); !bytes.Equal(nb, b) {
				t.Error("the rewritten file differs from the first one")
			}
		})
	}
}

// TestEnvCacheNotAFile: what stands at a cache file's name and is not a
// regular file (a FIFO no one writes to, a link to a device that never
// ends, a folder) is a miss at once, and the table is computed and stored
// over it (a folder stays).
func TestEnvCacheNotAFile(t *testing.T) {
	_, wantLUT := computedEnv(t)
	for _, c := range []struct {
		name string
		make func(path string) error
	}{
		{"fifo", func(path string) error { return syscall.Mkfifo(path, 0o644) }},
		{"device", func(path string) error { return os.Symlink("/dev/zero", path) }},
		{"folder", func(path string) error { return os.Mkdir(path, 0o755) }},
	} {
		cache := newEnvDiskCache(t.TempDir(), "test-build")
		if err := os.MkdirAll(cache.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := cache.lutPath()
		if err := c.make(path); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := make(chan error, 1)
		go func() {
			_, err := cache.loadLUT()
			got <- err
		}()
		select {
		case err := <-got:
			if err == nil {
				t.Errorf("%s: read as a table", c.name)
			}
		case <-time.After(2 * time.Second):
			// Unblock the read (a writer for the FIFO) before failing.
			if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			t.Fatalf("%s: the read did not end within 2 s", c.name)
		}
		if i := sameBits(cachedLUT(cache).data, wantLUT.data); i >= 0 {
			t.Errorf("%s: table differs at float %d", c.name, i)
		}
		if _, err := cache.loadLUT(); (err == nil) == (c.name == "folder") {
			t.Errorf("%s: after the store, read back: %v", c.name, err)
		}
	}
}

// TestEnvCacheDir: where the cache goes, and "off" writes nothing.
func TestEnvCacheDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	t.Setenv("HOME", home)
	t.Chdir(home) // so that "off" taken as a relative folder would show

	t.Setenv(CacheDirEnv, "")
	if c := envCacheFromEnv(); c == nil || c.dir != filepath.Join(home, "physview") {
		t.Errorf("default cache %+v, want in %s", c, filepath.Join(home, "physview"))
	}
	own := filepath.Join(t.TempDir(), "own")
	t.Setenv(CacheDirEnv, own)
	if c := envCacheFromEnv(); c == nil || c.dir != own {
		t.Errorf("cache %+v, want in %s", c, own)
	}

	t.Setenv(CacheDirEnv, "off")
	c := envCacheFromEnv()
	if c != nil {
		t.Fatalf("cache %+v with %s=off", c, CacheDirEnv)
	}
	_, wantLUT := computedEnv(t)
	if i := sameBits(cachedLUT(c).data, wantLUT.data); i >= 0 {
		t.Fatalf("table without a cache differs at float %d", i)
	}
	ents, _ := os.ReadDir(home)
	if len(ents) != 0 {
		t.Errorf("%s=off wrote %v", CacheDirEnv, ents)
	}
}

// TestEnvCacheUnwritable: a directory that cannot be made only costs the
// computing.
func TestEnvCacheUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newEnvDiskCache(filepath.Join(file, "cache"), "test-build")
	_, wantLUT := computedEnv(t)
	if err := c.storeLUT(wantLUT); err == nil {
		t.Fatal("stored under a regular file")
	}
	if i := sameBits(cachedLUT(c).data, wantLUT.data); i >= 0 {
		t.Fatalf("table differs at float %d", i)
	}
}

// TestEnvCachePrune: writing removes the files of other builds and old
// temporary files, and nothing else.
func TestEnvCachePrune(t *testing.T) {
	dir := t.TempDir()
	c := newEnvDiskCache(dir, "test-build")
	// Three other generations, written 1, 2 and 3 days ago: the two most
	// recent stay beside the current one, the oldest goes.
	g1, g2, g3 := "1111111111111111", "2222222222222222", "3333333333333333"
	for _, g := range []string{g1, g2, g3} {
		if g == c.gen {
			t.Fatal("the test's other generation is the current one")
		}
	}
	day := 24 * time.Hour
	now := time.Now()
	files := []struct {
		name   string
		age    time.Duration
		remove bool
	}{
		{"env-" + g1 + "-studio.bin", day, false},
		{"lut-" + g1 + ".bin", day, false},
		{"env-" + g2 + "-outdoor.bin", 2 * day, false},
		{"env-" + g3 + "-studio.bin", 3 * day, true},
		{"lut-" + g3 + ".bin", 3 * day, true},
		{"lut-" + g3 + ".bin.tmp123", 0, false},                       // another process writing it
		{"lut-" + g3 + ".bin.tmp124", 2 * staleTemp, true},            // left behind
		{"env-" + c.gen + "-studio.bin", 4 * day, false},              // the current one, however old
		{"env-" + c.gen + "-studio.bin.tmp456", 0, false},             // another process writing it
		{"env-" + c.gen + "-outdoor.bin.tmp789", 2 * staleTemp, true}, // left behind
		{"notes.txt", 5 * day, false},
		{"env-mine.bin", 5 * day, false},
		{"env-" + g3 + "-studio.bin.bak", 5 * day, false},
		{"ENV-" + g3 + "-studio.bin", 5 * day, false},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-f.age), now.Add(-f.age)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "lut-"+g3+".bin.tmp1"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, l := computedEnv(t)
	if err := c.storeLUT(l); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		if gone := os.IsNotExist(err); gone != f.remove {
			t.Errorf("%s: removed %v, want %v", f.name, gone, f.remove)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "lut-"+g3+".bin.tmp1")); err != nil {
		t.Error("a directory was removed")
	}
	if _, err := c.loadLUT(); err != nil {
		t.Error(err)
	}
}

// TestEnvCacheRace: writers of the same file at once all succeed and leave
// a whole file and no temporary ones.
func TestEnvCacheRace(t *testing.T) {
	dir := t.TempDir()
	want, _ := computedEnv(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = newEnvDiskCache(dir, "test-build").storeEnv(testEnvironment, want)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	got, err := newEnvDiskCache(dir, "test-build").loadEnv(testEnvironment)
	if err != nil {
		t.Fatal(err)
	}
	checkSameEnv(t, got, want)
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if len(names) != 1 {
		t.Errorf("files after the race: %v", names)
	}
}

// BenchmarkEnvironmentCompute and BenchmarkEnvironmentCached are the cost
// of one environment and the BRDF table, without and with the cache
// (the cached one includes reading the build ID, as a process does).
func BenchmarkEnvironmentCompute(b *testing.B) {
	for b.Loop() {
		prefilter(radianceFunc(EnvStudio))
		computeLUT(lutSize, lutSamples)
	}
}

func BenchmarkEnvironmentCached(b *testing.B) {
	dir := b.TempDir()
	id, err := executableBuildID()
	if err != nil {
		b.Fatal(err)
	}
	c := newEnvDiskCache(dir, id)
	cachedPrefilter(c, EnvStudio)
	cachedLUT(c)
	for b.Loop() {
		id, _ := executableBuildID()
		c := newEnvDiskCache(dir, id)
		if _, err := c.loadEnv(EnvStudio); err != nil {
			b.Fatal(err)
		}
		if _, err := c.loadLUT(); err != nil {
			b.Fatal(err)
		}
	}
}
