// Package watch tells when files change on disk: the open scene and the
// buffers and images it references. It watches their folders (exporters
// and editors often write a new file and rename it over the old one, which
// a watch on the file itself would lose), waits until the writes have
// stopped for a moment (debounce), and reports each burst once, leaving out
// files whose size and time are what the caller last saw (its own saves).
package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// stamp is what tells a changed file: size and modification time.
type stamp struct {
	size  int64
	mod   time.Time
	exist bool
}

func stampOf(path string) stamp {
	st, err := os.Stat(path)
	if err != nil {
		return stamp{}
	}
	return stamp{st.Size(), st.ModTime(), true}
}

// Watcher watches a set of files.
type Watcher struct {
	// Changes receives the files (absolute, sorted) that changed in one
	// burst of writes, once the burst has been quiet for the debounce time.
	Changes <-chan []string
	// Errors receives problems of the underlying watch.
	Errors <-chan error

	fsw      *fsnotify.Watcher
	debounce time.Duration
	changes  chan []string
	errs     chan error
	done     chan struct{}
	wg       sync.WaitGroup

	mu     sync.Mutex
	stamps map[string]stamp
	notify func()
}

// SetNotify sets a function called (on the watcher's goroutine) after
// each burst is sent on Changes, for a window that sleeps until an event.
func (w *Watcher) SetNotify(fn func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.notify = fn
}

// New watches files (made absolute), reporting bursts after debounce of
// quiet.
func New(files []string, debounce time.Duration) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	w := &Watcher{
		fsw: fsw, debounce: debounce,
		changes: make(chan []string, 1), errs: make(chan error, 4), done: make(chan struct{}),
		stamps: map[string]stamp{},
	}
	w.Changes, w.Errors = w.changes, w.errs
	dirs := map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		w.stamps[abs] = stampOf(abs)
		dirs[filepath.Dir(abs)] = true
	}
	for d := range dirs {
		if err := fsw.Add(d); err != nil {
			fsw.Close()
			return nil, fmt.Errorf("watch %s: %w", d, err)
		}
	}
	w.wg.Add(1)
	go w.loop()
	return w, nil
}

// Files are the watched files, sorted.
func (w *Watcher) Files() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var fs []string
	for f := range w.stamps {
		fs = append(fs, f)
	}
	sort.Strings(fs)
	return fs
}

// Snapshot records every file's current size and time, so what is on disk
// now (for example what the caller just saved) is not reported as a change.
func (w *Watcher) Snapshot() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for f := range w.stamps {
		w.stamps[f] = stampOf(f)
	}
}

func (w *Watcher) loop() {
	defer w.wg.Done()
	pending := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-w.done:
			timer.Stop()
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			name := filepath.Clean(ev.Name)
			w.mu.Lock()
			_, watched := w.stamps[name]
			w.mu.Unlock()
			if watched {
				pending[name] = true
				timer.Reset(w.debounce)
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			select {
			case w.errs <- fmt.Errorf("watch: %w", err):
			default:
			}
		case <-timer.C:
			var changed []string
			w.mu.Lock()
			for f := range pending {
				now := stampOf(f)
				if now != w.stamps[f] {
					w.stamps[f] = now
					changed = append(changed, f)
				}
			}
			w.mu.Unlock()
			clear(pending)
			if len(changed) == 0 {
				continue
			}
			sort.Strings(changed)
			select {
			case w.changes <- changed:
			case <-w.done:
				return
			}
			w.mu.Lock()
			notify := w.notify
			w.mu.Unlock()
			if notify != nil {
				notify()
			}
		}
	}
}

// Close stops watching.
func (w *Watcher) Close() error {
	select {
	case <-w.done:
		return nil
	default:
	}
	close(w.done)
	err := w.fsw.Close()
	w.wg.Wait()
	return err
}
