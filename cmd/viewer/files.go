package main

// The desktop side of working with files: the open and save dialogs (the
// desktop's portal, internal/portal, else the in-window browser), the
// window's title and its close button. What the dialogs ask and what
// happens to the files is the session's (internal/app).

import (
	"fmt"
	"os"
	"time"

	"physview/internal/app"
	"physview/internal/portal"
)

// chooserState is the desktop's file chooser portal and the title shown.
type chooserState struct {
	dialogs *portal.Dialogs
	title   string
}

// initFiles looks for the portal (not with PHYSVIEW_NO_PORTAL set) and
// asks before the window closes with unsaved edits.
func (a *windowApp) initFiles() {
	a.files.dialogs = portal.NewDialogs(postWake, func(m string) { fmt.Fprintln(os.Stderr, "viewer:", m) })
	if os.Getenv("PHYSVIEW_NO_PORTAL") == "" {
		a.files.dialogs.Probe(3 * time.Second)
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
func (a *windowApp) closeFiles() { a.files.dialogs.Close() }

// filesFrame runs once per frame: it hands the dialog's answer to the
// session, shows the chooser the session asks for and keeps the title.
func (a *windowApp) filesFrame() {
	if d, ok := a.files.dialogs.Poll(); ok {
		a.s.ChooserAnswered(d) // a failure asks again, for the browser
	}
	// The desktop's dialog, else the in-window browser.
	if k := a.s.TakeChooser(); k != app.ChooseNone {
		r := a.s.ChooserRequest(k == app.ChooseSave)
		if !a.files.dialogs.Start(r) {
			a.panel.Files.Browser.Show(r.Save, r.Folder, r.Path())
		}
	}
	if t := a.s.Title(); t != a.files.title {
		a.files.title = t
		a.wnd.SetTitle(t)
	}
}
