package scene

import (
	"encoding/json"
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene/internal/jsonobj"
)

// The Khronos physics drafts: KHR_implicit_shapes (document shapes) and
// KHR_physics_rigid_bodies (node motion, collider, trigger, joint; document
// physics materials, collision filters and joints). They are read into the
// same model as OMI; a document read from a KHR file is saved as KHR, and
// SetPhysicsDialect converts between the two.
//
// Where KHR has no place for something the model holds, it is kept in an
// "extras" member of the node's KHR_physics_rigid_bodies object, in OMI
// form, so an OMI -> KHR -> OMI conversion gives the model back:
// extras.OMI_physics_body.motion for a static body (KHR has no static
// motion: a collider without motion is static) and .collider for a compound
// collider without a shape. Shapes KHR does not define (general, ray,
// heightmap, and convex or trimesh shapes no node carries) are written into
// KHR_implicit_shapes with their own type name, which the KHR schema allows.

// Extension names of the Khronos physics drafts.
const (
	ExtKHRShapes = "KHR_implicit_shapes"
	ExtKHRBodies = "KHR_physics_rigid_bodies"
)

// khrState is what the KHR codec keeps on a document.
type khrState struct {
	// geomNode is the node whose mesh a convex or trimesh model shape was
	// read from (KHR geometry.node).
	geomNode map[int]int
	// meshForm is true when the file named meshes as geometry.mesh (the
	// current draft); a save writes mesh geometry in the form the file used.
	meshForm bool
	// meshShape marks the model shapes made from geometry.mesh.
	meshShape map[int]bool
	// rawRoot and rawNode keep KHR blocks of a file read as OMI (it had
	// both), written back unchanged.
	rawRoot map[string]json.RawMessage
	rawNode map[int]json.RawMessage
	// khrIndex maps a model shape to its KHR_implicit_shapes index during a
	// save, -1 for shapes written as geometry.node.
	khrIndex []int
	// core is what the glTF 2.1 core part keeps (gltf21.go).
	core core21
}

func init() {
	registerExtension(extensionCodec{
		Names:    []string{ExtKHRShapes, ExtKHRBodies},
		Order:    orderKHRPhysics,
		Decode:   decodeKHR,
		Patch:    patchKHR,
		Used:     usedKHR,
		Validate: validateKHR,
		Convert:  convertKHR,
		ShapeUnlisted: func(d *Document, s int) bool {
			st := khrOf(d)
			return st != nil && st.khrIndexOf(s) < 0
		},
	})
}

func init() {
	// The KHR fork's codes and pointers come first, before any codec's
	// Align (Order 0, no names).
	registerExtension(extensionCodec{Align: func(d *Document, all []Finding) []Finding { return d.alignKHRFindings(all) }})
}

// khrOf returns the KHR codec's state on d, nil when the file had no KHR
// physics and no dialect change made one.
func khrOf(d *Document) *khrState {
	st, _ := d.CodecState(ExtKHRBodies).(*khrState)
	return st
}

// convertKHR is the KHR codec's Convert hook: a new state for dialect p
// and one line per thing p cannot carry (kept in "extras" or under type
// names p does not define, as the file comment says).
func convertKHR(d *Document, from, p PhysicsDialect) []string {
	st := &khrState{geomNode: map[int]int{}}
	if old := khrOf(d); old != nil {
		for k, v := range old.geomNode {
			st.geomNode[k] = v
		}
		st.meshForm = old.meshForm
		st.core = old.core
		st.meshShape = old.meshShape
		if p == DialectGLTF21 && from != DialectGLTF21 {
			// glTF 2.1 lists mesh shapes in "shapes" (mesh, convexMesh).
			st.geomNode, st.meshShape, st.meshForm = map[int]int{}, nil, false
		}
	}
	d.SetCodecState(ExtKHRBodies, st)
	warns := d.inertiaWarnings(p)
	warns = append(warns, d.core21Warnings(p)...)
	switch p {
	case DialectKHR:
		_, plan := d.khrPlan()
		return append(plan, warns...)
	case DialectGLTF21:
		return append(d.gltf21Plan(), warns...)
	}
	for i, s := range d.Shapes {
		if s.Type == ShapePlane {
			warns = append(warns, fmt.Sprintf("shape %d: plane is not an OMI shape; written with type \"plane\", which OMI readers other than physview do not know", i))
		}
	}
	return warns
}

