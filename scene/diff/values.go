package diff

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"physview/scene"
)

// Values: any part of the document is turned into plain JSON values
// (decoded numbers, maps with sorted keys) and compared leaf by leaf, so
// that formatting, key order and number spelling never differ.

// plain returns v marshalled and decoded again as maps, slices, float64,
// string and bool; nil when v does not marshal.
func plain(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// canonicalString is v as compact JSON with sorted keys.
func canonicalString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// leaf is one difference found by diffValues: the pointers on both sides
// (the side's "" when the value is absent there) and the two values.
type leaf struct {
	pa, pb string
	va, vb any
	inA    bool
	inB    bool
}

// diffValues compares a and b (plain values) under pointers pa and pb and
// calls out for each difference. Arrays of numbers are one value (a
// translation is one change, not three).
func diffValues(a, b any, pa, pb string, out func(leaf)) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			va, okA := x[k]
			vb, okB := y[k]
			switch {
			case okA && okB:
				diffValues(va, vb, pa+ptr(k), pb+ptr(k), out)
			case okA:
				out(leaf{pa: pa + ptr(k), va: va, inA: true})
			default:
				out(leaf{pb: pb + ptr(k), vb: vb, inB: true})
			}
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) || numeric(x) || numeric(y) {
			break
		}
		for i := range x {
			diffValues(x[i], y[i], pa+ptr(i), pb+ptr(i), out)
		}
		return
	}
	if equalPlain(a, b) {
		return
	}
	out(leaf{pa: pa, pb: pb, va: a, vb: b, inA: true, inB: true})
}

// numeric reports whether s is a non-empty array of numbers.
func numeric(s []any) bool {
	if len(s) == 0 {
		return false
	}
	for _, v := range s {
		if _, ok := v.(float64); !ok {
			return false
		}
	}
	return true
}

// equalPlain compares plain values, numbers within Tolerance.
func equalPlain(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && approx(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalPlain(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalPlain(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// show formats a plain value for a summary: numbers with up to 6
// significant digits, long values cut.
func show(v any) string {
	s := showValue(v)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

func showValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case float64:
		return num(x)
	case string:
		return strconv.Quote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = showValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + showValue(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// num formats a number with up to 6 significant digits.
func num(x float64) string {
	return strconv.FormatFloat(scene.RoundSig(x, 6)+0, 'g', -1, 64)
}

// nums formats a vector.
func nums(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = num(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// emitLeaves reports the leaves of diffValues as value changes of what
// (a phrase such as `material "Red"`).
func (c *comparer) emitLeaves(cat string, na, nb int, what string, a, b any, pa, pb string) {
	diffValues(a, b, pa, pb, func(l leaf) {
		key := l.pa
		if !l.inA {
			key = l.pb
		}
		field := key[strings.LastIndexByte(key, '/')+1:]
		switch {
		case !l.inA:
			c.addNode(cat, Added, na, nb, "", l.pb, "%s: %s added: %s", what, field, show(l.vb))
		case !l.inB:
			c.addNode(cat, Removed, na, nb, l.pa, "", "%s: %s removed (was %s)", what, field, show(l.va))
		default:
			c.addNode(cat, Changed, na, nb, l.pa, l.pb, "%s: %s %s → %s", what, field, show(l.va), show(l.vb))
		}
	})
}

// imageBytes returns the encoded bytes of image i of d: from a buffer
// view, a data URI or a file beside the document.
func imageBytes(d *scene.Document, i int) ([]byte, error) {
	im := d.GLTF.Images[i]
	switch {
	case im == nil:
		return nil, fmt.Errorf("image %d is null", i)
	case im.BufferView != nil:
		return d.BufferViewData(*im.BufferView)
	case strings.HasPrefix(im.URI, "data:"):
		comma := strings.IndexByte(im.URI, ',')
		if comma < 0 || !strings.Contains(im.URI[:comma], ";base64") {
			return nil, fmt.Errorf("image %d: unsupported data URI", i)
		}
		return base64.StdEncoding.DecodeString(im.URI[comma+1:])
	case im.URI != "":
		if d.Path == "" {
			return nil, fmt.Errorf("image %d: %s: the document has no folder", i, im.URI)
		}
		return scene.ReadInFolder(filepath.Dir(d.Path), im.URI)
	}
	return nil, fmt.Errorf("image %d has neither a uri nor a buffer view", i)
}
