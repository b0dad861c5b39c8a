package scene

// refKind names a document-level array that nodes refer to by index.
type refKind int

const (
	refShape refKind = iota + 1
	refMaterial
	refFilter
	refJoint
)

func (k refKind) String() string {
	switch k {
	case refShape:
		return "shape"
	case refMaterial:
		return "physics material"
	case refFilter:
		return "collision filter"
	case refJoint:
		return "joint settings"
	}
	return "entry"
}

func (d *Document) refLen(k refKind) int {
	switch k {
	case refShape:
		return len(d.Shapes)
	case refMaterial:
		return len(d.PhysicsMaterials)
	case refFilter:
		return len(d.CollisionFilters)
	case refJoint:
		return len(d.Joints)
	}
	return 0
}

// eachRef calls f with a pointer to every reference of kind k in the node
// extensions, and the node that holds it.
func (d *Document) eachRef(k refKind, f func(node int, ref *int)) {
	for i := range d.Nodes {
		ne := &d.Nodes[i]
		b := ne.Body
		switch k {
		case refShape:
			if b != nil && b.Collider != nil {
				f(i, &b.Collider.Shape)
			}
			if b != nil && b.Trigger != nil && b.Trigger.Nodes == nil {
				f(i, &b.Trigger.Shape)
			}
			if ne.Gravity != nil && ne.Gravity.Type == GravityShaped {
				f(i, &ne.Gravity.Shape)
			}
		case refMaterial:
			if b != nil && b.Collider != nil {
				f(i, &b.Collider.PhysicsMaterial)
			}
		case refFilter:
			if b != nil && b.Collider != nil {
				f(i, &b.Collider.CollisionFilter)
			}
			if b != nil && b.Trigger != nil {
				f(i, &b.Trigger.CollisionFilter)
			}
		case refJoint:
			if ne.Joint != nil {
				f(i, &ne.Joint.Joint)
			}
		}
	}
}

// refUsers lists the nodes that refer to entry i of kind k.
func (d *Document) refUsers(k refKind, i int) []int {
	var out []int
	d.eachRef(k, func(n int, r *int) {
		if *r == i && (len(out) == 0 || out[len(out)-1] != n) {
			out = append(out, n)
		}
	})
	return out
}

// remapRefs rewrites every reference of kind k through f.
func (d *Document) remapRefs(k refKind, f func(int) int) {
	d.eachRef(k, func(_ int, r *int) {
		if *r >= 0 {
			*r = f(*r)
		}
	})
}

// ShapeUsers lists the nodes whose collider, trigger or shaped gravity field
// uses shape i. More than one means an edit of the shape changes them all.
func (d *Document) ShapeUsers(i int) []int { return d.refUsers(refShape, i) }

// PhysicsMaterialUsers lists the nodes whose collider uses physics material i.
func (d *Document) PhysicsMaterialUsers(i int) []int { return d.refUsers(refMaterial, i) }

// CollisionFilterUsers lists the nodes whose collider or trigger uses filter i.
func (d *Document) CollisionFilterUsers(i int) []int { return d.refUsers(refFilter, i) }

// JointSettingsUsers lists the joint nodes that use joint settings i.
func (d *Document) JointSettingsUsers(i int) []int { return d.refUsers(refJoint, i) }
