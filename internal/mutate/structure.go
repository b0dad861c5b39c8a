package mutate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// A value of the JSON text: where it lies, under which key (the nearest
// object key above it: an array element has its array's key), and of
// which JSON kind ('{', '[', '"', 'n' number, 'b' boolean, 'z' null).
type jsonSpan struct {
	start, end int
	key        string
	kind       byte
	// owner is the span of the object the value is a member of (-1 for
	// an array element or the root), for the duplicate-key mutation.
	owner int
	// member is the start of the member's key (its quote), for owner.
	member int
}

// spans returns every value of the JSON text with its place, in text
// order (a parent before its children), or nil when text is not JSON.
func spans(text []byte) []jsonSpan {
	if !json.Valid(text) {
		return nil
	}
	var out []jsonSpan
	i := 0
	skip := func() {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
			i++
		}
	}
	var value func(key string, owner, member int)
	value = func(key string, owner, member int) {
		skip()
		me := len(out)
		out = append(out, jsonSpan{start: i, key: key, owner: owner, member: member})
		switch c := text[i]; {
		case c == '{':
			out[me].kind = '{'
			i++
			for {
				skip()
				if text[i] == '}' {
					i++
					break
				}
				if text[i] == ',' {
					i++
					skip()
				}
				ks := i
				k := stringEnd(text, i)
				name, _ := strconv.Unquote(string(text[i:k]))
				i = k
				skip()
				i++ // the colon
				value(name, me, ks)
			}
		case c == '[':
			out[me].kind = '['
			i++
			for {
				skip()
				if text[i] == ']' {
					i++
					break
				}
				if text[i] == ',' {
					i++
				}
				value(key, -1, -1)
			}
		case c == '"':
			out[me].kind = '"'
			i = stringEnd(text, i)
		case c == 't' || c == 'f':
			out[me].kind = 'b'
			i += map[byte]int{'t': 4, 'f': 5}[c]
		case c == 'n':
			out[me].kind = 'z'
			i += 4
		default:
			out[me].kind = 'n'
			for i < len(text) && strings.IndexByte("+-.0123456789eE", text[i]) >= 0 {
				i++
			}
		}
		out[me].end = i
	}
	value("", -1, -1)
	return out
}

// stringEnd returns the index after the JSON string starting at i.
func stringEnd(text []byte, i int) int {
	for k := i + 1; k < len(text); k++ {
		switch text[k] {
		case '\\':
			k++
		case '"':
			return k + 1
		}
	}
	return len(text)
}

// What a key means, for the values the structure-aware mutations choose.
var (
	// indexKeys hold indices into a collection (attribute names and
	// morph target keys too: all-capital keys).
	indexKeys = map[string]string{
		"buffer": "buffers", "bufferView": "bufferViews", "indices": "accessors", "input": "accessors",
		"output": "accessors", "inverseBindMatrices": "accessors", "mesh": "meshes", "material": "materials",
		"source": "images", "sampler": "samplers", "skin": "skins", "camera": "cameras", "node": "nodes",
		"skeleton": "nodes", "children": "nodes", "nodes": "nodes", "joints": "nodes", "scene": "scenes",
		"index": "textures", "shape": "shapes", "physicsMaterial": "physicsMaterials", "joint": "physicsJoints",
		"connectedNode": "nodes", "collisionFilter": "collisionFilters", "connectedBody": "nodes",
	}
	// sizeKeys hold counts, offsets, strides and lengths.
	sizeKeys = map[string]bool{"byteLength": true, "byteOffset": true, "byteStride": true, "count": true,
		"componentType": true, "mode": true, "texCoord": true}
)

