//go:build unix

package render

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used so far, every thread
// (the driver's rasteriser threads too): a measure of a frame's work that
// other jobs on the machine move less than its wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
