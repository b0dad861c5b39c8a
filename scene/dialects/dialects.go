// Package dialects imports every physics dialect package for its side
// effect: each registers its codecs with the model (scene.RegisterCodec)
// from init, as a qmuntal/gltf ext/ package registers with
// gltf.RegisterExtension. Import it, blank, in every program and test that
// decodes documents:
//
//	import _ "physview/scene/dialects"
//
// KHR_node_visibility and KHR_materials_variants register from package
// scene itself (docs/dialects.md).
package dialects

import (
	// OMI_physics_shape, _body, _gravity, _joint and OMI_collider.
	_ "physview/scene/omi"

	// KHR_implicit_shapes and KHR_physics_rigid_bodies on glTF 2.0, and
	// their colliders in glTF 2.1 files.
	_ "physview/scene/khr"

	// The glTF 2.1 core shapes and bounding volumes (scene/khr imports it
	// too).
	_ "physview/scene/gltf21"
)
