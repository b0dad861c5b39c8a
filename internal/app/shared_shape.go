package app

import (
	"fmt"
	"strings"

	"physview/scene"
)

// SharedShapeNote says, for an edit of shape i made through node n, that
// the shape is shared and which other nodes the edit changes with it; ""
// when n is its only user. hint is the way out to offer (the window's
// "Make single" button, the CLI's make-single command).
func SharedShapeNote(d *scene.Document, n, i int, hint string) string {
	others := SharedShapeOthers(d, n, i)
	if others == "" {
		return ""
	}
	return fmt.Sprintf("shape %d is shared by %d nodes: edits change all of them (also %s); %s", i, len(d.ShapeUsers(i)), others, hint)
}

// SharedShapeOthers names the nodes other than n that use shape i ("" when
// none does): "red, blue", the first few and how many more.
func SharedShapeOthers(d *scene.Document, n, i int) string {
	if d == nil || i < 0 || i >= len(d.Shapes) {
		return ""
	}
	var others []string
	for _, u := range d.ShapeUsers(i) {
		if u != n {
			others = append(others, d.NodeName(u))
		}
	}
	if len(others) == 0 {
		return ""
	}
	const maxNamed = 8 // a shape shared by hundreds of nodes: the count says the rest
	named := strings.Join(others[:min(len(others), maxNamed)], ", ")
	if len(others) > maxNamed {
		named += fmt.Sprintf(" and %d more", len(others)-maxNamed)
	}
	return named
}

// shapeCommandNote is `viewer edit shape`'s note: the other nodes the edit
// of a shared shape changed.
func shapeCommandNote(s *Session, args []string) string {
	n, err := FindNode(s.Doc, args[0])
	if err != nil {
		return ""
	}
	i, err := nodeShape(s.Doc, n)
	if err != nil {
		return ""
	}
	return SharedShapeNote(s.Doc, n, i, fmt.Sprintf("`make-single %s` first gives %s a copy of its own", args[0], s.Doc.NodeName(n)))
}

// makeSingleCommand gives a node's collider (or, with "trigger", its
// trigger; without a word the collider when it has a shape) its own copy
// of a shape it shares with other nodes, so that editing it changes that
// node only.
func makeSingleCommand(s *Session, args []string) (scene.Edit, error) {
	d := s.Doc
	n, err := FindNode(d, args[0])
	if err != nil {
		return nil, err
	}
	b := d.Nodes[n].Body
	var collider, trigger = -1, -1
	if b != nil {
		collider, trigger = colliderShape(b), triggerShape(b)
	}
	which := ""
	rest := args[1:]
	if len(rest) > 0 && (rest[0] == "collider" || rest[0] == "trigger") {
		which, rest = rest[0], rest[1:]
	}
	if _, err := options(rest); err != nil {
		return nil, err
	}
	if which == "" {
		which = "collider"
		if collider < 0 && trigger >= 0 {
			which = "trigger"
		}
	}
	i := collider
	if which == "trigger" {
		i = trigger
	}
	if i < 0 || i >= len(d.Shapes) {
		return nil, fmt.Errorf("node %s has no %s shape", d.NodeName(n), which)
	}
	if users := d.ShapeUsers(i); len(users) < 2 {
		// A copy would leave the old shape used by nothing.
		return nil, fmt.Errorf("node %s's %s shape (shape %d) is not shared: it is its own already", d.NodeName(n), which, i)
	}
	return MakeSingleEdit(d, n, which == "trigger"), nil
}

// MakeSingleEdit gives node n's collider (or trigger) its own copy of its
// shape, as one undoable edit named after the node: the window's "Make
// single" and `viewer edit make-single`.
func MakeSingleEdit(d *scene.Document, n int, trigger bool) scene.Edit {
	e := d.MakeShapeUniqueEdit(n, trigger)
	if b, ok := e.(scene.Batch); ok {
		b.Label = "Make shape single for " + d.NodeName(n)
		return b
	}
	return e
}