// inertiaWarnings names the bodies whose inertia means something else in
// dialect p: a zero moment is computed in OMI and infinite in KHR, and an
// inertia of [0, 0, 0] written in a KHR file (infinite) has no OMI form.
func (d *Document) inertiaWarnings(p PhysicsDialect) []string {
	var warns []string
	for i, ne := range d.Nodes {
		if ne.Body == nil || ne.Body.Motion == nil || ne.Body.Motion.Type != MotionDynamic {
			continue
		}
		m := ne.Body.Motion
		id := m.InertiaDiagonal
		switch {
		case p == DialectOMI && m.InertiaInfinite && id == [3]float64{}:
			// (InertiaInfinite stays set when the moments were edited since.)
			warns = append(warns, fmt.Sprintf("node %d %q: its KHR inertia [0, 0, 0] is infinite (it never turns), which OMI cannot say: written as [0, 0, 0], which OMI reads as computed", i, d.NodeName(i)))
		case id != [3]float64{} && (id[0] == 0 || id[1] == 0 || id[2] == 0):
			from, to := "computed in OMI", "infinite in KHR"
			if p == DialectOMI {
				from, to = "infinite in KHR", "computed in OMI"
			}
			warns = append(warns, fmt.Sprintf("node %d %q: the zero moments of its inertia %v, %s, are %s", i, d.NodeName(i), id, from, to))
		}
	}
	return warns
}

// isKHRShape reports whether KHR_implicit_shapes defines the shape's type.
func isKHRShape(t ShapeType) bool {
	switch t {
	case ShapeBox, ShapeSphere, ShapeCapsule, ShapeCylinder, ShapePlane:
		return true
	}
	return false
}

func decodeKHR(d *Document, fs *findings) {
	doc := d.GLTF
	rawShapes, hasShapes := rawExt(doc.Extensions, ExtKHRShapes)
	rawBodies, hasBodies := rawExt(doc.Extensions, ExtKHRBodies)
	nodeHas := false
	for _, n := range doc.Nodes {
		if _, ok := rawExt(n.Extensions, ExtKHRBodies); ok {
			nodeHas = true
			break
		}
	}
	coreRaw, hasCore := d.coreShapesRaw()
	if !hasShapes && !hasBodies && !nodeHas && !hasCore {
		return
	}
	omi := len(d.Shapes) > 0 || len(d.PhysicsMaterials) > 0 || len(d.Joints) > 0
	for _, ne := range d.Nodes {
		omi = omi || ne.Body != nil || ne.Joint != nil
	}
	if omi {
		// Both dialects: the OMI one is the model; KHR is kept as it is.
		fs.warnf("KHR_PHYSICS_BOTH_DIALECTS", "/extensions/"+ExtKHRBodies, "the file has both OMI and KHR physics: OMI is shown and edited; the KHR blocks are kept unchanged")
		st := &khrState{rawRoot: map[string]json.RawMessage{}, rawNode: map[int]json.RawMessage{}}
		if hasShapes {
			st.rawRoot[ExtKHRShapes] = rawShapes
		}
		if hasBodies {
			st.rawRoot[ExtKHRBodies] = rawBodies
		}
		for i, n := range doc.Nodes {
			if raw, ok := rawExt(n.Extensions, ExtKHRBodies); ok {
				st.rawNode[i] = raw
			}
		}
		d.SetCodecState(ExtKHRBodies, st)
		return
	}
	st := &khrState{geomNode: map[int]int{}}
	d.SetCodecState(ExtKHRBodies, st)
	d.ReadPhysicsAs(DialectKHR)
	if d.isGLTF21() && (hasCore || !hasShapes) {
		// A glTF 2.1 file: colliders name the core shapes.
		d.ReadPhysicsAs(DialectGLTF21)
		d.decodeCoreShapes(coreRaw, hasCore, fs)
		if hasShapes {
			fs.warnf("KHR_SHAPES_IN_GLTF21", "/extensions/"+ExtKHRShapes, "a glTF 2.1 file names the core shapes; the KHR_implicit_shapes shapes are kept unread")
			st.rawRoot = map[string]json.RawMessage{ExtKHRShapes: rawShapes}
			hasShapes = false
		}
	}
	if hasShapes {
		base := "/extensions/" + ExtKHRShapes
		if r := newReader(rawShapes, base, fs); r != nil {
			for i, raw := range r.array("shapes") {
				d.Shapes = append(d.Shapes, decodeKHRShape(raw, r.at("shapes")+"/"+itoa(i), fs))
			}
			d.setRootExtra(ExtKHRShapes, r.rest())
		}
	}
	if hasBodies {
		base := "/extensions/" + ExtKHRBodies
		if r := newReader(rawBodies, base, fs); r != nil {
			for i, m := range r.array("physicsMaterials") {
				d.PhysicsMaterials = append(d.PhysicsMaterials, decodePhysicsMaterial(m, r.at("physicsMaterials")+"/"+itoa(i), fs))
			}
			for i, c := range r.array("collisionFilters") {
				d.CollisionFilters = append(d.CollisionFilters, decodeCollisionFilter(c, r.at("collisionFilters")+"/"+itoa(i), fs))
			}
			for i, j := range r.array("physicsJoints") {
				d.Joints = append(d.Joints, decodeJointSettings(j, r.at("physicsJoints")+"/"+itoa(i), fs))
			}
			d.setRootExtra(ExtKHRBodies, r.rest())
		}
	}
	meshShapes := map[[2]int]int{} // (node, convex) -> model shape
	for i, n := range doc.Nodes {
		raw, ok := rawExt(n.Extensions, ExtKHRBodies)
		if !ok {
			continue
		}
		path := fmt.Sprintf("/nodes/%d/extensions/%s", i, ExtKHRBodies)
		d.decodeKHRNode(i, raw, path, fs, meshShapes)
	}
	d.khrSchema(fs) // the KHR fork's schema-level rules (khr_fork.go)
}

