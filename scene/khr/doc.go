// Package khr is the Khronos physics dialect of the model: the codec of
// KHR_implicit_shapes and KHR_physics_rigid_bodies on glTF 2.0, and of the
// glTF 2.1 core shapes ("shapes", node "boundingVolume", asset.version
// "2.1"), whose colliders and triggers are the same
// KHR_physics_rigid_bodies blocks, registered with scene.RegisterCodec from
// init. It reads those blocks into the model's shapes, bodies, materials,
// filters and joints (each source with its own defaults), writes them back
// when the document's physics dialect is KHR or glTF 2.1, converts the
// document to another dialect (the Convert hook), and checks them as the
// KHR fork of the Khronos validator does (fork.go).
//
// Both dialects live in one package because they share the rigid-bodies
// codec and its state: which shapes a collider names by mesh geometry,
// which blocks a file of two dialects keeps unread.
//
// Import it (or scene/dialects, which imports every dialect) for its side
// effect wherever documents are decoded.
package khr
