package scene

import (
	"fmt"
	"math"
	"slices"

	"github.com/qmuntal/gltf"
)

// maxHullPoints is where Godot starts warning about convex hulls.
const maxHullPoints = 255

// Validate checks the model against the specifications and replaces the
// document's findings with the load findings plus what it finds now. Call it
// after edits.
func (d *Document) Validate() []Finding {
	var fs findings
	doc := d.GLTF
	meshCount := len(doc.Meshes)

	for i, s := range d.Shapes {
		if s.Type != 0 {
			s.validate(fmt.Sprintf("/extensions/%s/shapes/%d", ExtShape, i), &fs, meshCount)
		}
	}
	for i, m := range d.PhysicsMaterials {
		m.validate(fmt.Sprintf("/extensions/%s/physicsMaterials/%d", ExtBody, i), &fs)
	}
	for i, c := range d.CollisionFilters {
		if c.CollideWithSystems != nil && c.NotCollideWithSystems != nil {
			fs.errorf(fmt.Sprintf("/extensions/%s/collisionFilters/%d", ExtBody, i), "collideWithSystems and notCollideWithSystems are mutually exclusive")
		}
	}

	for i, ne := range d.Nodes {
		base := fmt.Sprintf("/nodes/%d/extensions/", i)
		if b := ne.Body; b != nil {
			d.validateBody(i, b, base+ExtBody, &fs)
		}
	}

	d.validateRegistered(&fs) // registered codecs (extensions.go)

	all := append(append([]Finding(nil), d.loadFindings...), fs...)
	sortFindings(all)
	d.findings = all
	return all
}

func (d *Document) validateBody(n int, b *Body, path string, fs *findings) {
	checkShape := func(p string, s int, what string) {
		if s < -1 || s >= len(d.Shapes) {
			fs.errorf(p, "%s shape %d does not exist (the file has %d shapes)", what, s, len(d.Shapes))
			return
		}
		if s < 0 {
			return
		}
		shape := d.Shapes[s]
		if sx, ok := d.nonUniformScale(n); ok {
			fs.warnf(fmt.Sprintf("/nodes/%d", sx), "non-uniform scale on node %d affects the %s shape on node %d; physics engines may not scale it the same way (edit the shape instead)", sx, what, n)
		}
		if shape.Type == ShapeConvex && shape.Mesh >= 0 && shape.Mesh < len(d.GLTF.Meshes) {
			if pts := d.meshVertexCount(shape.Mesh); pts > maxHullPoints {
				fs.warnf(p, "convex shape %d uses a mesh with %d vertices; many engines limit hulls to %d points", s, pts, maxHullPoints)
			}
		}
		if shape.Type == ShapeTrimesh && what == "collider" && d.bodyMotion(n) == MotionDynamic {
			fs.warnf(p, "trimesh shape %d on a dynamic body: most engines only support trimeshes on static or kinematic bodies", s)
		}
	}
	if m := b.Motion; m != nil {
		if m.Mass < 0 {
			fs.errorf(path+"/motion/mass", "mass %g must not be negative", m.Mass)
		}
		for i, v := range m.InertiaDiagonal {
			if v < 0 {
				fs.errorf(path+"/motion/inertiaDiagonal", "inertiaDiagonal[%d] = %g must not be negative", i, v)
			}
		}
		q := m.InertiaOrientation
		if l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]); math.Abs(l-1) > 1e-3 {
			fs.errorf(path+"/motion/inertiaOrientation", "inertiaOrientation must be a unit quaternion (length %g)", l)
		}
	}
	if c := b.Collider; c != nil {
		checkShape(path+"/collider/shape", c.Shape, "collider")
		if c.PhysicsMaterial < -1 || c.PhysicsMaterial >= len(d.PhysicsMaterials) {
			fs.errorf(path+"/collider/physicsMaterial", "physics material %d does not exist (the file has %d)", c.PhysicsMaterial, len(d.PhysicsMaterials))
		}
		if c.CollisionFilter < -1 || c.CollisionFilter >= len(d.CollisionFilters) {
			fs.errorf(path+"/collider/collisionFilter", "collision filter %d does not exist (the file has %d)", c.CollisionFilter, len(d.CollisionFilters))
		}
	}
	if t := b.Trigger; t != nil {
		if t.Nodes == nil {
			checkShape(path+"/trigger/shape", t.Shape, "trigger")
			if t.Shape < 0 {
				fs.errorf(path+"/trigger", "trigger has neither a shape nor nodes")
			}
		}
		if t.CollisionFilter < -1 || t.CollisionFilter >= len(d.CollisionFilters) {
			fs.errorf(path+"/trigger/collisionFilter", "collision filter %d does not exist (the file has %d)", t.CollisionFilter, len(d.CollisionFilters))
		}
		for k, c := range t.Nodes {
			p := fmt.Sprintf("%s/trigger/nodes/%d", path, k)
			switch {
			case c < 0 || c >= len(d.Nodes):
				fs.errorf(p, "node %d does not exist (the file has %d nodes)", c, len(d.Nodes))
			case !d.isDescendant(c, n):
				fs.errorf(p, "node %d is not a descendant of the compound trigger node %d", c, n)
			case d.Nodes[c].Body == nil || d.Nodes[c].Body.Trigger == nil:
				fs.errorf(p, "node %d has no trigger of its own", c)
			}
		}
	}
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

// ExtensionsUsed returns the owned extension names the model uses now.
func (d *Document) ExtensionsUsed() []string {
	var used []string
	hasBody := len(d.PhysicsMaterials) > 0 || len(d.CollisionFilters) > 0
	for _, ne := range d.Nodes {
		hasBody = hasBody || ne.Body != nil
	}
	if hasBody {
		used = append(used, ExtBody)
	}
	if len(d.Shapes) > 0 {
		used = append(used, ExtShape)
	}
	slices.Sort(used)
	return used
}

// AddFindings adds findings an importer made (for example about parts of
// another format the model cannot hold) and validates again.
func (d *Document) AddFindings(fs []Finding) {
	d.loadFindings = append(d.loadFindings, fs...)
	d.Validate()
}
