package xvfb

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Bench is what a benchmark of the real window starts from: a scratch
// directory, the viewer built into it from ./cmd/viewer, and an X display.
type Bench struct {
	Dir, Viewer, Display string
	stop                 func()
}

// NewBench makes the scratch directory (named after prefix), builds the
// viewer into it and finds a display (Display). Close undoes all three.
func NewBench(prefix string) (*Bench, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	b := &Bench{Dir: dir, Viewer: filepath.Join(dir, "viewer"), stop: func() {}}
	if out, err := exec.Command("go", "build", "-o", b.Viewer, "./cmd/viewer").CombinedOutput(); err != nil {
		b.Close()
		return nil, fmt.Errorf("building the viewer: %v\n%s", err, out)
	}
	if b.Display, b.stop, err = Display(); err != nil {
		b.stop = func() {}
		b.Close()
		return nil, err
	}
	return b, nil
}

// Close stops a private Xvfb and removes the scratch directory.
func (b *Bench) Close() {
	b.stop()
	os.RemoveAll(b.Dir)
}
