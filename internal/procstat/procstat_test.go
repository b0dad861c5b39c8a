package procstat

import (
	"os"
	"testing"
	"time"
)

// TestVmHWM reads the figure from status texts as Linux writes them.
func TestVmHWM(t *testing.T) {
	for _, c := range []struct {
		status string
		want   int64
	}{
		{"Name:\tviewer\nVmPeak:\t  812344 kB\nVmHWM:\t  104512 kB\nVmRSS:\t  99100 kB\n", 104512},
		{"VmHWM:\t1 kB", 1},
		{"Name:\tkthreadd\nState:\tS (sleeping)\n", 0}, // kernel threads have no Vm lines
		{"VmHWM:\n", 0},
		{"VmHWM:\tlots kB\n", 0},
		{"", 0},
	} {
		if got := vmHWM(c.status); got != c.want {
			t.Errorf("vmHWM(%q) = %d, want %d", c.status, got, c.want)
		}
	}
}

// TestPeakKB: this test process has touched at least 1 MB, and by pid or
// as "self" it is the same process; a process that does not exist is 0.
func TestPeakKB(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc here:", err)
	}
	self, byPid := PeakKB(0), PeakKB(os.Getpid())
	if self < 1024 || byPid < self {
		t.Errorf("PeakKB(0) = %d kB, PeakKB(pid) = %d kB; want at least 1024 and the second not below the first", self, byPid)
	}
	if got := PeakKB(1 << 30); got != 0 {
		t.Errorf("a pid that does not exist: %d kB", got)
	}
}

// TestStatCPU reads utime and stime (fields 14 and 15) in clock ticks,
// with a command name that holds spaces and a ")".
func TestStatCPU(t *testing.T) {
	for _, c := range []struct {
		stat string
		want time.Duration
	}{
		{"1234 (viewer) S 1 1234 1234 0 -1 4194560 500 0 0 0 250 50 0 0 20 0 9 0 100 0 0", 3 * time.Second},
		{"99 (a b) c)) R 1 99 99 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 5 0 0", 100 * time.Millisecond},
		{"99 (short) R 1", 0},
		{"no parenthesis", 0},
	} {
		if got := statCPU(c.stat); got != c.want {
			t.Errorf("statCPU(%q) = %v, want %v", c.stat, got, c.want)
		}
	}
}
