package scene

import (
	"fmt"
	"math"
	"slices"

	"github.com/qmuntal/gltf"
)

// SetShape replaces shape Index with Shape: parameters, type or mesh.
type SetShape struct {
	Index int
	Shape Shape
	// Label names the edit in the Edit menu; empty gives "Edit shape N".
	Label string
}

// Name says what the edit does.
func (e SetShape) Name() string { return labelOr(e.Label, "Edit shape %d", e.Index) }

func (e SetShape) mergeKey() string { return fmt.Sprintf("shape %d %s", e.Index, e.Label) }

func (e SetShape) check(d *Document) error {
	if e.Index < 0 || e.Index >= len(d.Shapes) {
		return fmt.Errorf("shape %d does not exist (the file has %d)", e.Index, len(d.Shapes))
	}
	return e.Shape.Check(len(d.GLTF.Meshes))
}

func (e SetShape) apply(d *Document) (Edit, Change, error) {
	if e.Index < 0 || e.Index >= len(d.Shapes) {
		return nil, Change{}, fmt.Errorf("shape %d does not exist", e.Index)
	}
	old := d.Shapes[e.Index]
	d.Shapes[e.Index] = e.Shape
	return SetShape{Index: e.Index, Shape: old, Label: e.Label}, Change{Shapes: []int{e.Index}}, nil
}

// Check reports the first parameter that is out of range for the shape's
// type: sizes and radii must be finite and positive (a capsule's mid height
// may be 0, one radius of a tapered shape may be 0), a convex or trimesh
// shape needs a mesh among meshCount.
func (s Shape) Check(meshCount int) error {
	k, ok := shapeKinds[s.Type]
	switch {
	case !ok:
		return fmt.Errorf("unknown shape type")
	case k.check != nil:
		return k.check(s, meshCount)
	}
	// The kinds without a check of their own check themselves as
	// validation does.
	return checkByValidate(s, meshCount)
}

// AddShape appends Shape to the document's shapes.
type AddShape struct {
	Shape Shape
	Label string
}

// Name says what the edit does.
func (e AddShape) Name() string { return labelOr(e.Label, "Add %s shape", e.Shape.Type) }

func (e AddShape) check(d *Document) error { return e.Shape.Check(len(d.GLTF.Meshes)) }

func (e AddShape) apply(d *Document) (Edit, Change, error) {
	d.Shapes = append(d.Shapes, e.Shape)
	i := len(d.Shapes) - 1
	return RemoveShape{Index: i, Label: e.Name()}, Change{Shapes: []int{i}}, nil
}

// RemoveShape deletes shape Index; references to later shapes move down.
// A shape still in use cannot be removed.
type RemoveShape struct {
	Index int
	Label string
}

// Name says what the edit does.
func (e RemoveShape) Name() string { return labelOr(e.Label, "Remove shape %d", e.Index) }

func (e RemoveShape) apply(d *Document) (Edit, Change, error) {
	if e.Index < 0 || e.Index >= len(d.Shapes) {
		return nil, Change{}, fmt.Errorf("shape %d does not exist", e.Index)
	}
	if users := d.refUsers(refShape, e.Index); len(users) > 0 {
		return nil, Change{}, fmt.Errorf("shape %d is used by node %d", e.Index, users[0])
	}
	old := d.Shapes[e.Index]
	d.Shapes = slices.Delete(d.Shapes, e.Index, e.Index+1)
	d.remapRefs(refShape, func(r int) int { return shiftDown(r, e.Index) })
	return insertShape{index: e.Index, shape: old, label: e.Name()}, Change{Structure: true}, nil
}

type insertShape struct {
	index int
	shape Shape
	label string
}

func (e insertShape) Name() string { return e.label }

func (e insertShape) apply(d *Document) (Edit, Change, error) {
	if e.index < 0 || e.index > len(d.Shapes) {
		return nil, Change{}, fmt.Errorf("shape %d cannot be inserted", e.index)
	}
	d.remapRefs(refShape, func(r int) int { return shiftUp(r, e.index) })
	d.Shapes = slices.Insert(d.Shapes, e.index, e.shape)
	return RemoveShape{Index: e.index, Label: e.label}, Change{Structure: true}, nil
}

