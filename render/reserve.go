package render

import (
	"fmt"
	"time"
	"unsafe"
)

// Faulting in the pages of a texture's storage ahead, off the frame.
//
// llvmpipe allocates a texture's whole mipmap chain at glTexStorage2D
// and clears it: for a 2048x2048 image 22.4 MB, 5,460 page faults, 14-40
// ms on the frame's thread (the rows uploaded after it cost 0.1 ms each
// 512 KB). Memory the process already faulted in and freed costs only
// the clearing: 1.4 ms. So while the window uploads textures, malloc
// serves requests up to 32 MB from its heap and keeps what is freed
// (heapForStorage), and a worker thread allocates the next storage's size
// and writes into each of its pages (the kernel maps and clears them
// there, on the other core); the frame then frees that block just before
// glTexStorage2D, whose allocation takes it over. Once a document's
// textures are all up, the heap gives its free memory back (heapDefault).

// storageReserve is a block of memory being faulted in for the driver's
// next texture storage.
type storageReserve struct {
	p     unsafe.Pointer
	size  int
	ready chan struct{} // closed once its pages are in
	// waited is when a storage step first found it not ready.
	waited time.Time
}

const (
	// minReserve: below it a storage's faults cost less than a
	// millisecond or two, not worth a frame's wait.
	minReserve = 4 << 20
	// maxReserve: malloc serves larger requests with an mmap of their
	// own whatever its heap holds (M_MMAP_THRESHOLD's limit, 32 MB).
	maxReserve = 30 << 20
	// maxReserveWait bounds how long a storage waits for its reserve (a
	// busy machine may leave the worker without CPU): after that it is
	// allocated on the frame, as without one.
	maxReserveWait = 250 * time.Millisecond
)

// reserveFor is the size of the block reserved for a storage of bytes:
// llvmpipe aligns each level, and what is left over stays faulted in for
// the next one.
func reserveFor(bytes int) int { return bytes + bytes/16 + 1<<20 }

// nextStorage is the size of the next texture storage the uploads will
// allocate, 0 when none is known.
func (r *Renderer) nextStorage() int {
	chain := func(di *decodedImage) int {
		if di == nil || di.err != nil || di.img == nil {
			return 0
		}
		return di.img.Width * di.img.Height * 4 * 4 / 3
	}
	if u := r.current; u != nil {
		if u.tex == nil && len(u.keys) > 0 || u.tex != nil && len(u.keys) > 1 {
			return chain(u.di)
		}
	}
	if len(r.queue) > 0 {
		return chain(r.queue[0])
	}
	// Not the whole images waiting in later: their pages would be
	// faulted in while the first picture is drawn.
	return 0
}

// reserveNext starts faulting in the next storage's pages on a worker
// thread, unless a reserve is under way or the storage is too small or
// too large for it.
func (r *Renderer) reserveNext() {
	if r.reserve != nil {
		return
	}
	bytes := r.nextStorage()
	if bytes < minReserve || reserveFor(bytes) > maxReserve || !heapForStorage() {
		return
	}
	r.heapUsed = true
	n := reserveFor(bytes)
	p := cAlloc(n) // on the GL thread: from the heap the driver allocates from
	if p == nil {
		return
	}
	res := &storageReserve{p: p, size: n, ready: make(chan struct{})}
	r.reserve = res
	go func() {
		defer close(res.ready)
		defer func() {
			_ = recover() // the storage is then allocated on the frame
		}()
		// At the decoders' lower priority (BackgroundDecoding): at the
		// frames' it took the CPU of the swap's rasteriser threads. On a
		// busy machine the storage then waits up to maxReserveWait.
		if BackgroundDecoding {
			lowerThreadPriority()
		}
		touchPages(p, n)
	}()
}

// storageMayStart reports whether a texture storage of bytes may be
// allocated now: its reserve's pages are in (the block is then freed for
// the driver to take), or there is none, or it was waited for too long.
func (r *Renderer) storageMayStart(bytes int) bool {
	res := r.reserve
	if bytes < minReserve {
		return true // a small one does not wait (the block stays for the next)
	}
	if res == nil {
		// The first of a run (the whole images): reserved now, taken
		// in a later frame.
		r.reserveNext()
		return r.reserve == nil
	}
	select {
	case <-res.ready:
		// Freed here, on the GL thread, just before the driver's
		// allocation takes the block over.
		r.reserve = nil
		cFree(res.p)
		r.reserved = true
		return true
	default:
	}
	if res.waited.IsZero() {
		res.waited = time.Now()
	}
	if time.Since(res.waited) < maxReserveWait {
		r.blocked = res
		return false
	}
	r.dropReserve()
	return true
}

// UploadWait returns, when the last Poll's uploads stopped at a texture
// storage whose reserve's pages are still being faulted in, a channel
// closed once they are in; else nil. The window waits on it (at most a
// part of a frame) rather than drawing frames that can upload nothing
// meanwhile: each costs the GL thread and the rasteriser 5-15 ms of CPU
// that the worker faulting in the pages, and the decoders, need.
func (r *Renderer) UploadWait() <-chan struct{} {
	if res := r.blocked; res != nil && res == r.reserve {
		return res.ready
	}
	return nil
}

// dropReserve lets go of the reserve under way (freed once its worker is
// done).
func (r *Renderer) dropReserve() {
	if res := r.reserve; res != nil {
		r.reserve = nil
		go func() {
			<-res.ready
			cFree(res.p)
		}()
	}
}

// uploadsEnded gives the heap's free memory back once every texture of
// the document is up.
func (r *Renderer) uploadsEnded() {
	if r.heapUsed {
		r.heapUsed = false
		s := time.Now()
		heapDefault()
		if r.NoteSteps {
			r.Notes = append(r.Notes, fmt.Sprintf("heap trimmed %.1f ms", float64(time.Since(s).Microseconds())/1000))
		}
	}
}

// noteStep records an upload step that took d and faults page faults for
// the window's frame lines (NoteSteps).
func (r *Renderer) noteStep(begun bool, bytes int, d time.Duration, faults int64) {
	kind := "rows"
	if bytes == 0 {
		// An image complete: its pixels unmapped, the preview's
		// textures deleted.
		r.Notes = append(r.Notes, fmt.Sprintf("image done %.1f ms", float64(d.Microseconds())/1000))
		return
	}
	if begun {
		kind = "storage"
		if r.reserved {
			kind = "reserved storage"
		}
		r.reserved = false
	}
	note := fmt.Sprintf("%s %.1f MB %.1f ms", kind, float64(bytes)/(1<<20), float64(d.Microseconds())/1000)
	if begun {
		note += fmt.Sprintf(" %d faults", faults) // the page faults on the frame's thread
	}
	r.Notes = append(r.Notes, note)
}
