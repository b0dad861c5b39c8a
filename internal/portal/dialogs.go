package portal

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// Request is one dialog to show.
type Request struct {
	// Save asks for a file to save to (SaveFile), else one to open.
	Save  bool
	Title string
	// Folder and Name are the suggested folder and file name; the portal
	// is given them for Save only (either may be empty).
	Folder, Name string
	Filters      []Filter
}

// Path is the suggested file, Folder/Name, or "" when no name is
// suggested (a chooser of the caller's own starts there).
func (r Request) Path() string {
	if r.Name == "" {
		return ""
	}
	return filepath.Join(r.Folder, r.Name)
}

// Answer is the portal's answer to a Request: the chosen path, or Err
// (ErrCancelled when the user closed the dialog).
type Answer struct {
	Save bool
	Path string
	Err  error
}

// Dialogs runs the portal's dialogs for a UI thread that must not block:
// Probe looks for the portal on a goroutine, Start shows one dialog at a
// time on another, and the UI thread takes the answers in with Poll. The
// methods are for that one thread; only wake is called from elsewhere.
type Dialogs struct {
	wake func()
	log  func(msg string)

	ctx     context.Context
	cancel  context.CancelFunc
	ready   chan *Chooser
	probing bool
	answers chan Answer
	chooser *Chooser
	open    bool
}

// NewDialogs returns Dialogs with no portal yet (call Probe). wake is
// called from a goroutine when something arrives for Poll (a probe's or a
// dialog's answer), log gets a line for the user (the portal is used, a
// dialog failed); either may be nil.
func NewDialogs(wake func(), log func(msg string)) *Dialogs {
	if wake == nil {
		wake = func() {}
	}
	if log == nil {
		log = func(string) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Dialogs{wake: wake, log: log, ctx: ctx, cancel: cancel,
		ready: make(chan *Chooser, 1), answers: make(chan Answer, 1)}
}

// Probe looks for the portal on a goroutine, giving up after timeout (a
// session bus whose portal never answers must not hold the dialogs back).
// Until it answers, and when it finds none, Ready is false.
func (d *Dialogs) Probe(timeout time.Duration) {
	if d.probing || d.chooser != nil {
		return
	}
	d.probing = true
	go func() {
		ctx, cancel := context.WithTimeout(d.ctx, timeout)
		defer cancel()
		c, err := New(ctx)
		if err != nil {
			c = nil
		}
		d.ready <- c
		d.wake()
	}()
}

// takeProbe takes in the probe's answer once it has come.
func (d *Dialogs) takeProbe() {
	if !d.probing {
		return
	}
	select {
	case c := <-d.ready:
		d.probing = false
		d.chooser = c
		if c != nil {
			d.log("using the desktop's file chooser portal")
		}
	default:
	}
}

// Ready reports whether the portal is there to show dialogs.
func (d *Dialogs) Ready() bool {
	d.takeProbe()
	return d.chooser != nil
}

// Start shows r's dialog through the portal and reports whether the portal
// took it; false means there is none and the caller shows its own. While
// a dialog is open a second request is dropped (true: the first one is
// still on screen).
func (d *Dialogs) Start(r Request) bool {
	if !d.Ready() {
		return false
	}
	if d.open {
		return true
	}
	d.open = true
	c, ctx := d.chooser, d.ctx
	go func() {
		var p string
		var err error
		if r.Save {
			p, err = c.SaveFile(ctx, r.Title, r.Folder, r.Name, r.Filters)
		} else {
			p, err = c.OpenFile(ctx, r.Title, r.Filters)
		}
		if err != nil && ctx.Err() != nil {
			// Closed under way: the connection's error, if it came
			// first, is only a consequence.
			err = fmt.Errorf("portal: the dialog was given up: %w", ctx.Err())
		}
		d.answers <- Answer{Save: r.Save, Path: p, Err: err}
		d.wake()
	}()
	return true
}

// Poll returns the open dialog's answer once it has come (ok false until
// then). A dialog that failed, rather than being cancelled, leaves the
// portal unused from then on: the answer's Err says so and the caller
// shows its own chooser instead.
func (d *Dialogs) Poll() (a Answer, ok bool) {
	d.takeProbe()
	select {
	case a = <-d.answers:
	default:
		return Answer{}, false
	}
	d.open = false
	if a.Err != nil && !errors.Is(a.Err, ErrCancelled) {
		d.log(a.Err.Error())
		if d.chooser != nil {
			d.chooser.Close()
			d.chooser = nil
		}
	}
	return a, true
}

// Close closes the dialog that is open, if any, and the bus connection; a
// probe still running closes its connection when it answers.
func (d *Dialogs) Close() {
	d.cancel()
	if d.chooser != nil {
		d.chooser.Close()
		d.chooser = nil
	}
	if d.probing {
		d.probing = false
		go func() {
			if c := <-d.ready; c != nil {
				c.Close()
			}
		}()
	}
}
