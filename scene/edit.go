package scene

import (
	"errors"
	"fmt"
	"slices"
)

// Edit is one undoable change to a Document. Edits are values built by the
// caller (the panel, a handle drag, a test, an importer) and applied through
// a History; nothing else changes the model.
//
// Applying an edit returns the edit that undoes it and a Change saying what
// it touched, which is what drawing, validation and saving follow.
type Edit interface {
	// Name says what the edit does, as the Edit menu shows it ("Resize shape 3").
	Name() string
	// apply changes d and returns the inverse edit and what changed. It
	// fails without changing d.
	apply(d *Document) (inverse Edit, ch Change, err error)
}

// checker is an edit that checks its values before it is done the first
// time: out-of-range input is refused with a message, never written. Undo
// and redo skip the check (they restore states the document already had).
type checker interface {
	check(d *Document) error
}

// merger is an edit whose repeats may fold into one undo step while the
// user keeps dragging or typing (same key, step not sealed).
type merger interface {
	mergeKey() string
}

// Change says what an edit touched.
type Change struct {
	// Nodes are nodes whose owned extensions, name or transform changed.
	Nodes []int
	// Moved are nodes whose transform changed: their descendants moved too.
	Moved []int
	// Shapes are shapes whose parameters changed.
	Shapes []int
	// Variants is set when the variants or a primitive's mappings changed.
	Variants bool
	// Structure is set when a document-level array gained or lost an entry
	// in the middle (indices may have moved): everything is redrawn.
	Structure bool
}

// Empty reports whether nothing changed.
func (c Change) Empty() bool {
	return len(c.Nodes) == 0 && len(c.Moved) == 0 && len(c.Shapes) == 0 && !c.Variants && !c.Structure
}

// Merge adds what o touched to c.
func (c *Change) Merge(o Change) {
	c.Nodes = mergeInts(c.Nodes, o.Nodes)
	c.Moved = mergeInts(c.Moved, o.Moved)
	c.Shapes = mergeInts(c.Shapes, o.Shapes)
	c.Variants = c.Variants || o.Variants
	c.Structure = c.Structure || o.Structure
}

