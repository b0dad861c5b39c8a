package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"physview/assets"
	"physview/internal/recent"
	"physview/internal/watch"
	"physview/scene"

	"physview/internal/guard"
)

// The file state machine: open (after the unsaved prompt), load on a
// goroutine with progress, install; save and save as; live reload. A
// question to the user is a Pending value, answered by Answer.

// PendingKind is what waits for the user's answer to a prompt.
type PendingKind int

// What a prompt can be in the way of.
const (
	PendingNone       PendingKind = iota
	PendingOpen                   // open Pending.Path
	PendingOpenDemo               // open the built-in demo scene
	PendingOpenDialog             // show the chooser to open a file
	PendingQuit                   // close the window
	PendingReload                 // reload the open file changed on disk
	// PendingOverwrite: a save in place found the file changed on disk by
	// another program (Overwrite / Save as / Reload and lose mine).
	PendingOverwrite
	// PendingSaveElsewhere: a save was refused (a read-only file or folder,
	// a deleted folder, a file another process holds): Save as, or not.
	PendingSaveElsewhere
)

// Pending is an action waiting for the unsaved-changes prompt (or for the
// Save as that the prompt's Save started).
type Pending struct {
	Kind PendingKind
	// Path is the file to open or reload.
	Path string
	// What says what the action is, for the prompt ("opening a.glb").
	What string
	// Changed names the files that changed on disk (reload).
	Changed []string
	keep    *keepView
	// then is what follows a save the prompt is about (the open or close
	// the unsaved-changes prompt's Save was for).
	then *Pending
}

// Prompt is the question the panel shows as a modal. It has the keyboard
// while it is up: Enter picks the Default choice, Escape the last, Alt and
// a choice's first letter that choice; any other key does nothing, so a
// path typed into a prompt the user did not see coming changes nothing.
type Prompt struct {
	Title, Text string
	// Choices are the buttons, the last the one that changes nothing
	// (Cancel, Keep my edits).
	Choices []string
	// Default is the choice Enter picks: one that loses nothing.
	Default int
}

// Answers to the unsaved-changes prompt (the reload prompt has Reload = 0
// and Keep = 1).
const (
	AnswerSave    = 0
	AnswerDiscard = 1
	AnswerCancel  = 2
)

// Answers to the changed-on-disk prompt of a save (PendingOverwrite); the
// refused-save prompt (PendingSaveElsewhere) has Save as = 0, Cancel = 1.
const (
	AnswerOverwrite      = 0
	AnswerSaveElsewhere  = 1
	AnswerReloadLoseMine = 2
	AnswerKeepEditing    = 3
)

// EditLockWait is how long `viewer edit` waits for another process (a
// window, another edit) to release the file before it refuses.
const EditLockWait = 5 * time.Second

// LockedError is the refusal of a save of target that another process
// holds the lock of (a viewer window that has it open, a `viewer edit`, a
// save in progress): it names the file and, where the system tells, the
// process. errors.Is(err, scene.ErrLocked) holds.
func LockedError(target string) error {
	who := "another program (a viewer window or `viewer edit`)"
	if pid, ok := scene.LockHolder(target); ok {
		who = fmt.Sprintf("another program (pid %d, a viewer window or `viewer edit`)", pid)
	}
	return &lockedError{fmt.Sprintf("%s is being saved or edited by %s; try again: nothing was saved", filepath.Base(target), who)}
}

type lockedError struct{ msg string }

func (e *lockedError) Error() string { return e.msg }
func (e *lockedError) Unwrap() error { return scene.ErrLocked }

// ChangedOnDiskError is a save in place refused because the file (or a
// buffer file of it) is no longer what was read: another program changed
// it, and saving would lose that change.
type ChangedOnDiskError struct {
	// Path is the document's file; Files are those that changed.
	Path  string
	Files []string
}

func (e *ChangedOnDiskError) Error() string {
	return fmt.Sprintf("%s changed on disk since it was read (%s written by another program): nothing was saved, so as not to lose that change", e.Path, strings.Join(baseNames(e.Files), ", "))
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}

// ChooserKind is a request for the file chooser.
type ChooserKind int

// Chooser requests.
const (
	ChooseNone ChooserKind = iota
	ChooseOpen
	ChooseSave
)

