// Package anim samples glTF animations and poses a document: node
// transforms, morph weights and KHR_animation_pointer targets at a time t,
// skin joint matrices, EXT_mesh_gpu_instancing transforms, and the posed
// world-space bounds of every drawn vertex.
//
// It is pure Go (no GL): the renderer, the debug drawing, picking, the
// simulation and the headless commands all read the same Pose.
//
// A Model is built once per document (it reads the accessors it needs);
// Model.Pose(a, t) gives the Pose of animation a at time t (a < 0: every
// animation at once), Model.Rest() the file's rest pose.
package anim
