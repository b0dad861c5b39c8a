package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Vertices calls fn with the world position of every drawn vertex of
// primitive prim of node n's mesh in pose p: morph targets weighted, then
// skinned (or placed by the node's world matrix), once per instance. A
// vertex is drawn when an index refers to it (every vertex when the
// primitive is not indexed).
func (m *Model) Vertices(p *Pose, n, prim int, fn func(mgl64.Vec3)) {
	node := m.Doc.GLTF.Nodes[n]
	if node.Mesh == nil {
		return
	}
	df := m.Deform(*node.Mesh, prim)
	if df == nil {
		return
	}
	used := make([]bool, len(df.Positions))
	if df.Indices == nil {
		for i := range used {
			used[i] = true
		}
	} else {
		for _, i := range df.Indices {
			used[i] = true
		}
	}
	weights := p.Weights(m, n)
	skin := -1
	if df.Skinned() {
		skin = m.SkinOf(n)
	}
	var joints []mgl64.Mat4
	if skin >= 0 {
		joints = m.JointMatrices(p, skin, nil)
	}
	inst := m.Instances(n)
	for v, ok := range used {
		if !ok {
			continue
		}
		pos := MorphPosition(df, v, weights)
		var w mgl64.Vec3
		if joints != nil {
			w = SkinPoint(df, v, joints, pos)
		} else {
			w = p.World[n].Mul4x1(pos.Vec4(1)).Vec3()
		}
		if inst == nil || joints != nil {
			fn(w)
			continue
		}
		for _, im := range inst {
			fn(p.World[n].Mul4(im).Mul4x1(pos.Vec4(1)).Vec3())
		}
	}
}

// MorphPosition returns vertex v's bind position plus its morph targets'
// position deltas times weights.
func MorphPosition(df *Deform, v int, weights []float64) mgl64.Vec3 {
	b := df.Positions[v]
	pos := mgl64.Vec3{float64(b[0]), float64(b[1]), float64(b[2])}
	for t, tg := range df.Targets {
		if t >= len(weights) || weights[t] == 0 || tg.Position == nil {
			continue
		}
		d := tg.Position[v]
		pos = pos.Add(mgl64.Vec3{float64(d[0]), float64(d[1]), float64(d[2])}.Mul(weights[t]))
	}
	return pos
}

// SkinPoint returns sum(weight * joint matrix) * pos for vertex v.
// Influences naming a joint past the skin's are ignored.
func SkinPoint(df *Deform, v int, joints []mgl64.Mat4, pos mgl64.Vec3) mgl64.Vec3 {
	var m mgl64.Mat4
	for set := 0; set < 2; set++ {
		if df.Joints[set] == nil || df.Weights[set] == nil {
			continue
		}
		for k := 0; k < 4; k++ {
			w := float64(df.Weights[set][v][k])
			j := int(df.Joints[set][v][k])
			if w == 0 || j >= len(joints) {
				continue
			}
			for e := range m {
				m[e] += w * joints[j][e]
			}
		}
	}
	return m.Mul4x1(pos.Vec4(1)).Vec3()
}

// Bounds returns the world axis-aligned box of every vertex drawn in the
// document's shown scene in pose p; ok is false when nothing is drawn.
func (m *Model) Bounds(p *Pose) (lo, hi mgl64.Vec3, ok bool) {
	inf := math.Inf(1)
	lo, hi = mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
	doc := m.Doc.GLTF
	for _, n := range m.Doc.SceneNodes() {
		node := doc.Nodes[n]
		if node.Mesh == nil || *node.Mesh < 0 || *node.Mesh >= len(doc.Meshes) {
			continue
		}
		// Primitives of one node whose accessors read the same values
		// (aliases of one view) place the same vertices: bound once.
		seen := map[*deformEntry]bool{}
		for prim := range doc.Meshes[*node.Mesh].Primitives {
			if df := m.Deform(*node.Mesh, prim); df != nil && df.shared != nil {
				if seen[df.shared] {
					continue
				}
				seen[df.shared] = true
			}
			widen := func(w mgl64.Vec3) {
				ok = true
				for k := 0; k < 3; k++ {
					lo[k] = math.Min(lo[k], w[k])
					hi[k] = math.Max(hi[k], w[k])
				}
			}
			if !m.boxBounds(p, n, prim, widen) {
				m.Vertices(p, n, prim, widen)
			}
		}
	}
	return lo, hi, ok
}

