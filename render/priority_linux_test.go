package render

import (
	"syscall"
	"testing"
)

// TestLowerThreadPriority: the calling goroutine's thread runs 5 nice
// levels lower (19 at most); the test's own thread keeps its priority.
func TestLowerThreadPriority(t *testing.T) {
	nice := func() int {
		raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		if err != nil {
			t.Fatal(err)
		}
		return 20 - raw
	}
	before := nice()
	got := make(chan int)
	go func() {
		lowerThreadPriority()
		got <- nice()
	}()
	if n, want := <-got, min(19, before+5); n != want {
		t.Errorf("nice %d after lowerThreadPriority, want %d (from %d)", n, want, before)
	}
	if n := nice(); n != before {
		t.Errorf("the caller's nice changed from %d to %d", before, n)
	}
}
