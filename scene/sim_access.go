package scene

import (
	"fmt"

	"physview/scene/internal/jsonobj"
)

// CommitNodeTransforms writes the current transforms of the listed nodes
// (GLTF.Nodes translation, rotation and scale; a matrix is dropped) into
// the JSON that Save and Encode patch, so a saved file carries them. Saving
// otherwise keeps node transforms as they were read: the simulation uses
// this to write final poses. Nodes not listed are untouched.
func (d *Document) CommitNodeTransforms(nodes []int) error {
	if len(nodes) == 0 {
		return nil
	}
	want := map[int]bool{}
	for _, n := range nodes {
		if n < 0 || n >= len(d.GLTF.Nodes) {
			return fmt.Errorf("scene: node %d does not exist", n)
		}
		want[n] = true
	}
	root, err := jsonobj.Parse(d.source.json)
	if err != nil {
		return fmt.Errorf("scene: re-reading the loaded JSON: %w", err)
	}
	err = patchArray(root, "nodes", len(d.GLTF.Nodes), func(i int, o *jsonobj.Object) error {
		if !want[i] {
			return nil
		}
		n := d.GLTF.Nodes[i]
		o.Delete("matrix")
		for _, kv := range []struct {
			key string
			v   any
		}{{"translation", n.TranslationOrDefault()}, {"rotation", n.RotationOrDefault()}, {"scale", n.ScaleOrDefault()}} {
			if err := o.SetValue(kv.key, kv.v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("scene: writing node transforms: %w", err)
	}
	js, err := root.MarshalJSON()
	if err != nil {
		return fmt.Errorf("scene: writing node transforms: %w", err)
	}
	d.source.json = js
	return nil
}