// Load is a file being read on a goroutine.
type Load struct {
	// Path is the file being loaded.
	Path        string
	cancel      context.CancelFunc
	read, total atomic.Int64
	phase       atomic.Value // string
	keep        *keepView
	// stamps are the files read, as they were before being read.
	stamps []scene.FileStamp
	// polls counts the frames (Session.Poll) since the load started.
	polls int
}

// Progress reports the load's phase ("reading 3.2 MB of 8.0 MB",
// "parsing") and its fraction done (negative when the phase has no
// measure).
func (l *Load) Progress() (phase string, fraction float32) {
	phase, _ = l.phase.Load().(string)
	fraction = -1
	if t := l.total.Load(); t > 0 && strings.HasPrefix(phase, "reading") {
		fraction = float32(l.read.Load()) / float32(t)
		phase = fmt.Sprintf("reading %s of %s", HumanSize(l.read.Load()), HumanSize(t))
	}
	return phase, fraction
}

// HumanSize writes a byte count as people read it (1.5 MB).
func HumanSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2f GB", float64(n)/1e9)
}

// keepView is what a reload keeps: camera, selection by node name and
// variant by name, and the document before, to say what changed.
type keepView struct {
	cam      Camera
	selected string
	variant  string
	old      *scene.Document
	changed  []string
}

type loadDone struct {
	load *Load
	doc  *scene.Document
	err  error
	// finished are the files of an interrupted save that the load put in
	// place first (scene.RecoverSave).
	finished []string
}

type fileState struct {
	load *Load
	done chan loadDone
	// held is a finished load waiting for its second frame: see Poll.
	held    *loadDone
	watcher *watch.Watcher
	pending *Pending
	prompt  *Prompt
	// afterSave is what follows once the Save as started by the prompt's
	// Save succeeds.
	afterSave *Pending
	chooser   ChooserKind
	closing   bool
	// lock is the advisory lock on the open file (nil for none: the demo,
	// or another process holds it); disk is what the file and its buffer
	// files were when read or last saved, for the check before a save.
	lock *scene.DocLock
	disk []scene.FileStamp
}

func (f *fileState) init() { f.done = make(chan loadDone, 4) }

// Reload timing: how long writes must be quiet before the document
// reloads, and how often and how long apart a file that does not read yet
// (an exporter still writing) is tried again.
const (
	ReloadDebounce   = 300 * time.Millisecond
	reloadRetries    = 10
	reloadRetryDelay = 400 * time.Millisecond
)

// Loading returns the load under way, nil for none.
func (s *Session) Loading() *Load { return s.files.load }

// Prompt returns the question waiting for an answer, nil for none.
func (s *Session) Prompt() *Prompt { return s.files.prompt }

// Pending returns the action waiting for the prompt (Kind PendingNone for
// none).
func (s *Session) Pending() Pending {
	if p := s.files.pending; p != nil {
		return *p
	}
	return Pending{}
}

// TakeChooser returns the chooser the window should show now, once; never
// while a prompt is up (it waits for the answer).
func (s *Session) TakeChooser() ChooserKind {
	if s.files.prompt != nil {
		return ChooseNone
	}
	c := s.files.chooser
	s.files.chooser = ChooseNone
	return c
}

// AwaitingSaveAs reports whether a Save as started by the prompt's Save is
// waiting for the chooser's answer.
func (s *Session) AwaitingSaveAs() bool { return s.files.afterSave != nil }

// ShouldClose reports whether the window should close now (Quit or close
// answered).
func (s *Session) ShouldClose() bool { return s.files.closing }

// RequestClose is the window's close button: it returns true when the
// window may close now, else it asks about the unsaved edits first.
func (s *Session) RequestClose() bool {
	if s.files.closing || !s.Modified() {
		s.rememberView()
		s.files.closing = true
		return true
	}
	s.ask(Pending{Kind: PendingQuit, What: "closing the window"})
	return false
}

// Open opens path, asking first when there are unsaved edits.
func (s *Session) Open(path string) {
	if path == "" {
		return
	}
	if err := CheckOpenable(path); err != nil && !looksLikeModel(path) {
		// The same words whether the file was dropped, chosen or typed,
		// and before any question about unsaved changes.
		s.Fail(err.Error())
		return
	}
	s.ask(Pending{Kind: PendingOpen, Path: path, What: "opening " + filepath.Base(path)})
}

