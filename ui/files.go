package ui

import (
	"fmt"
	"path/filepath"
	"physview/internal/app"
	"strings"
	"unicode"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// Files is the panel's own state for the file features: the in-window
// browser and the prompt shown (the question itself is the session's).
type Files struct {
	Browser FileBrowser
	// promptOpen is the prompt the modal was opened for.
	promptOpen *app.Prompt
}

// fileMenu is the File menu.
func fileMenu(s *State, act func(app.Intent)) g.Layout {
	recent := g.Layout{}
	if l := s.S.Recent; l != nil {
		for _, r := range l.Entries {
			missing := !r.Exists()
			label := r.Path
			if missing {
				label += " (missing)"
			}
			recent = append(recent, g.MenuItem(label).Enabled(!missing).OnClick(func() { act(app.OpenFile{Path: r.Path}) }))
		}
	}
	if len(recent) == 0 {
		recent = append(recent, g.MenuItem("(none yet)").Enabled(false))
	}
	return g.Layout{
		g.MenuItem("Open...").Shortcut("Ctrl+O").OnClick(func() { act(app.OpenDialog{}) }),
		g.Menu("Open recent").Layout(recent),
		g.MenuItem("Open demo scene").OnClick(func() { act(app.OpenDemo{}) }),
		g.MenuItem("Open for compare...").Enabled(s.S.Doc != nil).OnClick(func() { act(app.OpenCompareDialog{}) }),
		g.Separator(),
		g.MenuItem("Save").Shortcut("Ctrl+S").Enabled(s.S.Doc != nil).OnClick(func() { act(app.Save{}) }),
		g.MenuItem("Save as...").Shortcut("Ctrl+Shift+S").Enabled(s.S.Doc != nil).OnClick(func() { act(app.SaveAsDialog{}) }),
		g.Separator(),
		g.MenuItem("Quit").Shortcut("Ctrl+Q").OnClick(func() { act(app.Quit{}) }),
	}
}

// loadingBar shows the file being loaded with its progress and a Cancel,
// and then the textures decoding (N of M), and those shown reduced
// getting their full resolution.
func loadingBar(s *State, act func(app.Intent)) g.Widget {
	l := s.S.Loading()
	if l == nil {
		if s.S.Doc != nil && len(s.S.Doc.GLTF.Images) > 0 && s.Progress < 1 {
			m := len(s.S.Doc.GLTF.Images)
			n := int(s.Progress*float32(m) + 0.5)
			return g.ProgressBar(s.Progress).Size(-1, 0).Overlay(fmt.Sprintf("textures %d of %d", n, m))
		}
		if s.S.Doc != nil && s.Refining > 0 {
			m := len(s.S.Doc.GLTF.Images)
			n := max(0, m-s.Refining)
			return g.ProgressBar(float32(n)/float32(max(1, m))).Size(-1, 0).Overlay(fmt.Sprintf("full resolution %d of %d", n, m))
		}
		return g.Layout{}
	}
	phase, frac := l.Progress()
	overlay := phase
	if frac < 0 {
		frac = 0
	} else {
		overlay = fmt.Sprintf("%s %d%%", phase, int(frac*100+0.5))
	}
	return g.Layout{
		g.Label("Loading " + filepath.Base(l.Path)),
		g.Row(
			g.ProgressBar(frac).Size(-100, 0).Overlay(overlay), // the panel's width less the button
			g.Button("Cancel##load").OnClick(func() { act(app.CancelLoad{}) }),
		),
	}
}

// buildFiles draws the browser, the prompt and the status bar, and reads
// the file shortcuts.
func buildFiles(s *State, act func(app.Intent), width, height float32) {
	f := &s.Files
	noPopup := !f.Browser.Visible && s.S.Prompt() == nil && !imgui.IsPopupOpenStrV("", imgui.PopupFlagsAnyPopupId)
	if noPopup && imgui.IsKeyDown(imgui.ModCtrl) {
		switch {
		case imgui.IsKeyPressedBool(imgui.KeyO):
			act(app.OpenDialog{})
		case imgui.IsKeyPressedBool(imgui.KeyQ):
			act(app.Quit{})
		case imgui.IsKeyDown(imgui.ModShift) && imgui.IsKeyPressedBool(imgui.KeyS) && s.S.Doc != nil:
			act(app.SaveAsDialog{})
		}
	}
	if s.S.Prompt() == nil {
		// A prompt has the keyboard and the screen: the browser (still
		// open when the prompt came) waits under it, unbuilt.
		f.Browser.Build(act)
	}
	buildPrompt(s, act)
	loadingOverlay(s, width, height)
	StatusBar(s, width, height)
}

// promptID is the prompt popup's id.
const promptID = "##prompt"

// buildPrompt shows the session's question as a modal that has the
// keyboard: Enter picks the default choice, Escape the last, Alt and a
// choice's first letter that choice, a click any; every other key does
// nothing (the window's shortcuts are off while it is up, PromptUp), so
// that a user typing a path into a prompt they did not see coming neither
// saves, discards nor switches a tool.
func buildPrompt(s *State, act func(app.Intent)) {
	p := s.S.Prompt()
	if p == nil || len(p.Choices) == 0 {
		s.Files.promptOpen = nil
		return
	}
	id := p.Title + promptID
	g.Custom(func() {
		if !imgui.IsPopupOpenStr(id) {
			imgui.OpenPopupStr(id)
		}
		if !imgui.BeginPopupModalV(id, nil, imgui.WindowFlagsAlwaysAutoResize) {
			return
		}
		defer imgui.EndPopup()
		answer := func(i int) {
			imgui.CloseCurrentPopup()
			closedPopup(id)
			hideFocusRing()
			act(app.AnswerPrompt{Choice: i})
		}
		imgui.TextUnformatted(p.Text)
		imgui.Spacing()
		for i := range p.Choices {
			if i > 0 {
				imgui.SameLine()
			}
			if imgui.Button(PromptButton(p, i)) {
				answer(i)
				return
			}
		}
		def := min(max(p.Default, 0), len(p.Choices)-1)
		imgui.TextDisabled("Enter: " + p.Choices[def] + "    Esc: " + p.Choices[len(p.Choices)-1])
		switch {
		case imgui.IsKeyPressedBool(imgui.KeyEscape):
			answer(len(p.Choices) - 1)
			return
		case imgui.IsKeyPressedBool(imgui.KeyEnter), imgui.IsKeyPressedBool(imgui.KeyKeypadEnter):
			answer(def)
			return
		}
		if !imgui.IsKeyDown(imgui.ModAlt) || imgui.IsKeyDown(imgui.ModCtrl) {
			return
		}
		for i, c := range p.Choices {
			if imgui.IsKeyPressedBool(letterKey(c[0])) {
				answer(i)
				return
			}
		}
	}).Build()
}

// PromptButton is the label of choice i's button: the choice and its key.
func PromptButton(p *app.Prompt, i int) string {
	c := p.Choices[i]
	return fmt.Sprintf("%s (Alt+%c)##%d", c, unicode.ToUpper(rune(c[0])), i)
}

// PromptUp reports whether a prompt has the keyboard: the window's
// shortcuts (Ctrl+S, W/E/R, Space) do nothing meanwhile.
func PromptUp(s *app.Session) bool {
	return s.Prompt() != nil
}

// letterKey is the imgui key of an ASCII letter.
func letterKey(c byte) imgui.Key {
	c = strings.ToUpper(string(c))[0]
	if c < 'A' || c > 'Z' {
		return imgui.KeyNone
	}
	return imgui.KeyA + imgui.Key(c-'A')
}

// loadingOverlay shows, in the middle of the empty 3D view, the file being
// loaded and its progress, so that the first open of a large file is not a
// black view (with a document on screen the panel's bar says it).
func loadingOverlay(s *State, width, height float32) {
	l := s.S.Loading()
	if l == nil || s.S.Doc != nil {
		return
	}
	phase, frac := l.Progress()
	if frac < 0 {
		frac = 0
	}
	w := float32(360)
	g.Window("##loading").Pos((width-s.S.View.PanelFor(width)-w)/2, height/2-40).Size(w, 70).
		Flags(g.WindowFlagsNoMove|g.WindowFlagsNoResize|g.WindowFlagsNoCollapse|g.WindowFlagsNoTitleBar|
			g.WindowFlagsNoScrollbar|g.WindowFlagsNoSavedSettings|g.WindowFlagsNoFocusOnAppearing).
		Layout(
			g.Label("Loading "+filepath.Base(l.Path)),
			g.ProgressBar(frac).Size(-1, 0).Overlay(phase),
		)
}

// hideFocusRing hides ImGui's keyboard-focus ring as a dialog closes: the
// dialog was used with the keyboard (a typed path, Enter, Alt+S), and the
// panel button or tab clicked before it would otherwise come back framed
// as if it had the keyboard.
func hideFocusRing() { imgui.SetNavCursorVisible(false) }
