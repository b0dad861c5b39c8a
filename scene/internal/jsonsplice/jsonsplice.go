// Package jsonsplice writes a new JSON text in the layout of the text it
// was made from, so that saving an edited file changes only the bytes of
// what the edit changed: every value that is the same in both (ignoring
// white space) keeps its old bytes, indentation and line breaks included;
// members and elements that differ are replaced in place; new ones are
// laid out like their neighbours.
package jsonsplice

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// value is one JSON value of a text: its span and, for an object or an
// array, its members or elements.
type value struct {
	start, end int    // text[start:end] is the value
	kind       byte   // '{', '[' or 0 for a scalar
	items      []item // members of an object, elements of an array
}

// item is an object member or an array element. key is the span of the
// member's key (quotes included; empty for an element) and v its value.
type item struct {
	keyStart, keyEnd int
	key              string
	v                *value
}

// Splice returns newText in the layout of oldText: both must be one JSON
// value each (oldText may have white space around it, which is kept).
func Splice(oldText, newText []byte) ([]byte, error) {
	if !json.Valid(oldText) || !json.Valid(newText) {
		return nil, errors.New("not valid JSON")
	}
	ov, err := parse(oldText)
	if err != nil {
		return nil, fmt.Errorf("the old text: %w", err)
	}
	nv, err := parse(newText)
	if err != nil {
		return nil, fmt.Errorf("the new text: %w", err)
	}
	s := &splicer{old: oldText, new: newText, unit: indentUnit(oldText),
		crlf: bytes.Contains(oldText, []byte("\r\n")), colonStyle: colonStyle(oldText, ov),
		lineEnds: lineEnds(oldText)}
	var out bytes.Buffer
	out.Grow(len(oldText) + len(newText)/8)
	out.Write(oldText[:ov.start])
	s.merge(&out, ov, nv, false)
	out.Write(oldText[ov.end:])
	return out.Bytes(), nil
}

type splicer struct {
	old, new []byte
	// unit is one level of the old text's indentation ("" when it has no
	// line breaks: new values are then written compact).
	unit string
	// crlf: the old text ends its lines in CRLF, so new lines do too.
	crlf bool
	// colonStyle is how the old text writes a key's colon (":" in
	// Blender's files, ": " in most), for members written anew.
	colonStyle string
	// lineEnds are the offsets of the old text's line breaks, so that
	// the line holding a value is found by a search, not by scanning back
	// (a long line, such as a compact file's one, made that quadratic).
	lineEnds []int
}

// merge writes new value n where old value o stood; inline says that the
// old container holding o is written on one line, so a value written anew
// there is written compact, not broken over lines.
func (s *splicer) merge(out *bytes.Buffer, o, n *value, inline bool) {
	ob, nb := s.old[o.start:o.end], s.new[n.start:n.end]
	if sameJSON(ob, nb) {
		out.Write(ob)
		return
	}
	if o.kind == 0 || o.kind != n.kind || len(o.items) == 0 || len(n.items) == 0 {
		s.fresh(out, n, s.lineIndent(o.start), inline)
		return
	}
	inline = !bytes.ContainsAny(s.old[o.start:o.end], "\r\n")
	out.Write(s.old[o.start:s.itemStart(o.items[0])]) // "{" and what follows it
	var byKey map[string]int
	if o.kind == '{' {
		byKey = make(map[string]int, len(o.items))
		for i, it := range o.items {
			byKey[it.key] = i
		}
	}
	for p, i := range itemOrder(o, n) {
		it := n.items[i]
		if p > 0 {
			out.Write(s.gap(o, p))
		}
		var match *item
		if o.kind == '{' {
			if k, ok := byKey[it.key]; ok {
				match = &o.items[k]
			}
		} else if i < len(o.items) {
			match = &o.items[i]
		}
		switch {
		case match != nil && o.kind == '{':
			out.Write(s.old[match.keyStart:match.v.start]) // the key and its colon as they were
			s.merge(out, match.v, it.v, inline)
		case match != nil:
			s.merge(out, match.v, it.v, inline)
		default:
			indent := s.lineIndent(s.itemStart(o.items[min(p, len(o.items)-1)]))
			if o.kind == '{' {
				out.Write(s.new[it.keyStart:it.keyEnd])
				out.Write(s.colon(o))
			}
			s.fresh(out, it.v, indent, inline)
		}
	}
	last := o.items[len(o.items)-1].v
	out.Write(s.old[last.end:o.end]) // what precedes the closing bracket, and it
}

