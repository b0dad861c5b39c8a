package omi

import (
	"encoding/json"
	"fmt"
	"strconv"

	"physview/scene"
)

// decodeShapes reads OMI_physics_shape: the document's shapes, and the
// node-level form before September 2023, whose shape index st keeps for
// wireLegacy (a collider or trigger of the node, saved in the current form).
func decodeShapes(d *scene.Document, fs *scene.Findings, st *legacyDecode) {
	if raw, ok := scene.RawExtension(d.GLTF.Extensions, scene.ExtShape); ok {
		if r := scene.NewReader(raw, "/extensions/"+scene.ExtShape, fs); r != nil {
			for i, s := range r.Array("shapes") {
				d.Shapes = append(d.Shapes, scene.DecodeShape(s, r.At("shapes")+"/"+strconv.Itoa(i), fs, false))
			}
			d.SetRootExtra(scene.ExtShape, r.Rest())
		}
	}
	for i, n := range d.GLTF.Nodes {
		if raw, ok := scene.RawExtension(n.Extensions, scene.ExtShape); ok {
			path := fmt.Sprintf("/nodes/%d/extensions/%s", i, scene.ExtShape)
			if r := scene.NewReader(raw, path, fs); r != nil {
				fs.Infof("OMI_LEGACY_FORM", path, "node-level OMI_physics_shape (before September 2023) read as a collider or trigger of the node")
				shape := r.Index("shape", -1)
				if shape < 0 {
					// Nothing to attach: the block is not written back,
					// so the loss is said where it happens.
					fs.Errorf("OMI_UNDEFINED_PROPERTY", path+"/shape", "node-level OMI_physics_shape names no shape index: the node gets no collider and the block is not saved")
				}
				st.shape[i] = shape
			}
		}
	}
}

func patchShapes(d *scene.Document, node int, blocks map[string]json.RawMessage) {
	if node >= 0 || len(d.Shapes) == 0 || !isOMI(d) {
		return
	}
	var w scene.Writer
	scene.WriteList(&w, "shapes", d.Shapes)
	w.Rest(d.RootExtra(scene.ExtShape))
	blocks[scene.ExtShape] = w.Bytes()
}

func usedShapes(d *scene.Document, used []string) []string {
	if len(d.Shapes) > 0 && isOMI(d) {
		used = append(used, scene.ExtShape)
	}
	return used
}

func validateShapes(d *scene.Document, fs *scene.Findings) {
	if isOMI(d) {
		d.ValidateShapes(fs, scene.DialectOMI)
	}
}
