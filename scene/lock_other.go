//go:build !unix

package scene

import (
	"io/fs"
	"os"
)

// lockFile does nothing where flock is not available: stale temporary
// files are then told by their age alone.
func lockFile(f *os.File, try bool) error { return nil }

func unlockFile(f *os.File) error { return nil }

func isWouldBlock(err error) bool { return false }

// writable looks at the permission bits only.
func writable(path string, fi fs.FileInfo) bool { return fi.Mode().Perm()&0o222 != 0 }

func keepOwner(tmp *os.File, old fs.FileInfo) {}

const nonBlock = 0

// LockHolder cannot tell the process that holds a lock here.
func LockHolder(path string) (pid int, ok bool) { return 0, false }
