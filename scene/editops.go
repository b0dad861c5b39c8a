package scene

import (
	"fmt"
	"math"
)

// This file builds the edits the editor offers from the document as it is:
// each returns one Edit (often a Batch) that History.Do applies as one step.

// bodyOf returns a copy of node n's body, or an empty one.
func (d *Document) bodyOf(n int) *Body {
	if n >= 0 && n < len(d.Nodes) && d.Nodes[n].Body != nil {
		return d.Nodes[n].Body.clone()
	}
	return &Body{}
}

func emptyBody(b *Body) bool {
	return b.Motion == nil && b.Collider == nil && b.Trigger == nil && len(b.Extra) == 0
}

func orNil(b *Body) *Body {
	if emptyBody(b) {
		return nil
	}
	return b
}

// AddColliderEdit gives node n a collider of a new shape s (replacing any
// collider it has).
func (d *Document) AddColliderEdit(n int, s Shape) Edit {
	b := d.bodyOf(n)
	b.Collider = &Collider{Shape: len(d.Shapes), PhysicsMaterial: -1, CollisionFilter: -1}
	if old := d.bodyOf(n).Collider; old != nil {
		b.Collider.PhysicsMaterial, b.Collider.CollisionFilter, b.Collider.Extra = old.PhysicsMaterial, old.CollisionFilter, old.Extra
	}
	label := fmt.Sprintf("Add %s collider", s.Type)
	return Batch{Label: label, Edits: []Edit{AddShape{Shape: s, Label: label}, SetBody{Node: n, Body: b, Label: label}}}
}

// AddTriggerEdit gives node n a trigger of a new shape s.
func (d *Document) AddTriggerEdit(n int, s Shape) Edit {
	b := d.bodyOf(n)
	b.Trigger = &Trigger{Shape: len(d.Shapes), CollisionFilter: -1}
	label := fmt.Sprintf("Add %s trigger", s.Type)
	return Batch{Label: label, Edits: []Edit{AddShape{Shape: s, Label: label}, SetBody{Node: n, Body: b, Label: label}}}
}

// RemoveColliderEdit removes node n's collider, and its shape when nothing
// else uses it.
func (d *Document) RemoveColliderEdit(n int) Edit {
	b := d.bodyOf(n)
	if b.Collider == nil {
		return Batch{Label: "Remove collider"}
	}
	shape := b.Collider.Shape
	b.Collider = nil
	edits := []Edit{SetBody{Node: n, Body: orNil(b), Label: "Remove collider"}}
	if shape >= 0 && len(d.ShapeUsers(shape)) == 1 {
		edits = append(edits, RemoveShape{Index: shape, Label: "Remove collider"})
	}
	return Batch{Label: "Remove collider", Edits: edits}
}

// RemoveTriggerEdit removes node n's trigger, and its shape when nothing
// else uses it.
func (d *Document) RemoveTriggerEdit(n int) Edit {
	b := d.bodyOf(n)
	if b.Trigger == nil {
		return Batch{Label: "Remove trigger"}
	}
	shape := b.Trigger.Shape
	if b.Trigger.Nodes != nil {
		shape = -1
	}
	b.Trigger = nil
	edits := []Edit{SetBody{Node: n, Body: orNil(b), Label: "Remove trigger"}}
	if shape >= 0 && len(d.ShapeUsers(shape)) == 1 {
		edits = append(edits, RemoveShape{Index: shape, Label: "Remove trigger"})
	}
	return Batch{Label: "Remove trigger", Edits: edits}
}

// SetMotionEdit sets node n's motion (nil removes it), keeping its
// collider and trigger.
func (d *Document) SetMotionEdit(n int, m *Motion, label string) Edit {
	b := d.bodyOf(n)
	b.Motion = clonePtr(m)
	if label == "" {
		label = "Edit motion"
		if m == nil {
			label = "Remove motion"
		}
	}
	return SetBody{Node: n, Body: orNil(b), Label: label}
}

// SetColliderEdit sets node n's collider fields (material, filter, shape
// index) keeping the rest of its body.
func (d *Document) SetColliderEdit(n int, c Collider, label string) Edit {
	b := d.bodyOf(n)
	b.Collider = &c
	return SetBody{Node: n, Body: b, Label: labelOr(label, "Edit collider")}
}

