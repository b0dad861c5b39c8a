// Package scene is physview's document model: a glTF file with its physics,
// gravity, joints and material variants decoded into typed values
// (Document, Shape, Body, ...), the undoable edits that change them
// (Edit, History), validation, and lossless saving (what no edit touched
// is written back byte for byte).
//
// Map of scene/ and its packages:
//
//   - scene (this package): the model (document.go, shape*.go, body.go,
//     gravity.go, and the JSON forms of bodies and joints the dialects share
//     in body_form.go and joint_form.go), edits (edit*.go), validation
//     (validate.go, codes.go), saving (save*.go), and the codec API a
//     dialect registers with (extensions.go: Codec, RegisterCodec;
//     codec.go: Findings, Reader, Writer and the shared forms), with the
//     document's dialect by name and the codecs' state on it (dialect.go,
//     dialect_edit.go) and the core members a codec writes
//     (core_members.go). Still registered from here: KHR_node_visibility
//     (visibility.go) and KHR_materials_variants (khr_variants.go), which
//     are no physics dialect.
//   - scene/omi: the OMI dialect (OMI_physics_shape, _body, _gravity,
//     _joint, the archived OMI_collider), a codec package.
//   - scene/khr: KHR physics (KHR_implicit_shapes,
//     KHR_physics_rigid_bodies; fork.go for the KHR fork of the Khronos
//     validator), on glTF 2.0 and in glTF 2.1 files, a codec package.
//   - scene/gltf21: glTF 2.1 core shapes, node bounding volumes and the
//     version a save writes; scene/khr drives it in a 2.1 file.
//   - scene/dialects: imports every dialect package; programs and tests
//     that decode documents import it, blank.
//   - scene/corecheck: the core glTF checks of the Khronos glTF-Validator,
//     the GLB container, version rules (version21.go).
//   - scene/anim: animation sampling and posing, KHR_animation_pointer.
//   - scene/meshdec: Draco and meshopt decoding.
//   - scene/decompose: convex decomposition for compound colliders.
//   - scene/g4mf, scene/xode: the G4MF and XODE formats, registered as
//     formats (format.go).
//   - scene/internal/jsonobj, scene/internal/jsonsplice: order-keeping JSON
//     objects and byte-level JSON patching for lossless saves.
//
// See docs/dialects.md for the dialects, their defaults and conversion.
package scene
