// Package dialects imports every physics dialect package for its side
// effect: each registers its codecs with the model (scene.RegisterCodec)
// from init, as a qmuntal/gltf ext/ package registers with
// gltf.RegisterExtension. Import it, blank, in every program and test that
// decodes documents:
//
//	import _ "physview/scene/dialects"
//
// KHR physics on glTF 2.0, glTF 2.1 core shapes, KHR_node_visibility and
// KHR_materials_variants still register from package scene itself
// (docs/dialects.md).
package dialects

import (
	// OMI_physics_shape, _body, _gravity, _joint and OMI_collider.
	_ "physview/scene/omi"
)
