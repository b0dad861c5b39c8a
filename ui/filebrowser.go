package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"physview/internal/app"
	"physview/scene"
	"sort"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// ModelExtensions returns the file types the viewer opens, in the order
// the browser's filter lists them: every registered format's endings
// (scene.Formats; the session's package registers them all).
func ModelExtensions() []string { return scene.Extensions() }

// BrowserEntry is one row of the file browser.
type BrowserEntry struct {
	Name     string
	Dir      bool
	Size     int64
	Modified time.Time
}

// FileBrowser is the in-window file chooser used when the desktop has no
// file chooser portal: folders, a filter by extension, each file's size and
// date, keyboard navigation (Up/Down and PageUp/PageDown move, Enter opens
// the folder or file, Alt+Up goes to the parent, Esc cancels) and a typed
// path. Its logic (List, Move, Submit) works without a window.
type FileBrowser struct {
	// Visible is set while the browser is shown.
	Visible bool
	// SaveMode accepts a typed path that does not exist yet.
	SaveMode bool
	// Dir is the folder shown.
	Dir string
	// Path is the typed path; moving the cursor fills it in.
	Path string
	// Filter is the index into FilterNames: 0 all model files, then one
	// extension each, last all files.
	Filter int
	// Entries is Dir's listing under Filter, ".." first, then folders,
	// then files, each sorted by name.
	Entries []BrowserEntry
	// Cursor is the highlighted entry.
	Cursor int
	// Err is the last listing or submit problem.
	Err string

	gen      int // a new path field (and so new text) after each cursor move
	focus    bool
	scrollTo bool
	// frame counts the browser's frames; lastClick is the entry clicked
	// last, at frame clickFrame and time clickAt (see Clicked).
	frame, clickFrame int
	lastClick         int
	clickAt           time.Time
}

// doubleClick is how close two clicks on one entry make a double-click:
// in time, or in frames for a window drawing slowly (ImGui's own test
// spreads the four mouse events over four frames, and at 280 ms a frame
// they were never 0.3 s apart).
const (
	doubleClickTime   = 500 * time.Millisecond
	doubleClickFrames = 5
)

// Clicked records a click on entry i at now and reports whether it
// completes a double-click (the same entry, clicked again soon after).
func (b *FileBrowser) Clicked(i int, now time.Time) bool {
	double := !b.clickAt.IsZero() && i == b.lastClick && (now.Sub(b.clickAt) < doubleClickTime || b.frame-b.clickFrame <= doubleClickFrames)
	b.lastClick, b.clickAt, b.clickFrame = i, now, b.frame
	if double {
		b.lastClick = -1 // a third click starts anew
	}
	return double
}

// FilterNames are the choices of the browser's type filter.
func FilterNames() []string {
	var formats []string
	for _, f := range scene.Formats() {
		formats = append(formats, f.Name)
	}
	names := []string{strings.Join(formats, ", ") + " (" + strings.Join(ModelExtensions(), " ") + ")"}
	for _, e := range ModelExtensions() {
		names = append(names, e)
	}
	return append(names, "all files")
}

// Show opens the browser in dir to open a file, or to save one when save
// is set, starting with path typed (may be empty).
func (b *FileBrowser) Show(save bool, dir, path string) {
	b.Visible, b.SaveMode = true, save
	if dir == "" {
		dir, _ = os.Getwd()
	}
	b.Filter = 0
	b.Chdir(dir)
	if path != "" {
		b.Path = path
	}
}

// matches reports whether name passes the filter.
func (b *FileBrowser) matches(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	switch {
	case b.Filter <= 0:
		for _, e := range ModelExtensions() {
			if ext == e {
				return true
			}
		}
		return false
	case b.Filter <= len(ModelExtensions()):
		return ext == ModelExtensions()[b.Filter-1]
	}
	return true
}

// Chdir shows dir (made absolute), with the cursor on its first entry.
func (b *FileBrowser) Chdir(dir string) {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	b.Dir = dir
	b.Path = dir + string(filepath.Separator)
	b.Cursor = 0
	b.List()
	b.gen++
	b.focus, b.scrollTo = true, true
}

