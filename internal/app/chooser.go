package app

import (
	"errors"
	"path/filepath"
	"strings"

	"physview/internal/portal"
	"physview/scene"
)

// What the window shows around the document: its title and what the file
// chooser (the desktop's dialog or the in-window browser) asks.

// Title is the window's title: "physview" with nothing open, else the
// document's name before it, marked with "*" while there are unsaved edits
// ("*a.glb - physview").
func (s *Session) Title() string {
	if s.Doc == nil {
		return "physview"
	}
	t := s.Name + " - physview"
	if s.Modified() {
		t = "*" + t
	}
	return t
}

// ChooserFilters are the chooser's file types: first one with the endings
// of every registered format ("glTF, G4MF, XODE scenes"), the one chosen
// at first, then one per ending ("GLB files").
func ChooserFilters() []portal.Filter {
	var all, names []string
	var each []portal.Filter
	for _, f := range scene.Formats() {
		names = append(names, f.Name)
		for _, e := range f.Exts {
			all = append(all, "*"+e)
			each = append(each, portal.Filter{Name: strings.ToUpper(e[1:]) + " files", Patterns: []string{"*" + e}})
		}
	}
	return append([]portal.Filter{{Name: strings.Join(names, ", ") + " scenes", Patterns: all}}, each...)
}

// ChooserRequest is the dialog for Open (save false) or Save as: its
// title, the file types, and the folder and file name it suggests. Save as
// suggests the document's own file (scene.glb in the working folder for a
// document with none); Open suggests no name, and its folder is the open
// document's, or the most recent file's when nothing is open.
func (s *Session) ChooserRequest(save bool) portal.Request {
	dir, name := suggestSave(s.Doc)
	r := portal.Request{Save: save, Title: "Save the scene as", Folder: dir, Name: name, Filters: ChooserFilters()}
	if !save {
		r.Title, r.Name = "Open a scene", ""
		if s.Doc == nil && s.Recent != nil && len(s.Recent.Entries) > 0 {
			r.Folder = filepath.Dir(s.Recent.Entries[0].Path)
		}
	}
	return r
}

// ChooserAnswered takes the desktop dialog's answer (portal.Dialogs): a
// path is FileChosen, a cancel ChooserCancelled; after a failure the same
// chooser is asked for again (TakeChooser), which the window then shows
// itself, the portal having been dropped.
func (s *Session) ChooserAnswered(a portal.Answer) {
	switch {
	case errors.Is(a.Err, portal.ErrCancelled):
		s.Do(ChooserCancelled{})
	case a.Err != nil:
		s.files.chooser = ChooseOpen
		if a.Save {
			s.files.chooser = ChooseSave
		}
	default:
		s.Do(FileChosen{Path: a.Path, Save: a.Save})
	}
}

// suggestSave returns the folder and file name Save as proposes for d: its
// file's, or scene.glb in the working folder.
func suggestSave(d *scene.Document) (dir, name string) {
	p := filepath.Join(".", "scene.glb")
	if d != nil && d.Path != "" {
		p = d.Path
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return filepath.Dir(p), filepath.Base(p)
}
