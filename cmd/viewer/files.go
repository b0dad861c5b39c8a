package main

// Working with files as on a desktop: the open and save dialogs (the
// desktop's portal, else the in-window browser), recent files with their
// camera and variant, the unsaved-changes prompt on close, open and quit,
// loading on a goroutine with progress and Cancel, and live reload.

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

	"physview/internal/portal"
	"physview/internal/recent"
	"physview/internal/watch"
	"physview/render"
	"physview/scene"
	"physview/ui"
)

// fileState is the window's file handling.
type fileState struct {
	recent  *recent.List
	load    *asyncLoad
	done    chan loadDone
	watcher *watch.Watcher
	// chooser is the desktop's file chooser portal, nil when there is none;
	// portalReady delivers it once the start-up probe answers.
	chooser     *portal.Chooser
	portalReady chan *portal.Chooser
	dialogs     chan dialogAnswer
	dialogOpen  bool
	// afterPrompt runs when the unsaved prompt is answered save (after the
	// save) or discard; onReloadPrompt marks the prompt as the reload one.
	afterPrompt    func()
	reloadPrompt   bool
	afterSave      func()
	closing        bool
	restore        map[*scene.Document]*keepView
	title          string
	reloadAttempts int
}

// keepView is what a reload keeps: camera, selection by node name and the
// variant by name, and the counts to say what changed.
type keepView struct {
	cam      render.Camera
	selected string
	variant  string
	counts   [3]int
	// changed names the files that changed on disk.
	changed []string
}

// asyncLoad is one file being loaded on a goroutine.
type asyncLoad struct {
	path        string
	cancel      context.CancelFunc
	read, total atomic.Int64
	phase       atomic.Value // string
	keep        *keepView
}

// loadDone is what a load goroutine hands back.
type loadDone struct {
	load *asyncLoad
	doc  *scene.Document
	err  error
}

// dialogAnswer is the portal's answer to an open or save dialog.
type dialogAnswer struct {
	kind ui.ActionKind
	path string
	err  error
}

// reloadDebounce is how long a burst of writes must be quiet before the
// document reloads; reloadRetries and reloadRetryDelay give a half-written
// file time to be completed.
const (
	reloadDebounce   = 300 * time.Millisecond
	reloadRetries    = 10
	reloadRetryDelay = 400 * time.Millisecond
)

// initFiles loads the recent list, looks for the portal and asks before
// the window closes with unsaved edits.
func (a *windowApp) initFiles() {
	f := &a.files
	f.done = make(chan loadDone, 4)
	f.dialogs = make(chan dialogAnswer, 2)
	f.portalReady = make(chan *portal.Chooser, 1)
	f.restore = map[*scene.Document]*keepView{}
	if p, err := recent.DefaultPath(); err == nil {
		f.recent, err = recent.Load(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "viewer:", err)
		}
	} else {
		f.recent = &recent.List{}
	}
	a.refreshRecent()
	if os.Getenv("PHYSVIEW_NO_PORTAL") == "" {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			c, err := portal.New(ctx)
			if err != nil {
				c = nil
			}
			f.portalReady <- c
			postWake()
		}()
	}
	a.wnd.SetCloseCallback(func() bool {
		if f.closing || !a.state.Modified {
			a.rememberView()
			stopWakes()
			return true
		}
		a.askUnsaved("closing the window", func() { a.quit() })
		return false
	})
}

// quit closes the window without asking again.
func (a *windowApp) quit() {
	a.rememberView()
	a.files.closing = true
	stopWakes()
	a.wnd.SetShouldClose(true)
}

// closeFiles stops the watcher and the portal connection when the window
// has closed.
func (a *windowApp) closeFiles() {
	if a.files.watcher != nil {
		a.files.watcher.Close()
	}
	if a.files.chooser != nil {
		a.files.chooser.Close()
	}
	if a.files.load != nil {
		a.files.load.cancel()
	}
}

