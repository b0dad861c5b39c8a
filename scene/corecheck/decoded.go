package corecheck

import (
	"fmt"
	"slices"

	"github.com/qmuntal/gltf"
)

// CheckDecodedData is the hook for validation inside compressed data. A
// decoder (KHR_draco_mesh_compression, EXT_meshopt_compression) that has put
// the decoded bytes of some accessors into doc's buffers calls it with those
// accessors; they are checked as plain accessors are: values against min
// and max, NaN and infinity, index ranges of the primitives that use them as
// indices, unit normals and tangents. The Khronos validator does not look
// inside Draco data; this does. Findings point at the accessors.
func CheckDecodedData(doc *gltf.Document, accessors []int) []Finding {
	var fs findings
	for _, i := range accessors {
		if v := dataView(doc, i); v != nil {
			checkMinMax(v, fmt.Sprintf("/accessors/%d", i), &fs)
		}
	}
	for _, m := range doc.Meshes {
		for _, pr := range m.Primitives {
			vertices := -1
			for _, ai := range pr.Attributes {
				if ai >= 0 && ai < len(doc.Accessors) && (vertices < 0 || doc.Accessors[ai].Count < vertices) {
					vertices = doc.Accessors[ai].Count
				}
			}
			if pr.Indices != nil && vertices >= 0 && slices.Contains(accessors, *pr.Indices) {
				if v := dataView(doc, *pr.Indices); v != nil {
					checkIndices(v, fmt.Sprintf("/accessors/%d", *pr.Indices), vertices, &fs)
				}
			}
			for _, sem := range []string{"NORMAL", "TANGENT"} {
				if ai, ok := pr.Attributes[sem]; ok && slices.Contains(accessors, ai) {
					if v := dataView(doc, ai); v != nil && v.comps >= 3 {
						checkUnitVectors(v, fmt.Sprintf("/accessors/%d", ai), sem == "TANGENT", &fs)
					}
				}
			}
		}
	}
	return fs
}
