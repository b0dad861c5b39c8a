package scene

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ExtShape is the extension name. Like every owned
// extension it is read into typed values and written back in its current
// form; everything else in the file is kept as is.
const ExtShape = "OMI_physics_shape"

// OMI_physics_shape: the document's shapes, and the node-level form before
// September 2023, which is read as a collider or trigger of the node (wired
// with the legacy bodies, omi_body.go) and saved in the current form.
func init() {
	registerExtension(extensionCodec{
		Names:  []string{ExtShape},
		Order:  orderShape,
		Decode: decodeShapes,
		Patch:  patchShapes,
		Used: func(d *Document, used []string) []string {
			if len(d.Shapes) > 0 && d.isOMI() {
				used = append(used, ExtShape)
			}
			return used
		},
		Validate: validateShapes,
	})
}

func decodeShapes(d *Document, fs *findings) {
	if raw, ok := rawExt(d.GLTF.Extensions, ExtShape); ok {
		if r := newReader(raw, "/extensions/"+ExtShape, fs); r != nil {
			for i, s := range r.array("shapes") {
				d.Shapes = append(d.Shapes, decodeShape(s, r.at("shapes")+"/"+itoa(i), fs, false))
			}
			d.setRootExtra(ExtShape, r.rest())
		}
	}
	for i, n := range d.GLTF.Nodes {
		if raw, ok := rawExt(n.Extensions, ExtShape); ok {
			path := fmt.Sprintf("/nodes/%d/extensions/%s", i, ExtShape)
			if r := newReader(raw, path, fs); r != nil {
				fs.infof("OMI_LEGACY_FORM", path, "node-level OMI_physics_shape (before September 2023) read as a collider or trigger of the node")
				shape := r.index("shape", -1)
				if shape < 0 {
					// Nothing to attach: the block is not written back,
					// so the loss is said where it happens.
					fs.errorf("OMI_UNDEFINED_PROPERTY", path+"/shape", "node-level OMI_physics_shape names no shape index: the node gets no collider and the block is not saved")
				}
				d.legacyState().shape[i] = shape
			}
		}
	}
}

func patchShapes(d *Document, node int, blocks map[string]json.RawMessage) {
	if node >= 0 || len(d.Shapes) == 0 || !d.isOMI() {
		return
	}
	var w writer
	setList(&w, "shapes", d.Shapes)
	w.rest(d.rootExtra[ExtShape])
	blocks[ExtShape] = w.bytes()
}

func validateShapes(d *Document, fs *findings) {
	if d.isOMI() {
		d.validateShapesIn(fs, omiPaths)
	}
}

// validateShapesIn checks the shapes under the paths and codes of dialect
// pp: the shape kinds' checks are written with OMI_ codes, which a KHR
// document gets as KHR_ codes.
func (d *Document) validateShapesIn(fs *findings, pp physicsPaths) {
	meshCount := len(d.GLTF.Meshes)
	for i, s := range d.Shapes {
		if s.Type == 0 {
			continue
		}
		if pp.prefix != omiPaths.prefix && d.khr != nil && d.khr.khrIndexOf(i) < 0 {
			continue // a mesh a KHR geometry names, checked where it is read
		}
		var sub findings
		s.validate(fmt.Sprintf("%s/%d", pp.shapes, i), &sub, meshCount)
		for _, f := range sub {
			if rest, ok := strings.CutPrefix(f.Code, "OMI_"); ok {
				if rest == "TAPERED_SHAPE" && pp.prefix != omiPaths.prefix {
					continue // KHR_implicit_shapes defines tapered shapes
				}
				f.Code = pp.code(rest)
			}
			*fs = append(*fs, f)
		}
	}
}
