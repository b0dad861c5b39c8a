package omi

import (
	"encoding/json"
	"fmt"

	"physview/scene"
)

// Decoding order of the OMI codecs among the model's (scene.Codec.Order):
// shapes, bodies and the archived OMI_collider first, in one codec, because
// the archived colliders are appended after the shapes and added to the
// nodes' bodies, and the forms before September 2023 are wired once all
// three are read; the model then resolves the implicit compound triggers
// (40); gravity and joints follow; KHR physics (80) comes last, as it keeps
// its blocks unread when OMI physics is there.
const (
	orderPhysics = 10
	orderGravity = 50
	orderJoint   = 60
)

// OMI_physics_shape, OMI_physics_body and the archived OMI_collider: the
// document's shapes, physics materials and collision filters and each
// node's motion, collider and trigger, including the forms before
// September 2023 ("type" bodies, node-level shapes) and before 2024 (a
// trigger without shape or nodes), read into the current form.
func init() {
	scene.RegisterCodec(scene.Codec{
		Names: []string{scene.ExtShape, scene.ExtBody, scene.ExtCollider},
		Order: orderPhysics,
		Decode: func(d *scene.Document, fs *scene.Findings) {
			st := newLegacyDecode(d)
			decodeShapes(d, fs, st)
			decodeBodies(d, fs, st)
			decodeColliders(d, fs)
			wireLegacy(d, st)
		},
		Patch: func(d *scene.Document, node int, blocks map[string]json.RawMessage) {
			patchShapes(d, node, blocks)
			patchBodies(d, node, blocks)
		},
		Used: func(d *scene.Document, used []string) []string {
			return usedBodies(d, usedShapes(d, used))
		},
		Required: requiredColliders,
		Validate: func(d *scene.Document, fs *scene.Findings) {
			validateShapes(d, fs)
			validateBodies(d, fs)
			if isOMI(d) {
				emptyArrays(d, fs)
			}
		},
		Align:   alignFindings,
		Convert: convert,
	})
}

// convert is the Convert hook: one line per thing a change to OMI cannot
// hold of the model's shapes (a plane, which OMI does not define). What
// KHR's meanings lose in OMI (zero inertia) scene/khr says.
func convert(d *scene.Document, _, to scene.PhysicsDialect) []string {
	if to != scene.DialectOMI {
		return nil
	}
	var warns []string
	for i, s := range d.Shapes {
		if s.Type == scene.ShapePlane {
			warns = append(warns, fmt.Sprintf("shape %d: plane is not an OMI shape; written with type \"plane\", which OMI readers other than physview do not know", i))
		}
	}
	return warns
}

// isOMI reports whether the document's physics is written as OMI, so the
// OMI codecs write, list and check it (the KHR codec does otherwise).
func isOMI(d *scene.Document) bool { return d.PhysicsDialect() == scene.DialectOMI }
