// Package corecheck reads a glTF 2.0 document (.gltf or .glb) and checks its
// core parts the way the Khronos glTF-Validator does: every finding carries
// the Khronos issue code and severity of its rule. It knows nothing of the
// physics and variants model (package scene): scene calls Decode, then
// decodes and checks the extensions it owns.
package corecheck
