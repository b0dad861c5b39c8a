package scene

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"physview/scene/internal/jsonobj"
)

// PlayedDefaults returns the load findings of physics values of the wrong
// JSON type (a sphere's "radius": "big", a body's "mass": "heavy") whose
// place the model still holds as it was loaded: the default the finding
// names is what a simulation of the document plays, not the file's value.
// A value an edit has changed since is left out (the edit is what plays).
func (d *Document) PlayedDefaults() []Finding {
	var out []Finding
	var blocks map[int]map[string]json.RawMessage // encoded now, by owner node (-1: the document)
	for _, f := range d.loadFindings {
		if !isTypeMismatch(f.Code) || !isPhysicsPath(f.Path) {
			continue
		}
		if blocks == nil {
			blocks = map[int]map[string]json.RawMessage{}
		}
		if d.editedSinceLoad(f.Path, blocks) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// isTypeMismatch reports whether code is a reader's TYPE_MISMATCH in any
// dialect's spelling (TYPE_MISMATCH, KHR_TYPE_MISMATCH, OMI_TYPE_MISMATCH),
// but not the core's ARRAY_TYPE_MISMATCH.
func isTypeMismatch(code string) bool {
	switch code {
	case "TYPE_MISMATCH", "KHR_TYPE_MISMATCH", "OMI_TYPE_MISMATCH":
		return true
	}
	return false
}

// isPhysicsPath reports whether a JSON pointer is inside what a simulation
// reads: the OMI and Khronos physics extensions, or glTF 2.1's core shapes.
func isPhysicsPath(p string) bool {
	if strings.HasPrefix(p, "/shapes/") {
		return true
	}
	for _, ext := range []string{"OMI_physics_", ExtCollider, ExtKHRShapes, ExtKHRBodies} {
		if strings.Contains(p, "/extensions/"+ext) {
			return true
		}
	}
	return false
}

// editedSinceLoad reports whether the value at path encodes differently
// now than it did when the document was loaded. blocks caches the current
// encodings by owner. A place the encodings do not both hold (the physics
// dialect changed, the block is gone) counts as not edited: the default
// may still be what plays, and saying so once too often is the safer side.
func (d *Document) editedSinceLoad(path string, blocks map[int]map[string]json.RawMessage) bool {
	// The block is the longest prefix of path (at a "/") the baseline
	// has: a few map lookups, not a scan of every node's blocks.
	block := ""
	for i := len(path); i > 0; i = strings.LastIndexByte(path[:i], '/') {
		if _, ok := d.source.baseline[path[:i]]; ok {
			block = path[:i]
			break
		}
	}
	if block == "" {
		return false
	}
	// The owner's blocks are keyed as recordBaseline keys them: an
	// extension by its name, a glTF 2.1 core member by its pointer.
	owner, name := -1, block
	if rest, ok := strings.CutPrefix(block, "/nodes/"); ok {
		n, member, _ := strings.Cut(rest, "/")
		i, err := strconv.Atoi(n)
		if err != nil {
			return false
		}
		owner, name = i, "/"+member
	}
	name = strings.TrimPrefix(name, "/extensions/")
	cur, ok := blocks[owner]
	if !ok {
		cur = map[string]json.RawMessage{}
		d.patchRegistered(owner, cur)
		blocks[owner] = cur
	}
	curBlock, ok := cur[name]
	if !ok {
		return false
	}
	inner := strings.TrimPrefix(path, block)
	was, ok1 := pointerValue(d.source.baseline[block], inner)
	now, ok2 := pointerValue(curBlock, inner)
	if !ok1 || !ok2 {
		return ok1 != ok2
	}
	return !bytes.Equal(bytes.TrimSpace(was), bytes.TrimSpace(now))
}

// pointerValue returns the value at the JSON pointer p (relative, "" for
// v itself) inside v.
func pointerValue(v json.RawMessage, p string) (json.RawMessage, bool) {
	if p == "" {
		return v, true
	}
	for _, seg := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch first(v) {
		case '{':
			o, err := jsonobj.Parse(v)
			if err != nil {
				return nil, false
			}
			var ok bool
			if v, ok = o.Get(seg); !ok {
				return nil, false
			}
		case '[':
			a, err := jsonobj.ParseArray(v)
			i, err2 := strconv.Atoi(seg)
			if err != nil || err2 != nil || i < 0 || i >= len(a) {
				return nil, false
			}
			v = a[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// PointerPlace writes a JSON pointer the way a reader of the file names a
// place in it: /nodes/3/extensions/KHR_physics_rigid_bodies/motion/mass is
// nodes[3].extensions.KHR_physics_rigid_bodies.motion.mass.
func PointerPlace(p string) string {
	var b strings.Builder
	for _, seg := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(seg); err == nil && b.Len() > 0 {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}