// SetBody replaces node Node's OMI_physics_body (motion, collider,
// trigger); nil removes it.
type SetBody struct {
	Node  int
	Body  *Body
	Label string
}

// Name says what the edit does.
func (e SetBody) Name() string { return labelOr(e.Label, "Edit body of node %d", e.Node) }

func (e SetBody) mergeKey() string { return fmt.Sprintf("body %d %s", e.Node, e.Label) }

func (e SetBody) check(d *Document) error {
	if err := d.checkNode(e.Node); err != nil {
		return err
	}
	b := e.Body
	if b == nil {
		return nil
	}
	if m := b.Motion; m != nil {
		if m.Type < MotionStatic || m.Type > MotionDynamic {
			return fmt.Errorf("unknown motion type")
		}
		if !finite(m.Mass) || m.Mass < 0 {
			return fmt.Errorf("mass must be a finite number, 0 or more (got %g)", m.Mass)
		}
		if !finite(m.GravityFactor) {
			return fmt.Errorf("gravity factor must be a finite number")
		}
		for _, v := range [][3]float64{m.CenterOfMass, m.LinearVelocity, m.AngularVelocity} {
			if !finite(v[0]) || !finite(v[1]) || !finite(v[2]) {
				return fmt.Errorf("motion vectors must be finite numbers")
			}
		}
		for _, v := range m.InertiaDiagonal {
			if !finite(v) || v < 0 {
				return fmt.Errorf("inertia must be finite and not negative (got %g)", v)
			}
		}
	}
	if c := b.Collider; c != nil {
		if c.Shape < -1 || c.Shape >= len(d.Shapes) {
			return fmt.Errorf("shape %d does not exist", c.Shape)
		}
		if c.PhysicsMaterial < -1 || c.PhysicsMaterial >= len(d.PhysicsMaterials) {
			return fmt.Errorf("physics material %d does not exist", c.PhysicsMaterial)
		}
		if c.CollisionFilter < -1 || c.CollisionFilter >= len(d.CollisionFilters) {
			return fmt.Errorf("collision filter %d does not exist", c.CollisionFilter)
		}
	}
	if t := b.Trigger; t != nil {
		if t.Shape < -1 || t.Shape >= len(d.Shapes) {
			return fmt.Errorf("shape %d does not exist", t.Shape)
		}
		if t.CollisionFilter < -1 || t.CollisionFilter >= len(d.CollisionFilters) {
			return fmt.Errorf("collision filter %d does not exist", t.CollisionFilter)
		}
	}
	return nil
}

func (e SetBody) apply(d *Document) (Edit, Change, error) {
	if err := d.checkNode(e.Node); err != nil {
		return nil, Change{}, err
	}
	old := d.Nodes[e.Node].Body
	var b *Body
	if e.Body != nil {
		b = e.Body.clone()
	}
	d.Nodes[e.Node].Body = b
	return SetBody{Node: e.Node, Body: old, Label: e.Label}, Change{Nodes: []int{e.Node}}, nil
}

// SetGravity replaces node Node's gravity field; nil removes it.
type SetGravity struct {
	Node    int
	Gravity *Gravity
	Label   string
}

// Name says what the edit does.
func (e SetGravity) Name() string { return labelOr(e.Label, "Edit gravity of node %d", e.Node) }

func (e SetGravity) mergeKey() string { return fmt.Sprintf("gravity %d %s", e.Node, e.Label) }

