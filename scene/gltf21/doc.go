// Package gltf21 is the glTF 2.1 core part of the Khronos physics dialect:
// the top-level "shapes" array (box, sphere, capsule, cylinder, one-sided
// plane, mesh, convexMesh, with the 2.1 defaults), node "boundingVolume"
// (read, written, checked against the node's mesh) and the asset.version a
// save writes. Its blocks are core members, which the model's save writes
// (scene/core_members.go) so an unedited file keeps its bytes.
//
// The colliders and triggers of a 2.1 file are KHR_physics_rigid_bodies
// blocks, read and written by scene/khr, which calls Decode, Patch,
// Validate and Warnings when the document's dialect is
// scene.DialectGLTF21; this package registers only the ShapeForm hook and
// keeps its own state on the document (scene.CodecState).
package gltf21