// decodeKHRShape reads one KHR_implicit_shapes shape: the OMI layout with
// KHR's defaults (capsule and cylinder: height 0.5, radii 0.25).
func decodeKHRShape(raw json.RawMessage, path string, fs *findings) Shape {
	s := decodeShape(raw, path, fs, false)
	if s.Type != ShapeCapsule && s.Type != ShapeCylinder {
		return s
	}
	sub := map[string]json.RawMessage{}
	if obj, err := jsonobj.Parse(raw); err == nil {
		if v, ok := obj.Get(s.Type.String()); ok {
			_ = json.Unmarshal(v, &sub)
		}
	}
	if _, ok := sub["height"]; !ok {
		s.Height = 0.5
	}
	if _, ok := sub["radiusTop"]; !ok {
		s.RadiusTop = 0.25
	}
	if _, ok := sub["radiusBottom"]; !ok {
		s.RadiusBottom = 0.25
	}
	return s
}

// khrGeometry reads a KHR geometry object into a model shape index. A
// geometry names exactly one of shape (a KHR_implicit_shapes index), mesh
// (a mesh index, the current draft) or node (a node whose mesh is used, the
// earlier draft); convexHull makes a mesh a convex hull.
func (d *Document) khrGeometry(g *reader, fs *findings, meshShapes map[[2]int]int) int {
	if g == nil {
		return -1
	}
	hull := g.boolean("convexHull", false)
	var named []string
	for _, k := range []string{"shape", "mesh", "node"} {
		if g.has(k) {
			named = append(named, k)
		}
	}
	switch len(named) {
	case 0:
		fs.errorf("KHR_GEOMETRY_NO_SHAPE", g.path, "geometry names neither a shape nor a mesh")
		return -1
	case 1:
	default:
		fs.errorf("KHR_GEOMETRY_SHAPE_AND_MESH", g.path, "geometry names %v; exactly one of shape and mesh (or node) may be set: %s is used", named, named[0])
	}
	convex := 0
	if hull {
		convex = 1
	}
	switch named[0] {
	case "shape":
		// An index out of range is reported once, by validation.
		s := g.index("shape", -1)
		if hull {
			fs.warnf("KHR_UNKNOWN_PROPERTY", g.at("convexHull"), "convexHull applies to a mesh, not to a shape")
		}
		if rest := g.rest(); len(rest) > 0 {
			fs.warnf("KHR_UNKNOWN_PROPERTY", g.path, "geometry keys %v are not kept", keysOf(rest))
		}
		return s
	case "mesh":
		m := g.index("mesh", -1)
		if rest := g.rest(); len(rest) > 0 {
			fs.warnf("KHR_UNKNOWN_PROPERTY", g.path, "geometry keys %v are not kept", keysOf(rest))
		}
		if m < 0 || m >= len(d.GLTF.Meshes) {
			fs.errorf("KHR_UNRESOLVED_REFERENCE", g.at("mesh"), "mesh %d does not exist (the file has %d meshes)", m, len(d.GLTF.Meshes))
			return -1
		}
		khrOf(d).meshForm = true
		key := [2]int{-2 - m, convex} // apart from node keys
		if s, ok := meshShapes[key]; ok {
			return s
		}
		idx := d.addMeshShape(m, hull)
		meshShapes[key] = idx
		if khrOf(d).meshShape == nil {
			khrOf(d).meshShape = map[int]bool{}
		}
		khrOf(d).meshShape[idx] = true
		return idx
	}
	n := g.index("node", -1)
	if n < 0 || n >= len(d.GLTF.Nodes) || d.GLTF.Nodes[n].Mesh == nil {
		fs.errorf("KHR_UNRESOLVED_REFERENCE", g.at("node"), "geometry node %d does not exist or has no mesh", n)
		return -1
	}
	if rest := g.rest(); len(rest) > 0 {
		fs.warnf("KHR_UNKNOWN_PROPERTY", g.path, "geometry keys %v are not kept", keysOf(rest))
	}
	if s, ok := meshShapes[[2]int{n, convex}]; ok {
		return s
	}
	idx := d.addMeshShape(*d.GLTF.Nodes[n].Mesh, hull)
	meshShapes[[2]int{n, convex}] = idx
	khrOf(d).geomNode[idx] = n
	if len(d.Children(n)) > 0 {
		fs.warnf("KHR_GEOMETRY_NODE_CHILDREN", g.at("node"), "only the mesh of %s itself is used, not those of its children", d.nodeRef(n))
	}
	return idx
}