func (e SetGravity) check(d *Document) error {
	if err := d.checkNode(e.Node); err != nil {
		return err
	}
	g := e.Gravity
	if g == nil {
		return nil
	}
	if g.Type < GravityDirectional || g.Type > GravityShaped {
		return fmt.Errorf("unknown gravity type")
	}
	for _, v := range []float64{g.Gravity, g.UnitDistance, g.Radius, g.Direction[0], g.Direction[1], g.Direction[2]} {
		if !finite(v) {
			return fmt.Errorf("gravity values must be finite numbers")
		}
	}
	if g.UnitDistance < 0 {
		return fmt.Errorf("unit distance must not be negative (got %g)", g.UnitDistance)
	}
	if g.Type == GravityDirectional && g.Direction == [3]float64{} {
		return fmt.Errorf("direction must not be the zero vector")
	}
	if (g.Type == GravityDisc || g.Type == GravityTorus) && g.Radius <= 0 {
		return fmt.Errorf("radius must be greater than 0 (got %g)", g.Radius)
	}
	if g.Shape < -1 || g.Shape >= len(d.Shapes) {
		return fmt.Errorf("shape %d does not exist", g.Shape)
	}
	return nil
}

func (e SetGravity) apply(d *Document) (Edit, Change, error) {
	if err := d.checkNode(e.Node); err != nil {
		return nil, Change{}, err
	}
	old := d.Nodes[e.Node].Gravity
	var g *Gravity
	if e.Gravity != nil {
		c := *e.Gravity
		c.Points = slices.Clone(c.Points)
		g = &c
	}
	d.Nodes[e.Node].Gravity = g
	return SetGravity{Node: e.Node, Gravity: old, Label: e.Label}, Change{Nodes: []int{e.Node}}, nil
}

// SetWorldGravity replaces the document-level gravity; nil removes it.
type SetWorldGravity struct {
	Gravity *WorldGravity
}

// Name says what the edit does.
func (e SetWorldGravity) Name() string { return "Edit world gravity" }

func (e SetWorldGravity) mergeKey() string { return "world gravity" }

func (e SetWorldGravity) check(d *Document) error {
	if g := e.Gravity; g != nil {
		for _, v := range []float64{g.Gravity, g.Direction[0], g.Direction[1], g.Direction[2]} {
			if !finite(v) {
				return fmt.Errorf("world gravity values must be finite numbers")
			}
		}
		if g.Direction == [3]float64{} {
			return fmt.Errorf("world gravity direction must not be the zero vector")
		}
	}
	return nil
}

func (e SetWorldGravity) apply(d *Document) (Edit, Change, error) {
	old := d.WorldGravity
	d.WorldGravity = clonePtr(e.Gravity)
	return SetWorldGravity{Gravity: old}, Change{Nodes: []int{}, Structure: true}, nil
}

// SetNodeJoint replaces node Node's joint; nil removes it.
type SetNodeJoint struct {
	Node  int
	Joint *NodeJoint
	Label string
}

// Name says what the edit does.
func (e SetNodeJoint) Name() string { return labelOr(e.Label, "Edit joint of node %d", e.Node) }

func (e SetNodeJoint) check(d *Document) error {
	if err := d.checkNode(e.Node); err != nil {
		return err
	}
	if j := e.Joint; j != nil {
		if j.Joint < 0 || j.Joint >= len(d.Joints) {
			return fmt.Errorf("joint settings %d do not exist (the file has %d)", j.Joint, len(d.Joints))
		}
		if err := d.checkNode(j.ConnectedNode); err != nil {
			return fmt.Errorf("connected node: %w", err)
		}
		if j.ConnectedNode == e.Node {
			return fmt.Errorf("a joint cannot connect a node to itself")
		}
	}
	return nil
}

func (e SetNodeJoint) apply(d *Document) (Edit, Change, error) {
	if err := d.checkNode(e.Node); err != nil {
		return nil, Change{}, err
	}
	old := d.Nodes[e.Node].Joint
	d.Nodes[e.Node].Joint = clonePtr(e.Joint)
	return SetNodeJoint{Node: e.Node, Joint: old, Label: e.Label}, Change{Nodes: []int{e.Node}}, nil
}

// SetNodeName renames node Node.
type SetNodeName struct {
	Node int
	To   string
}

// Name says what the edit does.
func (e SetNodeName) Name() string { return fmt.Sprintf("Rename node %d", e.Node) }