// itemOrder is the order in which n's items are written where o stood:
// an object's members in the old text's order (a block the model writes
// anew lists its keys in its own order, and the file's stays), those the
// old text lacks after them in the new text's order; elements, and the
// members of an object with a key twice (where order means something),
// in the new text's order.
func itemOrder(o, n *value) []int {
	order := make([]int, 0, len(n.items))
	newAt := make(map[string]int, len(n.items))
	for i, it := range n.items {
		newAt[it.key] = i
	}
	oldKeys := make(map[string]bool, len(o.items))
	for _, it := range o.items {
		oldKeys[it.key] = true
	}
	if o.kind != '{' || len(newAt) < len(n.items) || len(oldKeys) < len(o.items) {
		for i := range n.items {
			order = append(order, i)
		}
		return order
	}
	for _, it := range o.items {
		if i, ok := newAt[it.key]; ok {
			order = append(order, i)
		}
	}
	for i, it := range n.items {
		if !oldKeys[it.key] {
			order = append(order, i)
		}
	}
	return order
}

// itemStart is where an item begins: its key, or its value.
func (s *splicer) itemStart(it item) int {
	if it.keyEnd > it.keyStart {
		return it.keyStart
	}
	return it.v.start
}

// gap is the old text between item i-1 and item i of o (the comma and the
// white space around it); past o's items, its last gap, or the white space
// before its first item.
func (s *splicer) gap(o *value, i int) []byte {
	if i < len(o.items) {
		return s.old[o.items[i-1].v.end:s.itemStart(o.items[i])]
	}
	if len(o.items) > 1 {
		k := len(o.items) - 1
		return s.old[o.items[k-1].v.end:s.itemStart(o.items[k])]
	}
	lead := s.old[o.start+1 : s.itemStart(o.items[0])]
	return append([]byte{','}, lead...)
}

// colonStyle is the colon of the first member of the old text's first
// object that has one (": " when there is none, or it spans lines).
func colonStyle(text []byte, v *value) string {
	if c, ok := firstColon(text, v); ok && !bytes.ContainsAny(c, "\r\n") {
		return string(c)
	}
	return ": "
}

func firstColon(text []byte, v *value) ([]byte, bool) {
	if v.kind == '{' && len(v.items) > 0 {
		return text[v.items[0].keyEnd:v.items[0].v.start], true
	}
	for _, it := range v.items {
		if c, ok := firstColon(text, it.v); ok {
			return c, true
		}
	}
	return nil, false
}

// colon is how o's members separate key and value (": " when unsure).
func (s *splicer) colon(o *value) []byte {
	if len(o.items) > 0 {
		return s.old[o.items[0].keyEnd:o.items[0].v.start]
	}
	return []byte(": ")
}

// fresh writes new value n, laid out as the old text is: indented by its
// unit from the line's indentation indent, or compact (in a compact text,
// or inline inside a container written on one line).
func (s *splicer) fresh(out *bytes.Buffer, n *value, indent string, inline bool) {
	nb := s.new[n.start:n.end]
	if n.kind == 0 || s.unit == "" || inline {
		if err := json.Compact(out, nb); err != nil {
			out.Write(nb)
		}
		return
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, nb); err != nil {
		out.Write(nb)
		return
	}
	eol := "\n"
	if s.crlf {
		eol = "\r\n"
	}
	indentJSON(out, compact.Bytes(), indent, s.unit, s.colonStyle, eol)
}

