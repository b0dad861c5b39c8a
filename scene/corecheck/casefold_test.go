package corecheck

import (
	"reflect"
	"testing"
)

// TestWithoutCaseVariants: keys that differ from a glTF property only in
// case leave the tree the typed decoder reads, at any depth of the glTF
// types; the file's own names inside extensions, extras, attributes and
// morph targets stay, and a tree without such keys is returned as it is.
func TestWithoutCaseVariants(t *testing.T) {
	for _, c := range []struct {
		name      string
		in, want  map[string]any
		different bool
	}{
		{"top level", map[string]any{"bUffers": []any{1.0}, "asset": map[string]any{}},
			map[string]any{"asset": map[string]any{}}, true},
		{"nested", map[string]any{"meshes": []any{map[string]any{"Primitives": []any{}, "name": "m"}}},
			map[string]any{"meshes": []any{map[string]any{"name": "m"}}}, true},
		{"extensions and extras kept", map[string]any{"nodes": []any{map[string]any{
			"extensions": map[string]any{"EXT_x": map[string]any{"Mesh": 1.0}}, "extras": map[string]any{"Name": "a"}}}},
			nil, false},
		{"attribute names kept", map[string]any{"meshes": []any{map[string]any{"primitives": []any{map[string]any{
			"attributes": map[string]any{"POSITION": 0.0, "TARGET": 1.0}, "targets": []any{map[string]any{"NORMAL": 2.0}}}}}}},
			nil, false},
		{"unknown keys kept", map[string]any{"myThing": 1.0, "accessorsAAAA": 2.0}, nil, false},
	} {
		got, changed := withoutCaseVariants(c.in)
		want := c.want
		if !c.different {
			want = c.in
		}
		if changed != c.different || !reflect.DeepEqual(got, any(want)) {
			t.Errorf("%s: %v (changed %v), want %v", c.name, got, changed, want)
		}
	}
	// The input is not changed.
	in := map[string]any{"bUffers": 1.0}
	withoutCaseVariants(in)
	if _, ok := in["bUffers"]; !ok {
		t.Error("the input tree was changed")
	}
}
