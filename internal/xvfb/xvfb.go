// Package xvfb gives the benchmarks that drive the real window
// (cmd/startbench, cmd/orbitbench) an X display (the user's, or a private
// Xvfb server of their own) and, with NewBench, a freshly built viewer.
package xvfb

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// Display returns DISPLAY, or starts a private Xvfb (1280x800) and returns
// its display and a function that stops it.
func Display() (string, func(), error) {
	if d := os.Getenv("DISPLAY"); d != "" {
		return d, func() {}, nil
	}
	// Xvfb picks a free display and reports it on fd 3; SIGTERM lets it
	// remove its socket when done.
	r, w, err := os.Pipe()
	if err != nil {
		return "", nil, err
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		r.Close()
		w.Close()
		return "", nil, fmt.Errorf("starting Xvfb: %w", err)
	}
	w.Close()
	stop := func() { x.Process.Signal(syscall.SIGTERM); x.Wait() }
	n, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("Xvfb did not report its display: %w", err)
	}
	return ":" + strings.TrimSpace(n), stop, nil
}