// addMeshShape appends a trimesh (or, hull, convex) model shape of mesh m.
func (d *Document) addMeshShape(m int, hull bool) int {
	t := ShapeTrimesh
	if hull {
		t = ShapeConvex
	}
	s := DefaultShape(t)
	s.Mesh = m
	d.Shapes = append(d.Shapes, s)
	return len(d.Shapes) - 1
}

func keysOf(m Members) []string {
	var out []string
	for _, mem := range m {
		out = append(out, mem.Key)
	}
	return out
}

func (d *Document) decodeKHRNode(i int, raw json.RawMessage, path string, fs *findings, meshShapes map[[2]int]int) {
	r := newReader(raw, path, fs)
	if r == nil {
		return
	}
	ne := &d.Nodes[i]
	b := &Body{}
	if m := r.object("motion"); m != nil {
		mo := DefaultMotion(MotionDynamic)
		if m.boolean("isKinematic", false) {
			mo.Type = MotionKinematic
		}
		mo.Mass = m.number("mass", mo.Mass)
		if mo.Mass == 0 {
			fs.infof("KHR_MASS_ZERO", m.at("mass"), "mass 0 means infinite mass in KHR_physics_rigid_bodies")
		}
		mo.CenterOfMass = m.vec3("centerOfMass", mo.CenterOfMass)
		mo.InertiaDiagonal = m.vec3("inertiaDiagonal", mo.InertiaDiagonal)
		if d := mo.InertiaDiagonal; m.has("inertiaDiagonal") && (d[0] == 0 || d[1] == 0 || d[2] == 0) {
			mo.InertiaInfinite = d == [3]float64{}
			fs.infof("KHR_INERTIA_ZERO", m.at("inertiaDiagonal"), "a zero moment of inertia means an infinite one in KHR_physics_rigid_bodies: the body does not turn about that axis")
		}
		mo.InertiaOrientation = m.vec4("inertiaOrientation", mo.InertiaOrientation)
		mo.LinearVelocity = m.vec3("linearVelocity", mo.LinearVelocity)
		mo.AngularVelocity = m.vec3("angularVelocity", mo.AngularVelocity)
		mo.GravityFactor = m.number("gravityFactor", mo.GravityFactor)
		mo.Extra = m.rest()
		b.Motion = &mo
	}
	if c := r.object("collider"); c != nil {
		col := &Collider{Shape: -1, PhysicsMaterial: c.index("physicsMaterial", -1), CollisionFilter: c.index("collisionFilter", -1)}
		g := c.object("geometry")
		if g == nil && !c.has("geometry") {
			fs.errorf("KHR_UNDEFINED_PROPERTY", c.at("geometry"), "a collider needs a geometry")
		}
		col.Shape = d.khrGeometry(g, fs, meshShapes)
		col.Extra = c.rest()
		b.Collider = col
	}
	if t := r.object("trigger"); t != nil {
		tr := &Trigger{Shape: -1, CollisionFilter: t.index("collisionFilter", -1)}
		if t.has("nodes") && t.has("geometry") {
			fs.errorf("KHR_MUTUALLY_EXCLUSIVE", t.path, "trigger has both geometry and nodes; only one may be set (nodes is used)")
		}
		if nodes, ok := t.indices("nodes"); ok {
			tr.Nodes = nodes
		} else {
			tr.Shape = d.khrGeometry(t.object("geometry"), fs, meshShapes)
		}
		tr.Extra = t.rest()
		b.Trigger = tr
	}
	if j := r.object("joint"); j != nil {
		ne.Joint = &NodeJoint{
			Joint:           j.index("joint", -1),
			ConnectedNode:   j.index("connectedNode", -1),
			EnableCollision: j.boolean("enableCollision", false),
			Extra:           j.rest(),
		}
	}
	// What an OMI -> KHR conversion put in extras comes back.
	if x := r.object("extras"); x != nil {
		if omi, ok := x.raw(ExtBody); ok {
			var sub findings
			if ob, _ := decodeBody(omi, x.at(ExtBody), &sub); ob != nil {
				if ob.Motion != nil && b.Motion == nil {
					b.Motion = ob.Motion
				}
				if ob.Collider != nil && b.Collider == nil {
					b.Collider = ob.Collider
				}
			}
		}
		if rest := x.rest(); len(rest) > 0 {
			var w writer
			w.rest(rest)
			r.used["extras"] = true
			b.Extra = append(b.Extra, Member{Key: "extras", Value: w.bytes()})
		} else {
			r.used["extras"] = true
		}
	}
	b.Extra = append(b.Extra, r.rest()...)
	if b.Motion != nil || b.Collider != nil || b.Trigger != nil || len(b.Extra) > 0 {
		ne.Body = b
	}
}