// ask runs p at once when nothing is unsaved, else asks save / discard /
// cancel first.
func (s *Session) ask(p Pending) {
	if !s.Modified() {
		s.run(p)
		return
	}
	s.files.pending = &p
	s.files.prompt = &Prompt{
		Title:   "Unsaved changes",
		Text:    fmt.Sprintf("%s has unsaved changes.\nSave them before %s?", s.Name, p.What),
		Choices: []string{"Save", "Discard", "Cancel"},
	}
}

// run carries out a pending action.
func (s *Session) run(p Pending) {
	switch p.Kind {
	case PendingOpen:
		s.startLoad(p.Path, nil)
	case PendingOpenDemo:
		s.OpenDemo()
	case PendingOpenDialog:
		s.files.chooser = ChooseOpen
	case PendingQuit:
		s.rememberView()
		s.files.closing = true
	case PendingReload:
		s.startLoad(p.Path, p.keep)
	}
}

// Answer answers the prompt with choice (an index into its Choices).
func (s *Session) Answer(choice int) {
	p, q := s.files.pending, s.files.prompt
	s.files.pending, s.files.prompt = nil, nil
	if p == nil {
		return
	}
	if q != nil && choice >= 0 && choice < len(q.Choices) {
		s.logf("%s: %s", q.Title, q.Choices[choice])
	}
	switch p.Kind {
	case PendingReload:
		if choice == 0 {
			s.run(*p)
		}
		return
	case PendingOverwrite:
		switch choice {
		case AnswerOverwrite:
			s.files.afterSave = p.then
			s.saveAs(p.Path, true)
		case AnswerSaveElsewhere:
			s.files.afterSave = p.then
			s.files.chooser = ChooseSave
		case AnswerReloadLoseMine:
			if s.Doc != nil && s.Doc.Path != "" {
				s.startLoad(s.Doc.Path, s.viewToKeep(nil))
			}
		}
		return
	case PendingSaveElsewhere:
		if choice == 0 {
			s.files.afterSave = p.then
			s.files.chooser = ChooseSave
		}
		return
	}
	switch choice {
	case AnswerSave:
		// The action follows once the save is done (SaveAs), also when it
		// first asks where or whether to overwrite.
		s.files.afterSave = p
		if s.Doc != nil && s.Doc.Path == "" {
			s.files.chooser = ChooseSave
			return
		}
		s.Save()
	case AnswerDiscard:
		s.run(*p)
	}
}

// OpenDemo shows the built-in demo scene at once.
func (s *Session) OpenDemo() {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		s.Fail(err.Error())
		return
	}
	s.files.load = nil
	s.rememberView()
	s.install(d, "demo scene (built in)")
	s.holdFile("")
	s.watch(d)
	s.logf("opened %s", s.Name)
}

// fileChosen acts on the chooser's answer.
func (s *Session) fileChosen(c FileChosen) {
	if !c.Save {
		s.startLoad(c.Path, nil)
		return
	}
	s.SaveAs(c.Path)
	// A failed save leaves a pending close or open undone.
	s.files.afterSave = nil
}

// CancelLoad stops the load under way.
func (s *Session) CancelLoad() {
	l := s.files.load
	if l == nil {
		return
	}
	l.cancel()
	s.files.load = nil
	s.Notice("loading " + filepath.Base(l.Path) + " cancelled")
	s.logf("loading %s cancelled", filepath.Base(l.Path))
}

// startLoad reads path on a goroutine; the open document stays until the
// new one is ready. keep is set for a reload.
func (s *Session) startLoad(path string, keep *keepView) {
	if s.files.load != nil {
		s.files.load.cancel()
	}
	s.rememberView()
	ctx, cancel := context.WithCancel(context.Background())
	l := &Load{Path: path, cancel: cancel, keep: keep}
	l.phase.Store("reading")
	s.files.load = l
	s.logf("loading %s", path)
	done, preload, wake := s.files.done, s.Preload, s.Wake
	go func() {
		var finished []string
		var d *scene.Document
		var err error
		func() {
			// A bug in a reader fails this load (an error the window
			// shows), not the process with the user's other work.
			defer guard.Catch(&err)
			if keep == nil {
				// A save of this file killed among its renames is
				// finished before the file is read (the old or the new
				// files, never a mix).
				finished = scene.RecoverSave(path)
			}
			d, err = readDocument(ctx, l)
			if err == nil && preload != nil && ctx.Err() == nil {
				preload(d)
			}
		}()
		if err != nil {
			d = nil
		}
		done <- loadDone{l, d, err, finished}
		if wake != nil {
			wake()
		}
	}()
}

