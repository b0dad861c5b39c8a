// Package bullet is a thin cgo binding to Bullet Physics (Debian's
// libbullet-dev 3.24, the single-precision build) through a small C++ shim
// with a C interface (shim.cc, shim.h): worlds, rigid bodies whose position
// is their centre of mass, shapes attached to a body at an offset or placed
// static, generic 6-DOF joints with limits and motors, triggers, and one
// call that applies forces, steps and reads the states back. It takes its
// bodies and geoms in the vocabulary of physview/sim/ode so that
// physview/sim can drive either engine; only physview/sim imports it.
//
// Every entry point of the shim catches C++ exceptions: an error becomes a
// Go error, the world is broken from then on (Err returns the error and
// every later call does nothing), and the process never aborts. Values are
// checked before they reach Bullet (physview/sim checks a scene first; the
// binding refuses sizes and coordinates that are not finite numbers within
// MaxDistance).
package bullet
