package scene

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
)

// LocalMatrix returns node n's transform relative to its parent: its matrix
// if it has one, otherwise translation * rotation * scale.
func (d *Document) LocalMatrix(n int) mgl64.Mat4 {
	node := d.GLTF.Nodes[n]
	if node.Matrix != gltf.DefaultMatrix && node.Matrix != [16]float64{} {
		return mgl64.Mat4(node.Matrix) // glTF matrices are column-major, as mgl64
	}
	t := node.TranslationOrDefault()
	r := node.RotationOrDefault()
	// Not ScaleOrDefault, which reads [0, 0, 0] as the default [1, 1, 1]:
	// decoding gives an absent scale [1, 1, 1], so a zero here was written
	// (an object collapsed, which KHR_physics_rigid_bodies reads as its
	// shapes disabled), and was drawn and played at full size.
	s := node.Scale
	q := mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}.Normalize()
	return mgl64.Translate3D(t[0], t[1], t[2]).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(s[0], s[1], s[2]))
}

// WorldMatrix returns node n's transform in world space.
func (d *Document) WorldMatrix(n int) mgl64.Mat4 {
	m := d.LocalMatrix(n)
	d.Ancestors(n, func(a int) bool {
		m = d.LocalMatrix(a).Mul4(m)
		return true
	})
	return m
}

// WorldMatrices returns every node's world transform, computed once each.
func (d *Document) WorldMatrices() []mgl64.Mat4 {
	out := make([]mgl64.Mat4, len(d.GLTF.Nodes))
	done := make([]bool, len(out))
	var world func(int) mgl64.Mat4
	world = func(n int) mgl64.Mat4 {
		if done[n] {
			return out[n]
		}
		m := d.LocalMatrix(n)
		if p := d.Parent(n); p >= 0 {
			m = world(p).Mul4(m)
		}
		out[n], done[n] = m, true
		return m
	}
	for i := range out {
		world(i)
	}
	return out
}

// SceneNodes returns the nodes of the scene to show (ShownScene: the one
// chosen, else the document's default scene, else scene 0), else every
// root node. Each node is listed with its descendants, parents first.
func (d *Document) SceneNodes() []int {
	var roots []int
	switch s := d.ShownScene(); {
	case s >= 0:
		roots = d.GLTF.Scenes[s].Nodes
	default:
		for i := range d.GLTF.Nodes {
			if d.Parent(i) < 0 {
				roots = append(roots, i)
			}
		}
	}
	var out []int
	seen := make([]bool, len(d.GLTF.Nodes))
	var walk func(int)
	walk = func(n int) {
		if n < 0 || n >= len(seen) || seen[n] {
			return
		}
		seen[n] = true
		out = append(out, n)
		for _, c := range d.Children(n) {
			walk(c)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return out
}
