// Package khr is the Khronos physics dialect of the model: the codec of
// KHR_implicit_shapes and KHR_physics_rigid_bodies, on glTF 2.0 and in
// glTF 2.1 files (whose shapes are core, scene/gltf21), registered with
// scene.RegisterCodec from init. It reads those blocks into the model's
// shapes, bodies, materials, filters and joints (each source with its own
// defaults), writes them back when the document's physics dialect is KHR
// or glTF 2.1, converts the document to another dialect (the Convert
// hook), and checks them as the KHR fork of the Khronos validator does
// (fork.go).
//
// In a glTF 2.1 file this codec drives scene/gltf21: it decides that the
// file's colliders name the core shapes, and which model shapes the core
// list holds (core21.go; a mesh a collider names by geometry.mesh is not
// listed), because that is this codec's state.
//
// Import it (or scene/dialects, which imports every dialect) for its side
// effect wherever documents are decoded.
package khr
