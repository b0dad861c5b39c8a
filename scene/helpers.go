package scene

import (
	"fmt"
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"
)

// The one copy of three small helpers every layer needs: a node's display
// name, splitting a matrix into translation, rotation and scale, and
// rounding to significant digits.

// NodeName is node n's display name: its glTF name, or "node N" when it
// has none (or n is out of range).
func (d *Document) NodeName(n int) string {
	if n >= 0 && n < len(d.GLTF.Nodes) && d.GLTF.Nodes[n].Name != "" {
		return d.GLTF.Nodes[n].Name
	}
	return fmt.Sprintf("node %d", n)
}

// nodeRef names node n in a finding's message: its index and, when it has
// one, its name (node 13 "geom2"), which is what the Scene tree shows.
func (d *Document) nodeRef(n int) string {
	if n >= 0 && n < len(d.GLTF.Nodes) {
		return nodeLabel(d.GLTF.Nodes[n], n)
	}
	return fmt.Sprintf("node %d", n)
}

// DecomposeTRS splits an affine matrix without shear into translation,
// rotation (a unit quaternion x, y, z, w) and scale. A mirroring matrix
// gets a negative X scale; a zero or NaN scale becomes 1.
func DecomposeTRS(m mgl64.Mat4) Transform {
	t := [3]float64{m[12], m[13], m[14]}
	c0, c1, c2 := m.Col(0).Vec3(), m.Col(1).Vec3(), m.Col(2).Vec3()
	s := [3]float64{c0.Len(), c1.Len(), c2.Len()}
	if c0.Cross(c1).Dot(c2) < 0 {
		s[0] = -s[0]
	}
	for i := range s {
		if s[i] == 0 || math.IsNaN(s[i]) {
			s[i] = 1
		}
	}
	r := mgl64.Mat3FromCols(c0.Mul(1/s[0]), c1.Mul(1/s[1]), c2.Mul(1/s[2]))
	q := mgl64.Mat4ToQuat(r.Mat4()).Normalize()
	return Transform{Translation: t, Rotation: [4]float64{q.V[0], q.V[1], q.V[2], q.W}, Scale: s}
}

// RoundSig keeps digits significant digits of v (0, NaN and infinities as
// they are), rounding its exact decimal value: 2.1328173633587544 to 4
// digits is 2.133, and 2 - 0.974 to 12 digits is 1.026, not
// 1.0260000000000002. The result is the float64 nearest that decimal, so
// it is written back in its shortest form.
func RoundSig(v float64, digits int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) || digits <= 0 {
		return v
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', digits, 64), 64)
	if err != nil {
		return v
	}
	return r
}
