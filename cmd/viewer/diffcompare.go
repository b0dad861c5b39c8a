package main

// The window's side of the Diff tab (internal/app/compare.go decides): a
// second renderer that shows the compared file B when the toggle says so,
// with the same camera, and framing a change's node.

import (
	"fmt"
	"os"

	"physview/internal/app"
	"physview/render"
	"physview/scene"
)

// compareView is the renderer of the compared file and what it shows.
type compareView struct {
	r     *render.Renderer
	doc   *scene.Document
	shown bool // the last frame showed B
}

// shownRenderer returns the renderer the 3D view draws this frame: B's
// while the Diff tab's toggle shows B, else the document's. It makes B's
// renderer when first needed and drops it when the compare is closed.
func (a *windowApp) shownRenderer() *render.Renderer {
	cv := &a.compare
	d := a.s.CompareDoc()
	if a.s.Compare.Doc == nil && cv.r != nil {
		cv.r.Delete()
		cv.r, cv.doc = nil, nil
	}
	showB := d != nil
	if showB != cv.shown {
		cv.shown = showB
		a.view.Invalidate()
	}
	if !showB {
		return a.renderer
	}
	if cv.r == nil {
		r, err := render.New()
		if err != nil {
			a.s.Fail(fmt.Sprintf("compare: %v", err))
			a.s.Do(app.SetCompareShow{Show: app.ShowA})
			return a.renderer
		}
		cv.r = r
	}
	if cv.doc != d {
		cv.doc = d
		cv.r.SetDocument(d)
		a.view.Invalidate()
	}
	if arrived, _ := cv.r.Poll(); arrived > 0 {
		a.view.Invalidate()
	}
	return cv.r
}

// cmdCompare opens the window on A with B compared (the Diff tab).
func cmdCompare(args []string) error {
	fs := newFlags("compare")
	if err := parseFlags(fs, args, 2, "A and B"); err != nil {
		return err
	}
	for _, p := range fs.Args() {
		if _, err := os.Stat(p); err != nil {
			return fail(2, "%s: %v", p, unwrapErr(err))
		}
	}
	return runWindowWith(fs.Arg(0), func(a *windowApp) { a.initialCompare = fs.Arg(1) })
}

// startCompare compares the first file opened with the one viewer compare
// named, once it is open.
func (a *windowApp) startCompare() {
	if a.initialCompare != "" && a.s.Doc != nil && a.s.Loading() == nil {
		p := a.initialCompare
		a.initialCompare = ""
		a.s.Do(app.CompareWith{Path: p})
	}
}

// selectChange selects the node of a change of the Diff tab and frames it:
// A's node (its meshes, else its collider), or B's when only B has it.
func (a *windowApp) selectChange(in app.SelectChange) {
	s := a.s
	s.Do(in)
	if lo, hi, ok := s.ChangeFocus(); ok {
		c := a.cam()
		c.Frame(lo, hi)
		a.setCam(c)
	} else if s.Selected >= 0 {
		a.frameSelection()
	}
	if screenLog {
		c := a.cam()
		fmt.Fprintf(os.Stderr, "viewer: change %d selected, node %d, camera target %.3f %.3f %.3f distance %.3f\n",
			in.Index, s.Selected, c.Target[0], c.Target[1], c.Target[2], c.Distance)
	}
}