// indentJSON writes compact JSON src as json.Indent does (every member and
// element on a line of its own, prefix and one unit per level before it,
// empty objects and arrays as {} and []), but with colon between a key and
// its value and eol ending the lines, as the old text has them.
func indentJSON(out *bytes.Buffer, src []byte, prefix, unit, colon, eol string) {
	depth := 0
	newline := func() {
		out.WriteString(eol)
		out.WriteString(prefix)
		for i := 0; i < depth; i++ {
			out.WriteString(unit)
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := stringEnd(src, i)
			out.Write(src[i:min(j, len(src))])
			i = j - 1
		case '{', '[':
			out.WriteByte(c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				out.WriteByte(src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out.WriteByte(c)
		case ',':
			out.WriteByte(c)
			newline()
		case ':':
			out.WriteString(colon)
		default:
			out.WriteByte(c)
		}
	}
}

// sameJSON reports whether a and b are the same JSON text but for white
// space outside strings.
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	i, j := 0, 0
	for {
		i, j = skipSpace(a, i), skipSpace(b, j)
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		if a[i] == '"' {
			// A string compares byte for byte, white space included.
			ei, ej := stringEnd(a, i), stringEnd(b, j)
			if !bytes.Equal(a[i:ei], b[j:ej]) {
				return false
			}
			i, j = ei, ej
			continue
		}
		i++
		j++
	}
}

// lineEnds returns the offsets of text's line feeds, in order.
func lineEnds(text []byte) []int {
	var ends []int
	for i := 0; ; {
		k := bytes.IndexByte(text[i:], '\n')
		if k < 0 {
			return ends
		}
		ends = append(ends, i+k)
		i += k + 1
	}
}

// lineIndent is the white space that begins the line holding old[at].
func (s *splicer) lineIndent(at int) string {
	text := s.old
	// The last line feed before at, if any.
	k, _ := slices.BinarySearch(s.lineEnds, at)
	start := 0
	if k > 0 {
		start = s.lineEnds[k-1] + 1
	}
	end := start
	for end < at && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	return string(text[start:end])
}

// indentUnit guesses one level of text's indentation: the white space of
// the first indented line ("" when text has no line breaks, "  " when no
// line is indented).
func indentUnit(text []byte) string {
	i := bytes.IndexByte(text, '\n')
	if i < 0 {
		return ""
	}
	for i >= 0 && i < len(text) {
		rest := text[i+1:]
		n := 0
		for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t') {
			n++
		}
		if n > 0 {
			return string(rest[:n])
		}
		next := bytes.IndexByte(rest, '\n')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return "  "
}

// parse reads one JSON value with spans; text may have white space around it.
func parse(text []byte) (*value, error) {
	p := &parser{text: text}
	p.pos = skipSpace(text, 0)
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if skipSpace(text, p.pos) != len(text) {
		return nil, fmt.Errorf("data after the JSON value at byte %d", p.pos)
	}
	return v, nil
}

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

type parser struct {
	text []byte
	pos  int
}

var errEnd = errors.New("unexpected end of JSON")

func (p *parser) value(depth int) (*value, error) {
	if depth > maxDepth {
		return nil, errors.New("JSON nested too deeply")
	}
	if p.pos >= len(p.text) {
		return nil, errEnd
	}
	v := &value{start: p.pos}
	switch c := p.text[p.pos]; c {
	case '{', '[':
		v.kind = c
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		p.pos = skipSpace(p.text, p.pos+1)
		if p.pos < len(p.text) && p.text[p.pos] == closer {
			p.pos++
			v.end = p.pos
			return v, nil
		}
		for {
			var it item
			if c == '{' {
				if p.pos >= len(p.text) || p.text[p.pos] != '"' {
					return nil, fmt.Errorf("object key expected at byte %d", p.pos)
				}
				it.keyStart, it.keyEnd = p.pos, stringEnd(p.text, p.pos)
				if it.keyEnd > len(p.text) {
					return nil, errEnd
				}
				if err := json.Unmarshal(p.text[it.keyStart:it.keyEnd], &it.key); err != nil {
					return nil, fmt.Errorf("object key at byte %d: %w", p.pos, err)
				}
				p.pos = skipSpace(p.text, it.keyEnd)
				if p.pos >= len(p.text) || p.text[p.pos] != ':' {
					return nil, fmt.Errorf("':' expected at byte %d", p.pos)
				}
				p.pos = skipSpace(p.text, p.pos+1)
			}
			var err error
			if it.v, err = p.value(depth + 1); err != nil {
				return nil, err
			}
			v.items = append(v.items, it)
			p.pos = skipSpace(p.text, p.pos)
			if p.pos >= len(p.text) {
				return nil, errEnd
			}
			if p.text[p.pos] == closer {
				p.pos++
				v.end = p.pos
				return v, nil
			}
			if p.text[p.pos] != ',' {
				return nil, fmt.Errorf("',' or %q expected at byte %d", closer, p.pos)
			}
			p.pos = skipSpace(p.text, p.pos+1)
		}
	case '"':
		p.pos = stringEnd(p.text, p.pos)
		if p.pos > len(p.text) {
			return nil, errEnd
		}
	default:
		// A number, true, false or null: up to the next delimiter.
		for p.pos < len(p.text) && !bytes.ContainsRune([]byte(",]} \t\r\n"), rune(p.text[p.pos])) {
			p.pos++
		}
		if p.pos == v.start {
			return nil, fmt.Errorf("value expected at byte %d", p.pos)
		}
	}
	v.end = p.pos
	return v, nil
}

// stringEnd returns the index just past the string that begins at text[i]
// (len(text)+1 when it does not end).
func stringEnd(text []byte, i int) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(text) + 1
}

func skipSpace(text []byte, i int) int {
	for i < len(text) {
		switch text[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}
