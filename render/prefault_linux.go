//go:build linux && cgo

package render

/*
#include <stdlib.h>
#include <malloc.h>

// pv_heap_storage makes glibc's malloc serve requests up to 32 MB (a
// 2048x2048 RGBA chain is 22.4 MB) from the heap rather than with a
// fresh mmap each, and keep up to 1 GB of freed memory at the heap's top
// instead of giving it back at once. It returns 0 where that is not
// glibc's malloc.
static int pv_heap_storage(void) {
#if defined(__GLIBC__)
	if (!mallopt(M_MMAP_THRESHOLD, 32 << 20)) return 0;
	if (!mallopt(M_TRIM_THRESHOLD, 1 << 30)) return 0;
	return 1;
#else
	return 0;
#endif
}

// pv_heap_default puts back glibc's default thresholds (large requests
// mmap'd, the heap's top given back on free) and gives the heap's free
// memory back to the system.
static void pv_heap_default(void) {
#if defined(__GLIBC__)
	mallopt(M_MMAP_THRESHOLD, 128 << 10);
	mallopt(M_TRIM_THRESHOLD, 128 << 10);
	malloc_trim(0);
#endif
}

// pv_touch writes a byte into every page of p[0:n], so that the kernel
// maps (and clears) them now.
static void pv_touch(char *p, size_t n) {
	for (size_t i = 0; i < n; i += 4096) p[i] = 0;
	if (n > 0) p[n - 1] = 0;
}
*/
import "C"

import (
	"sync"
	"syscall"
	"unsafe"
)

var heapMode struct {
	sync.Mutex
	on, failed bool
}

// heapForStorage switches malloc to serving texture storage from its heap
// (pv_heap_storage), once; it reports whether that holds.
func heapForStorage() bool {
	heapMode.Lock()
	defer heapMode.Unlock()
	if !heapMode.on && !heapMode.failed {
		heapMode.on = C.pv_heap_storage() != 0
		heapMode.failed = !heapMode.on
	}
	return heapMode.on
}

// heapDefault puts malloc's thresholds back and gives the memory freed
// meanwhile back to the system, once the storage of a document's
// textures is allocated.
func heapDefault() {
	heapMode.Lock()
	defer heapMode.Unlock()
	if heapMode.on {
		C.pv_heap_default()
		heapMode.on = false
	}
}

// heapInStorage reports whether malloc is in the mode heapForStorage set.
func heapInStorage() bool {
	heapMode.Lock()
	defer heapMode.Unlock()
	return heapMode.on
}

// cAlloc allocates n bytes with the C library's malloc on the calling
// thread (nil when it fails).
func cAlloc(n int) unsafe.Pointer { return C.malloc(C.size_t(n)) }

// cFree frees what cAlloc returned.
func cFree(p unsafe.Pointer) { C.free(p) }

// touchPages faults in every page of p[0:n].
func touchPages(p unsafe.Pointer, n int) { C.pv_touch((*C.char)(p), C.size_t(n)) }

// threadFaults is how many page faults the calling thread took that
// mapped a page (RUSAGE_THREAD), for the frame lines.
func threadFaults() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru) != nil {
		return 0
	}
	return ru.Minflt
}
