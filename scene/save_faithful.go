package scene

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"physview/scene/internal/jsonobj"
)

// Saving writes only what was edited. The codecs encode a whole extension
// block from the model, every value explicit; written as it is, a save
// would rewrite blocks nobody touched (1.0 becomes 1, defaults appear, keys
// change order). So the encodings of every owned block are recorded right
// after loading (the baseline), and a save keeps the file's own bytes for
// every block, member and array element whose encoding is still the
// baseline's: what an edit did not change is written as it was read.
// Parts of the file read from a legacy form are always rewritten, in the
// current form; a required member the file lacks is written in its block,
// whose other members keep their bytes.

// recordBaseline stores the encoding of every owned extension block as
// loaded, by the JSON pointer of the block.
func (d *Document) recordBaseline() {
	base := map[string]json.RawMessage{}
	rec := func(prefix string, blocks map[string]json.RawMessage) {
		for name, raw := range blocks {
			if strings.HasPrefix(name, "/") {
				base[prefix+name] = raw // a glTF 2.1 core member (core_members.go)
				continue
			}
			base[prefix+"/extensions/"+name] = raw
		}
	}
	b := map[string]json.RawMessage{}
	d.patchRegistered(-1, b)
	rec("", b)
	for i := range d.Nodes {
		b = map[string]json.RawMessage{}
		d.patchRegistered(i, b)
		rec(fmt.Sprintf("/nodes/%d", i), b)
	}
	for mi, m := range d.GLTF.Meshes {
		if m == nil {
			continue
		}
		for pi := range m.Primitives {
			b = map[string]json.RawMessage{}
			d.patchPrimitiveRegistered(PrimitiveRef{mi, pi}, b)
			rec(fmt.Sprintf("/meshes/%d/primitives/%d", mi, pi), b)
		}
	}
	d.source.baseline = base
	d.source.legacy, d.source.missing = nil, nil
	for _, f := range d.loadFindings {
		// A required property the file lacks: the save writes it, and
		// only it (the block's other members stay as the file has them).
		if strings.HasSuffix(f.Code, "_UNDEFINED_PROPERTY") {
			d.source.missing = append(d.source.missing, f.Path)
			continue
		}
		// A legacy form: that part is written anew.
		if strings.HasSuffix(f.Code, "_LEGACY_FORM") {
			d.source.legacy = append(d.source.legacy, f.Path)
			// An archived block (OMI_collider, which the model never
			// writes) is read into the current blocks of the same owner
			// (OMI_physics_shape, _body): the file's bytes of those no
			// longer say what the model holds, so every owned block of
			// that owner is written anew too.
			if owner, block, ok := extensionOwner(f.Path); ok && strings.HasSuffix(f.Code, "_LEGACY_FORM") && base[block] == nil {
				for p := range base {
					if strings.HasPrefix(p, owner+"/extensions/") {
						d.source.legacy = append(d.source.legacy, p)
					}
				}
			}
		}
	}
}

// extensionOwner returns the JSON pointer of the object whose extension
// block path lies in ("" for the document, "/nodes/3", ...) and the
// pointer of the block itself.
func extensionOwner(path string) (owner, block string, ok bool) {
	i := strings.Index(path, "/extensions/")
	if i < 0 {
		return "", "", false
	}
	name, _, _ := strings.Cut(path[i+len("/extensions/"):], "/")
	return path[:i], path[:i] + "/extensions/" + name, true
}

// faithful returns what to write for the owned block at path: the file's
// own bytes orig where the model's encoding cur is still the baseline's,
// member by member and element by element; cur where it is not.
func (d *Document) faithful(orig, cur json.RawMessage, path string) json.RawMessage {
	base, ok := d.source.baseline[path]
	if !ok {
		return cur
	}
	return d.keepUnchanged(orig, base, cur, path)
}

func (d *Document) keepUnchanged(orig, base, cur json.RawMessage, path string) json.RawMessage {
	if d.legacyAt(path) {
		return cur
	}
	if bytes.Equal(base, cur) && !d.missingAt(path) {
		return orig
	}
	if first(cur) == '{' && first(base) == '{' && first(orig) == '{' {
		co, err1 := jsonobj.Parse(cur)
		bo, err2 := jsonobj.Parse(base)
		oo, err3 := jsonobj.Parse(orig)
		if err1 == nil && err2 == nil && err3 == nil && subset(oo.Keys(), bo) {
			var out jsonobj.Object
			for _, k := range co.Keys() {
				v, _ := co.Get(k)
				bv, inBase := bo.Get(k)
				ov, inOrig := oo.Get(k)
				switch {
				case inBase && inOrig:
					v = d.keepUnchanged(ov, bv, v, path+"/"+pointerEscape(k))
				case inBase && bytes.Equal(bv, v) && !d.legacyAt(path) && !d.missingAt(path+"/"+pointerEscape(k)) && !slices.Contains(d.source.missing, path):
					// The file left it out (its default) and no edit
					// changed it: leave it out still, unless it is
					// required (a finding at the member, or one at
					// this object naming a required sub-object).
					continue
				}
				out.Set(k, v)
			}
			if b, err := out.MarshalJSON(); err == nil {
				return b
			}
		}
		return cur
	}
	if first(cur) == '[' && first(base) == '[' && first(orig) == '[' {
		ca, err1 := jsonobj.ParseArray(cur)
		ba, err2 := jsonobj.ParseArray(base)
		oa, err3 := jsonobj.ParseArray(orig)
		if err1 != nil || err2 != nil || err3 != nil || len(ba) != len(oa) {
			return cur
		}
		// A vector of numbers is one value: an edit writes it whole. Lists
		// of objects (shapes, materials, joints) keep the elements no edit
		// changed.
		out := make([]json.RawMessage, len(ca))
		for i, v := range ca {
			if i < len(ba) && first(v) == '{' {
				v = d.keepUnchanged(oa[i], ba[i], v, fmt.Sprintf("%s/%d", path, i))
			}
			out[i] = v
		}
		return jsonobj.JoinArray(out)
	}
	return cur
}

// subset reports whether every key of the file's object is one the model
// wrote for it when it was loaded: otherwise the file spelled something
// another way (an older name) and the object is written anew.
func subset(keys []string, base *jsonobj.Object) bool {
	for _, k := range keys {
		if !base.Has(k) {
			return false
		}
	}
	return true
}

// legacyAt reports whether a legacy form was read at or below path.
func (d *Document) legacyAt(path string) bool {
	for _, p := range d.source.legacy {
		if p == path || strings.HasPrefix(p, path+"/") {
			return true
		}
	}
	return false
}

// missingAt reports whether a required member the file lacks was
// reported at or below path.
func (d *Document) missingAt(path string) bool {
	for _, p := range d.source.missing {
		if p == path || strings.HasPrefix(p, path+"/") {
			return true
		}
	}
	return false
}

// first returns the first byte of a JSON value that is not white space.
func first(v json.RawMessage) byte {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return 0
	}
	return t[0]
}

// pointerEscape escapes a key for a JSON pointer (RFC 6901).
func pointerEscape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