// khrPlan works out where each model shape goes in a KHR save: its index in
// KHR_implicit_shapes, or -1 when every collider and trigger using it can
// name a node that carries its mesh. It returns the warnings of the save.
func (d *Document) khrPlan() ([]int, []string) {
	var warns []string
	idx := make([]int, len(d.Shapes))
	for i, s := range d.Shapes {
		idx[i] = -2 // not decided
		if s.Type == ShapeConvex || s.Type == ShapeTrimesh {
			idx[i] = -1
		}
	}
	used := make([]bool, len(idx))
	for _, ne := range d.Nodes {
		if ne.Body == nil {
			continue
		}
		for _, s := range []int{colliderShape(ne.Body), triggerShape(ne.Body)} {
			if s < 0 || s >= len(idx) {
				continue
			}
			used[s] = true
		}
	}
	for i := range idx {
		if idx[i] == -1 && !used[i] {
			idx[i] = -2 // no collider names it: keep it in the shape list
		}
	}
	next := 0
	for i, s := range d.Shapes {
		if idx[i] == -1 {
			continue
		}
		idx[i] = next
		next++
		switch {
		case s.Type == ShapeConvex || s.Type == ShapeTrimesh:
			warns = append(warns, fmt.Sprintf("shape %d: no collider's node carries mesh %d (or none uses the shape), so the %s is written as a KHR_implicit_shapes entry of type %q, which KHR readers do not know", i, s.Mesh, s.Type, s.Type))
		case !isKHRShape(s.Type):
			warns = append(warns, fmt.Sprintf("shape %d: %s is not a KHR_implicit_shapes type; written with type %q, which KHR readers do not know", i, s.Type, s.Type))
		}
	}
	return idx, append(warns, d.khrNodeWarnings()...)
}

