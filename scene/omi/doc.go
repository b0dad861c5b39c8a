// Package omi is the OMI physics dialect of the model: the codecs of
// OMI_physics_shape, OMI_physics_body, OMI_physics_gravity,
// OMI_physics_joint and the archived OMI_collider, registered with
// scene.RegisterCodec from init. It reads their blocks, including the
// older forms, into the model's shapes, bodies, gravity and joints, writes
// them back when the document's physics dialect is OMI, and checks them.
//
// Import it (or scene/dialects, which imports every dialect) for its side
// effect wherever documents are decoded.
package omi
