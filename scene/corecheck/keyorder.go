package corecheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// attrKey names an attributes object of a mesh primitive (target -1) or of
// one of its morph targets.
type attrKey struct{ mesh, prim, target int }

// attrKeyOrders reads, from a glTF JSON document, the keys of every mesh
// primitive's attributes object and of its morph targets in the order the
// file writes them. The Khronos validator visits attributes in that order
// (a JSON object's order as read), so a rule that fires once, on the first
// or on a later attribute (BUFFER_VIEW_TARGET_MISSING,
// MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT), points where it does only with
// that order; Go maps forget it. Everything outside meshes is skipped
// whole. A document that does not parse gives what was read before the
// problem (the schema pass reported it).
func attrKeyOrders(data []byte) map[attrKey][]string {
	out := map[attrKey][]string{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return out
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return out
		}
		if k != "meshes" {
			if skipValue(dec) != nil {
				return out
			}
			continue
		}
		walkOrder(dec, []string{"meshes"}, out)
	}
	return out
}

// skipValue reads past one JSON value.
func skipValue(dec *json.Decoder) error {
	var raw json.RawMessage
	return dec.Decode(&raw)
}

// walkOrder reads one value at path (JSON keys and array indices) and
// records the key order of the attributes objects under meshes.
func walkOrder(dec *json.Decoder, path []string, out map[attrKey][]string) error {
	// Only meshes/N/primitives/N/(attributes|targets/N) lead anywhere.
	if len(path) > 6 || (len(path) >= 3 && path[2] != "primitives") ||
		(len(path) >= 5 && path[4] != "attributes" && path[4] != "targets") ||
		(len(path) == 6 && path[4] != "targets") {
		return skipValue(dec)
	}
	t, err := dec.Token()
	if err != nil {
		return err
	}
	switch t {
	case json.Delim('{'):
		var keys []string
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			k, ok := kt.(string)
			if !ok {
				return errors.New("object key is not a string")
			}
			keys = append(keys, k)
			if err := walkOrder(dec, append(path[:len(path):len(path)], k), out); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		if key, ok := attrPath(path); ok {
			out[key] = keys
		}
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkOrder(dec, append(path[:len(path):len(path)], strconv.Itoa(i)), out); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
	}
	return nil
}

// attrPath reports whether path is meshes/M/primitives/P/attributes or
// meshes/M/primitives/P/targets/T, and which.
func attrPath(path []string) (attrKey, bool) {
	if len(path) < 5 || path[0] != "meshes" || path[2] != "primitives" {
		return attrKey{}, false
	}
	m, err1 := strconv.Atoi(path[1])
	p, err2 := strconv.Atoi(path[3])
	if err1 != nil || err2 != nil {
		return attrKey{}, false
	}
	switch {
	case len(path) == 5 && path[4] == "attributes":
		return attrKey{m, p, -1}, true
	case len(path) == 6 && path[4] == "targets":
		t, err := strconv.Atoi(path[5])
		return attrKey{m, p, t}, err == nil
	}
	return attrKey{}, false
}

// attrOrder returns the names of attrs in the file's order when it matters
// for the rules that fire once (two of its accessors share a buffer view
// whose usage is not known yet, or their counts differ), else in the order
// glTF writers put them (writerAttrOrder): the file is read again only
// then, once.
func (l *links) attrOrder(key attrKey, attrs map[string]int) []string {
	order := writerAttrOrder(attrs)
	if len(order) < 2 || len(l.json) == 0 || !l.orderMatters(attrs) {
		return order
	}
	if l.keyOrders == nil {
		l.keyOrders = attrKeyOrders(l.json)
	}
	keys, ok := l.keyOrders[key]
	if !ok {
		return order
	}
	out := make([]string, 0, len(attrs))
	seen := map[string]bool{}
	for _, k := range keys {
		if _, ok := attrs[k]; ok && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	if len(out) != len(attrs) {
		// The typed document and the JSON disagree (a value the schema
		// pass dropped): keep the writers' order.
		return order
	}
	return out
}

// orderMatters reports whether two accessors of attrs differ in count, or
// share a buffer view that has no target and no usage yet (its
// BUFFER_VIEW_TARGET_MISSING goes to the first of them), or two different
// accessors share a buffer view without byteStride
// (MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE goes to the later).
func (l *links) orderMatters(attrs map[string]int) bool {
	views := map[int]int{}
	count := -1
	for _, ai := range attrs {
		a := l.acc(ai)
		if a == nil {
			continue
		}
		if count >= 0 && a.Count != count {
			return true
		}
		count = a.Count
		bv := l.view(a.BufferView)
		if bv == nil {
			continue
		}
		first, shared := views[*a.BufferView]
		views[*a.BufferView] = ai
		if !shared {
			continue
		}
		if bv.ByteStride == 0 && first != ai {
			return true
		}
		if _, used := l.bvUsage[*a.BufferView]; bv.Target == 0 && !used {
			return true
		}
	}
	return false
}