// isAttribute reports whether key names a vertex attribute ("POSITION",
// "TEXCOORD_0", "_CUSTOM"), whose value is an accessor index.
func isAttribute(key string) bool {
	return key != "" && strings.ToUpper(key) == key && strings.Trim(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") == ""
}

// replacements returns what the value s of text may be replaced by, by
// what its key means, each with a short name. counts are the lengths of
// the document's root collections.
func replacements(text []byte, s jsonSpan, counts map[string]int) (names []string, vals []func() []byte) {
	add := func(name, v string) {
		names = append(names, name)
		vals = append(vals, func() []byte { return []byte(v) })
	}
	if s.kind == 'n' {
		coll, isIndex := indexKeys[s.key]
		if isAttribute(s.key) {
			coll, isIndex = "accessors", true
		}
		switch {
		case isIndex:
			n := counts[coll]
			add("index-1", "-1")
			add("index=count", strconv.Itoa(n))
			add("index=count+1", strconv.Itoa(n+1))
			add("index=2^31-1", "2147483647")
			add("index=2^32", "4294967296")
		case sizeKeys[s.key]:
			for _, v := range []string{"0", "-1", "2147483648", "4294967297", "9007199254740993", "1e308", "3.5"} {
				add("size="+v, v)
			}
		default:
			for _, v := range []string{"1e308", "-0", "NaN", "Infinity", "-Infinity"} {
				add("float="+v, v)
			}
		}
	}
	add("null", "null")
	switch s.kind {
	case '{', '[':
		add("wrong-type", `"x"`)
	case '"':
		add("wrong-type", "7")
		add("invalid-utf8", "\"\xff\xfe\xc3\x28\"")
	default:
		add("wrong-type", `{"x":[]}`)
	}
	if s.kind == '[' || s.kind == '{' {
		names = append(names, "100k-copy")
		vals = append(vals, func() []byte { return manyCopies(text[s.start:s.end], s.kind) })
	}
	names = append(names, "10k-deep")
	vals = append(vals, func() []byte {
		var b bytes.Buffer
		for range deepNest {
			b.WriteString(`[{"a":`)
		}
		b.Write(text[s.start:s.end])
		for range deepNest {
			b.WriteString(`}]`)
		}
		return b.Bytes()
	})
	return names, vals
}

// manyCopies returns an array of the value (of an array: of its
// elements) repeated copies times, or as many times as fit in copyBytes.
func manyCopies(value []byte, kind byte) []byte {
	elem := value
	if kind == '[' {
		if inner := bytes.TrimSpace(elem[1 : len(elem)-1]); len(inner) > 0 {
			elem = inner
		}
	}
	n := max(2, min(copies, copyBytes/(len(elem)+1)))
	var b bytes.Buffer
	b.Grow(n * (len(elem) + 1))
	b.WriteByte('[')
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		b.Write(elem)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// copies and deepNest are the sizes of the 100k-element copy and the
// 10k-deep nesting (each level is an array and an object: 20k brackets).
// copyBytes bounds the size of a copy of a big value.
const (
	copies    = 100_000
	copyBytes = 1 << 20
	deepNest  = 5_000
)

// rootCounts returns the lengths of the arrays of the root object and of
// the physics extensions' arrays (shapes, physicsMaterials, ...).
func rootCounts(text []byte) map[string]int {
	var root map[string]json.RawMessage
	out := map[string]int{}
	if json.Unmarshal(text, &root) != nil {
		return out
	}
	count := func(m map[string]json.RawMessage) {
		for k, v := range m {
			var a []json.RawMessage
			if json.Unmarshal(v, &a) == nil {
				out[k] = len(a)
			}
		}
	}
	count(root)
	var exts map[string]map[string]json.RawMessage
	if json.Unmarshal(root["extensions"], &exts) == nil {
		for _, e := range exts {
			count(e)
		}
	}
	return out
}

// Structured returns up to limit structure-aware mutations of a glTF
// file (its JSON, or a GLB's JSON chunk put back with its lengths fixed):
// each replaces one value by what its key means (indices: -1, the
// collection's count and count+1, 2^31-1, 2^32; counts, offsets, strides
// and lengths: 0, -1, 2^31, 2^32+1, 2^53+1, 1e308, 3.5; other numbers:
// 1e308, -0 and the NaN and Infinity tokens JSON does not have; any value:
// null, a value of the wrong type, a 100,000-element copy, a 10,000-deep
// nesting; strings: invalid UTF-8), or repeats an object member (a
// duplicate key). With limit < 0 it returns every one; else a seeded
// choice (the same for the same name and data), spread over the values.
func Structured(name string, data []byte, limit int) []Mutation {
	text, rebuild := textPart(data)
	if text == nil || bytes.HasPrefix(bytes.TrimSpace(text), []byte("<")) {
		return nil
	}
	ss := spans(text)
	if len(ss) < 2 {
		return nil
	}
	counts := rootCounts(text)
	type cand struct {
		span int
		name string
		val  func() []byte // nil: a duplicate key
	}
	var all []cand
	for i, s := range ss[1:] {
		names, vals := replacements(text, s, counts)
		for k := range names {
			all = append(all, cand{i + 1, names[k], vals[k]})
		}
		if s.owner >= 0 {
			all = append(all, cand{i + 1, "duplicate-key", nil})
		}
	}
	if limit >= 0 && len(all) > limit {
		h := fnv.New64a()
		h.Write([]byte(name))
		h.Write(data)
		r := rand.New(rand.NewPCG(h.Sum64(), 31))
		pick := r.Perm(len(all))[:limit]
		slices.Sort(pick)
		kept := make([]cand, len(pick))
		for k, p := range pick {
			kept[k] = all[p]
		}
		all = kept
	}
	out := make([]Mutation, 0, len(all))
	for _, c := range all {
		s := ss[c.span]
		var b bytes.Buffer
		if c.val == nil {
			// The member again, with null, right after itself:
			// `"k": v, "k": null`.
			b.Write(text[:s.end])
			b.WriteString(`, `)
			b.Write(text[s.member:stringEnd(text, s.member)])
			b.WriteString(`: null`)
			b.Write(text[s.end:])
		} else {
			b.Write(text[:s.start])
			b.Write(c.val())
			b.Write(text[s.end:])
		}
		out = append(out, Mutation{Name: fmt.Sprintf("%s@%s(%d)", c.name, pointerOf(ss, c.span), s.start), Data: rebuild(b.Bytes())})
	}
	return out
}

// pointerOf names span i by its key and its parent's, for messages.
func pointerOf(ss []jsonSpan, i int) string {
	s := ss[i]
	if s.owner >= 0 && ss[s.owner].key != "" {
		return ss[s.owner].key + "/" + s.key
	}
	return s.key
}
