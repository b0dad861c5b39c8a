//go:build !linux

package render

// lowerThreadPriority does nothing here: the decoders run at the
// process's priority.
func lowerThreadPriority() {}