func (e SetNodeName) mergeKey() string { return fmt.Sprintf("name %d", e.Node) }

func (e SetNodeName) check(d *Document) error { return d.checkNode(e.Node) }

func (e SetNodeName) apply(d *Document) (Edit, Change, error) {
	if err := d.checkNode(e.Node); err != nil {
		return nil, Change{}, err
	}
	n := d.GLTF.Nodes[e.Node]
	old := n.Name
	n.Name = e.To
	return SetNodeName{Node: e.Node, To: old}, Change{Nodes: []int{e.Node}}, nil
}

// Transform is a node's translation, rotation (quaternion x, y, z, w) and
// scale.
type Transform struct {
	Translation [3]float64
	Rotation    [4]float64
	Scale       [3]float64
}

// NodeTransform returns node n's local transform as translation, rotation
// and scale (a matrix is decomposed).
func (d *Document) NodeTransform(n int) Transform {
	node := d.GLTF.Nodes[n]
	if node.Matrix != gltf.DefaultMatrix && node.Matrix != [16]float64{} {
		return DecomposeTRS(d.LocalMatrix(n))
	}
	return Transform{node.TranslationOrDefault(), node.RotationOrDefault(), node.Scale} // a written 0 is 0 (LocalMatrix)
}

// SetNodeTransform sets node Node's translation, rotation and scale. A node
// that had a matrix gets TRS instead (saved as such).
type SetNodeTransform struct {
	Node      int
	Transform Transform
	Label     string
	// matrix restores a node's original matrix on undo.
	matrix *[16]float64
}

// Name says what the edit does.
func (e SetNodeTransform) Name() string { return labelOr(e.Label, "Move node %d", e.Node) }

func (e SetNodeTransform) mergeKey() string { return fmt.Sprintf("transform %d %s", e.Node, e.Label) }

func (e SetNodeTransform) check(d *Document) error {
	if err := d.checkNode(e.Node); err != nil {
		return err
	}
	t := e.Transform
	for _, v := range append(append(t.Translation[:], t.Rotation[:]...), t.Scale[:]...) {
		if !finite(v) {
			return fmt.Errorf("transform values must be finite numbers")
		}
	}
	if t.Rotation == [4]float64{} {
		return fmt.Errorf("rotation must not be the zero quaternion")
	}
	if t.Scale[0] == 0 || t.Scale[1] == 0 || t.Scale[2] == 0 {
		return fmt.Errorf("scale must not be 0 on any axis")
	}
	return nil
}

func (e SetNodeTransform) apply(d *Document) (Edit, Change, error) {
	if err := d.checkNode(e.Node); err != nil {
		return nil, Change{}, err
	}
	n := d.GLTF.Nodes[e.Node]
	inv := SetNodeTransform{Node: e.Node, Label: e.Label, Transform: Transform{n.Translation, n.Rotation, n.Scale}}
	if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} {
		m := n.Matrix
		inv.matrix = &m
	}
	if e.matrix != nil {
		n.Matrix = *e.matrix
	} else {
		n.Matrix = gltf.DefaultMatrix
	}
	n.Translation, n.Rotation, n.Scale = e.Transform.Translation, e.Transform.Rotation, e.Transform.Scale
	return inv, Change{Nodes: []int{e.Node}, Moved: []int{e.Node}}, nil
}

// SetPhysicsMaterial replaces physics material Index.
type SetPhysicsMaterial struct {
	Index    int
	Material PhysicsMaterial
}

// Name says what the edit does.
func (e SetPhysicsMaterial) Name() string { return fmt.Sprintf("Edit physics material %d", e.Index) }

func (e SetPhysicsMaterial) mergeKey() string { return fmt.Sprintf("material %d", e.Index) }

func (e SetPhysicsMaterial) check(d *Document) error {
	if e.Index < 0 || e.Index >= len(d.PhysicsMaterials) {
		return fmt.Errorf("physics material %d does not exist", e.Index)
	}
	return e.Material.Check()
}