// askUnsaved asks save / discard / cancel before then (when modified).
func (a *windowApp) askUnsaved(what string, then func()) {
	if !a.state.Modified {
		then()
		return
	}
	a.files.afterPrompt, a.files.reloadPrompt = then, false
	a.state.Files.Prompt.AskUnsaved(a.state.Name, what)
}

// requestOpen opens path, asking first when the open document has edits.
func (a *windowApp) requestOpen(path string) {
	a.askUnsaved("opening "+filepath.Base(path), func() { a.startLoad(path, nil) })
}

// startLoad loads path on a goroutine; the open document stays until the
// new one is ready. keep is set for a reload.
func (a *windowApp) startLoad(path string, keep *keepView) {
	if a.files.load != nil {
		a.files.load.cancel()
	}
	a.rememberView()
	ctx, cancel := context.WithCancel(context.Background())
	l := &asyncLoad{path: path, cancel: cancel, keep: keep}
	l.phase.Store("reading")
	a.files.load = l
	a.state.Status = ""
	fmt.Fprintf(os.Stderr, "viewer: loading %s\n", path)
	done := a.files.done
	go func() {
		doc, err := readDocument(ctx, l)
		done <- loadDone{l, doc, err}
		postWake() // the window may be asleep (idle.go)
	}()
}