// Poll takes in what arrived since the last frame: a finished load and
// the watcher's changes. The window calls it once per frame.
//
// A load is shown no sooner than the second Poll after it started: the
// frame that started it (a file browser's Enter) still drew the browser,
// and showing a document (uploading its meshes, drawing it) takes long
// frames on a software rasteriser, so one frame without the closed dialog
// is drawn first. While HoldLoads is set a finished load is kept too, for
// the first Poll without it (LoadHeld).
func (s *Session) Poll() {
	s.pollCompound() // compound.go
	if l := s.files.load; l != nil {
		l.polls++
	}
	if h := s.files.held; h != nil && (h.load != s.files.load || h.load.polls >= 2 && !s.HoldLoads) {
		s.files.held = nil
		s.loadFinished(*h)
	}
	for {
		select {
		case r := <-s.files.done:
			if r.load == s.files.load && (r.load.polls < 2 || s.HoldLoads) && s.files.held == nil {
				s.files.held = &r
				if s.Wake != nil {
					s.Wake() // the next frame shows it
				}
				continue
			}
			s.loadFinished(r)
			continue
		default:
		}
		break
	}
	if w := s.files.watcher; w != nil {
		select {
		case changed := <-w.Changes:
			s.FilesChanged(changed)
		case err := <-w.Errors:
			s.logf("%v", err)
		default:
		}
	}
}

// LoadHeld reports whether a finished load waits for a later Poll to be
// shown (the window then draws its next frame at once).
func (s *Session) LoadHeld() bool {
	return s.files.held != nil && s.files.held.load == s.files.load
}

// WaitLoad blocks until the load under way (if any) has finished and is
// shown; it returns the load's error.
func (s *Session) WaitLoad() error {
	if h := s.files.held; h != nil {
		s.files.held = nil
		mine := h.load == s.files.load
		if err := s.loadFinished(*h); mine {
			return err
		}
	}
	for s.files.load != nil {
		r := <-s.files.done
		mine := r.load == s.files.load
		if err := s.loadFinished(r); mine {
			return err
		}
	}
	return nil
}

// loadFinished shows a finished load, or its error.
func (s *Session) loadFinished(r loadDone) error {
	if r.load != s.files.load {
		if r.doc != nil && s.DropPreload != nil {
			s.DropPreload(r.doc) // cancelled or replaced
		}
		return nil
	}
	s.files.load = nil
	if r.err != nil {
		if errors.Is(r.err, context.Canceled) {
			return r.err
		}
		s.Fail(r.err.Error())
		s.loadErr = r.err.Error()
		s.logf("%v", r.err)
		return r.err
	}
	d := r.doc
	if s.msg.Error {
		s.msg = Message{}
	}
	s.install(d, filepath.Base(r.load.Path))
	s.files.disk = r.load.stamps
	s.holdFile(d.Path)
	if len(r.finished) > 0 {
		s.logf("finished an interrupted save of %s: %s", filepath.Base(r.load.Path), strings.Join(baseNames(r.finished), ", "))
	}
	// A file with its own lighting (EXT_lights_image_based) opens lit by
	// it; the View tab lists it beside the built-in environments.
	if d.ImageBasedLight() >= 0 {
		if r.load.keep == nil {
			s.View.Environment = FileEnvironment
		}
	} else if s.View.Environment == FileEnvironment {
		s.View.Environment = 0
	}
	if k := r.load.keep; k != nil {
		s.Camera = k.cam
		s.Variant = variantByName(d, k.variant)
		if k.selected != "" {
			for i, n := range d.GLTF.Nodes {
				if n.Name == k.selected {
					s.Select(i)
					break
				}
			}
		}
		what := DescribeReload(k.old, d)
		s.Notice(fmt.Sprintf("Reloaded from disk (%s changed): %s", strings.Join(k.changed, ", "), what))
		s.msgHold = reloadReport
		s.logf("reloaded %s: %s", s.Name, what)
	} else if e, ok := s.recentEntry(d.Path); ok {
		if c := e.Camera; c != nil {
			s.Camera = Camera{Target: c.Target, Distance: c.Distance, Yaw: c.Yaw, Pitch: c.Pitch, FovY: c.FovY, Radius: c.Radius}
		}
		s.Variant = variantByName(d, e.Variant)
	}
	if why := missingDataNotice(d); why != "" {
		// Said at once, in the status bar: the picture lacks meshes.
		s.Fail(s.Name + ": " + why)
		s.logf("%s: %s", s.Name, why)
	}
	if s.Recent != nil && d.Path != "" {
		s.Recent.Touch(d.Path, s.now())
		s.saveRecent()
	}
	s.watch(d)
	s.logf("opened %s", s.Name)
	return nil
}

