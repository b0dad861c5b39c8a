package scene

import (
	"maps"
	"slices"

	"github.com/qmuntal/gltf"
)

// Clone returns a copy of the document that can be changed without changing
// d: the physics model, the variants and the glTF nodes (names, transforms,
// children) are copied; meshes, accessors, buffers, images and materials,
// which nothing edits, are shared. A simulation plays on a clone so the
// model that is saved is never touched by playing.
func (d *Document) Clone() *Document {
	c := *d
	if d.GLTF != nil {
		doc := *d.GLTF
		doc.Nodes = make([]*gltf.Node, len(d.GLTF.Nodes))
		for i, n := range d.GLTF.Nodes {
			if n == nil {
				continue
			}
			nn := cloneGLTFNode(n)
			doc.Nodes[i] = &nn
		}
		c.GLTF = &doc
	}
	c.Shapes = slices.Clone(d.Shapes)
	c.PhysicsMaterials = slices.Clone(d.PhysicsMaterials)
	c.CollisionFilters = make([]CollisionFilter, len(d.CollisionFilters))
	for i, f := range d.CollisionFilters {
		c.CollisionFilters[i] = f.clone()
	}
	if d.CollisionFilters == nil {
		c.CollisionFilters = nil
	}
	if d.WorldGravity != nil {
		w := *d.WorldGravity
		c.WorldGravity = &w
	}
	c.Joints = make([]JointSettings, len(d.Joints))
	for i, j := range d.Joints {
		c.Joints[i] = j.clone()
	}
	if d.Joints == nil {
		c.Joints = nil
	}
	c.Variants = slices.Clone(d.Variants)
	c.Nodes = make([]NodeExtensions, len(d.Nodes))
	for i, ne := range d.Nodes {
		c.Nodes[i] = ne.clone()
	}
	c.Primitives = make(map[PrimitiveRef]*PrimitiveVariants, len(d.Primitives))
	for k, pv := range d.Primitives {
		c.Primitives[k] = pv.clone()
	}
	c.rootExtra = maps.Clone(d.rootExtra)
	c.loadFindings = slices.Clone(d.loadFindings)
	c.findings = slices.Clone(d.findings)
	c.omitted = slices.Clone(d.omitted)
	c.source.parent = slices.Clone(d.source.parent)
	c.saveWarnings = slices.Clone(d.saveWarnings)
	return &c
}

func cloneGLTFNode(n *gltf.Node) gltf.Node {
	nn := *n
	nn.Children = slices.Clone(n.Children)
	nn.Weights = slices.Clone(n.Weights)
	return nn
}

func (f CollisionFilter) clone() CollisionFilter {
	f.CollisionSystems = slices.Clone(f.CollisionSystems)
	f.CollideWithSystems = slices.Clone(f.CollideWithSystems)
	f.NotCollideWithSystems = slices.Clone(f.NotCollideWithSystems)
	return f
}

func (j JointSettings) clone() JointSettings {
	j.Limits = slices.Clone(j.Limits)
	for i := range j.Limits {
		j.Limits[i].LinearAxes = slices.Clone(j.Limits[i].LinearAxes)
		j.Limits[i].AngularAxes = slices.Clone(j.Limits[i].AngularAxes)
	}
	j.Drives = slices.Clone(j.Drives)
	for i := range j.Drives {
		j.Drives[i].PositionTarget = clonePtr(j.Drives[i].PositionTarget)
		j.Drives[i].VelocityTarget = clonePtr(j.Drives[i].VelocityTarget)
	}
	return j
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func (ne NodeExtensions) clone() NodeExtensions {
	if ne.Body != nil {
		ne.Body = ne.Body.clone()
	}
	if ne.Gravity != nil {
		gr := *ne.Gravity
		gr.Points = slices.Clone(gr.Points)
		ne.Gravity = &gr
	}
	ne.Joint = clonePtr(ne.Joint)
	return ne
}

func (b *Body) clone() *Body {
	c := *b
	c.Motion = clonePtr(b.Motion)
	c.Collider = clonePtr(b.Collider)
	if b.Trigger != nil {
		t := *b.Trigger
		t.Nodes = slices.Clone(b.Trigger.Nodes)
		if b.Trigger.Nodes != nil && t.Nodes == nil {
			t.Nodes = []int{}
		}
		c.Trigger = &t
	}
	return &c
}

func (pv *PrimitiveVariants) clone() *PrimitiveVariants {
	if pv == nil {
		return nil
	}
	c := *pv
	c.Mappings = slices.Clone(pv.Mappings)
	for i := range c.Mappings {
		c.Mappings[i].Variants = slices.Clone(pv.Mappings[i].Variants)
	}
	return &c
}

// Clone returns a copy of the settings whose limits and drives can be
// changed without changing j.
func (j JointSettings) Clone() JointSettings { return j.clone() }

// Clone returns a copy of the filter whose lists can be changed without
// changing f.
func (f CollisionFilter) Clone() CollisionFilter { return f.clone() }
