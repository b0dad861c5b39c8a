package scene

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
)

// Validate checks the model against the specifications and replaces the
// document's findings with the load findings plus what it finds now. Call it
// after edits.
func (d *Document) Validate() []Finding {
	var fs findings
	// Per-node answers that walk up the tree, computed once for the
	// pass: asked per body, they made nested bodies quadratic.
	d.vcache = &validationCache{}
	defer func() { d.vcache = nil }()
	d.validateRegistered(&fs) // registered codecs (extensions.go)
	if d.mapFinding != nil {
		kept := fs[:0]
		for _, f := range fs {
			if f, ok := d.mapFinding(f); ok {
				kept = append(kept, f)
			}
		}
		fs = kept
	}
	all := append(append([]Finding(nil), d.loadFindings...), fs...)
	all = d.alignRegistered(all)
	sortFindings(all)
	d.findings, d.omitted = boundFindings(all, d.loadOmitted)
	return d.findings
}

// isDescendant reports whether c is a strict descendant of n.
func (d *Document) isDescendant(c, n int) bool {
	found := false
	d.Ancestors(c, func(a int) bool {
		found = a == n
		return !found
	})
	return found
}

// bodyNode returns the node whose motion moves node n (n itself or the
// nearest ancestor with motion), or -1 if none.
func (d *Document) bodyNode(n int) int {
	if b := d.Nodes[n].Body; b != nil && b.Motion != nil {
		return n
	}
	found := -1
	d.Ancestors(n, func(a int) bool {
		if b := d.Nodes[a].Body; b != nil && b.Motion != nil {
			found = a
			return false
		}
		return true
	})
	return found
}

// bodyMotion returns the motion type that moves node n: 0 when no motion
// node is above it (a static collider).
func (d *Document) bodyMotion(n int) MotionType {
	if b := d.bodyNode(n); b >= 0 {
		return d.Nodes[b].Body.Motion.Type
	}
	return 0
}

// BodyNode returns the node whose motion moves node n, or -1 for none.
func (d *Document) BodyNode(n int) int {
	if n < 0 || n >= len(d.Nodes) {
		return -1
	}
	return d.bodyNode(n)
}

// nonUniformScale returns the first node at or above n with a non-uniform scale.
func (d *Document) nonUniformScale(n int) (int, bool) {
	check := func(i int) bool {
		node := d.GLTF.Nodes[i]
		s := node.ScaleOrDefault()
		if node.Matrix != gltf.DefaultMatrix && node.Matrix != [16]float64{} {
			m := node.Matrix
			s = [3]float64{
				math.Sqrt(m[0]*m[0] + m[1]*m[1] + m[2]*m[2]),
				math.Sqrt(m[4]*m[4] + m[5]*m[5] + m[6]*m[6]),
				math.Sqrt(m[8]*m[8] + m[9]*m[9] + m[10]*m[10]),
			}
		}
		return !nearlyEqual(math.Abs(s[0]), math.Abs(s[1])) || !nearlyEqual(math.Abs(s[1]), math.Abs(s[2]))
	}
	if c := d.vcache; c != nil {
		if c.nonUniform == nil {
			c.nonUniform = make([]int, len(d.GLTF.Nodes))
			for _, i := range c.parentsFirst(d) {
				c.nonUniform[i] = -1
				if check(i) {
					c.nonUniform[i] = i
				} else if p := d.Parent(i); p >= 0 {
					c.nonUniform[i] = c.nonUniform[p]
				}
			}
		}
		if n >= 0 && n < len(c.nonUniform) {
			return c.nonUniform[n], c.nonUniform[n] >= 0
		}
	}
	if check(n) {
		return n, true
	}
	found := -1
	d.Ancestors(n, func(a int) bool {
		if check(a) {
			found = a
			return false
		}
		return true
	})
	return found, found >= 0
}

func nearlyEqual(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// meshVertexCount sums the POSITION counts of a mesh's primitives.
func (d *Document) meshVertexCount(mesh int) int {
	total := 0
	for _, p := range d.GLTF.Meshes[mesh].Primitives {
		if a, ok := p.Attributes[gltf.POSITION]; ok && a < len(d.GLTF.Accessors) {
			total += int(d.GLTF.Accessors[a].Count)
		}
	}
	return total
}

// ExtensionsUsed returns the owned extension names the model uses now, in
// the physics dialect it is saved in, sorted: what a save lists in
// extensionsUsed besides the names the model does not own.
func (d *Document) ExtensionsUsed() []string {
	return d.usedRegistered(nil)
}

// SetFindingMap makes Validate pass each finding of its checks through m,
// and validates again: an importer of another format maps the model's
// glTF paths to its file's own and drops notes that concern glTF files
// only (m returns false). The importer's own findings are not mapped.
func (d *Document) SetFindingMap(m func(Finding) (Finding, bool)) {
	d.mapFinding = m
	d.Validate()
}

// AddFindings adds findings an importer made (for example about parts of
// another format the model cannot hold) and validates again.
func (d *Document) AddFindings(fs []Finding) {
	d.loadFindings = append(d.loadFindings, fs...)
	d.Validate()
}

// validationCache holds what Validate asks of many nodes and would
// otherwise recompute by walking up the tree each time.
type validationCache struct {
	order      []int // every node, each after its parent
	worlds     []mgl64.Mat4
	nonUniform []int // nearest node at or above with a non-uniform scale, -1 none
}

// parentsFirst returns every node, each after its parent, without
// recursion (a chain of a million nodes).
func (c *validationCache) parentsFirst(d *Document) []int {
	if c.order != nil {
		return c.order
	}
	n := len(d.GLTF.Nodes)
	kids := make([][]int, n)
	c.order = make([]int, 0, n)
	for i := range n {
		if p := d.Parent(i); p >= 0 {
			kids[p] = append(kids[p], i)
		} else {
			c.order = append(c.order, i)
		}
	}
	for k := 0; k < len(c.order); k++ {
		c.order = append(c.order, kids[c.order[k]]...)
	}
	return c.order
}

// world returns node n's world matrix, from the pass's cache when there is
// one (c nil: computed alone).
func (c *validationCache) world(d *Document, n int) mgl64.Mat4 {
	if c == nil || n < 0 || n >= len(d.GLTF.Nodes) {
		return d.WorldMatrix(n)
	}
	if c.worlds == nil {
		c.worlds = make([]mgl64.Mat4, len(d.GLTF.Nodes))
		for _, i := range c.parentsFirst(d) {
			c.worlds[i] = d.LocalMatrix(i)
			if p := d.Parent(i); p >= 0 {
				c.worlds[i] = c.worlds[p].Mul4(c.worlds[i])
			}
		}
	}
	return c.worlds[n]
}
