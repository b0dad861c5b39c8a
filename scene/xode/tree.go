// Package xode reads XODE 1.0r23 files (XML descriptions of ODE physics
// scenes) into the scene model as glTF with OMI physics.
//
// Mapping (see AMBIGUITIES-AND-FEATURES.md rows 3, 14-17, 27-29, 34-35):
// worlds, spaces and groups become nodes; bodies become nodes with OMI
// motion (mass, centre of mass and inertia computed the way ODE does from
// mass_shape, mass_struct, adjust, mass transforms and nested masses); geoms
// become collider nodes. ODE capsules and cylinders run along local Z: they
// sit on a child node turned +90 degrees about X so OMI's +Y axis lies along
// it. Planes become a large static box just below the plane, tagged in the
// node's extras. Rays have no OMI form: they are skipped with a finding.
// Joints become OMI_physics_joint nodes: one under link1 at the anchor with
// the ODE axis along its local X, and its twin under link2 as the connected
// node.
package xode

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// element is one XML element with its attributes and children, and the
// line it starts on for messages.
type element struct {
	Name     string
	Attr     map[string]string
	Order    []string // attribute names in file order
	Children []*element
	Line     int
	// Raw is the element's XML as written, kept for ext elements.
	Raw string
}

// parse reads an XML document into a tree of elements.
func parse(data []byte) (*element, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = func(charset string, in io.Reader) (io.Reader, error) {
		// The test document declares iso-8859-1; its content is ASCII.
		return in, nil
	}
	var stack []*element
	var root *element
	// Line numbers are counted incrementally: offsets only grow, so each
	// byte is looked at once and loading stays linear in the file's size.
	line, counted := 1, 0
	lineAt := func(off int64) int {
		end := min(int(off), len(data))
		if end > counted {
			line += bytes.Count(data[counted:end], []byte{'\n'})
			counted = end
		}
		return line
	}
	var starts []int64
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			line, _ := dec.InputPos()
			return nil, fmt.Errorf("line %d: not well-formed XML: %v", line, stripXMLPrefix(err))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &element{Name: t.Name.Local, Attr: map[string]string{}, Line: lineAt(off)}
			for _, a := range t.Attr {
				if a.Name.Space != "" && a.Name.Space != "xmlns" && strings.HasPrefix(a.Name.Space, "http") {
					continue // schema location and the like
				}
				name := a.Name.Local
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && name == "xmlns") {
					continue
				}
				e.Attr[name] = a.Value
				e.Order = append(e.Order, name)
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.Children = append(p.Children, e)
			} else if root == nil {
				root = e
			}
			stack = append(stack, e)
			starts = append(starts, off)
		case xml.EndElement:
			e := stack[len(stack)-1]
			if e.Name == "ext" {
				e.Raw = string(data[starts[len(starts)-1]:dec.InputOffset()])
			}
			stack = stack[:len(stack)-1]
			starts = starts[:len(starts)-1]
		}
	}
	if root == nil {
		return nil, fmt.Errorf("line 1: no XML element")
	}
	return root, nil
}

func stripXMLPrefix(err error) string {
	s := err.Error()
	if i := strings.Index(s, ": "); i >= 0 && strings.HasPrefix(s, "XML syntax error") {
		return s[i+2:]
	}
	return s
}

// child returns the first child named name, or nil.
func (e *element) child(name string) *element {
	for _, c := range e.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// num reads a numeric attribute; absent gives def. A malformed number is an
// error naming the line.
func (e *element) num(name string, def float64) (float64, error) {
	s, ok := e.Attr[name]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("line %d: <%s %s=%q>: not a number", e.Line, e.Name, name, s)
	}
	return f, nil
}

// vec reads attributes x, y, z (or the given names).
func (e *element) vec(names ...string) ([3]float64, error) {
	if len(names) == 0 {
		names = []string{"x", "y", "z"}
	}
	var v [3]float64
	for i, n := range names {
		f, err := e.num(n, 0)
		if err != nil {
			return v, err
		}
		v[i] = f
	}
	return v, nil
}