// khrNodeWarnings names what KHR_physics_rigid_bodies (in KHR and glTF
// 2.1 files) cannot hold of the nodes' bodies and gravity.
func (d *Document) khrNodeWarnings() []string {
	var warns []string
	for n, ne := range d.Nodes {
		name := d.nodeLabel(n)
		if b := ne.Body; b != nil {
			if c := b.Collider; c != nil && c.Shape >= 0 && c.Shape < len(d.Shapes) && d.Shapes[c.Shape].Type == ShapeTrimesh && d.bodyMotion(n) == MotionDynamic {
				warns = append(warns, fmt.Sprintf("node %s: a trimesh collider on a dynamic body, which KHR readers play as its convex hull (the Sample Renderer's PhysX does)", name))
			}
			if b.Motion != nil && b.Motion.Type == MotionStatic {
				warns = append(warns, fmt.Sprintf("node %s: KHR has no static motion (a collider without motion is static); the OMI motion is kept in the KHR extension's extras", name))
			}
			if b.Collider != nil && b.Collider.Shape < 0 {
				warns = append(warns, fmt.Sprintf("node %s: KHR has no shapeless compound collider (a body's descendant colliders form it); kept in extras", name))
			}
		}
	}
	for n, ne := range d.Nodes {
		if g := ne.Gravity; g != nil && g.Shape >= 0 {
			warns = append(warns, fmt.Sprintf("node %s: the gravity field's shape index refers to OMI_physics_shape, which a KHR file does not have", d.nodeLabel(n)))
		}
	}
	return warns
}

func (d *Document) nodeLabel(n int) string {
	if n >= 0 && n < len(d.GLTF.Nodes) && d.GLTF.Nodes[n].Name != "" {
		return fmt.Sprintf("%d %q", n, d.GLTF.Nodes[n].Name)
	}
	return itoa(n)
}

// khrMeshNode returns a node carrying the mesh of model shape s for a
// collider or trigger on node n: the node it was read from, n itself, or
// any node with that mesh and no transform; -1 if none.
func (d *Document) khrMeshNode(n, s int) int {
	mesh := d.Shapes[s].Mesh
	has := func(k int) bool {
		m := d.GLTF.Nodes[k].Mesh
		return m != nil && *m == mesh
	}
	if khrOf(d) != nil {
		if k, ok := khrOf(d).geomNode[s]; ok && k >= 0 && k < len(d.GLTF.Nodes) && has(k) {
			return k
		}
	}
	if n >= 0 && n < len(d.GLTF.Nodes) && has(n) {
		return n
	}
	for k := range d.GLTF.Nodes {
		if has(k) && d.LocalMatrix(k) == mgl64.Ident4() {
			return k
		}
	}
	return -1
}