// boxBounds calls fn with the two opposite corners, in world space, of
// the box of primitive prim of node n's drawn vertices, once per instance,
// and reports whether it did. It does so only when that gives the very
// box every vertex gives: the primitive is neither skinned nor morphed in
// pose p, and each matrix placing it (the node's, times each
// EXT_mesh_gpu_instancing transform) is axis-aligned (no rotation other
// than quarter turns). 10,000 nodes of a 100,000-vertex mesh are then
// 10,000 boxes, not 10^9 vertices; a turned node still has its vertices
// visited.
func (m *Model) boxBounds(p *Pose, n, prim int, fn func(mgl64.Vec3)) bool {
	node := m.Doc.GLTF.Nodes[n]
	if node.Mesh == nil || n < 0 || n >= len(p.World) {
		return false
	}
	df := m.Deform(*node.Mesh, prim)
	if df == nil || (df.Skinned() && m.SkinOf(n) >= 0) {
		return false
	}
	for t, w := range p.Weights(m, n) {
		if w != 0 && t < len(df.Targets) && df.Targets[t].Position != nil {
			return false
		}
	}
	mats := []mgl64.Mat4{p.World[n]}
	if inst := m.Instances(n); inst != nil {
		mats = make([]mgl64.Mat4, len(inst))
		for i, im := range inst {
			mats[i] = p.World[n].Mul4(im)
		}
	}
	for _, w := range mats {
		if !axisAligned(w) {
			return false
		}
	}
	box, drawn := m.drawnBox(*node.Mesh, prim, df)
	if !drawn {
		return true // no vertex is drawn
	}
	for _, w := range mats {
		fn(w.Mul4x1(box[0].Vec4(1)).Vec3())
		fn(w.Mul4x1(box[1].Vec4(1)).Vec3())
	}
	return true
}

// axisAligned reports whether m's upper 3x3 has at most one non-zero entry
// in each column and each row: it maps a box's corners onto the corners
// of the image's box.
func axisAligned(m mgl64.Mat4) bool {
	var rows [3]int
	for c := 0; c < 3; c++ {
		nz := 0
		for r := 0; r < 3; r++ {
			if m[c*4+r] != 0 {
				nz++
				rows[r]++
			}
		}
		if nz > 1 {
			return false
		}
	}
	return rows[0] <= 1 && rows[1] <= 1 && rows[2] <= 1
}

// drawnBox returns the box of primitive (me, p)'s drawn vertices (those an
// index refers to, or all), computed once; drawn is false when there are
// none.
func (m *Model) drawnBox(me, p int, df *Deform) (box [2]mgl64.Vec3, drawn bool) {
	key := [2]int{me, p}
	if b, ok := m.boxes[key]; ok {
		return b.box, b.drawn
	}
	inf := math.Inf(1)
	box = [2]mgl64.Vec3{{inf, inf, inf}, {-inf, -inf, -inf}}
	add := func(v [3]float32) {
		drawn = true
		for k := 0; k < 3; k++ {
			box[0][k] = math.Min(box[0][k], float64(v[k]))
			box[1][k] = math.Max(box[1][k], float64(v[k]))
		}
	}
	if df.Indices == nil {
		for _, v := range df.Positions {
			add(v)
		}
	} else {
		for _, i := range df.Indices {
			if int(i) < len(df.Positions) {
				add(df.Positions[i])
			}
		}
	}
	if m.boxes == nil {
		m.boxes = map[[2]int]drawnBox{}
	}
	m.boxes[key] = drawnBox{box, drawn}
	return box, drawn
}

// drawnBox is a primitive's box of drawn vertices (Model.drawnBox).
type drawnBox struct {
	box   [2]mgl64.Vec3
	drawn bool
}
