//go:build !linux || !cgo

package render

import "unsafe"

// Elsewhere the driver's storage is allocated as it comes (prefault_linux.go).
func heapForStorage() bool           { return false }
func heapDefault()                   {}
func heapInStorage() bool            { return false }
func cAlloc(int) unsafe.Pointer      { return nil }
func cFree(unsafe.Pointer)           {}
func touchPages(unsafe.Pointer, int) {}
func threadFaults() int64            { return 0 }
