package scene

import (
	"fmt"
	"strings"
)

// validateShapesIn checks the shapes under the paths and codes of dialect
// pp: the shape kinds' checks are written with OMI_ codes, which a KHR
// document gets as KHR_ codes.
func (d *Document) validateShapesIn(fs *findings, pp physicsPaths) {
	meshCount := len(d.GLTF.Meshes)
	for i, s := range d.Shapes {
		if s.Type == 0 {
			continue
		}
		if pp.prefix != omiPaths.prefix && d.shapeUnlisted(i) {
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
