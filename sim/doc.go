// Package sim plays a scene.Document with the Open Dynamics Engine: it
// builds an ODE world from a copy of the document (static, kinematic and
// dynamic bodies, every OMI shape, compound colliders, physics materials,
// collision filters, joints, triggers), applies the scene's gravity (world
// gravity and every OMI_physics_gravity field, through scene.NetGravity) to
// each dynamic body as a force every step, and writes the poses back into
// the copy, never into the document it was given.
//
// It is its own top-level package because it is the only one that links C
// (ODE, through sim/ode): scene/ stays pure Go and testable anywhere.
package sim
