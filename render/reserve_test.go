package render

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/render/imgdec"
	"physview/scene"
)

// minorFaults is the process's count of page faults that mapped a page.
func minorFaults() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Minflt
}

// TestStorageReserve: a 2048x2048 texture's storage allocated after its
// reserve was faulted in by the worker takes its pages over (a few dozen
// faults on the GL thread instead of the chain's 5,460), and its rows and
// levels are the image's.
//
// It measures in a fresh process of its own (the test binary run again for
// this test alone), as the window is: after the package's other tests the
// test's thread may share its malloc arena with many llvmpipe threads of
// earlier contexts, whose allocations can take the freed block first.
func TestStorageReserve(t *testing.T) {
	if os.Getenv("PHYSVIEW_RESERVE_CHILD") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStorageReserve$", "-test.v")
		cmd.Env = append(os.Environ(), "PHYSVIEW_RESERVE_CHILD=1")
		out, err := cmd.CombinedOutput()
		t.Logf("%s", out)
		if err != nil {
			t.Fatalf("the test in its own process: %v", err)
		}
		return
	}
	headless(t)
	img := patternImage(2048, 2048)
	levels := imgdec.Mipmaps(img)
	r := &Renderer{}
	r.queue = []*decodedImage{{img: img, levels: levels}}
	cases := []struct {
		name    string
		reserve bool
	}{{"without", false}, {"with", true}, {"with again", true}}
	var faults [3]int64
	for i, c := range cases {
		if c.reserve {
			r.reserveNext()
			if r.reserve == nil {
				t.Skip("malloc's heap cannot be set up for it here (not glibc)")
			}
			select {
			case <-r.reserve.ready:
			case <-time.After(10 * time.Second):
				t.Fatal("the reserve's pages were not in after 10 s")
			}
			if !r.storageMayStart(22<<20) || r.reserve != nil {
				t.Fatal("the storage may not start with its reserve ready")
			}
		}
		f0, s := minorFaults(), time.Now()
		tu := beginTexture(img, levels, nil, false)
		gl.Finish()
		faults[i] = minorFaults() - f0
		t.Logf("%s a reserve: storage in %v, %d page faults", c.name, time.Since(s), faults[i])
		for !tu.step(uploadBand) {
		}
		if got := texLevel(tu.id, 3, 256, 256); string(got) != string(levels[2].Pix) {
			t.Errorf("%s a reserve: level 3 differs from the image's", c.name)
		}
		gl.DeleteTextures(1, &tu.id)
	}
	r.uploadsEnded()
	// Without one the count depends on what the heap holds from the
	// tests before (5,460 in a fresh process: the driver clears the
	// whole chain), so it is only logged.
	for i := 1; i < 3; i++ {
		if faults[i] > 200 {
			t.Errorf("%s a reserve: %d page faults on the GL thread, want under 200", cases[i].name, faults[i])
		}
	}
}

// TestReserveHeapRestored: a renderer let go of while a texture storage's
// reserve is under way (its window closed, the comparison closed, another
// document shown) puts malloc's thresholds back (heapDefault) and drops
// the reserve: otherwise the process kept up to 1 GB of freed memory
// until some later document's uploads ended.
func TestReserveHeapRestored(t *testing.T) {
	headless(t)
	d, err := scene.Decode([]byte(sharedFile(3, triangleBuffer)), nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		letGo  func(r *Renderer)
		delete bool
	}{
		{"deleted", func(r *Renderer) { r.Delete() }, false},
		{"another document shown", func(r *Renderer) { r.SetDocument(d) }, true},
	}
	for _, c := range cases {
		r, err := New()
		if err != nil {
			t.Fatal(err)
		}
		img := patternImage(2048, 2048)
		r.queue = []*decodedImage{{img: img, levels: imgdec.Mipmaps(img)}}
		r.reserveNext()
		if r.reserve == nil {
			r.Delete()
			t.Skip("malloc's heap cannot be set up for it here (not glibc)")
		}
		if !heapInStorage() {
			t.Fatalf("%s: the heap is not in storage mode with a reserve under way", c.name)
		}
		c.letGo(r)
		if heapInStorage() {
			t.Errorf("%s: malloc's thresholds still in storage mode after the renderer let go of its uploads", c.name)
		}
		if r.reserve != nil || r.heapUsed {
			t.Errorf("%s: reserve %v, heapUsed %v after; want none", c.name, r.reserve != nil, r.heapUsed)
		}
		if c.delete {
			r.Delete()
		}
	}
}

// TestUploadWait: uploads that stop at a storage whose reserve's pages
// are still being faulted in give the window the reserve's channel to
// wait on (rather than frames that can upload nothing); none once the
// pages are in, nor after a frame that took no step, nor for a reserve
// waited for past maxReserveWait (the storage is then allocated at once).
func TestUploadWait(t *testing.T) {
	img := patternImage(2048, 2048)
	r := &Renderer{}
	r.queue = []*decodedImage{{img: img}}
	res := &storageReserve{ready: make(chan struct{})}
	r.reserve = res

	if n := r.uploadSome(10 * time.Millisecond); n != 0 || r.current != nil {
		t.Fatalf("uploads went on while the reserve's pages were not in: %d done, current %v", n, r.current != nil)
	}
	if got := r.UploadWait(); got != (<-chan struct{})(res.ready) {
		t.Fatalf("UploadWait = %v with the storage waiting for its reserve, want the reserve's channel", got)
	}
	r.uploadSome(-1)
	if got := r.UploadWait(); got != nil {
		t.Errorf("UploadWait = %v after a frame that took no step, want nil", got)
	}
	r.uploadSome(10 * time.Millisecond)
	if r.UploadWait() == nil {
		t.Fatal("UploadWait = nil with the storage still waiting")
	}
	close(res.ready)
	if !r.storageMayStart(22 << 20) {
		t.Fatal("the storage may not start once its reserve's pages are in")
	}
	if got := r.UploadWait(); got != nil {
		t.Errorf("UploadWait = %v once the pages are in, want nil", got)
	}

	// A reserve waited for too long is dropped: no wait.
	r2 := &Renderer{}
	r2.queue = []*decodedImage{{img: img}}
	late := &storageReserve{ready: make(chan struct{}), waited: time.Now().Add(-2 * maxReserveWait)}
	r2.reserve = late
	defer close(late.ready)
	if !r2.storageMayStart(22<<20) || r2.UploadWait() != nil {
		t.Errorf("a reserve waited for past maxReserveWait: the storage waits, or UploadWait is not nil")
	}
}