func patchKHR(d *Document, node int, blocks map[string]json.RawMessage) {
	st := khrOf(d)
	if st == nil {
		return
	}
	d.patchCore21(node, blocks)
	if !d.PhysicsDialect().KHRBodies() {
		// OMI document: keep KHR blocks that were there unchanged.
		if node < 0 {
			for k, v := range st.rawRoot {
				blocks[k] = v
			}
		} else if v, ok := st.rawNode[node]; ok {
			blocks[ExtKHRBodies] = v
		}
		return
	}
	if node < 0 {
		var idx []int
		var warns []string
		var shapes []json.RawMessage
		if d.PhysicsDialect() == DialectGLTF21 {
			// The shapes are the core list (patchCore21); KHR_implicit_shapes
			// a 2.1 file also had is kept as it was.
			idx, warns = d.gltf21Index(), d.gltf21Plan()
			for k, v := range st.rawRoot {
				blocks[k] = v
			}
		} else {
			idx, warns = d.khrPlan()
			for i, s := range d.Shapes {
				if idx[i] >= 0 {
					shapes = append(shapes, s.encode())
				}
			}
		}
		st.khrIndex = idx
		d.saveWarnings = append(d.saveWarnings, warns...)
		if len(shapes) > 0 || len(d.rootExtra[ExtKHRShapes]) > 0 {
			var w writer
			if len(shapes) > 0 {
				w.set("shapes", shapes)
			}
			w.rest(d.rootExtra[ExtKHRShapes])
			blocks[ExtKHRShapes] = w.bytes()
		}
		if len(d.PhysicsMaterials) > 0 || len(d.CollisionFilters) > 0 || len(d.Joints) > 0 || len(d.rootExtra[ExtKHRBodies]) > 0 {
			var w writer
			if len(d.PhysicsMaterials) > 0 {
				setList(&w, "physicsMaterials", d.PhysicsMaterials)
			}
			if len(d.CollisionFilters) > 0 {
				setList(&w, "collisionFilters", d.CollisionFilters)
			}
			if len(d.Joints) > 0 {
				setList(&w, "physicsJoints", khrJoints(khrJointSettings(d.Joints))) // joint_rules.go, khr_fork.go
			}
			w.rest(d.rootExtra[ExtKHRBodies])
			blocks[ExtKHRBodies] = w.bytes()
		}
		return
	}
	if node >= len(d.Nodes) {
		return
	}
	if raw := d.encodeKHRNode(node); raw != nil {
		blocks[ExtKHRBodies] = raw
	}
}

// khrGeometryJSON is the geometry object for model shape s on node n.
func (d *Document) khrGeometryJSON(n, s int) json.RawMessage {
	var g writer
	idx := khrOf(d).khrIndex
	switch {
	case s >= 0 && s < len(idx) && idx[s] >= 0:
		g.set("shape", idx[s])
	case s >= 0 && s < len(idx) && (khrOf(d).meshForm || d.khrMeshNode(n, s) < 0):
		// No node carries the mesh (a compound's hulls): the current
		// draft's geometry.mesh names it.
		g.set("mesh", d.Shapes[s].Mesh)
		g.set("convexHull", d.Shapes[s].Type == ShapeConvex)
	case s >= 0 && s < len(idx):
		g.set("node", d.khrMeshNode(n, s))
		g.set("convexHull", d.Shapes[s].Type == ShapeConvex)
	default:
		g.set("shape", s)
	}
	return g.bytes()
}

