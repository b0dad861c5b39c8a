package g4mf

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The mapping between G4MF's 3D geometric algebra and glTF's vectors and
// quaternions (IMPLEMENTER-NOTES section 6, derived from godot-4d's
// Rotor4D::to_basis restricted to 3D): a rotor [s, xy, xz, yz] is the
// quaternion x = yz, y = -xz, z = xy, w = s, and a bivector [xy, xz, yz] is
// the vector [yz, -xz, xy]. A positive xy component turns +X towards +Y
// (about +Z, right-handed), xz turns +X towards +Z, yz turns +Y towards +Z.

// RotorToQuat returns the glTF quaternion (x, y, z, w) of a 3D rotor
// [s, xy, xz, yz], normalised; a zero rotor gives the identity.
func RotorToQuat(r [4]float64) [4]float64 {
	q := [4]float64{r[3], -r[2], r[1], r[0]}
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if n == 0 {
		return [4]float64{0, 0, 0, 1}
	}
	for i := range q {
		q[i] /= n
	}
	return q
}

// QuatToRotor returns the 3D rotor [s, xy, xz, yz] of a glTF quaternion.
func QuatToRotor(q [4]float64) [4]float64 {
	return [4]float64{q[3], q[2], -q[1], q[0]}
}

// BivectorToVector returns the axial vector (x, y, z) of a 3D bivector
// [xy, xz, yz]: an angular velocity in rad/s, say.
func BivectorToVector(b [3]float64) [3]float64 { return [3]float64{b[2], -b[1], b[0]} }

// VectorToBivector returns the bivector [xy, xz, yz] of an axial vector.
func VectorToBivector(v [3]float64) [3]float64 { return [3]float64{v[2], -v[1], v[0]} }

// InertiaFromBivector returns the principal moments (Ixx, Iyy, Izz) of an
// inertia given per rotation plane [Ixy, Ixz, Iyz]: turning in the XY plane
// is turning about Z, so Izz = Ixy. Moments carry no sign.
func InertiaFromBivector(b [3]float64) [3]float64 { return [3]float64{b[2], b[1], b[0]} }

// InertiaToBivector is the inverse of InertiaFromBivector.
func InertiaToBivector(i [3]float64) [3]float64 { return [3]float64{i[2], i[1], i[0]} }

// basisToTRS splits a column-major 3x3 basis into a rotation quaternion and
// per-axis scale; sheared reports a basis that is not a rotation times a
// scale (its columns not orthogonal).
func basisToTRS(b []float64) (rot [4]float64, scale [3]float64, sheared bool) {
	m := mgl64.Mat3{b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8]}
	cols := [3]mgl64.Vec3{m.Col(0), m.Col(1), m.Col(2)}
	for i := range cols {
		scale[i] = cols[i].Len()
	}
	for i := 0; i < 3; i++ {
		for k := i + 1; k < 3; k++ {
			if scale[i] > 0 && scale[k] > 0 && math.Abs(cols[i].Dot(cols[k]))/(scale[i]*scale[k]) > 1e-6 {
				sheared = true
			}
		}
	}
	if m.Det() < 0 {
		scale[0] = -scale[0]
	}
	var r mgl64.Mat3
	for i := 0; i < 3; i++ {
		if scale[i] != 0 {
			r.SetCol(i, cols[i].Mul(1/scale[i]))
		}
	}
	q := mgl64.Mat4ToQuat(r.Mat4()).Normalize()
	return [4]float64{q.V[0], q.V[1], q.V[2], q.W}, scale, sheared
}