// readDocument reads path and what it references, reporting progress in
// l, then parses it. A reload that fails is tried again for a while: an
// exporter may still be writing.
func readDocument(ctx context.Context, l *asyncLoad) (*scene.Document, error) {
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

func readOnce(ctx context.Context, l *asyncLoad) (*scene.Document, error) {
	l.read.Store(0)
	l.phase.Store("reading")
	files := []string{l.path}
	var total int64
	if st, err := os.Stat(l.path); err == nil {
		total = st.Size()
	}
	l.total.Store(total)
	data, err := readWithProgress(ctx, l.path, l)
	if err != nil {
		return nil, err
	}
	// Read the external buffers too, so their size counts (parsing then
	// finds them in the page cache).
	for _, dep := range bufferFiles(l.path, data) {
		if st, err := os.Stat(dep); err == nil {
			total += st.Size()
			l.total.Store(total)
			files = append(files, dep)
		}
	}
	for _, dep := range files[1:] {
		if _, err := readWithProgress(ctx, dep, l); err != nil {
			return nil, err
		}
	}
	l.phase.Store("parsing")
	d, err := openDocument(l.path)
	if err == nil {
		err = d.CheckRequired() // refused: an extension it cannot show
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err == nil {
		render.Preload(d) // decode the images while the document is handed over
	}
	return d, err
}

// readChunk is how much is read between progress updates.
const readChunk = 1 << 20

// readWithProgress reads a file in chunks, adding to l.read and stopping
// when ctx ends. PHYSVIEW_TEST_READ_MBPS slows reading to that many MB/s so
// tests can see the progress bar.
func readWithProgress(ctx context.Context, path string, l *asyncLoad) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapErr(err))
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

// bufferFiles lists the external buffer files of a .gltf (none for .glb
// or .xode), read from its JSON without decoding the rest.
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
// references.
func watchedFiles(d *scene.Document) []string {
	if d.Path == "" {
		return nil
	}
	files := []string{d.Path}
	for _, b := range d.GLTF.Buffers {
		if p := localFile(d.Path, b.URI); p != "" {
			files = append(files, p)
		}
	}
	for _, im := range d.GLTF.Images {
		if p := localFile(d.Path, im.URI); p != "" {
			files = append(files, p)
		}
	}
	return files
}

// filesFrame runs once per frame before the loads are received: it moves
// finished loads on, shows progress, and reacts to the portal and the
// watcher.
func (a *windowApp) filesFrame() {
	f := &a.files
	// The time the last frame took to build and show, not the time
	// between frames, which includes the sleep while nothing happens.
	a.state.Files.FrameMS = float32(a.frameWork.Seconds() * 1000)
	select {
	case c := <-f.portalReady:
		f.chooser = c
		if c != nil {
			fmt.Fprintln(os.Stderr, "viewer: using the desktop's file chooser portal")
		}
	default:
	}
	select {
	case r := <-f.done:
		if r.load != f.load {
			if r.doc != nil {
				render.DropPreload(r.doc) // cancelled or replaced
			}
			break
		}
		f.load = nil
		if r.err != nil {
			if errors.Is(r.err, context.Canceled) {
				break
			}
			a.loads <- loadResult{err: r.err}
			break
		}
		if r.load.keep != nil {
			f.restore[r.doc] = r.load.keep
		}
		a.loads <- loadResult{r.doc, filepath.Base(r.load.path), nil}
	case d := <-f.dialogs:
		f.dialogOpen = false
		a.dialogAnswered(d)
	default:
	}
	if f.afterSave != nil && !a.state.Files.Browser.Visible && !f.dialogOpen {
		// The Save as that "Save" in the prompt opened was cancelled or
		// failed: what was to follow (closing, opening) does not happen.
		f.afterSave = nil
	}
	a.state.Files.Load = nil
	if l := f.load; l != nil {
		p := &ui.LoadProgress{Name: filepath.Base(l.path), Phase: l.phase.Load().(string), Fraction: -1}
		if t := l.total.Load(); t > 0 && strings.HasPrefix(p.Phase, "reading") {
			p.Fraction = float32(l.read.Load()) / float32(t)
			p.Phase = fmt.Sprintf("reading %s of %s", ui.HumanSize(l.read.Load()), ui.HumanSize(t))
		}
		a.state.Files.Load = p
	}
	if w := f.watcher; w != nil {
		select {
		case changed := <-w.Changes:
			a.fileChanged(changed)
		case err := <-w.Errors:
			fmt.Fprintln(os.Stderr, "viewer:", err)
		default:
		}
	}
	title := "physview"
	if a.state.Doc != nil {
		title = a.state.Name + " - physview"
		if a.state.Modified {
			title = "*" + title
		}
	}
	if title != f.title {
		f.title = title
		a.wnd.SetTitle(title)
	}
}

// fileChanged reloads after the watched files changed on disk, asking
// first when there are unsaved edits.
func (a *windowApp) fileChanged(changed []string) {
	d := a.state.Doc
	if d == nil || d.Path == "" {
		return
	}
	var names []string
	for _, c := range changed {
		names = append(names, filepath.Base(c))
	}
	fmt.Fprintf(os.Stderr, "viewer: changed on disk: %s\n", strings.Join(names, ", "))
	keep := a.keepView()
	keep.changed = names
	if !a.state.Modified {
		a.startLoad(d.Path, keep)
		return
	}
	a.files.afterPrompt, a.files.reloadPrompt = func() { a.startLoad(d.Path, keep) }, true
	a.state.Files.Prompt = ui.Prompt{
		Visible: true,
		Title:   "Changed on disk",
		Text:    fmt.Sprintf("%s changed on disk (%s).\nReload it and lose your edits?", a.state.Name, strings.Join(names, ", ")),
		Choices: []string{"Reload", "Keep my edits"},
	}
}

// counts are the nodes, shapes and bodies of d.
func counts(d *scene.Document) [3]int {
	bodies := 0
	for _, ne := range d.Nodes {
		if ne.Body != nil {
			bodies++
		}
	}
	return [3]int{len(d.GLTF.Nodes), len(d.Shapes), bodies}
}

// keepView records what a reload keeps.
func (a *windowApp) keepView() *keepView {
	d := a.state.Doc
	k := &keepView{cam: a.cam, counts: counts(d)}
	if n := a.state.Selected; n >= 0 && n < len(d.GLTF.Nodes) {
		k.selected = d.GLTF.Nodes[n].Name
	}
	if v := a.state.Variant; v >= 0 && v < len(d.Variants) {
		k.variant = d.Variants[v].Name
	}
	return k
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

// loaded runs after receiveLoads has shown a new document: it restores
// the camera and variant (of a reload, or of the recent list), says what
// a reload changed, and watches the new files.
func (a *windowApp) loaded(d *scene.Document) {
	f := &a.files
	a.state.Files.Format = displayFormat(d)
	if keep, ok := f.restore[d]; ok {
		delete(f.restore, d)
		a.cam = keep.cam
		a.state.Variant = variantByName(d, keep.variant)
		if keep.selected != "" {
			for i, n := range d.GLTF.Nodes {
				if n.Name == keep.selected {
					a.state.Selected = i
					break
				}
			}
		}
		now := counts(d)
		change := fmt.Sprintf("nodes %d -> %d, shapes %d -> %d, bodies %d -> %d",
			keep.counts[0], now[0], keep.counts[1], now[1], keep.counts[2], now[2])
		a.state.Status = fmt.Sprintf("Reloaded from disk (%s changed):\n%s", strings.Join(keep.changed, ", "), change)
		fmt.Fprintf(os.Stderr, "viewer: reloaded %s: %s\n", a.state.Name, change)
	} else if d.Path != "" {
		if e, ok := f.recent.Find(d.Path); ok {
			if c := e.Camera; c != nil {
				a.cam = render.Camera{Target: c.Target, Distance: c.Distance, Yaw: c.Yaw, Pitch: c.Pitch, FovY: c.FovY, Radius: c.Radius}
			}
			a.state.Variant = variantByName(d, e.Variant)
		}
	}
	if d.Path != "" {
		f.recent.Touch(d.Path, time.Now())
		a.saveRecent()
	}
	a.watch(d)
	fmt.Fprintf(os.Stderr, "viewer: opened %s\n", a.state.Name)
}

// displayFormat names d's file format for the status bar.
func displayFormat(d *scene.Document) string {
	if f, ok := scene.FormatFor(d.Path); ok {
		return f.Name
	}
	switch {
	case strings.EqualFold(filepath.Ext(d.Path), ".xode"):
		return "XODE"
	case d.IsGLB():
		return "GLB"
	}
	return "glTF"
}

// watch watches d's files in place of the previous document's.
func (a *windowApp) watch(d *scene.Document) {
	if a.files.watcher != nil {
		a.files.watcher.Close()
		a.files.watcher = nil
	}
	a.state.Files.Watching = false
	files := watchedFiles(d)
	if len(files) == 0 {
		return
	}
	w, err := watch.New(files, reloadDebounce)
	if err != nil {
		fmt.Fprintln(os.Stderr, "viewer:", err)
		return
	}
	w.SetNotify(postWake)
	a.files.watcher = w
	a.state.Files.Watching = true
}

// rememberView stores the open file's camera and variant in the recent list.
func (a *windowApp) rememberView() {
	d := a.state.Doc
	if d == nil || d.Path == "" || a.files.recent == nil {
		return
	}
	c := a.cam
	variant := ""
	if v := a.state.Variant; v >= 0 && v < len(d.Variants) {
		variant = d.Variants[v].Name
	}
	a.files.recent.Remember(d.Path, recent.Camera{Target: c.Target, Distance: c.Distance, Yaw: c.Yaw, Pitch: c.Pitch, FovY: c.FovY, Radius: c.Radius}, variant)
	a.saveRecent()
}

func (a *windowApp) saveRecent() {
	if a.files.recent.Path() != "" {
		if err := a.files.recent.Save(); err != nil {
			fmt.Fprintln(os.Stderr, "viewer:", err)
		}
	}
	a.refreshRecent()
}

func (a *windowApp) refreshRecent() {
	items := a.state.Files.Recent[:0]
	for _, e := range a.files.recent.Entries {
		items = append(items, ui.RecentItem{Path: e.Path, Missing: !e.Exists()})
	}
	a.state.Files.Recent = items
}

// saved runs after a successful save to target: watching starts again
// from what is on disk now (so the save is not taken for an outside
// change), the recent list follows, and a pending prompt continues.
func (a *windowApp) saved(target string) {
	if a.state.Doc != nil {
		a.watch(a.state.Doc)
	}
	a.files.recent.Touch(target, time.Now())
	a.rememberView()
	if then := a.files.afterSave; then != nil {
		a.files.afterSave = nil
		then()
	}
}

// doFiles carries out the file actions of the panel.
func (a *windowApp) doFiles(act ui.Action) {
	f := &a.files
	switch act.Kind {
	case ui.ActionOpenDialog:
		a.askUnsaved("opening another file", func() { a.chooseFile(ui.ActionOpen) })
	case ui.ActionSaveAsDialog:
		a.chooseFile(ui.ActionSaveAs)
	case ui.ActionOpenRecent:
		a.requestOpen(act.Path)
	case ui.ActionQuit:
		a.askUnsaved("quitting", a.quit)
	case ui.ActionCancelLoad:
		if f.load != nil {
			f.load.cancel()
			a.state.Status = "loading " + filepath.Base(f.load.path) + " cancelled"
			fmt.Fprintln(os.Stderr, "viewer:", a.state.Status)
			f.load = nil
		}
	case ui.ActionPromptAnswer:
		then := f.afterPrompt
		f.afterPrompt = nil
		if f.reloadPrompt {
			if act.Index == 0 && then != nil {
				then()
			}
			return
		}
		switch act.Index {
		case ui.AnswerSave:
			if a.state.Doc != nil && a.state.Doc.Path == "" {
				f.afterSave = then
				a.chooseFile(ui.ActionSaveAs)
				return
			}
			a.do(ui.Action{Kind: ui.ActionSave})
			if !a.state.Modified && then != nil {
				then()
			}
		case ui.AnswerDiscard:
			if then != nil {
				then()
			}
		}
	}
}

// chooseFile asks for a file to open or save to: the desktop's dialog
// through the portal when there is one, the in-window browser otherwise.
func (a *windowApp) chooseFile(kind ui.ActionKind) {
	f := &a.files
	dir, name := ui.SuggestSave(&a.state)
	if kind == ui.ActionOpen {
		if e := f.recent.Entries; len(e) > 0 && a.state.Doc == nil {
			dir = filepath.Dir(e[0].Path)
		}
		name = ""
	}
	if f.chooser == nil {
		path := ""
		if name != "" {
			path = filepath.Join(dir, name)
		}
		a.state.Files.Browser.Show(kind, dir, path)
		return
	}
	if f.dialogOpen {
		return
	}
	f.dialogOpen = true
	filters := []portal.Filter{{Name: "glTF, XODE and G4MF scenes", Patterns: []string{"*.gltf", "*.glb", "*.xode", "*.g4tf", "*.g4b"}}}
	for _, e := range ui.ModelExtensions {
		filters = append(filters, portal.Filter{Name: strings.ToUpper(e[1:]) + " files", Patterns: []string{"*" + e}})
	}
	c, answers := f.chooser, f.dialogs
	go func() {
		var p string
		var err error
		if kind == ui.ActionOpen {
			p, err = c.OpenFile(context.Background(), "Open a scene", filters)
		} else {
			p, err = c.SaveFile(context.Background(), "Save the scene as", dir, name, filters)
		}
		answers <- dialogAnswer{kind, p, err}
		postWake()
	}()
}

// dialogAnswered acts on the portal's answer; when the portal fails the
// in-window browser takes over.
func (a *windowApp) dialogAnswered(d dialogAnswer) {
	switch {
	case errors.Is(d.err, portal.ErrCancelled):
		a.files.afterSave = nil
	case d.err != nil:
		fmt.Fprintln(os.Stderr, "viewer:", d.err)
		a.files.chooser = nil
		a.chooseFile(d.kind)
	case d.kind == ui.ActionOpen:
		a.startLoad(d.path, nil)
	default:
		a.do(ui.Action{Kind: ui.ActionSaveAs, Path: d.path})
	}
}