// SetTriggerEdit sets node n's trigger fields keeping the rest of its body.
func (d *Document) SetTriggerEdit(n int, t Trigger, label string) Edit {
	b := d.bodyOf(n)
	b.Trigger = &t
	return SetBody{Node: n, Body: b, Label: labelOr(label, "Edit trigger")}
}

// AddGravityEdit gives node n a gravity field of type t. OMI puts fields on
// base triggers only, so a node without a trigger also gets a box trigger
// of the given size around it.
func (d *Document) AddGravityEdit(n int, t GravityType, size float64) Edit {
	g := DefaultGravity(t)
	label := fmt.Sprintf("Add %s gravity", t)
	var edits []Edit
	if b := d.bodyOf(n); b.Trigger == nil {
		s := DefaultShape(ShapeBox)
		if size > 0 && finite(size) {
			s.Size = [3]float64{size, size, size}
		}
		edits = append(edits, d.AddTriggerEdit(n, s))
	}
	edits = append(edits, SetGravity{Node: n, Gravity: &g, Label: label})
	return Batch{Label: label, Edits: edits}
}

// RemoveGravityEdit removes node n's gravity field (its trigger stays).
func (d *Document) RemoveGravityEdit(n int) Edit {
	return SetGravity{Node: n, Gravity: nil, Label: "Remove gravity"}
}

// AddJointEdit makes node n a joint connected to node other, with new joint
// settings that lock every axis (a fixed joint) for the user to loosen.
func (d *Document) AddJointEdit(n, other int) Edit {
	settings := JointSettings{Limits: []JointLimit{
		{LinearAxes: []int{0, 1, 2}, Min: 0, Max: 0, Stiffness: math.Inf(1)},
		{AngularAxes: []int{0, 1, 2}, Min: 0, Max: 0, Stiffness: math.Inf(1)},
	}}
	return Batch{Label: "Add joint", Edits: []Edit{
		AddJointSettings{Settings: settings},
		SetNodeJoint{Node: n, Joint: &NodeJoint{Joint: len(d.Joints), ConnectedNode: other}, Label: "Add joint"},
	}}
}

// RemoveJointEdit removes node n's joint, and its settings when no other
// joint uses them.
func (d *Document) RemoveJointEdit(n int) Edit {
	edits := []Edit{SetNodeJoint{Node: n, Joint: nil, Label: "Remove joint"}}
	if n >= 0 && n < len(d.Nodes) && d.Nodes[n].Joint != nil {
		j := d.Nodes[n].Joint.Joint
		if j >= 0 && j < len(d.Joints) && len(d.JointSettingsUsers(j)) == 1 {
			edits = append(edits, RemoveJointSettings{Index: j})
		}
	}
	return Batch{Label: "Remove joint", Edits: edits}
}

// MakeShapeUniqueEdit gives node n's collider (or trigger, when trigger is
// set) a copy of its shape, so editing it no longer changes the other nodes
// that shared it.
func (d *Document) MakeShapeUniqueEdit(n int, trigger bool) Edit {
	b := d.bodyOf(n)
	ref := (*int)(nil)
	if trigger && b.Trigger != nil {
		ref = &b.Trigger.Shape
	} else if !trigger && b.Collider != nil {
		ref = &b.Collider.Shape
	}
	if ref == nil || *ref < 0 || *ref >= len(d.Shapes) {
		return Batch{Label: "Make shape unique"}
	}
	s := d.Shapes[*ref]
	*ref = len(d.Shapes)
	return Batch{Label: "Make shape unique", Edits: []Edit{AddShape{Shape: s, Label: "Make shape unique"}, SetBody{Node: n, Body: b, Label: "Make shape unique"}}}
}

// RemovePhysicsMaterialEdit unassigns physics material i from every
// collider that uses it and removes it.
func (d *Document) RemovePhysicsMaterialEdit(i int) Edit {
	var edits []Edit
	for _, n := range d.PhysicsMaterialUsers(i) {
		b := d.bodyOf(n)
		b.Collider.PhysicsMaterial = -1
		edits = append(edits, SetBody{Node: n, Body: b})
	}
	return Batch{Label: fmt.Sprintf("Remove physics material %d", i), Edits: append(edits, RemovePhysicsMaterial{Index: i})}
}

