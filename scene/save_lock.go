package scene

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The advisory lock on a document: a window that has a file open and
// `viewer edit` while it edits one hold an exclusive flock on it, and every
// save takes it for the time of the save. A second writer (another window,
// another `viewer edit`, a save of this process to a file another one has
// open) waits for it a little and then refuses, so two writers never both
// print "saved" while one of the edits is lost.
//
// A save replaces the file by renaming a new one over it, which would leave
// the lock on the old file: the save's own temporary file, locked since it
// was made, becomes the lock in its place (WriteFilesAtomic), and one who
// waited on the old file finds, once they get it, that the name now
// points elsewhere and waits on the new file.

// ErrLocked is wrapped by the error of a save or a lock that another
// process's lock on the document kept from going ahead.
var ErrLocked = errors.New("open for editing in another process (a viewer window or `viewer edit`)")

// SaveLockWait is how long a save waits for another process to release
// the document's lock before it refuses.
const SaveLockWait = 3 * time.Second

// DocLock is this process's advisory lock on one document file.
type DocLock struct {
	// path is the file's absolute name, through symbolic links.
	path string
	f    *os.File
	refs int
}

// held are the locks this process holds, by path: flock is per open file,
// so a second lock of the same file in one process would wait for itself.
var held struct {
	sync.Mutex
	m map[string]*DocLock
}

// lockKey is path as the lock table knows it.
func lockKey(path string) string {
	p := throughLinks(path)
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return p
}

// LockDocument takes the advisory lock on the document file path, waiting
// up to wait for another process to release it (0: not at all). A lock
// this process holds already is shared (Release as many times as it was
// taken). The error wraps ErrLocked when another process holds it, and
// names path.
func LockDocument(path string, wait time.Duration) (*DocLock, error) {
	key := lockKey(path)
	held.Lock()
	defer held.Unlock()
	if l := held.m[key]; l != nil {
		if !l.current() {
			// Another program put a new file in its place (a reload
			// follows): lock that one.
			f, err := lockPath(key, wait)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			if l.f != nil {
				unlockFile(l.f)
				l.f.Close()
			}
			l.f = f
		}
		l.refs++
		return l, nil
	}
	f, err := lockPath(key, wait)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	l := &DocLock{path: key, f: f, refs: 1}
	if held.m == nil {
		held.m = map[string]*DocLock{}
	}
	held.m[key] = l
	return l, nil
}

// lockPath opens the file at path and locks it, waiting up to wait; once
// locked, the name must still point to the file locked (a save of another
// process may have renamed a new one over it while this one waited).
func lockPath(path string, wait time.Duration) (*os.File, error) {
	deadline := time.Now().Add(wait)
	for {
		f, err := openRegular(path)
		if err != nil {
			return nil, err
		}
		err = lockFile(f, true)
		if err == nil {
			fi, err1 := f.Stat()
			now, err2 := os.Stat(path)
			if err1 == nil && err2 == nil && os.SameFile(fi, now) {
				return f, nil
			}
			f.Close()
			if err2 != nil {
				return nil, unwrapPathError(err2)
			}
			continue // replaced while waiting: lock the new file
		}
		f.Close()
		if !isWouldBlock(err) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, ErrLocked
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// openRegular opens path for reading without blocking on a FIFO, and
// refuses anything that is not a regular file.
func openRegular(path string) (*os.File, error) {
	if fi, err := os.Stat(path); err != nil {
		return nil, unwrapPathError(err)
	} else if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, errors.New("not a regular file")
	}
	return f, nil
}

// current reports whether the locked file is still the one at its path.
func (l *DocLock) current() bool {
	if l.f == nil {
		return false
	}
	fi, err1 := l.f.Stat()
	now, err2 := os.Stat(l.path)
	return err1 == nil && err2 == nil && os.SameFile(fi, now)
}

// Path is the locked file.
func (l *DocLock) Path() string { return l.path }

// Release gives the lock back once every LockDocument that shared it has.
func (l *DocLock) Release() {
	if l == nil {
		return
	}
	held.Lock()
	defer held.Unlock()
	l.refs--
	if l.refs > 0 {
		return
	}
	if held.m[l.path] == l {
		delete(held.m, l.path)
	}
	if l.f != nil {
		unlockFile(l.f)
		l.f.Close()
		l.f = nil
	}
}

// heldLock is this process's lock on path, nil for none.
func heldLock(key string) *DocLock {
	held.Lock()
	defer held.Unlock()
	return held.m[key]
}

// takeOver makes f (the new file a save renamed over the locked one,
// locked since it was made) the lock, and lets the old file go.
func (l *DocLock) takeOver(f *os.File) {
	held.Lock()
	defer held.Unlock()
	if l.f != nil {
		unlockFile(l.f)
		l.f.Close()
	}
	l.f = f
}
