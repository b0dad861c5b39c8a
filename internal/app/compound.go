package app

import (
	"context"
	"fmt"
	"time"

	"physview/scene"

	"physview/internal/guard"
)

// The compound fit in the window: the panel asks for a preview with the
// options the user set; the decomposition runs on its own goroutine (it
// takes a second or more for a detailed mesh) and its hulls are drawn over
// the node until the user applies them as one edit or cancels.

// PreviewCompound decomposes node Node's mesh with Options for a preview.
type PreviewCompound struct {
	Node    int
	Options scene.CompoundOptions
}

// ApplyCompound fits the previewed hulls as node's compound collider.
type ApplyCompound struct{}

// CancelCompound drops the preview (and stops a decomposition under way).
type CancelCompound struct{}

func (PreviewCompound) intent() {}
func (ApplyCompound) intent()   {}
func (CancelCompound) intent()  {}

// CompoundPreview is the compound being previewed.
type CompoundPreview struct {
	// Node is the node whose mesh is decomposed, -1 when there is no preview.
	Node    int
	Options scene.CompoundOptions
	// Running is set while the decomposition runs; then Hulls (in the
	// node's space) or Err.
	Running bool
	Hulls   []*scene.Hull
	Err     string
	// Took is how long the decomposition took.
	Took time.Duration
	// Gen changes whenever the preview does (the window redraws it).
	Gen int

	doc    *scene.Document
	cancel context.CancelFunc
	done   chan compoundDone
}

type compoundDone struct {
	gen   int
	hulls []*scene.Hull
	err   error
	took  time.Duration
}

// doCompound carries out the compound intents; it reports whether in was one.
func (s *Session) doCompound(in Intent) bool {
	switch in := in.(type) {
	case PreviewCompound:
		s.previewCompound(in)
	case ApplyCompound:
		s.applyCompound()
	case CancelCompound:
		s.cancelCompound()
	default:
		return false
	}
	return true
}

func (s *Session) previewCompound(in PreviewCompound) {
	s.cancelCompound()
	if s.Doc == nil {
		return
	}
	c := &s.Compound
	c.Node, c.Options, c.Running, c.Hulls, c.Err = in.Node, in.Options, true, nil, ""
	c.Gen++
	c.doc = s.Doc
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	if c.done == nil {
		c.done = make(chan compoundDone, 4)
	}
	// The mesh is read here; the goroutine works on its own copy while
	// the document stays editable.
	mesh, err := s.Doc.CompoundInput(in.Node)
	if err != nil {
		cancel()
		c.Running, c.Err = false, err.Error()
		return
	}
	gen, done, wake := c.Gen, c.done, s.wake
	go func() {
		start := time.Now()
		r := compoundDone{gen: gen}
		func() {
			defer guard.Catch(&r.err) // a bug fails this decomposition, not the window
			res, err := mesh.Decompose(ctx, in.Options)
			r.err, r.took = err, time.Since(start)
			if err == nil {
				r.hulls = scene.PartHulls(res.Parts)
			}
		}()
		done <- r
		wake()
	}()
	s.logf("decomposing node %d (max %d hulls, %d vertices)", in.Node, in.Options.MaxHulls, in.Options.MaxVertices)
}

// pollCompound takes in a finished decomposition.
func (s *Session) pollCompound() {
	c := &s.Compound
	if c.done == nil {
		return
	}
	for {
		select {
		case r := <-c.done:
			if r.gen != c.Gen || !c.Running {
				continue // an older preview, or cancelled
			}
			c.Running, c.Took = false, r.took
			c.Gen++
			if r.err != nil {
				c.Err = r.err.Error()
				s.logf("decomposition failed: %v", r.err)
			} else {
				c.Hulls = r.hulls
				s.logf("decomposed node %d into %d hulls in %v", c.Node, len(r.hulls), r.took.Round(time.Millisecond))
			}
			continue
		default:
		}
		return
	}
}

// WaitCompound blocks until the decomposition under way has finished and
// is shown (tests and scripts).
func (s *Session) WaitCompound() {
	c := &s.Compound
	for c.Running && c.done != nil {
		r := <-c.done
		c.done <- r
		s.pollCompound()
	}
}

func (s *Session) applyCompound() {
	c := &s.Compound
	switch {
	case c.Running:
		s.Fail("the decomposition is still running")
		return
	case len(c.Hulls) == 0 || c.doc != s.Doc:
		s.Fail("nothing to apply: preview a compound first")
		return
	}
	e, err := s.Doc.FitCompoundEdit(c.Node, c.Hulls)
	if err == nil {
		err = s.Apply(e)
	}
	if err != nil {
		s.Fail(fmt.Sprintf("Not applied: %v", err))
		return
	}
	s.logf("applied %s", e.Name())
	// The body stays selected: the Inspector lists its parts.
	s.Select(c.Node)
	text := fmt.Sprintf("fitted a compound of %d convex hulls", len(c.Hulls))
	if b := s.Doc.Nodes[c.Node].Body; (b == nil || b.Motion == nil) && !hasMotionAbove(s.Doc, c.Node) {
		// Else Play says "no bodies" to a user who just made one.
		text += "; static scenery until the node has motion (Add motion above)"
	}
	s.Notice(text)
	s.cancelCompound()
}

func (s *Session) cancelCompound() {
	c := &s.Compound
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
	if c.Running || c.Hulls != nil || c.Err != "" {
		c.Gen++
	}
	c.Running, c.Hulls, c.Err = false, nil, ""
	c.Node = -1
}

// PreviewHulls returns the previewed hulls and their node, nil when there
// are none for the open document.
func (s *Session) PreviewHulls() (int, []*scene.Hull) {
	c := &s.Compound
	if c.Running || c.doc != s.Doc || s.Doc == nil || c.Node < 0 || c.Node >= len(s.Doc.GLTF.Nodes) {
		return -1, nil
	}
	return c.Node, c.Hulls
}
