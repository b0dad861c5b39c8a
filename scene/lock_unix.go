//go:build unix

package scene

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, failing at once when
// another process holds it and try is set.
func lockFile(f *os.File, try bool) error {
	how := syscall.LOCK_EX
	if try {
		how |= syscall.LOCK_NB
	}
	return syscall.Flock(int(f.Fd()), how)
}