// List reads Dir again under the current filter. Hidden files are left out.
func (b *FileBrowser) List() {
	b.Err = ""
	b.Entries = b.Entries[:0]
	b.clickAt = time.Time{} // a click in the old listing pairs with none in the new
	if filepath.Dir(b.Dir) != b.Dir {
		b.Entries = append(b.Entries, BrowserEntry{Name: "..", Dir: true})
	}
	des, err := os.ReadDir(b.Dir)
	if err != nil {
		b.Err = fmt.Sprintf("cannot list %s: %v", b.Dir, unwrapPath(err))
	}
	var dirs, files []BrowserEntry
	for _, de := range des {
		if strings.HasPrefix(de.Name(), ".") {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		if info.Mode()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(b.Dir, de.Name())); err == nil {
				info = st
			}
		}
		e := BrowserEntry{Name: de.Name(), Dir: info.IsDir(), Size: info.Size(), Modified: info.ModTime()}
		if e.Dir {
			dirs = append(dirs, e)
		} else if b.matches(e.Name) {
			files = append(files, e)
		}
	}
	byName := func(s []BrowserEntry) {
		sort.Slice(s, func(i, j int) bool { return strings.ToLower(s[i].Name) < strings.ToLower(s[j].Name) })
	}
	byName(dirs)
	byName(files)
	b.Entries = append(append(b.Entries, dirs...), files...)
	if b.Cursor >= len(b.Entries) {
		b.Cursor = max(0, len(b.Entries)-1)
	}
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Move moves the cursor by delta rows (clamped) and types its path.
func (b *FileBrowser) Move(delta int) {
	if len(b.Entries) == 0 {
		return
	}
	b.Cursor = min(max(b.Cursor+delta, 0), len(b.Entries)-1)
	b.Path = b.entryPath(b.Cursor)
	b.gen++
	b.focus, b.scrollTo = true, true
}

func (b *FileBrowser) entryPath(i int) string {
	e := b.Entries[i]
	if e.Name == ".." {
		return filepath.Dir(b.Dir)
	}
	return filepath.Join(b.Dir, e.Name)
}

// Submit acts on the typed path: a folder is entered, a file is chosen
// (returned with ok). A relative path is taken from Dir; "~" is home.
func (b *FileBrowser) Submit() (path string, ok bool) {
	p := strings.TrimSpace(b.Path)
	if p == "" {
		return "", false
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(b.Dir, p)
	}
	p = filepath.Clean(p)
	st, err := os.Stat(p)
	switch {
	case err == nil && st.IsDir():
		b.Chdir(p)
		return "", false
	case err == nil:
		b.Visible = false
		return p, true
	case b.SaveMode:
		if pst, perr := os.Stat(filepath.Dir(p)); perr != nil || !pst.IsDir() {
			b.Err = fmt.Sprintf("no folder %s", filepath.Dir(p))
			return "", false
		}
		b.Visible = false
		return p, true
	}
	b.Err = fmt.Sprintf("%s: %v", p, unwrapPath(err))
	return "", false
}

// Up shows the parent folder.
func (b *FileBrowser) Up() {
	child := filepath.Base(b.Dir)
	b.Chdir(filepath.Dir(b.Dir))
	for i, e := range b.Entries {
		if e.Name == child {
			b.Cursor = i
			b.Path = b.entryPath(i)
		}
	}
}

// HumanSize writes a byte count as people read it (1.5 MB).
func HumanSize(n int64) string { return app.HumanSize(n) }

// browserTitle is the popup's id.
const browserTitle = "Choose a file##browser"

