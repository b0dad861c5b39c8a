// Package procstat reads a process's peak memory from Linux's /proc, for
// the start-up benchmark (cmd/startbench) and the viewer it runs.
package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// PeakKB returns the peak resident memory (VmHWM) of process pid in kB,
// pid 0 meaning this process; 0 when /proc does not tell (not Linux, the
// process is gone).
func PeakKB(pid int) int64 {
	file := "/proc/self/status"
	if pid != 0 {
		file = fmt.Sprintf("/proc/%d/status", pid)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	return vmHWM(string(data))
}

// vmHWM reads the VmHWM line of a /proc status file, in kB; 0 when there
// is none or it is not a number.
func vmHWM(status string) int64 {
	for _, l := range strings.Split(status, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb
		}
	}
	return 0
}
