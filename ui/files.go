package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// Actions of the file features (numbered apart from the panel's own).
const (
	ActionOpenDialog   ActionKind = iota + 1000 // choose a file to open (portal or browser)
	ActionSaveAsDialog                          // choose where to save
	ActionOpenRecent                            // open recent file Action.Path
	ActionQuit                                  // quit (asking first when modified)
	ActionPromptAnswer                          // the prompt's choice Action.Index
	ActionCancelLoad                            // stop the file being loaded
)

// RecentItem is one entry of File > Open Recent.
type RecentItem struct {
	Path string
	// Missing greys the entry out: the file is gone.
	Missing bool
}

// Prompt is a modal question such as "save, discard or cancel".
type Prompt struct {
	Visible bool
	Title   string
	Text    string
	// Choices are the buttons; the first letter of each is its key, and
	// Escape picks the last.
	Choices []string
}

// LoadProgress is what the loading bar shows.
type LoadProgress struct {
	// Name is the file being loaded.
	Name string
	// Phase is "reading", "parsing" and so on.
	Phase string
	// Fraction is 0..1, or negative when the phase has no measure.
	Fraction float32
}

// Files is the state of the file features: the browser, recent files, the
// prompt, the loading bar and what the status bar shows beyond State.
type Files struct {
	Browser FileBrowser
	Recent  []RecentItem
	Prompt  Prompt
	// Load is set while a file loads in the background.
	Load *LoadProgress
	// Format is "glTF", "GLB" or "XODE"; FrameMS the last frame time.
	Format  string
	FrameMS float32
	// Watching is set while the open file is watched for changes.
	Watching bool
}

// fileMenu is the File menu.
func fileMenu(s *State, act func(Action)) g.Layout {
	recent := g.Layout{}
	for _, r := range s.Files.Recent {
		label := r.Path
		if r.Missing {
			label += " (missing)"
		}
		recent = append(recent, g.MenuItem(label).Enabled(!r.Missing).OnClick(func() { act(Action{Kind: ActionOpenRecent, Path: r.Path}) }))
	}
	if len(recent) == 0 {
		recent = append(recent, g.MenuItem("(none yet)").Enabled(false))
	}
	return g.Layout{
		g.MenuItem("Open...").Shortcut("Ctrl+O").OnClick(func() { act(Action{Kind: ActionOpenDialog}) }),
		g.Menu("Open recent").Layout(recent),
		g.MenuItem("Open demo scene").OnClick(func() { act(Action{Kind: ActionOpenDemo}) }),
		g.Separator(),
		g.MenuItem("Save").Shortcut("Ctrl+S").Enabled(s.Doc != nil).OnClick(func() { act(Action{Kind: ActionSave}) }),
		g.MenuItem("Save as...").Shortcut("Ctrl+Shift+S").Enabled(s.Doc != nil).OnClick(func() { act(Action{Kind: ActionSaveAsDialog}) }),
		g.Separator(),
		g.MenuItem("Quit").Shortcut("Ctrl+Q").OnClick(func() { act(Action{Kind: ActionQuit}) }),
	}
}

// loadingBar shows the file being loaded with its progress and a Cancel,
// and then the textures decoding (N of M).
func loadingBar(s *State, act func(Action)) g.Widget {
	l := s.Files.Load
	if l == nil {
		if s.Doc != nil && s.Progress > 0 && s.Progress < 1 {
			m := len(s.Doc.GLTF.Images)
			n := int(s.Progress*float32(m) + 0.5)
			return g.ProgressBar(s.Progress).Size(-1, 0).Overlay(fmt.Sprintf("textures %d of %d", n, m))
		}
		return g.Condition(s.Loading, g.Label("Loading..."), nil)
	}
	frac := l.Fraction
	overlay := l.Phase
	if frac < 0 {
		frac = 0
	} else {
		overlay = fmt.Sprintf("%s %d%%", l.Phase, int(frac*100+0.5))
	}
	return g.Layout{
		g.Label("Loading " + l.Name),
		g.Row(
			g.ProgressBar(frac).Size(PanelWidth-100, 0).Overlay(overlay),
			g.Button("Cancel##load").OnClick(func() { act(Action{Kind: ActionCancelLoad}) }),
		),
	}
}

// buildFiles draws the browser, the prompt and the status bar, and reads
// the file shortcuts.
func buildFiles(s *State, act func(Action), width, height float32) {
	f := &s.Files
	noPopup := !f.Browser.Visible && !f.Prompt.Visible && !imgui.IsPopupOpenStrV("", imgui.PopupFlagsAnyPopupId)
	if noPopup && imgui.IsKeyDown(imgui.ModCtrl) {
		switch {
		case imgui.IsKeyPressedBool(imgui.KeyO):
			act(Action{Kind: ActionOpenDialog})
		case imgui.IsKeyPressedBool(imgui.KeyQ):
			act(Action{Kind: ActionQuit})
		case imgui.IsKeyDown(imgui.ModShift) && imgui.IsKeyPressedBool(imgui.KeyS) && s.Doc != nil:
			act(Action{Kind: ActionSaveAsDialog})
		}
	}
	f.Browser.Build(act)
	buildPrompt(&f.Prompt, act)
	StatusBar(s, width, height)
}

// promptID is the prompt popup's id.
const promptID = "##prompt"

func buildPrompt(p *Prompt, act func(Action)) {
	if !p.Visible {
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
			p.Visible = false
			imgui.CloseCurrentPopup()
			act(Action{Kind: ActionPromptAnswer, Index: i})
		}
		imgui.TextUnformatted(p.Text)
		imgui.Spacing()
		for i, c := range p.Choices {
			if i > 0 {
				imgui.SameLine()
			}
			if imgui.Button(fmt.Sprintf("%s (%c)", c, c[0])) {
				answer(i)
				return
			}
		}
		if imgui.IsKeyPressedBool(imgui.KeyEscape) {
			answer(len(p.Choices) - 1)
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

// letterKey is the imgui key of an ASCII letter.
func letterKey(c byte) imgui.Key {
	c = strings.ToUpper(string(c))[0]
	if c < 'A' || c > 'Z' {
		return imgui.KeyNone
	}
	return imgui.KeyA + imgui.Key(c-'A')
}

// AskUnsaved fills p with the save / discard / cancel question before what
// (for example "closing the window").
func (p *Prompt) AskUnsaved(name, what string) {
	*p = Prompt{
		Visible: true,
		Title:   "Unsaved changes",
		Text:    fmt.Sprintf("%s has unsaved changes.\nSave them before %s?", name, what),
		Choices: []string{"Save", "Discard", "Cancel"},
	}
}

// Unsaved answers of AskUnsaved.
const (
	AnswerSave    = 0
	AnswerDiscard = 1
	AnswerCancel  = 2
)

// SuggestSave returns the folder and file name Save as proposes: the open
// file's, or scene.glb in the working folder.
func SuggestSave(s *State) (dir, name string) {
	p := filepath.Join(".", "scene.glb")
	if s.Doc != nil && s.Doc.Path != "" {
		p = s.Doc.Path
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return filepath.Dir(p), filepath.Base(p)
}
