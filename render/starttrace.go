package render

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// traceStart (PHYSVIEW_TRACE_START=1) prints on stderr, for each step of
// the way to the first textured frame, the wall time and the process's CPU
// time (every thread) since the program's start: what the critical path
// is made of (docs/benchmarks.md, "First textured frame"). It ends at
// EndTraceStart, so that the frames after the start print nothing.
var traceStart atomic.Bool

func init() { traceStart.Store(os.Getenv("PHYSVIEW_TRACE_START") == "1") }

var (
	traceMu    sync.Mutex
	traceEpoch = time.Now()
)

// TraceStart prints one step of the start (PHYSVIEW_TRACE_START=1); it
// does nothing otherwise.
func TraceStart(format string, args ...any) {
	if !traceStart.Load() {
		return
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	traceMu.Lock()
	fmt.Fprintf(os.Stderr, "trace %5d ms %5d cpu  %s\n", time.Since(traceEpoch).Milliseconds(), cpu.Milliseconds(), fmt.Sprintf(format, args...))
	traceMu.Unlock()
}

// EndTraceStart ends the start's trace (the window calls it at its
// full-resolution frame).
func EndTraceStart() { traceStart.Store(false) }
