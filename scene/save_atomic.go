package scene

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// How a save writes its files (docs/saving.md has the user's side):
//
//  1. It refuses before writing anything when a target is read-only, its
//     folder is not writable, or another process holds the document's
//     lock; a save in place refuses when the file's folder no longer
//     exists (CheckFolderKept: it is never made again).
//  2. Every file goes to a temporary file ".NAME.N.tmp" beside its target,
//     with the target's mode, owner and group, and is synced.
//  3. A save of several files (a .gltf and its .bin) then writes a journal
//     ".MAIN.journal" that lists the renames, and syncs it: from here on
//     the save is decided, and a process killed before the end is finished
//     by the next save or open of the document (RecoverSave), so the files
//     are the old set or the new set, never a mix, for anyone who reads
//     them through this program.
//  4. The temporary files are renamed over their targets, resources first
//     and the main file last; the journal is removed.
//
// The files keep their names (no "m_1.bin" beside "m.bin"): a lossless save
// changes the bytes an edit changed and nothing else, uris included.

// Errors a save refuses with before it writes anything; the message says
// what the user can do (Save as).
var (
	ErrReadOnly          = errors.New("read-only")
	ErrFolderNotWritable = errors.New("folder not writable")
	ErrFolderGone        = errors.New("folder does not exist")
)

// saveError is a refusal with its own message and a kind for errors.Is.
type saveError struct {
	kind error
	msg  string
}

func (e *saveError) Error() string { return e.msg }
func (e *saveError) Unwrap() error { return e.kind }

// WriteFileAtomic writes data to a temporary file in target's folder, syncs
// it and renames it over target, so readers see the old file or the new one,
// never a part, and a failure leaves the old file as it was. The file mode,
// owner and group of an existing file are kept. See WriteFilesAtomic.
func WriteFileAtomic(target string, data []byte) error {
	return WriteFilesAtomic([]OutputFile{{target, data}})
}

// WriteFilesAtomic writes the files of one save (the main file first, as
// Encode returns them) each to a temporary file ".NAME.N.tmp" beside its
// target. Only when every one is written and synced are they renamed over
// their targets, the main file last, after a journal that lets RecoverSave
// finish the renames when the process is killed among them; on a failure
// before that every temporary file is removed and no target is touched.
// Temporary files of that pattern that an earlier save of the same target
// left behind (it was killed) are removed first; a save in progress holds
// a lock on its own, which keeps them. A target that is a symbolic link is
// written through it: the file it points to gets the bytes and the link
// stays a link. Errors name the user's files, never a temporary one.
func WriteFilesAtomic(files []OutputFile) error {
	if len(files) == 0 {
		return nil
	}
	names := make([]string, len(files)) // as the caller gave them, for messages
	files = slices.Clone(files)
	for i, f := range files {
		names[i] = f.Path
		files[i].Path = throughLinks(f.Path)
	}
	main := files[0].Path
	if err := checkWritable(files, names); err != nil {
		return err
	}
	// The document's lock: this process's own (the window holds it while
	// the file is open), else taken for the time of the save.
	key := lockKey(main)
	lock := heldLock(key)
	var own *os.File
	if lock == nil {
		if _, err := os.Stat(key); err == nil {
			if own, err = lockPath(key, SaveLockWait); err != nil {
				if errors.Is(err, ErrLocked) {
					return &saveError{ErrLocked, "it is " + ErrLocked.Error() + ", which did not let go of it within " + SaveLockWait.String() + "; nothing was saved"}
				}
				return err
			}
			defer own.Close()
		}
	}
	RecoverSave(main)
	for _, f := range files[1:] {
		removeStaleTemps(f.Path)
	}

	type pending struct {
		f      *os.File
		target string
		name   string
	}
	var temps []pending
	discard := func() {
		for _, p := range temps {
			p.f.Close()
			os.Remove(p.f.Name())
		}
	}
	for i, f := range files {
		tmp, err := writeTemp(f.Path, f.Data)
		if err != nil {
			discard()
			if i > 0 {
				return fmt.Errorf("%s: %w", names[i], err)
			}
			return err
		}
		temps = append(temps, pending{tmp, f.Path, names[i]})
	}
	var kept *os.File // the new main file, when it becomes the lock
	defer func() {
		for _, p := range temps {
			if p.f != kept {
				p.f.Close() // releases its lock
			}
		}
	}()
	// Resources first, the main file last: a reader never sees a main file
	// whose resources are not there yet.
	order := append(temps[1:len(temps):len(temps)], temps[0])
	var journal string
	if len(order) > 1 {
		var j saveJournal
		base := filepath.Dir(main)
		for _, p := range order {
			j.Renames = append(j.Renames, [2]string{journalName(base, p.f.Name()), journalName(base, p.target)})
		}
		var err error
		if journal, err = writeJournal(main, j); err != nil {
			discard()
			temps = nil
			return fmt.Errorf("cannot write the save's journal in %s: %w", filepath.Dir(main), err)
		}
	}
	for k, p := range order {
		if err := os.Rename(p.f.Name(), p.target); err != nil {
			var le *os.LinkError
			if errors.As(err, &le) {
				err = le.Err
			}
			if k > 0 {
				// Some are renamed: the journal stays for RecoverSave.
				return fmt.Errorf("%s: cannot replace it, so the save is unfinished (the next save or open of the file finishes it): %w", p.name, err)
			}
			// Nothing renamed yet: the old files stand.
			if journal != "" {
				os.Remove(journal)
			}
			discard()
			if len(order) == 1 {
				return fmt.Errorf("cannot replace the file: %w", err)
			}
			return fmt.Errorf("%s: cannot replace it: %w", p.name, err)
		}
	}
	dirs := map[string]bool{}
	for _, p := range order {
		if d := filepath.Dir(p.target); !dirs[d] {
			dirs[d] = true
			syncDir(d)
		}
	}
	if journal != "" {
		os.Remove(journal)
		syncDir(filepath.Dir(journal))
	}
	if lock != nil {
		// The new file is locked since it was made: it is the lock now.
		kept = temps[0].f
		lock.takeOver(kept)
	}
	return nil
}