// Check reports a friction or restitution that is negative or not finite,
// or an unknown combine mode.
func (m PhysicsMaterial) Check() error {
	for _, v := range []float64{m.StaticFriction, m.DynamicFriction, m.Restitution} {
		if !finite(v) || v < 0 {
			return fmt.Errorf("friction and restitution must be finite and not negative (got %g)", v)
		}
	}
	if !combineModes[m.FrictionCombine] || !combineModes[m.RestitutionCombine] {
		return fmt.Errorf("combine modes are average, minimum, maximum or multiply")
	}
	return nil
}

func (e SetPhysicsMaterial) apply(d *Document) (Edit, Change, error) {
	if e.Index < 0 || e.Index >= len(d.PhysicsMaterials) {
		return nil, Change{}, fmt.Errorf("physics material %d does not exist", e.Index)
	}
	old := d.PhysicsMaterials[e.Index]
	d.PhysicsMaterials[e.Index] = e.Material
	return SetPhysicsMaterial{Index: e.Index, Material: old}, Change{Nodes: d.refUsers(refMaterial, e.Index)}, nil
}

// AddPhysicsMaterial appends a physics material.
type AddPhysicsMaterial struct{ Material PhysicsMaterial }

// Name says what the edit does.
func (e AddPhysicsMaterial) Name() string { return "Add physics material" }

func (e AddPhysicsMaterial) check(d *Document) error { return e.Material.Check() }

func (e AddPhysicsMaterial) apply(d *Document) (Edit, Change, error) {
	d.PhysicsMaterials = append(d.PhysicsMaterials, e.Material)
	return removeItem{kind: refMaterial, index: len(d.PhysicsMaterials) - 1, label: e.Name()}, Change{}, nil
}

// SetCollisionFilter replaces collision filter Index.
type SetCollisionFilter struct {
	Index  int
	Filter CollisionFilter
}

// Name says what the edit does.
func (e SetCollisionFilter) Name() string { return fmt.Sprintf("Edit collision filter %d", e.Index) }

func (e SetCollisionFilter) mergeKey() string { return fmt.Sprintf("filter %d", e.Index) }

func (e SetCollisionFilter) check(d *Document) error {
	if e.Index < 0 || e.Index >= len(d.CollisionFilters) {
		return fmt.Errorf("collision filter %d does not exist", e.Index)
	}
	if e.Filter.CollideWithSystems != nil && e.Filter.NotCollideWithSystems != nil {
		return fmt.Errorf("a filter lists either the systems it collides with or those it does not, not both")
	}
	return nil
}

func (e SetCollisionFilter) apply(d *Document) (Edit, Change, error) {
	if e.Index < 0 || e.Index >= len(d.CollisionFilters) {
		return nil, Change{}, fmt.Errorf("collision filter %d does not exist", e.Index)
	}
	old := d.CollisionFilters[e.Index]
	d.CollisionFilters[e.Index] = e.Filter.clone()
	return SetCollisionFilter{Index: e.Index, Filter: old}, Change{}, nil
}

// AddCollisionFilter appends a collision filter.
type AddCollisionFilter struct{ Filter CollisionFilter }

// Name says what the edit does.
func (e AddCollisionFilter) Name() string { return "Add collision filter" }

func (e AddCollisionFilter) apply(d *Document) (Edit, Change, error) {
	d.CollisionFilters = append(d.CollisionFilters, e.Filter.clone())
	return removeItem{kind: refFilter, index: len(d.CollisionFilters) - 1, label: e.Name()}, Change{}, nil
}

// SetJointSettings replaces joint settings Index (limits and drives).
type SetJointSettings struct {
	Index    int
	Settings JointSettings
	// Label names the edit in the Edit menu; empty gives "Edit joint
	// settings N".
	Label string
}

// Name says what the edit does.
func (e SetJointSettings) Name() string { return labelOr(e.Label, "Edit joint settings %d", e.Index) }

func (e SetJointSettings) mergeKey() string { return fmt.Sprintf("joint %d %s", e.Index, e.Label) }