// build draws the browser as a modal popup and returns the chosen path as
// an app.FileChosen (app.ChooserCancelled when cancelled).
func (b *FileBrowser) build(act func(app.Intent)) {
	if !b.Visible {
		return
	}
	b.frame++
	if !imgui.IsPopupOpenStr(browserTitle) {
		imgui.OpenPopupStr(browserTitle)
	}
	imgui.SetNextWindowSizeV(imgui.Vec2{X: 720, Y: 480}, imgui.CondAppearing)
	if !imgui.BeginPopupModalV(browserTitle, nil, 0) {
		return
	}
	defer imgui.EndPopup()
	choose := func() {
		if p, ok := b.Submit(); ok {
			imgui.CloseCurrentPopup()
			closedPopup(browserTitle)
			hideFocusRing()
			act(app.FileChosen{Path: p, Save: b.SaveMode})
		}
	}
	cancel := func() {
		b.Visible = false
		imgui.CloseCurrentPopup()
		closedPopup(browserTitle)
		hideFocusRing()
		act(app.ChooserCancelled{})
	}
	verb := "Open"
	if b.SaveMode {
		verb = "Save"
	}
	imgui.TextUnformatted(fmt.Sprintf("%s: type a path or pick below (Up/Down, Enter; Alt+Up: parent folder; Esc: cancel)", verb))

	// Keys: the path field keeps the keyboard; arrows move the cursor.
	switch {
	case imgui.IsKeyPressedBool(imgui.KeyEscape):
		cancel()
		return
	case imgui.IsKeyDown(imgui.ModAlt) && imgui.IsKeyPressedBool(imgui.KeyUpArrow):
		b.Up()
	case imgui.IsKeyPressedBool(imgui.KeyUpArrow):
		b.Move(-1)
	case imgui.IsKeyPressedBool(imgui.KeyDownArrow):
		b.Move(1)
	case imgui.IsKeyPressedBool(imgui.KeyPageUp):
		b.Move(-10)
	case imgui.IsKeyPressedBool(imgui.KeyPageDown):
		b.Move(10)
	}

	if b.focus {
		imgui.SetKeyboardFocusHere()
		b.focus = false
	}
	imgui.SetNextItemWidth(-90)
	if imgui.InputTextWithHint(fmt.Sprintf("##path%d", b.gen), "path", &b.Path, imgui.InputTextFlagsEnterReturnsTrue, nil) {
		choose()
		b.focus = true
	}
	imgui.SameLine()
	if imgui.Button(verb) {
		choose()
	}

	names := FilterNames()
	imgui.SetNextItemWidth(300)
	if imgui.BeginCombo("type##filter", names[b.Filter]) {
		for i, n := range names {
			if imgui.SelectableBool(n) {
				b.Filter = i
				b.List()
			}
		}
		imgui.EndCombo()
	}
	imgui.SameLine()
	if imgui.Button("Parent folder") {
		b.Up()
	}
	imgui.TextUnformatted(b.Dir)
	if b.Err != "" {
		imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.45, Z: 0.4, W: 1})
		// Wrapped: a long path's error is read whole, not cut at the edge.
		imgui.TextWrapped(strings.ReplaceAll(b.Err, "%", "%%"))
		imgui.PopStyleColor()
	}

	flags := imgui.TableFlagsScrollY | imgui.TableFlagsRowBg | imgui.TableFlagsBordersInnerV
	if imgui.BeginTableV("files", 3, flags, imgui.Vec2{X: 0, Y: -32}, 0) {
		imgui.TableSetupScrollFreeze(0, 1)
		imgui.TableSetupColumnV("Name", imgui.TableColumnFlagsWidthStretch, 0, 0)
		imgui.TableSetupColumnV("Size", imgui.TableColumnFlagsWidthFixed, 90, 0)
		imgui.TableSetupColumnV("Modified", imgui.TableColumnFlagsWidthFixed, 140, 0)
		imgui.TableHeadersRow()
		for i, e := range b.Entries {
			imgui.TableNextRow()
			if i == b.Cursor {
				// The theme's selected colour is too faint for a cursor.
				imgui.TableSetBgColor(imgui.TableBgTargetRowBg1, imgui.ColorU32Vec4(imgui.Vec4{X: 0.22, Y: 0.40, Z: 0.68, W: 1}))
			}
			imgui.TableSetColumnIndex(0)
			name := e.Name
			if e.Dir {
				name += "/"
			}
			if imgui.SelectableBoolV(fmt.Sprintf("%s##e%d", name, i), i == b.Cursor, imgui.SelectableFlagsSpanAllColumns|imgui.SelectableFlagsAllowDoubleClick, imgui.Vec2{}) {
				b.Cursor = i
				b.Path = b.entryPath(i)
				b.gen++
				b.focus = true
				if b.Clicked(i, time.Now()) || imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) {
					choose()
				}
			}
			if i == b.Cursor && b.scrollTo {
				imgui.SetScrollHereYV(0.5)
				b.scrollTo = false
			}
			if !e.Dir {
				imgui.TableSetColumnIndex(1)
				imgui.TextUnformatted(HumanSize(e.Size))
				imgui.TableSetColumnIndex(2)
				imgui.TextUnformatted(e.Modified.Format("2006-01-02 15:04"))
			}
		}
		imgui.EndTable()
	}
	if imgui.Button("Cancel") {
		cancel()
	}
	imgui.SameLine()
	imgui.TextUnformatted(fmt.Sprintf("%d entries", len(b.Entries)))
}

// Build draws the browser when it is visible.
func (b *FileBrowser) Build(act func(app.Intent)) { g.Custom(func() { b.build(act) }).Build() }
