package render

import (
	"runtime"
	"syscall"
)

// lowerThreadPriority runs the calling goroutine, for the rest of its
// life, on an OS thread of its own whose nice value is raised by 5 (the
// thread ends with the goroutine, and its priority with it). A failure
// leaves the priority as it was.
func lowerThreadPriority() {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return
	}
	nice := 20 - raw // the raw system call returns 20 - nice
	syscall.Setpriority(syscall.PRIO_PROCESS, tid, min(19, nice+5))
}