func mergeInts(a, b []int) []int {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

// Apply applies e to d without recording it: for importers and tools that
// build a document from code. Use a History for anything the user can undo.
func Apply(d *Document, e Edit) (Change, error) {
	if c, ok := e.(checker); ok {
		if err := c.check(d); err != nil {
			return Change{}, err
		}
	}
	_, ch, err := e.apply(d)
	return ch, err
}

// History holds the done and undone edits of one document.
type History struct {
	done, undone []step
	// saved is len(done) when the document was last saved or loaded, -1
	// when that state can no longer be reached by undo and redo.
	saved int
	// open is set while the top step may still take merging edits.
	open bool
}

type step struct {
	fwd, inv Edit
	key      string
}

// Do checks and applies e, recording it as one undo step. An edit with the
// same merge key as the open top step (a drag in progress, a field being
// typed in) folds into that step instead. Do clears the redo list.
func (h *History) Do(d *Document, e Edit) (Change, error) {
	if c, ok := e.(checker); ok {
		if err := c.check(d); err != nil {
			return Change{}, err
		}
	}
	inv, ch, err := e.apply(d)
	if err != nil {
		return Change{}, err
	}
	key := ""
	if m, ok := e.(merger); ok {
		key = m.mergeKey()
	}
	if key != "" && h.open && len(h.done) > 0 && h.done[len(h.done)-1].key == key {
		top := &h.done[len(h.done)-1]
		top.fwd = e
		if h.saved == len(h.done) {
			h.saved = -1
		}
	} else {
		if h.saved > len(h.done) {
			h.saved = -1 // the saved state was on the redo list
		}
		h.done = append(h.done, step{fwd: e, inv: inv, key: key})
	}
	h.open = key != ""
	h.undone = nil
	return ch, nil
}

// Seal ends the open step: the next edit starts a new undo step even with
// the same merge key. The window seals when a drag ends or a field loses
// the keyboard.
func (h *History) Seal() { h.open = false }

// Dragging reports whether the top step is still open to merging.
func (h *History) Dragging() bool { return h.open && len(h.done) > 0 }

// Cancel undoes the open step (a drag the user cancelled with Escape) and
// forgets it: it does not go on the redo list.
func (h *History) Cancel(d *Document) (Change, bool) {
	if !h.Dragging() {
		return Change{}, false
	}
	top := h.done[len(h.done)-1]
	_, ch, err := top.inv.apply(d)
	if err != nil {
		return Change{}, false
	}
	h.done = h.done[:len(h.done)-1]
	h.open = false
	if h.saved > len(h.done) {
		h.saved = -1
	}
	return ch, true
}

// Undo reverts the last step. It reports false when there is nothing to undo.
func (h *History) Undo(d *Document) (Change, bool) {
	h.open = false
	if len(h.done) == 0 {
		return Change{}, false
	}
	top := h.done[len(h.done)-1]
	redo, ch, err := top.inv.apply(d)
	if err != nil {
		return Change{}, false
	}
	h.done = h.done[:len(h.done)-1]
	// Redo applies what the undo's inverse says: the exact state that was undone.
	h.undone = append(h.undone, step{fwd: redo, inv: top.inv, key: top.key})
	return ch, true
}

// Redo applies the last undone step again.
func (h *History) Redo(d *Document) (Change, bool) {
	h.open = false
	if len(h.undone) == 0 {
		return Change{}, false
	}
	top := h.undone[len(h.undone)-1]
	inv, ch, err := top.fwd.apply(d)
	if err != nil {
		return Change{}, false
	}
	h.undone = h.undone[:len(h.undone)-1]
	h.done = append(h.done, step{fwd: top.fwd, inv: inv, key: top.key})
	return ch, true
}

// UndoName names the step Undo would revert, "" when there is none.
func (h *History) UndoName() string {
	if len(h.done) == 0 {
		return ""
	}
	return h.done[len(h.done)-1].inv.Name()
}

// RedoName names the step Redo would apply, "" when there is none.
func (h *History) RedoName() string {
	if len(h.undone) == 0 {
		return ""
	}
	return h.undone[len(h.undone)-1].fwd.Name()
}

// Modified reports whether the document differs from its last saved (or
// loaded) state: undoing back to that state clears it.
func (h *History) Modified() bool { return h.saved != len(h.done) }

// MarkSaved records the current state as the saved one.
func (h *History) MarkSaved() {
	h.saved = len(h.done)
	h.open = false
}

// Len returns the number of steps that can be undone.
func (h *History) Len() int { return len(h.done) }

// Batch applies several edits as one step, in order; it undoes in reverse.
type Batch struct {
	Label string
	Edits []Edit
}

// Name returns the batch's label.
func (b Batch) Name() string { return b.Label }

// check tries the edits one after the other, each checked against the
// document as the ones before it leave it, and then puts the document back.
func (b Batch) check(d *Document) error {
	var inv []Edit
	defer func() { rollback(d, inv) }()
	for _, e := range b.Edits {
		if c, ok := e.(checker); ok {
			if err := c.check(d); err != nil {
				return err
			}
		}
		ie, _, err := e.apply(d)
		if err != nil {
			return err
		}
		inv = append(inv, ie)
	}
	return nil
}

func (b Batch) apply(d *Document) (Edit, Change, error) {
	var ch Change
	inv := make([]Edit, 0, len(b.Edits))
	for _, e := range b.Edits {
		ie, c, err := e.apply(d)
		if err != nil {
			rollback(d, inv)
			return nil, Change{}, err
		}
		inv = append(inv, ie)
		ch.Merge(c)
	}
	slices.Reverse(inv)
	return Batch{Label: b.Label, Edits: inv}, ch, nil
}

func rollback(d *Document, inv []Edit) {
	for i := len(inv) - 1; i >= 0; i-- {
		_, _, _ = inv[i].apply(d)
	}
}

var errNoDocument = errors.New("no document")

func (d *Document) checkNode(n int) error {
	if d == nil || d.GLTF == nil {
		return errNoDocument
	}
	if n < 0 || n >= len(d.GLTF.Nodes) || n >= len(d.Nodes) {
		return fmt.Errorf("node %d does not exist (the file has %d nodes)", n, len(d.GLTF.Nodes))
	}
	return nil
}
