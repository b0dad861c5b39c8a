//go:build unix

package scene

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
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

// unlockFile releases f's advisory lock.
func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// isWouldBlock reports whether err is flock's "held by another".
func isWouldBlock(err error) bool {
	return errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN)
}

// writable reports whether this process may write path (a file or a
// folder). A path without any write permission bit counts as read-only
// even for root, who could write it: chmod a-w says "keep this as it is".
func writable(path string, fi fs.FileInfo) bool {
	if fi.Mode().Perm()&0o222 == 0 {
		return false
	}
	return unix.Access(path, unix.W_OK) == nil
}

// keepOwner gives tmp the owner and group of the file it replaces, as far
// as this process may: a user who is not root keeps the group when they
// are a member of it, and the owner only when it is theirs.
func keepOwner(tmp *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if tmp.Chown(int(st.Uid), int(st.Gid)) != nil {
		_ = tmp.Chown(-1, int(st.Gid))
	}
}

// nonBlock opens a FIFO without waiting for a writer.
const nonBlock = syscall.O_NONBLOCK

// LockHolder returns the id of a process that holds the advisory lock on
// the document file path, as Linux's /proc/locks tells it; ok is false
// where it cannot be told (another system, no such lock, a file that is
// gone).
func LockHolder(path string) (pid int, ok bool) {
	fi, err := os.Stat(throughLinks(path))
	if err != nil {
		return 0, false
	}
	st, isUnix := fi.Sys().(*syscall.Stat_t)
	if !isUnix {
		return 0, false
	}
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0, false
	}
	// "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF": the device's
	// major and minor numbers in hex, the inode in decimal; a waiter's
	// line has "->" after the number.
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)), st.Ino)
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != "FLOCK" || f[5] != want {
			continue
		}
		if n, err := strconv.Atoi(f[4]); err == nil && n != os.Getpid() {
			return n, true
		}
	}
	return 0, false
}