// CheckFolderKept refuses to save the file path in place when its folder
// is gone (moved or deleted while the file was open): a save makes the
// folders a new file needs (Save as into a new folder), but it never makes
// again one the user removed.
func CheckFolderKept(path string) error {
	dir := filepath.Dir(throughLinks(path))
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return &saveError{ErrFolderGone, fmt.Sprintf("the folder %s does not exist any more (was it moved or deleted?); nothing was saved, and the folder is not made again: use Save as", dir)}
	}
	return nil
}

// checkWritable refuses a save that could not be written or would
// overwrite what the user keeps from being written, before anything is.
func checkWritable(files []OutputFile, names []string) error {
	for i, f := range files {
		what := names[i]
		if i == 0 {
			what = "the file"
		}
		if st, err := os.Stat(f.Path); err == nil {
			if st.IsDir() {
				return fmt.Errorf("%s is a folder", names[i])
			}
			if !st.Mode().IsRegular() {
				return fmt.Errorf("%s is not a regular file", names[i])
			}
			if !writable(f.Path, st) {
				return &saveError{ErrReadOnly, what + " is read-only (no write permission), so it was not overwritten: nothing was saved; use Save as to write a copy"}
			}
		}
		d := filepath.Dir(f.Path)
		if st, err := os.Stat(d); err == nil && !writable(d, st) {
			return &saveError{ErrFolderNotWritable, fmt.Sprintf("the folder %s is not writable: nothing was saved; use Save as to choose another folder", d)}
		}
	}
	return nil
}

// saveJournal lists the renames of a save of several files, in the order
// they are done: each a temporary file and its target, relative to the
// journal's folder when inside it (the folder may be moved before the save
// is finished), else absolute.
type saveJournal struct {
	Renames [][2]string `json:"renames"`
}