func (d *Document) encodeKHRNode(n int) json.RawMessage {
	ne := d.Nodes[n]
	b := ne.Body
	if b == nil && ne.Joint == nil {
		return nil
	}
	var w writer
	var omi writer // what KHR cannot hold, in OMI form, for extras
	if b != nil {
		if m := b.Motion; m != nil {
			if m.Type == MotionStatic {
				omi.raw("motion", (&Body{Motion: m}).encodeMotionOnly())
			} else {
				var mw writer
				if m.Type == MotionKinematic {
					mw.set("isKinematic", true)
				}
				mw.set("mass", m.Mass)
				mw.set("centerOfMass", m.CenterOfMass)
				if m.InertiaDiagonal != [3]float64{} || m.InertiaInfinite {
					// A written [0, 0, 0] is infinite in KHR: an inertia
					// left to the engine is not written at all.
					mw.set("inertiaDiagonal", m.InertiaDiagonal)
					mw.set("inertiaOrientation", m.InertiaOrientation)
				} else if m.InertiaOrientation != [4]float64{0, 0, 0, 1} {
					// One the file gives alone stays (a save keeps what
					// nobody edited).
					mw.set("inertiaOrientation", m.InertiaOrientation)
				}
				mw.set("linearVelocity", m.LinearVelocity)
				mw.set("angularVelocity", m.AngularVelocity)
				mw.set("gravityFactor", m.GravityFactor)
				mw.rest(m.Extra)
				w.raw("motion", mw.bytes())
			}
		}
		if c := b.Collider; c != nil {
			if c.Shape < 0 {
				var cw writer
				cw.set("shape", -1)
				cw.ref("physicsMaterial", c.PhysicsMaterial)
				cw.ref("collisionFilter", c.CollisionFilter)
				cw.rest(c.Extra)
				omi.raw("collider", cw.bytes())
			} else {
				var cw writer
				cw.raw("geometry", d.khrGeometryJSON(n, c.Shape))
				if c.PhysicsMaterial >= 0 {
					cw.set("physicsMaterial", c.PhysicsMaterial)
				}
				if c.CollisionFilter >= 0 {
					cw.set("collisionFilter", c.CollisionFilter)
				}
				cw.rest(c.Extra)
				w.raw("collider", cw.bytes())
			}
		}
		if t := b.Trigger; t != nil {
			var tw writer
			if t.Nodes != nil {
				tw.set("nodes", t.Nodes)
			} else if t.Shape >= 0 {
				tw.raw("geometry", d.khrGeometryJSON(n, t.Shape))
			}
			if t.CollisionFilter >= 0 {
				tw.set("collisionFilter", t.CollisionFilter)
			}
			tw.rest(t.Extra)
			w.raw("trigger", tw.bytes())
		}
	}
	if j := ne.Joint; j != nil {
		var jw writer
		jw.ref("connectedNode", j.ConnectedNode)
		jw.set("joint", j.Joint)
		jw.set("enableCollision", j.EnableCollision)
		jw.rest(j.Extra)
		w.raw("joint", jw.bytes())
	}
	var extra Members
	if b != nil {
		extra = b.Extra
	}
	if omi.obj.Len() > 0 {
		// Merge into the extras the file had, if any.
		x := &jsonobj.Object{}
		for _, m := range extra {
			if m.Key == "extras" {
				if o, err := jsonobj.Parse(m.Value); err == nil {
					x = o
				}
			}
		}
		x.Set(ExtBody, omi.bytes())
		xb, _ := x.MarshalJSON()
		w.raw("extras", xb)
	}
	w.rest(extra)
	return w.bytes()
}

// encodeMotionOnly is the OMI JSON of b's motion.
func (b *Body) encodeMotionOnly() json.RawMessage {
	var outer struct {
		Motion json.RawMessage `json:"motion"`
	}
	_ = json.Unmarshal((&Body{Motion: b.Motion}).encode(), &outer)
	return outer.Motion
}

func usedKHR(d *Document, used []string) []string {
	st := khrOf(d)
	if st == nil {
		return used
	}
	if !d.PhysicsDialect().KHRBodies() {
		for k := range khrOf(d).rawRoot {
			used = append(used, k)
		}
		if len(khrOf(d).rawNode) > 0 {
			used = append(used, ExtKHRBodies)
		}
		return used
	}
	hasShape := len(d.rootExtra[ExtKHRShapes]) > 0
	if d.PhysicsDialect() == DialectGLTF21 {
		// Core shapes; a KHR_implicit_shapes block kept unread stays listed.
		_, kept := khrOf(d).rawRoot[ExtKHRShapes]
		hasShape = kept
	} else {
		// The plan, not khrIndex, so the list is right outside a save too.
		idx, _ := d.khrPlan()
		for _, k := range idx {
			hasShape = hasShape || k >= 0
		}
	}
	hasBody := (len(d.Shapes) > 0 && d.PhysicsDialect() == DialectKHR) || len(d.PhysicsMaterials) > 0 || len(d.CollisionFilters) > 0 || len(d.Joints) > 0 || len(d.rootExtra[ExtKHRBodies]) > 0
	for _, ne := range d.Nodes {
		hasBody = hasBody || ne.Body != nil || ne.Joint != nil
	}
	if hasShape {
		used = append(used, ExtKHRShapes)
	}
	if hasBody {
		used = append(used, ExtKHRBodies)
	}
	return used
}
