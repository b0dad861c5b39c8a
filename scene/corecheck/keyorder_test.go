package corecheck

import (
	"slices"
	"testing"
)

// TestAttrKeyOrders checks the attributes' key order read from the JSON:
// per primitive and morph target, in the file's order, keys with a slash
// or a tilde as written, and what was read before a syntax error kept.
func TestAttrKeyOrders(t *testing.T) {
	cases := []struct {
		name string
		json string
		want map[attrKey][]string
	}{
		{"two_meshes_and_targets", `{"asset":{"version":"2.0"},"accessors":[{"count":1}],"meshes":[` +
			`{"name":"a","primitives":[{"attributes":{"NORMAL":1,"POSITION":0},"targets":[{"POSITION":2,"NORMAL":3},{}]}]},` +
			`{"primitives":[{"mode":4},{"attributes":{"TEXCOORD_0":5,"_A/B~":6,"POSITION":4}}]}]}`,
			map[attrKey][]string{
				{0, 0, -1}: {"NORMAL", "POSITION"},
				{0, 0, 0}:  {"POSITION", "NORMAL"},
				{0, 0, 1}:  nil,
				{1, 1, -1}: {"TEXCOORD_0", "_A/B~", "POSITION"},
			}},
		{"meshes_not_first", `{"nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"b":1,"a":0}}]}],"asset":{}}`,
			map[attrKey][]string{{0, 0, -1}: {"b", "a"}}},
		{"attributes_not_an_object", `{"meshes":[{"primitives":[{"attributes":[1,2]}]}]}`, map[attrKey][]string{}},
		{"broken_after_the_first", `{"meshes":[{"primitives":[{"attributes":{"Y":1,"X":0}},{"attributes":{"Z":`,
			map[attrKey][]string{{0, 0, -1}: {"Y", "X"}}},
		{"not_an_object", `[1,2]`, map[attrKey][]string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := attrKeyOrders([]byte(c.json))
			if len(got) != len(c.want) {
				t.Errorf("got %d attribute objects %v, want %d %v", len(got), got, len(c.want), c.want)
			}
			for k, w := range c.want {
				if g, ok := got[k]; !ok || !slices.Equal(g, w) {
					t.Errorf("%+v: got %q (%v), want %q", k, g, ok, w)
				}
			}
		})
	}
}