func (e SetJointSettings) check(d *Document) error {
	if e.Index < 0 || e.Index >= len(d.Joints) {
		return fmt.Errorf("joint settings %d do not exist", e.Index)
	}
	for _, l := range e.Settings.Limits {
		if math.IsNaN(l.Min) || math.IsNaN(l.Max) || l.Min > l.Max {
			return fmt.Errorf("a joint limit needs min <= max (got %g > %g)", l.Min, l.Max)
		}
		for _, a := range append(slices.Clone(l.LinearAxes), l.AngularAxes...) {
			if a < 0 || a > 2 {
				return fmt.Errorf("joint axes are 0, 1 or 2 (got %d)", a)
			}
		}
		if math.IsNaN(l.Stiffness) || l.Stiffness < 0 || math.IsNaN(l.Damping) || l.Damping < 0 {
			return fmt.Errorf("limit stiffness and damping must not be negative")
		}
	}
	for _, dr := range e.Settings.Drives {
		if dr.Axis < 0 || dr.Axis > 2 {
			return fmt.Errorf("a drive axis is 0, 1 or 2 (got %d)", dr.Axis)
		}
		if math.IsNaN(dr.MaxForce) || dr.MaxForce < 0 || !finite(dr.Stiffness) || dr.Stiffness < 0 || !finite(dr.Damping) || dr.Damping < 0 {
			return fmt.Errorf("drive force, stiffness and damping must not be negative")
		}
	}
	return nil
}

func (e SetJointSettings) apply(d *Document) (Edit, Change, error) {
	if e.Index < 0 || e.Index >= len(d.Joints) {
		return nil, Change{}, fmt.Errorf("joint settings %d do not exist", e.Index)
	}
	old := d.Joints[e.Index]
	d.Joints[e.Index] = e.Settings.clone()
	return SetJointSettings{Index: e.Index, Settings: old, Label: e.Label}, Change{Nodes: d.refUsers(refJoint, e.Index)}, nil
}

// AddJointSettings appends joint settings.
type AddJointSettings struct{ Settings JointSettings }

// Name says what the edit does.
func (e AddJointSettings) Name() string { return "Add joint settings" }

func (e AddJointSettings) apply(d *Document) (Edit, Change, error) {
	d.Joints = append(d.Joints, e.Settings.clone())
	return removeItem{kind: refJoint, index: len(d.Joints) - 1, label: e.Name()}, Change{}, nil
}

// RemovePhysicsMaterial, RemoveCollisionFilter and RemoveJointSettings
// delete one document-level entry; references to later entries move down.
// An entry still in use cannot be removed (see the Remove... constructors
// in editops.go, which unassign it first).
type (
	RemovePhysicsMaterial struct{ Index int }
	RemoveCollisionFilter struct{ Index int }
	RemoveJointSettings   struct{ Index int }
)

// Name says what the edit does.
func (e RemovePhysicsMaterial) Name() string {
	return fmt.Sprintf("Remove physics material %d", e.Index)
}

// Name says what the edit does.
func (e RemoveCollisionFilter) Name() string {
	return fmt.Sprintf("Remove collision filter %d", e.Index)
}

// Name says what the edit does.
func (e RemoveJointSettings) Name() string { return fmt.Sprintf("Remove joint settings %d", e.Index) }

func (e RemovePhysicsMaterial) apply(d *Document) (Edit, Change, error) {
	return removeItem{kind: refMaterial, index: e.Index, label: e.Name()}.apply(d)
}

func (e RemoveCollisionFilter) apply(d *Document) (Edit, Change, error) {
	return removeItem{kind: refFilter, index: e.Index, label: e.Name()}.apply(d)
}

func (e RemoveJointSettings) apply(d *Document) (Edit, Change, error) {
	return removeItem{kind: refJoint, index: e.Index, label: e.Name()}.apply(d)
}

// removeItem and insertItem delete and restore one entry of a
// document-level array, moving the references to later entries.
type removeItem struct {
	kind  refKind
	index int
	label string
}

func (e removeItem) Name() string { return e.label }