func (s *Session) recentEntry(path string) (recent.Entry, bool) {
	if s.Recent == nil || path == "" {
		return recent.Entry{}, false
	}
	return s.Recent.Find(path)
}

// variantByName is the index of the variant called name, -1 for none.
func variantByName(d *scene.Document, name string) int {
	for i, v := range d.Variants {
		if name != "" && v.Name == name {
			return i
		}
	}
	return -1
}

// FilesChanged reacts to the open file (or a buffer or image of it)
// changing on disk: it reloads, asking first when there are unsaved edits.
func (s *Session) FilesChanged(changed []string) {
	d := s.Doc
	if d == nil || d.Path == "" {
		return
	}
	var names []string
	for _, c := range changed {
		names = append(names, filepath.Base(c))
	}
	s.logf("changed on disk: %s", strings.Join(names, ", "))
	k := s.viewToKeep(names)
	p := Pending{Kind: PendingReload, Path: d.Path, What: "reloading", Changed: names, keep: k}
	if !s.Modified() {
		s.run(p)
		return
	}
	s.files.pending = &p
	s.files.prompt = &Prompt{
		Title:   "Changed on disk",
		Text:    fmt.Sprintf("%s changed on disk (%s).\nReload it and lose your edits?", s.Name, strings.Join(names, ", ")),
		Choices: []string{"Reload", "Keep my edits"},
		Default: 1,
	}
}

// viewToKeep is what a reload of the open document keeps; changed names
// the files that changed.
func (s *Session) viewToKeep(changed []string) *keepView {
	d := s.Doc
	k := &keepView{cam: s.Camera, old: d, changed: changed}
	if len(changed) == 0 {
		k.changed = []string{filepath.Base(d.Path)}
	}
	if n := s.Selected; n >= 0 && n < len(d.GLTF.Nodes) {
		k.selected = d.GLTF.Nodes[n].Name
	}
	if v := s.Variant; v >= 0 && v < len(d.Variants) {
		k.variant = d.Variants[v].Name
	}
	return k
}

// holdFile takes the advisory lock on path (the open file), letting go of
// the one held before; "" lets go. When another process holds it, the
// file is open all the same, and a save waits for it (scene.SaveLockWait).
func (s *Session) holdFile(path string) {
	old := s.files.lock
	s.files.lock = nil
	if path != "" {
		l, err := scene.LockDocument(path, 0)
		if err != nil {
			s.logf("%v: a save will wait for it", err)
			if errors.Is(err, scene.ErrLocked) && !s.msg.Error {
				s.Notice(filepath.Base(path) + " is also open for editing in another process (a viewer window or `viewer edit`): a save here waits for it")
			}
		}
		s.files.lock = l
	}
	old.Release()
}

// Save saves the document in place; the demo scene asks where (the
// chooser). It reports whether the document was saved.
func (s *Session) Save() bool {
	if s.Doc == nil {
		return false
	}
	if s.Doc.Path == "" {
		s.files.chooser = ChooseSave
		return false
	}
	return s.SaveAs(s.Doc.Path)
}

// LoadNow reads path and shows it at once, without a goroutine or a
// watcher (for scripted sessions such as `viewer edit`).
func (s *Session) LoadNow(path string) error {
	stamps := scene.StampFiles(append([]string{path}, bufferFiles(path, readSmall(path))...)...)
	d, err := OpenDocument(path)
	if err != nil {
		return err
	}
	s.install(d, filepath.Base(path))
	s.files.disk = stamps
	return nil
}

