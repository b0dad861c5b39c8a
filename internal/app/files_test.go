package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/qmuntal/gltf"

	"physview/scene"
)

func TestLocalFileAndWatchedFiles(t *testing.T) {
	cases := []struct{ uri, want string }{
		{"scene.bin", "/m/scene.bin"},
		{"tex/a%20b.png", "/m/tex/a b.png"},
		{"data:application/octet-stream;base64,AAAA", ""},
		{"https://example.com/x.bin", ""},
		{"/etc/passwd", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := localFile("/m/scene.gltf", c.uri); got != c.want {
			t.Errorf("localFile(%q) = %q, want %q", c.uri, got, c.want)
		}
	}

	dir := t.TempDir()
	text, bin := boxGLTF([4]float64{1, 0, 0, 1}, "box.bin")
	p := filepath.Join(dir, "box.gltf")
	os.WriteFile(p, text, 0o644)
	os.WriteFile(filepath.Join(dir, "box.bin"), bin, 0o644)
	d, err := scene.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := watchedFiles(d), []string{p, filepath.Join(dir, "box.bin")}; !reflect.DeepEqual(got, want) {
		t.Errorf("watchedFiles = %v, want %v", got, want)
	}
	// An image in a folder that is not there (the textures of a file
	// saved as .glb elsewhere) is left out; one in the file's folder that
	// is not there yet stays watched.
	d.GLTF.Images = append(d.GLTF.Images, &gltf.Image{URI: "textures/gone.png"}, &gltf.Image{URI: "later.png"})
	if got, want := watchedFiles(d), []string{p, filepath.Join(dir, "box.bin"), filepath.Join(dir, "later.png")}; !reflect.DeepEqual(got, want) {
		t.Errorf("watchedFiles with a missing folder = %v, want %v", got, want)
	}
	if got := bufferFiles(p, text); !reflect.DeepEqual(got, []string{filepath.Join(dir, "box.bin")}) {
		t.Errorf("bufferFiles = %v", got)
	}
}

func TestReadDocumentProgressAndCancel(t *testing.T) {
	dir := t.TempDir()
	text, bin := boxGLTF([4]float64{1, 0, 0, 1}, "box.bin")
	p := filepath.Join(dir, "box.gltf")
	os.WriteFile(p, text, 0o644)
	os.WriteFile(filepath.Join(dir, "box.bin"), bin, 0o644)

	l := &Load{Path: p}
	d, err := readDocument(context.Background(), l)
	if err != nil || len(d.GLTF.Nodes) != 1 {
		t.Fatalf("readDocument: %v", err)
	}
	if want := int64(len(text) + len(bin)); l.read.Load() != want || l.total.Load() != want {
		t.Errorf("progress %d of %d bytes, want %d of %d", l.read.Load(), l.total.Load(), want, want)
	}

	// Cancelled while reading a large file: stops before the end (reading
	// is slowed to 8 MB/s, so the whole file would take 3 s; no wall-clock
	// limit, which a loaded CI machine would break).
	big := filepath.Join(dir, "big.glb")
	const size = 24 << 20
	os.WriteFile(big, bigGLB(size), 0o644)
	t.Setenv("PHYSVIEW_TEST_READ_MBPS", "8")
	ctx, cancel := context.WithCancel(context.Background())
	l = &Load{Path: big}
	time.AfterFunc(300*time.Millisecond, cancel)
	if _, err := readDocument(ctx, l); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load: err = %v", err)
	}
	if n := l.read.Load(); n >= size {
		t.Errorf("cancel came after the whole file (%d bytes) was read", n)
	}
}

func TestReloadRetriesHalfWrittenFile(t *testing.T) {
	dir := t.TempDir()
	text, bin := boxGLTF([4]float64{0, 1, 0, 1}, "box.bin")
	p := filepath.Join(dir, "box.gltf")
	os.WriteFile(filepath.Join(dir, "box.bin"), bin, 0o644)
	os.WriteFile(p, text[:len(text)/2], 0o644)
	// The exporter finishes the file a moment later.
	time.AfterFunc(reloadRetryDelay+reloadRetryDelay/2, func() { os.WriteFile(p, text, 0o644) })
	l := &Load{Path: p, keep: &keepView{}}
	d, err := readDocument(context.Background(), l)
	if err != nil || len(d.GLTF.Nodes) != 1 {
		t.Fatalf("reload of a file completed during the retries: %v", err)
	}
	// A plain open reports a broken file at once.
	os.WriteFile(p, text[:len(text)/2], 0o644)
	start := time.Now()
	if _, err := readDocument(context.Background(), &Load{Path: p}); err == nil || time.Since(start) > reloadRetryDelay {
		t.Errorf("open of a broken file: err %v after %v", err, time.Since(start))
	}
}

// TestLoadShownAfterAFrame: a load that finishes before the window drew a
// frame since it started (the frame that started it still showed the file
// browser) is shown at the second Poll, not the first; one that finishes
// later is shown at the first Poll after it finished; one that finishes
// while HoldLoads is set is shown at the first Poll without it.
func TestLoadShownAfterAFrame(t *testing.T) {
	for _, tc := range []struct {
		name        string
		pollsBefore int // Polls while the file is read
		held        int // the first Polls after the read with HoldLoads set
		wantShownAt int // the Poll after the read that shows it
	}{
		{"finished before any frame", 0, 0, 2},
		{"finished after one frame", 1, 0, 1},
		{"finished after two frames", 2, 0, 1},
		{"after two frames, two frames late", 2, 2, 3},
		{"before any frame, three frames late", 0, 3, 4},
	} {
		s := New()
		s.Open("../concave/testdata/u.glb")
		l := s.Loading()
		if l == nil {
			t.Fatalf("%s: Open started no load", tc.name)
		}
		for i := 0; i < tc.pollsBefore; i++ {
			// Frames drawn while the file is read (the results wait on
			// the channel until the next Poll takes them).
			l.polls++
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(s.files.done) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the load did not finish", tc.name)
			}
			time.Sleep(5 * time.Millisecond)
		}
		shownAt := 0
		for i := 1; i <= 5 && shownAt == 0; i++ {
			s.HoldLoads = i <= tc.held
			s.Poll()
			if s.Doc != nil && s.Loading() == nil {
				shownAt = i
			} else if i <= tc.held && !s.LoadHeld() {
				t.Errorf("%s: Poll %d held the load but LoadHeld is false", tc.name, i)
			}
		}
		if shownAt != tc.wantShownAt {
			t.Errorf("%s: shown at Poll %d after the read, want %d", tc.name, shownAt, tc.wantShownAt)
		}
		if s.Doc == nil || len(s.Doc.GLTF.Nodes) != 2 {
			t.Errorf("%s: document not shown after the Polls", tc.name)
		}
		s.Close()
	}
}
