package scene

import (
	"encoding/json"
	"slices"

	"physview/scene/internal/jsonobj"
)

// patchSceneRoots writes the root node list of each scene an edit changed
// (a joint's world anchor is a new root node): a list as the file has it
// keeps its bytes.
func (d *Document) patchSceneRoots(root *jsonobj.Object) error {
	if d.GLTF == nil || len(d.GLTF.Scenes) == 0 {
		return nil
	}
	raw, ok := root.Get("scenes")
	if !ok {
		return nil
	}
	var loaded []struct {
		Nodes []int `json:"nodes"`
	}
	if err := json.Unmarshal(raw, &loaded); err != nil || len(loaded) != len(d.GLTF.Scenes) {
		return nil
	}
	changed := false
	for i, sc := range loaded {
		changed = changed || !slices.Equal(sc.Nodes, d.GLTF.Scenes[i].Nodes)
	}
	if !changed {
		return nil // the array keeps its bytes
	}
	return patchArray(root, "scenes", len(d.GLTF.Scenes), func(i int, sc *jsonobj.Object) error {
		var orig []int
		if raw, ok := sc.Get("nodes"); ok {
			if err := json.Unmarshal(raw, &orig); err != nil {
				return nil // a list the decoder could not read was not edited
			}
		}
		cur := d.GLTF.Scenes[i].Nodes
		if slices.Equal(cur, orig) {
			return nil
		}
		return sc.SetValue("nodes", cur)
	})
}