// readSmall is path's content when it is a .gltf (its buffers are looked
// up in it), nil otherwise.
func readSmall(path string) []byte {
	if !strings.EqualFold(filepath.Ext(path), ".gltf") {
		return nil
	}
	b, _ := os.ReadFile(path)
	return b
}

// SaveTo writes the document to target (atomically: a temporary file
// renamed over it) and marks it saved there; it returns what the format
// could not hold. A save in place is refused with a *ChangedOnDiskError
// when another program changed the file since it was read, and when the
// file's folder is gone; see scene.WriteFilesAtomic for the other
// refusals (read-only, locked).
func (s *Session) SaveTo(target string) ([]string, error) { return s.saveTo(target, false) }

// saveTo is SaveTo; overwrite saves over a change on disk.
func (s *Session) saveTo(target string, overwrite bool) ([]string, error) {
	d := s.Doc
	if d == nil {
		return nil, errors.New("no document to save")
	}
	inPlace := d.Path != "" && samePath(target, d.Path)
	if inPlace {
		if err := scene.CheckFolderKept(target); err != nil {
			return nil, fmt.Errorf("%s: %w", target, err)
		}
		if changed := scene.ChangedFiles(s.files.disk); len(changed) > 0 && !overwrite {
			return nil, &ChangedOnDiskError{Path: target, Files: changed}
		}
	}
	if !inPlace || s.files.lock == nil {
		// The document's lock, tried now without waiting: the save would
		// otherwise wait for another process (scene.SaveLockWait) on the
		// frame thread, the window frozen. Once held, the save finds it
		// held and goes ahead; holdFile keeps it after the save.
		l, err := scene.LockDocument(target, 0)
		switch {
		case err == nil:
			defer l.Release()
		case errors.Is(err, scene.ErrLocked):
			return nil, LockedError(target)
		}
		// Any other error (the file does not exist yet): the save says
		// what it has to say.
	}
	warnings, err := SaveDocument(d, target)
	if err != nil {
		return nil, err
	}
	d.Path = target
	s.Name = filepath.Base(target)
	s.Format = FormatName(d)
	s.Hist.MarkSaved()
	s.files.disk = scene.StampFiles(savedFiles(d)...)
	if !inPlace || s.files.lock == nil {
		// The lock follows the file the session shows, and is taken now
		// when another process had it at the open.
		s.holdFile(target)
	}
	return warnings, nil
}

// samePath reports whether a and b name the same file.
func samePath(a, b string) bool {
	if aa, err := filepath.Abs(a); err == nil {
		a = aa
	}
	if bb, err := filepath.Abs(b); err == nil {
		b = bb
	}
	return a == b
}

// savedFiles are the files a save of d in place may write: the file and,
// for a .gltf, its local buffer files.
func savedFiles(d *scene.Document) []string {
	files := []string{d.Path}
	if strings.EqualFold(filepath.Ext(d.Path), ".gltf") {
		for _, b := range d.GLTF.Buffers {
			if p := localFile(d.Path, b.URI); p != "" {
				files = append(files, p)
			}
		}
	}
	return files
}

// SaveAs saves the document to target and makes it the document's file;
// a pending action the prompt's Save was for follows. It reports whether
// the document was saved; when not, it says why and, where the user can
// do something about it, asks (Overwrite a change on disk, Save as).
func (s *Session) SaveAs(target string) bool { return s.saveAs(target, false) }

func (s *Session) saveAs(target string, overwrite bool) bool {
	d := s.Doc
	if d == nil || target == "" {
		return false
	}
	warnings, err := s.saveTo(target, overwrite)
	if err != nil {
		then := s.files.afterSave
		s.files.afterSave = nil
		s.saveRefused(target, err, then)
		return false
	}
	text := "saved " + target
	for _, w := range warnings {
		text += "\n" + w
	}
	s.Notice(text)
	s.logf("saved %s", target)
	// Watch again from what is on disk now, so the save is not taken for
	// a change from outside.
	s.watch(d)
	if s.Recent != nil {
		s.Recent.Touch(target, s.now())
	}
	s.rememberView()
	if p := s.files.afterSave; p != nil {
		s.files.afterSave = nil
		s.run(*p)
	}
	return true
}

