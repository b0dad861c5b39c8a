package anim

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
)

// TRS is a node's local transform as translation, rotation (x, y, z, w)
// and scale.
type TRS struct {
	T [3]float64
	R [4]float64
	S [3]float64
}

// Matrix returns T * R * S.
func (t TRS) Matrix() mgl64.Mat4 {
	q := mgl64.Quat{W: t.R[3], V: mgl64.Vec3{t.R[0], t.R[1], t.R[2]}}.Normalize()
	return mgl64.Translate3D(t.T[0], t.T[1], t.T[2]).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(t.S[0], t.S[1], t.S[2]))
}

// Pose is the scene at one instant: every node's local and world
// transform, morph weights, and the other animated properties.
type Pose struct {
	// Local is each node's local transform; Matrix[n] is set instead for
	// a node that has a matrix and is not animated.
	Local  []TRS
	Matrix []*mgl64.Mat4
	// World is each node's world transform.
	World []mgl64.Mat4
	// NodeWeights are node.weights (or animated weights), nil when unset.
	NodeWeights [][]float64
	// MeshWeights are mesh.weights (or animated through a pointer).
	MeshWeights [][]float64
	// Props holds the values of KHR_animation_pointer targets that are not
	// node transforms or weights (material factors, lights, cameras), by
	// pointer.
	Props map[string][]float64
}

// Rest returns the file's rest pose: node transforms, node and mesh
// weights as written.
func (m *Model) Rest() *Pose {
	doc := m.Doc.GLTF
	p := &Pose{
		Local:       make([]TRS, len(doc.Nodes)),
		Matrix:      make([]*mgl64.Mat4, len(doc.Nodes)),
		NodeWeights: make([][]float64, len(doc.Nodes)),
		MeshWeights: make([][]float64, len(doc.Meshes)),
		Props:       map[string][]float64{},
	}
	for i, n := range doc.Nodes {
		if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} {
			mm := mgl64.Mat4(n.Matrix)
			p.Matrix[i] = &mm
		}
		// n.Scale, not ScaleOrDefault: a written [0, 0, 0] is a scale of 0
		// (scene.Document.LocalMatrix).
		p.Local[i] = TRS{n.TranslationOrDefault(), n.RotationOrDefault(), n.Scale}
		if n.Weights != nil {
			p.NodeWeights[i] = append([]float64(nil), n.Weights...)
		}
	}
	for i, me := range doc.Meshes {
		w := make([]float64, targetCount(me))
		copy(w, me.Weights)
		p.MeshWeights[i] = w
	}
	p.updateWorld(m)
	return p
}

// Pose returns the pose of animation a at time t (clamped to the
// animation's range); a < 0 plays every animation at once. An index out of
// range gives the rest pose.
func (m *Model) Pose(a int, t float64) *Pose {
	p := m.Rest()
	m.Apply(p, a, t)
	return p
}

// Apply samples animation a (every animation for a < 0) at t into p and
// updates its world matrices.
func (m *Model) Apply(p *Pose, a int, t float64) {
	var buf []float64
	for i, an := range m.Animations {
		if a >= 0 && i != a {
			continue
		}
		tt := t
		if a >= 0 {
			tt = clamp(t, an.Start, an.End)
		}
		for _, ch := range an.Channels {
			s := ch.Sampler
			if cap(buf) < s.Width {
				buf = make([]float64, s.Width)
			}
			out := buf[:s.Width]
			s.Sample(tt, out)
			switch ch.Path {
			case PathTranslation:
				p.Matrix[ch.Node] = nil
				copy(p.Local[ch.Node].T[:], out)
			case PathRotation:
				p.Matrix[ch.Node] = nil
				copy(p.Local[ch.Node].R[:], out)
			case PathScale:
				p.Matrix[ch.Node] = nil
				copy(p.Local[ch.Node].S[:], out)
			case PathWeights:
				p.NodeWeights[ch.Node] = append(p.NodeWeights[ch.Node][:0], out...)
			case PathMeshWeights:
				p.MeshWeights[ch.Node] = append(p.MeshWeights[ch.Node][:0], out...)
			case PathProperty:
				p.Props[ch.Pointer] = append(p.Props[ch.Pointer][:0], out...)
			}
		}
	}
	p.updateWorld(m)
}

func clamp(t, lo, hi float64) float64 {
	if t < lo {
		return lo
	}
	if t > hi {
		return hi
	}
	return t
}

// Weights returns the morph weights node n's mesh is drawn with: the
// node's own (or animated) weights, else its mesh's; nil without targets.
func (p *Pose) Weights(m *Model, n int) []float64 {
	node := m.Doc.GLTF.Nodes[n]
	if node.Mesh == nil || *node.Mesh < 0 || *node.Mesh >= len(p.MeshWeights) {
		return nil
	}
	if w := p.NodeWeights[n]; w != nil {
		return w
	}
	return p.MeshWeights[*node.Mesh]
}

// updateWorld recomputes World from the local transforms.
func (p *Pose) updateWorld(m *Model) {
	d := m.Doc
	n := len(p.Local)
	if len(p.World) != n {
		p.World = make([]mgl64.Mat4, n)
	}
	done := make([]bool, n)
	var world func(i int, depth int) mgl64.Mat4
	world = func(i int, depth int) mgl64.Mat4 {
		if done[i] {
			return p.World[i]
		}
		local := p.Local[i].Matrix()
		if p.Matrix[i] != nil {
			local = *p.Matrix[i]
		}
		if par := d.Parent(i); par >= 0 && par < n && depth < n {
			local = world(par, depth+1).Mul4(local)
		}
		p.World[i], done[i] = local, true
		return local
	}
	for i := 0; i < n; i++ {
		world(i, 0)
	}
}

// targetCount is the number of morph targets of a mesh (its first
// primitive's; the specification asks all primitives to have as many).
func targetCount(me *gltf.Mesh) int {
	n := len(me.Weights)
	for _, pr := range me.Primitives {
		n = max(n, len(pr.Targets))
	}
	return n
}