func (e removeItem) apply(d *Document) (Edit, Change, error) {
	n := d.refLen(e.kind)
	if e.index < 0 || e.index >= n {
		return nil, Change{}, fmt.Errorf("%s %d does not exist", e.kind, e.index)
	}
	if users := d.refUsers(e.kind, e.index); len(users) > 0 {
		return nil, Change{}, fmt.Errorf("%s %d is used by node %d", e.kind, e.index, users[0])
	}
	var old any
	switch e.kind {
	case refMaterial:
		old = d.PhysicsMaterials[e.index]
		d.PhysicsMaterials = slices.Delete(d.PhysicsMaterials, e.index, e.index+1)
	case refFilter:
		old = d.CollisionFilters[e.index]
		d.CollisionFilters = slices.Delete(d.CollisionFilters, e.index, e.index+1)
	case refJoint:
		old = d.Joints[e.index]
		d.Joints = slices.Delete(d.Joints, e.index, e.index+1)
	default:
		return nil, Change{}, fmt.Errorf("cannot remove a %s", e.kind)
	}
	d.remapRefs(e.kind, func(r int) int { return shiftDown(r, e.index) })
	return insertItem{kind: e.kind, index: e.index, value: old, label: e.label}, Change{Structure: true}, nil
}

type insertItem struct {
	kind  refKind
	index int
	value any
	label string
}

func (e insertItem) Name() string { return e.label }

func (e insertItem) apply(d *Document) (Edit, Change, error) {
	if e.index < 0 || e.index > d.refLen(e.kind) {
		return nil, Change{}, fmt.Errorf("%s %d cannot be inserted", e.kind, e.index)
	}
	d.remapRefs(e.kind, func(r int) int { return shiftUp(r, e.index) })
	switch v := e.value.(type) {
	case PhysicsMaterial:
		d.PhysicsMaterials = slices.Insert(d.PhysicsMaterials, e.index, v)
	case CollisionFilter:
		d.CollisionFilters = slices.Insert(d.CollisionFilters, e.index, v)
	case JointSettings:
		d.Joints = slices.Insert(d.Joints, e.index, v)
	}
	return removeItem{kind: e.kind, index: e.index, label: e.label}, Change{Structure: true}, nil
}

// variantsEdit runs a change on the variants and mappings; its inverse puts
// the earlier variants and mappings back.
type variantsEdit struct {
	label  string
	key    string
	change func(d *Document) error
}

func (e variantsEdit) Name() string { return e.label }

func (e variantsEdit) mergeKey() string { return e.key }

func (e variantsEdit) apply(d *Document) (Edit, Change, error) {
	before := d.variantState()
	if err := e.change(d); err != nil {
		d.restoreVariants(before)
		return nil, Change{}, err
	}
	return restoreVariants{state: before, label: e.label}, Change{Variants: true}, nil
}

type variantState struct {
	variants []Variant
	prims    map[PrimitiveRef]*PrimitiveVariants
}

func (d *Document) variantState() variantState {
	s := variantState{variants: slices.Clone(d.Variants), prims: make(map[PrimitiveRef]*PrimitiveVariants, len(d.Primitives))}
	for k, pv := range d.Primitives {
		s.prims[k] = pv.clone()
	}
	return s
}

func (d *Document) restoreVariants(s variantState) {
	d.Variants = slices.Clone(s.variants)
	d.Primitives = make(map[PrimitiveRef]*PrimitiveVariants, len(s.prims))
	for k, pv := range s.prims {
		d.Primitives[k] = pv.clone()
	}
}

type restoreVariants struct {
	state variantState
	label string
}

func (e restoreVariants) Name() string { return e.label }

func (e restoreVariants) apply(d *Document) (Edit, Change, error) {
	before := d.variantState()
	d.restoreVariants(e.state)
	return restoreVariants{state: before, label: e.label}, Change{Variants: true}, nil
}

// AddVariantEdit appends a variant named name.
func AddVariantEdit(name string) Edit {
	return variantsEdit{label: fmt.Sprintf("Add variant %q", name), change: func(d *Document) error {
		d.addVariant(name)
		return nil
	}}
}