// saveRefused says why a save of target failed and asks what to do where
// there is a choice; then is what was to follow the save.
func (s *Session) saveRefused(target string, err error, then *Pending) {
	s.logf("not saved: %v", err)
	var changed *ChangedOnDiskError
	switch {
	case errors.As(err, &changed):
		s.files.pending = &Pending{Kind: PendingOverwrite, Path: target, What: "saving", Changed: baseNames(changed.Files), then: then}
		s.files.prompt = &Prompt{
			Title: "Changed on disk",
			Text: fmt.Sprintf("%s was changed on disk by another program since it was read (%s).\nOverwrite that change with your version, save yours as another file,\nor reload the file and lose your edits?",
				s.Name, strings.Join(baseNames(changed.Files), ", ")),
			Choices: []string{"Overwrite", "Save as...", "Reload and lose mine", "Cancel"},
			Default: AnswerSaveElsewhere,
		}
	case errors.Is(err, scene.ErrReadOnly), errors.Is(err, scene.ErrFolderNotWritable), errors.Is(err, scene.ErrFolderGone), errors.Is(err, scene.ErrLocked):
		s.files.pending = &Pending{Kind: PendingSaveElsewhere, Path: target, What: "saving", then: then}
		why, _, _ := strings.Cut(err.Error(), ": nothing was saved")
		s.files.prompt = &Prompt{Title: "Cannot save", Text: wrapText(why+".", 90) + "\nNothing was saved. Save as another file instead?", Choices: []string{"Save as...", "Cancel"}}
		s.Fail(err.Error())
	default:
		s.Fail(err.Error())
	}
}

