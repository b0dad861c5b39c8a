package main

// The desktop side of working with files: the open and save dialogs (the
// desktop's portal, else the in-window browser), the window's title and
// its close button. What happens to the files (prompts, loading, saving,
// reload, recent files) is the session's (internal/app).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"physview/internal/app"
	"physview/internal/portal"
	"physview/scene"
	"physview/ui"
)

// chooserState is the desktop's file chooser portal and the dialog open.
type chooserState struct {
	// chooser is the portal, nil when there is none; portalReady delivers
	// it once the start-up probe answers.
	chooser     *portal.Chooser
	portalReady chan *portal.Chooser
	dialogs     chan dialogAnswer
	dialogOpen  bool
	title       string
}

// dialogAnswer is the portal's answer to an open or save dialog.
type dialogAnswer struct {
	save bool
	path string
	err  error
}

// initFiles looks for the portal and asks before the window closes with
// unsaved edits.
func (a *windowApp) initFiles() {
	f := &a.files
	f.dialogs = make(chan dialogAnswer, 2)
	f.portalReady = make(chan *portal.Chooser, 1)
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
		if a.s.RequestClose() {
			stopWakes()
			return true
		}
		return false
	})
}

// quit closes the window without asking again.
func (a *windowApp) quit() {
	stopWakes()
	a.wnd.SetShouldClose(true)
}

// closeFiles closes the portal connection when the window has closed.
func (a *windowApp) closeFiles() {
	if a.files.chooser != nil {
		a.files.chooser.Close()
	}
}

// filesFrame runs once per frame: it takes in the portal and its answers,
// shows the chooser the session asks for and keeps the title.
func (a *windowApp) filesFrame() {
	f := &a.files
	select {
	case c := <-f.portalReady:
		f.chooser = c
		if c != nil {
			fmt.Fprintln(os.Stderr, "viewer: using the desktop's file chooser portal")
		}
	default:
	}
	select {
	case d := <-f.dialogs:
		f.dialogOpen = false
		a.dialogAnswered(d)
	default:
	}
	switch a.s.TakeChooser() {
	case app.ChooseOpen:
		a.chooseFile(false)
	case app.ChooseSave:
		a.chooseFile(true)
	}
	title := "physview"
	if a.s.Doc != nil {
		title = a.s.Name + " - physview"
		if a.s.Modified() {
			title = "*" + title
		}
	}
	if title != f.title {
		f.title = title
		a.wnd.SetTitle(title)
	}
}

// chooseFile asks for a file to open or save to: the desktop's dialog
// through the portal when there is one, the in-window browser otherwise.
func (a *windowApp) chooseFile(save bool) {
	f := &a.files
	dir, name := ui.SuggestSave(a.s.Doc)
	if !save {
		if r := a.s.Recent; r != nil && len(r.Entries) > 0 && a.s.Doc == nil {
			dir = filepath.Dir(r.Entries[0].Path)
		}
		name = ""
	}
	if f.chooser == nil {
		path := ""
		if name != "" {
			path = filepath.Join(dir, name)
		}
		a.panel.Files.Browser.Show(save, dir, path)
		return
	}
	if f.dialogOpen {
		return
	}
	f.dialogOpen = true
	var all []string
	var filters []portal.Filter
	var names []string
	for _, fm := range scene.Formats() {
		names = append(names, fm.Name)
		for _, e := range fm.Exts {
			all = append(all, "*"+e)
			filters = append(filters, portal.Filter{Name: strings.ToUpper(e[1:]) + " files", Patterns: []string{"*" + e}})
		}
	}
	filters = append([]portal.Filter{{Name: strings.Join(names, ", ") + " scenes", Patterns: all}}, filters...)
	c, answers := f.chooser, f.dialogs
	go func() {
		var p string
		var err error
		if !save {
			p, err = c.OpenFile(context.Background(), "Open a scene", filters)
		} else {
			p, err = c.SaveFile(context.Background(), "Save the scene as", dir, name, filters)
		}
		answers <- dialogAnswer{save, p, err}
		postWake()
	}()
}

// dialogAnswered hands the portal's answer to the session; when the
// portal fails the in-window browser takes over.
func (a *windowApp) dialogAnswered(d dialogAnswer) {
	switch {
	case errors.Is(d.err, portal.ErrCancelled):
		a.s.Do(app.ChooserCancelled{})
	case d.err != nil:
		fmt.Fprintln(os.Stderr, "viewer:", d.err)
		a.files.chooser = nil
		a.chooseFile(d.save)
	default:
		a.s.Do(app.FileChosen{Path: d.path, Save: d.save})
	}
}