// RenameVariantEdit renames variant v.
func RenameVariantEdit(v int, name string) Edit {
	return variantsEdit{label: fmt.Sprintf("Rename variant %d", v), key: fmt.Sprintf("variant name %d", v), change: func(d *Document) error {
		if v < 0 || v >= len(d.Variants) {
			return fmt.Errorf("variant %d does not exist", v)
		}
		d.Variants[v].Name = name
		return nil
	}}
}

// RemoveVariantEdit removes variant v and its mappings.
func RemoveVariantEdit(v int) Edit {
	return variantsEdit{label: fmt.Sprintf("Remove variant %d", v), change: func(d *Document) error { return d.removeVariant(v) }}
}

// SetVariantMaterialEdit makes primitive ref use material mat (-1: its own)
// in variant v.
func SetVariantMaterialEdit(ref PrimitiveRef, v, mat int) Edit {
	return variantsEdit{label: fmt.Sprintf("Set material of mesh %d primitive %d in variant %d", ref.Mesh, ref.Primitive, v), change: func(d *Document) error {
		return d.setVariantMaterial(ref, v, mat)
	}}
}

func labelOr(label, format string, args ...any) string {
	if label != "" {
		return label
	}
	return fmt.Sprintf(format, args...)
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func shiftDown(r, removed int) int {
	if r > removed {
		return r - 1
	}
	return r
}

func shiftUp(r, inserted int) int {
	if r >= inserted {
		return r + 1
	}
	return r
}

// AddChildNode appends a new node as the last child of node Parent, with
// the given name and transform. Colliders fitted to a mesh whose centre is
// off the node's origin sit on such a child.
type AddChildNode struct {
	Parent    int
	NodeName  string
	Transform Transform
}

// Name says what the edit does.
func (e AddChildNode) Name() string { return fmt.Sprintf("Add child node to node %d", e.Parent) }

func (e AddChildNode) check(d *Document) error {
	if err := d.checkNode(e.Parent); err != nil {
		return err
	}
	return SetNodeTransform{Node: e.Parent, Transform: e.Transform}.check(d)
}

func (e AddChildNode) apply(d *Document) (Edit, Change, error) {
	if err := d.checkNode(e.Parent); err != nil {
		return nil, Change{}, err
	}
	i := len(d.GLTF.Nodes)
	t := e.Transform
	d.GLTF.Nodes = append(d.GLTF.Nodes, &gltf.Node{Name: e.NodeName, Matrix: gltf.DefaultMatrix, Translation: t.Translation, Rotation: t.Rotation, Scale: t.Scale})
	p := d.GLTF.Nodes[e.Parent]
	p.Children = append(slices.Clone(p.Children), i)
	d.Nodes = append(d.Nodes, NodeExtensions{})
	d.source.parent = append(d.source.parent, e.Parent)
	return removeLastNode{label: e.Name()}, Change{Structure: true}, nil
}

// removeLastNode undoes AddChildNode: the last node goes, with its place
// among its parent's children.
type removeLastNode struct{ label string }

func (e removeLastNode) Name() string { return e.label }

func (e removeLastNode) apply(d *Document) (Edit, Change, error) {
	i := len(d.GLTF.Nodes) - 1
	if i < 0 || i >= len(d.Nodes) {
		return nil, Change{}, fmt.Errorf("no added node to remove")
	}
	parent := d.Parent(i)
	removed := d.GLTF.Nodes[i]
	undo := AddChildNode{Parent: parent, NodeName: removed.Name, Transform: d.NodeTransform(i)}
	if parent >= 0 {
		p := d.GLTF.Nodes[parent]
		p.Children = slices.DeleteFunc(slices.Clone(p.Children), func(c int) bool { return c == i })
	}
	d.GLTF.Nodes = d.GLTF.Nodes[:i]
	d.Nodes = d.Nodes[:i]
	d.source.parent = d.source.parent[:i]
	return undo, Change{Structure: true}, nil
}