// wrapText breaks text into lines of at most width bytes at spaces.
func wrapText(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		if i > 0 {
			if n+1+len(w) > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// Close stops the watcher and any load; the window calls it once closed.
func (s *Session) Close() {
	if s.files.watcher != nil {
		s.files.watcher.Close()
		s.files.watcher = nil
	}
	if s.files.load != nil {
		s.files.load.cancel()
		s.files.load = nil
	}
	s.holdFile("")
	s.stopPlay()
}

// Watching reports whether the open file is watched for changes.
func (s *Session) Watching() bool { return s.files.watcher != nil }

// watch watches d's files in place of the previous document's.
func (s *Session) watch(d *scene.Document) {
	if s.files.watcher != nil {
		s.files.watcher.Close()
		s.files.watcher = nil
	}
	files := watchedFiles(d)
	if len(files) == 0 {
		return
	}
	w, err := watch.New(files, ReloadDebounce)
	if err != nil {
		s.logf("%v", err)
		return
	}
	if s.Wake != nil {
		w.SetNotify(s.Wake)
	}
	s.files.watcher = w
}

// rememberView stores the open file's camera and variant in the recent list.
func (s *Session) rememberView() {
	d := s.Doc
	if d == nil || d.Path == "" || s.Recent == nil {
		return
	}
	c := s.Camera
	variant := ""
	if v := s.Variant; v >= 0 && v < len(d.Variants) {
		variant = d.Variants[v].Name
	}
	s.Recent.Remember(d.Path, recent.Camera{Target: c.Target, Distance: c.Distance, Yaw: c.Yaw, Pitch: c.Pitch, FovY: c.FovY, Radius: c.Radius}, variant)
	s.saveRecent()
}

func (s *Session) saveRecent() {
	if s.Recent != nil && s.Recent.Path() != "" {
		if err := s.Recent.Save(); err != nil {
			s.logf("%v", err)
		}
	}
}

// readDocument reads path and what it references, reporting progress in
// l, then parses it. A reload that fails is tried again for a while: an
// exporter may still be writing.
func readDocument(ctx context.Context, l *Load) (*scene.Document, error) {
	tries := 1
	if l.keep != nil {
		tries = reloadRetries
	}
	var err error
	for try := 1; try <= tries; try++ {
		if try > 1 {
			l.phase.Store(fmt.Sprintf("waiting for the file to be complete (try %d of %d)", try, tries))
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(reloadRetryDelay):
			}
		}
		var d *scene.Document
		d, err = readOnce(ctx, l)
		if err == nil || errors.Is(err, context.Canceled) {
			return d, err
		}
	}
	return nil, err
}

func readOnce(ctx context.Context, l *Load) (*scene.Document, error) {
	l.read.Store(0)
	l.phase.Store("reading")
	var total int64
	if st, err := os.Stat(l.Path); err == nil {
		total = st.Size()
	}
	l.total.Store(total)
	data, err := readWithProgress(ctx, l.Path, l)
	if err != nil {
		return nil, err
	}
	// Read the external buffers too, so their size counts (parsing then
	// finds them in the page cache).
	var deps []string
	for _, dep := range bufferFiles(l.Path, data) {
		if st, err := os.Stat(dep); err == nil {
			total += st.Size()
			l.total.Store(total)
			deps = append(deps, dep)
		}
	}
	for _, dep := range deps {
		if _, err := readWithProgress(ctx, dep, l); err != nil {
			return nil, err
		}
	}
	// What a save in place compares the files with: stamped before they
	// are parsed, so a change made while parsing shows too.
	files := append([]string{l.Path}, deps...)
	l.stamps = scene.StampFiles(files...)
	if l.keep == nil {
		scene.RecoverSave(l.Path, deps...) // temporary files of dead saves
	}
	l.phase.Store("parsing")
	d, err := OpenDocument(l.Path)
	if err == nil {
		err = d.CheckRequired() // refused: an extension it cannot show
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return d, err
}

// readChunk is how much is read between progress updates.
const readChunk = 1 << 20

// readWithProgress reads a file in chunks, adding to l.read and stopping
// when ctx ends. PHYSVIEW_TEST_READ_MBPS slows reading to that many MB/s so
// tests can see the progress bar.
func readWithProgress(ctx context.Context, path string, l *Load) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPathErr(err))
	}
	defer f.Close()
	var delay time.Duration
	if mbps, err := strconv.ParseFloat(os.Getenv("PHYSVIEW_TEST_READ_MBPS"), 64); err == nil && mbps > 0 {
		delay = time.Duration(float64(time.Second) / mbps)
	}
	var out []byte
	buf := make([]byte, readChunk)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, err := f.Read(buf)
		out = append(out, buf[:n]...)
		l.read.Add(int64(n))
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if delay > 0 {
			time.Sleep(delay)
		}
	}
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// bufferFiles lists the external buffer files of a .gltf (none for .glb
// or other formats), read from its JSON without decoding the rest.
func bufferFiles(path string, data []byte) []string {
	if !strings.EqualFold(filepath.Ext(path), ".gltf") {
		return nil
	}
	var doc struct {
		Buffers []struct {
			URI string `json:"uri"`
		} `json:"buffers"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []string
	for _, b := range doc.Buffers {
		if p := localFile(path, b.URI); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// localFile resolves a relative uri of a glTF file to a path, "" for data
// URIs and anything not local.
func localFile(gltfPath, uri string) string {
	if uri == "" || strings.HasPrefix(uri, "data:") {
		return ""
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "" || filepath.IsAbs(u.Path) {
		return ""
	}
	return filepath.Join(filepath.Dir(gltfPath), filepath.FromSlash(u.Path))
}

// watchedFiles are the document's file and the buffers and images it
// references, leaving out those in a folder that does not exist: a
// watcher cannot watch it, and one such file would leave the document
// unwatched (after Save as .glb beside the file, its images are in the
// GLB and the old "textures/" URIs point nowhere).
func watchedFiles(d *scene.Document) []string {
	if d.Path == "" {
		return nil
	}
	files := []string{d.Path}
	add := func(uri string) {
		p := localFile(d.Path, uri)
		if p == "" {
			return
		}
		if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
			return
		}
		files = append(files, p)
	}
	for _, b := range d.GLTF.Buffers {
		add(b.URI)
	}
	for _, im := range d.GLTF.Images {
		add(im.URI)
	}
	return files
}

// missingDataNotice says which mesh of the shown scene is not drawn because
// a buffer file it reads was not found, "" when none; the Findings tab has
// the IO_ERROR and the renderer's message for every primitive.
func missingDataNotice(d *scene.Document) string {
	missing := d.MissingData()
	switch len(missing) {
	case 0:
		return ""
	case 1:
		return missing[0]
	}
	return fmt.Sprintf("%s (and %d more meshes)", missing[0], len(missing)-1)
}
