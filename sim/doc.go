// Package sim plays a scene.Document with the Open Dynamics Engine or,
// with Options.Engine "bullet", Bullet Physics (both behind engine.go's
// interface): it builds the world from a copy of the document (static,
// kinematic and dynamic bodies, every OMI shape, compound colliders, physics materials,
// collision filters, joints, triggers), applies the scene's gravity (world
// gravity and every OMI_physics_gravity field, through scene.NetGravity) to
// each dynamic body as a force every step, and writes the poses back into
// the copy, never into the document it was given.
//
// Every value is checked before it reaches ODE (check.go: positions, scales,
// sizes, speeds, masses within the range ODE plays); an error ODE itself
// reports comes back as a Go error and stops the run (sim/ode), and contacts
// are bounded per pair and per step, what is dropped counted.
//
// It is its own top-level package because it is the only one that links C
// (ODE through sim/ode, Bullet through sim/bullet): scene/ stays pure Go
// and testable anywhere.
package sim