// journalName is path as the journal in folder base writes it.
func journalName(base, path string) string {
	if rel, err := filepath.Rel(base, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return path
}

// journalPath is where a save of main keeps its journal.
func journalPath(main string) string {
	return filepath.Join(filepath.Dir(main), "."+filepath.Base(main)+".journal")
}

// writeJournal writes j for main atomically and durably.
func writeJournal(main string, j saveJournal) (string, error) {
	data, err := json.Marshal(j)
	if err != nil {
		return "", err
	}
	p := journalPath(main)
	removeStaleTemps(p)
	tmp, err := writeTempVia(p, data, func(f *os.File) io.Writer { return f })
	if err != nil {
		return "", err
	}
	defer tmp.Close()
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	syncDir(filepath.Dir(p))
	return p, nil
}

// RecoverSave finishes a save of the document main that was killed while
// it renamed its files (its journal is there and no running save holds its
// temporary files), and removes the temporary files that killed saves of
// main and of others (the document's resources) left. It returns the files
// it put in place, so the caller can say so; "" errors are not reported:
// what cannot be recovered is left as it is.
func RecoverSave(main string, others ...string) (finished []string) {
	main = throughLinks(main)
	finished = finishJournal(main)
	removeStaleTemps(main)
	removeStaleTemps(journalPath(main))
	for _, o := range others {
		removeStaleTemps(throughLinks(o))
	}
	return finished
}

// finishJournal does what main's journal lists and is still to do.
func finishJournal(main string) []string {
	jp := journalPath(main)
	data, err := os.ReadFile(jp)
	if err != nil {
		return nil
	}
	var j saveJournal
	if json.Unmarshal(data, &j) != nil || len(j.Renames) == 0 {
		os.Remove(jp) // not one of ours, or empty: it cannot be acted on
		return nil
	}
	for i, r := range j.Renames {
		for k, p := range r {
			if !filepath.IsAbs(p) {
				j.Renames[i][k] = filepath.Join(filepath.Dir(jp), filepath.FromSlash(p))
			}
		}
	}
	for _, r := range j.Renames {
		// Only what a save of ours writes: a temporary file of the
		// target's own pattern, beside it.
		from, to := r[0], r[1]
		if filepath.Dir(from) != filepath.Dir(to) || !isTempOf(filepath.Base(from), filepath.Base(to)) {
			os.Remove(jp)
			return nil
		}
	}
	// A running save holds its temporary files locked: leave it alone.
	var open []*os.File
	defer func() {
		for _, f := range open {
			f.Close()
		}
	}()
	for _, r := range j.Renames {
		f, err := os.OpenFile(r[0], os.O_RDWR|nonBlock, 0)
		if err != nil {
			continue // renamed already
		}
		open = append(open, f)
		if lockFile(f, true) != nil {
			return nil
		}
	}
	var done []string
	dirs := map[string]bool{}
	for _, r := range j.Renames {
		if _, err := os.Lstat(r[0]); err != nil {
			continue
		}
		if err := os.Rename(r[0], r[1]); err != nil {
			return done // the journal stays for another try
		}
		done = append(done, r[1])
		dirs[filepath.Dir(r[1])] = true
	}
	for d := range dirs {
		syncDir(d)
	}
	os.Remove(jp)
	syncDir(filepath.Dir(jp))
	return done
}

// isTempOf reports whether name is a temporary file a save of target
// makes: ".TARGET.N.tmp", N decimal.
func isTempOf(name, target string) bool {
	mid, ok := strings.CutPrefix(name, "."+target+".")
	if !ok {
		return false
	}
	mid, ok = strings.CutSuffix(mid, ".tmp")
	return ok && mid != "" && strings.Trim(mid, "0123456789") == ""
}

// syncDir syncs a folder, so that renames in it survive a crash; not every
// file system supports it.
func syncDir(dir string) {
	if df, err := os.Open(dir); err == nil {
		_ = df.Sync()
		df.Close()
	}
}

// throughLinks returns the file that path names when it is a symbolic link
// (a chain of them), whether or not that file exists yet: a save through a
// link whose file is still to be made makes it there, and the link stays.
// A path that is no link, or a loop of links, is returned as it is.
func throughLinks(path string) string {
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return path
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	p := path
	for range 40 { // as Linux's limit of links followed
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			// The missing file at the end of the chain, in a folder that
			// exists (a save makes no folders where a stale link points).
			if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
				return path
			}
			return p
		}
		to, err := os.Readlink(p)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(p), to)
		}
		p = to
	}
	return path
}

// tempWriter is what a temporary file's data is written through; tests
// replace it with one that fails after some bytes (a full disk).
var tempWriter = func(f *os.File) io.Writer { return f }

// writeTemp writes data to a new temporary file beside target with
// target's mode, owner and group (0644 and the process's own when it does
// not exist), synced, and returns it open and locked, so that no other
// save takes it for a stale one. Errors name target's folder, not the
// temporary file. A missing folder is made only below one that exists
// (a resource's "textures/" beside a new main file).
func writeTemp(target string, data []byte) (*os.File, error) {
	return writeTempVia(target, data, tempWriter)
}

// writeTempVia is writeTemp writing through w (the journal is not the
// data a full-disk test counts).
func writeTempVia(target string, data []byte, w func(*os.File) io.Writer) (*os.File, error) {
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot make the folder %s: %w", dir, unwrapPathError(err))
	}
	mode := fs.FileMode(0o644)
	st, err := os.Stat(target)
	if err == nil {
		if st.IsDir() {
			return nil, fmt.Errorf("%s is a folder", target)
		}
		mode = st.Mode().Perm()
	} else {
		st = nil
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("cannot write a new file in the folder %s: %w", dir, unwrapPathError(err))
	}
	fail := func(err error) (*os.File, error) {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("%s: %w", target, unwrapPathError(err))
	}
	if err := lockFile(tmp, false); err != nil {
		return fail(err)
	}
	if _, err := w(tmp).Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if st != nil {
		keepOwner(tmp, st) // before the mode: a chown clears set-id bits
	}
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	return tmp, nil
}

// staleAfter is how old an unlocked temporary file of ours must be to be
// removed: one just created may not be locked yet.
const staleAfter = 2 * time.Second

// removeStaleTemps removes the temporary files ".NAME.N.tmp" (N decimal, as
// os.CreateTemp makes them) beside target that no running save holds: an
// earlier save was killed before it renamed or removed them.
func removeStaleTemps(target string) {
	dir, base := filepath.Dir(target), filepath.Base(target)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !isTempOf(name, base) || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err != nil || time.Since(info.ModTime()) < staleAfter {
			continue
		}
		p := filepath.Join(dir, name)
		f, err := os.OpenFile(p, os.O_RDWR|nonBlock, 0)
		if err != nil {
			continue
		}
		if lockFile(f, true) == nil {
			os.Remove(p)
		}
		f.Close()
	}
}