// RemoveCollisionFilterEdit unassigns collision filter i from every
// collider and trigger that uses it and removes it.
func (d *Document) RemoveCollisionFilterEdit(i int) Edit {
	var edits []Edit
	for _, n := range d.CollisionFilterUsers(i) {
		b := d.bodyOf(n)
		if b.Collider != nil && b.Collider.CollisionFilter == i {
			b.Collider.CollisionFilter = -1
		}
		if b.Trigger != nil && b.Trigger.CollisionFilter == i {
			b.Trigger.CollisionFilter = -1
		}
		edits = append(edits, SetBody{Node: n, Body: b})
	}
	return Batch{Label: fmt.Sprintf("Remove collision filter %d", i), Edits: append(edits, RemoveCollisionFilter{Index: i})}
}

// DefaultPhysicsMaterial returns the OMI defaults: friction 0.6, no
// restitution, averaged.
func DefaultPhysicsMaterial() PhysicsMaterial {
	return PhysicsMaterial{StaticFriction: 0.6, DynamicFriction: 0.6, FrictionCombine: "average", RestitutionCombine: "average"}
}

// HalfExtents returns the half size of the shape's bounding box in its own
// space (convex and trimesh: 0, their mesh decides).
func (s Shape) HalfExtents() [3]float64 {
	if k := kindOf(s.Type); k.halfExtents != nil {
		return k.halfExtents(s)
	}
	return [3]float64{}
}

// WithType returns a shape of type t that keeps s's extent as well as the
// new type allows: a 1 x 2 x 1 box becomes a capsule 2 m tall of radius
// 0.5, a sphere of radius 1 becomes a 2 m cube. mesh is used by convex and
// trimesh (-1 keeps s's mesh).
func (s Shape) WithType(t ShapeType, mesh int) Shape {
	h := s.HalfExtents()
	out := DefaultShape(t)
	out.Name, out.Extra = s.Name, s.Extra
	if h == [3]float64{} {
		if mesh >= 0 {
			out.Mesh = mesh
		} else {
			out.Mesh = s.Mesh
		}
		return out
	}
	k := kindOf(t)
	if k.fromExtents != nil {
		k.fromExtents(&out, h)
	}
	if k.usesMesh {
		out.Mesh = s.Mesh
		if mesh >= 0 {
			out.Mesh = mesh
		}
	}
	return out
}

// FitColliderEdit gives node n a collider (or trigger) of type t fitted to
// its mesh (see FitShape). When the mesh's bounds are not centred on the
// node, the shape goes on a new child node at the bounds' centre, as
// Godot's create-collision actions place a child shape node. A capsule or
// cylinder lies along the mesh's longest extent: when that is X or Z (a
// fox, a log), the child node is also turned to put the shape's Y axis
// there.
func (d *Document) FitColliderEdit(n int, t ShapeType, trigger bool) (Edit, error) {
	if t == ShapeConvex {
		return d.FitConvexEdit(n, 0, trigger)
	}
	s, off, axis, err := d.fitShape(n, t, -1)
	if err != nil {
		return nil, err
	}
	add := d.AddColliderEdit
	kind := "collider"
	if trigger {
		add, kind = d.AddTriggerEdit, "trigger"
	}
	label := fmt.Sprintf("Fit %s %s to mesh", t, kind)
	if axis != 1 {
		label += " (along " + [3]string{"X", "Y", "Z"}[axis] + ")"
	}
	if axis == 1 && off.Len() <= 1e-9*math.Max(1, s.maxExtent()) {
		e := add(n, s)
		return Batch{Label: label, Edits: []Edit{e}}, nil
	}
	child := len(d.GLTF.Nodes)
	name := d.NodeName(n)
	// The child's collider is built against the document as it will be
	// once the child exists: same shapes, one more node.
	b := &Body{}
	sh := len(d.Shapes)
	if trigger {
		b.Trigger = &Trigger{Shape: sh, CollisionFilter: -1}
	} else {
		b.Collider = &Collider{Shape: sh, PhysicsMaterial: -1, CollisionFilter: -1}
	}
	return Batch{Label: label, Edits: []Edit{
		AddChildNode{Parent: n, NodeName: name + " " + kind, Transform: Transform{Translation: [3]float64(off), Rotation: axisRotation(axis), Scale: [3]float64{1, 1, 1}}},
		AddShape{Shape: s, Label: label},
		SetBody{Node: child, Body: b, Label: label},
	}}, nil
}

func (s Shape) maxExtent() float64 {
	h := s.HalfExtents()
	return 2 * math.Max(h[0], math.Max(h[1], h[2]))
}
