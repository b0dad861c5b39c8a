// Package procstat reads a process's peak memory and CPU time from Linux's
// /proc, for the benchmarks (cmd/startbench, cmd/orbitbench) and the viewer
// they run.
package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
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

// CPU returns the user and system time (every thread) process pid has
// used so far, from /proc/PID/stat; 0 when /proc does not tell.
func CPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	return statCPU(string(data))
}

// statCPU reads utime and stime from a /proc stat line: the fields after
// the command name (which may hold spaces) in ")".
func statCPU(stat string) time.Duration {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}
