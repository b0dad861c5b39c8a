package khr

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/scene/gltf21"
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
}

// order places the KHR codec after the OMI ones (10 to 60) and
// KHR_materials_variants (70), as scene's orderKHRPhysics says.
const order = 80

// Where KHR_implicit_shapes keeps its shapes and KHR_physics_rigid_bodies
// its collision filters.
const (
	shapesPath  = "/extensions/" + scene.ExtKHRShapes + "/shapes"
	filtersPath = "/extensions/" + scene.ExtKHRBodies + "/collisionFilters"
)

func init() {
	scene.RegisterCodec(scene.Codec{
		Names:    []string{scene.ExtKHRShapes, scene.ExtKHRBodies},
		Order:    order,
		Decode:   decodeKHR,
		Patch:    patchKHR,
		Used:     usedKHR,
		Validate: validateKHR,
		Convert:  convertKHR,
		CodePrefix: func(path string) (string, bool) {
			_, ext, ok := strings.Cut(path, "/extensions/")
			ext, _, _ = strings.Cut(ext, "/")
			return "KHR_", ok && (ext == scene.ExtKHRShapes || ext == scene.ExtKHRBodies)
		},
		ShapeUnlisted: func(d *scene.Document, s int) bool {
			st := khrOf(d)
			return st != nil && st.khrIndexOf(s) < 0
		},
	})
}

func init() {
	// The KHR fork's codes and pointers come first, before any codec's
	// Align (Order 0, no names).
	scene.RegisterCodec(scene.Codec{Align: func(d *scene.Document, all []scene.Finding) []scene.Finding { return alignKHRFindings(d, all) }})
}

// khrOf returns the KHR codec's state on d, nil when the file had no KHR
// physics and no dialect change made one.
func khrOf(d *scene.Document) *khrState {
	st, _ := d.CodecState(scene.ExtKHRBodies).(*khrState)
	return st
}

// convertKHR is the KHR codec's Convert hook: a new state for dialect p
// and one line per thing p cannot carry (kept in "extras" or under type
// names p does not define, as the file comment says).
func convertKHR(d *scene.Document, from, p scene.PhysicsDialect) []string {
	st := &khrState{geomNode: map[int]int{}}
	if old := khrOf(d); old != nil {
		for k, v := range old.geomNode {
			st.geomNode[k] = v
		}
		st.meshForm = old.meshForm
		st.meshShape = old.meshShape
		if p == scene.DialectGLTF21 && from != scene.DialectGLTF21 {
			// glTF 2.1 lists mesh shapes in "shapes" (mesh, convexMesh).
			st.geomNode, st.meshShape, st.meshForm = map[int]int{}, nil, false
		}
	}
	d.SetCodecState(scene.ExtKHRBodies, st)
	warns := inertiaWarnings(d, p)
	warns = append(warns, gltf21.Warnings(d, p)...)
	switch p {
	case scene.DialectKHR:
		_, plan := khrPlan(d)
		return append(plan, warns...)
	case scene.DialectGLTF21:
		return append(gltf21Plan(d), warns...)
	}
	return warns // what OMI cannot hold, scene/omi says
}

// inertiaWarnings names the bodies whose inertia means something else in
// dialect p: a zero moment is computed in OMI and infinite in KHR, and an
// inertia of [0, 0, 0] written in a KHR file (infinite) has no OMI form.
func inertiaWarnings(d *scene.Document, p scene.PhysicsDialect) []string {
	var warns []string
	for i, ne := range d.Nodes {
		if ne.Body == nil || ne.Body.Motion == nil || ne.Body.Motion.Type != scene.MotionDynamic {
			continue
		}
		m := ne.Body.Motion
		id := m.InertiaDiagonal
		switch {
		case p == scene.DialectOMI && m.InertiaInfinite && id == [3]float64{}:
			// (InertiaInfinite stays set when the moments were edited since.)
			warns = append(warns, fmt.Sprintf("node %d %q: its KHR inertia [0, 0, 0] is infinite (it never turns), which OMI cannot say: written as [0, 0, 0], which OMI reads as computed", i, d.NodeName(i)))
		case id != [3]float64{} && (id[0] == 0 || id[1] == 0 || id[2] == 0):
			from, to := "computed in OMI", "infinite in KHR"
			if p == scene.DialectOMI {
				from, to = "infinite in KHR", "computed in OMI"
			}
			warns = append(warns, fmt.Sprintf("node %d %q: the zero moments of its inertia %v, %s, are %s", i, d.NodeName(i), id, from, to))
		}
	}
	return warns
}

// isKHRShape reports whether KHR_implicit_shapes defines the shape's type.
func isKHRShape(t scene.ShapeType) bool {
	switch t {
	case scene.ShapeBox, scene.ShapeSphere, scene.ShapeCapsule, scene.ShapeCylinder, scene.ShapePlane:
		return true
	}
	return false
}

func decodeKHR(d *scene.Document, fs *scene.Findings) {
	doc := d.GLTF
	rawShapes, hasShapes := scene.RawExtension(doc.Extensions, scene.ExtKHRShapes)
	rawBodies, hasBodies := scene.RawExtension(doc.Extensions, scene.ExtKHRBodies)
	nodeHas := false
	for _, n := range doc.Nodes {
		if _, ok := scene.RawExtension(n.Extensions, scene.ExtKHRBodies); ok {
			nodeHas = true
			break
		}
	}
	coreRaw, hasCore := gltf21.ShapesRaw(d)
	if !hasShapes && !hasBodies && !nodeHas && !hasCore {
		return
	}
	omi := len(d.Shapes) > 0 || len(d.PhysicsMaterials) > 0 || len(d.Joints) > 0
	for _, ne := range d.Nodes {
		omi = omi || ne.Body != nil || ne.Joint != nil
	}
	if omi {
		// Both dialects: the OMI one is the model; KHR is kept as it is.
		fs.Warnf("KHR_PHYSICS_BOTH_DIALECTS", "/extensions/"+scene.ExtKHRBodies, "the file has both OMI and KHR physics: OMI is shown and edited; the KHR blocks are kept unchanged")
		st := &khrState{rawRoot: map[string]json.RawMessage{}, rawNode: map[int]json.RawMessage{}}
		if hasShapes {
			st.rawRoot[scene.ExtKHRShapes] = rawShapes
		}
		if hasBodies {
			st.rawRoot[scene.ExtKHRBodies] = rawBodies
		}
		for i, n := range doc.Nodes {
			if raw, ok := scene.RawExtension(n.Extensions, scene.ExtKHRBodies); ok {
				st.rawNode[i] = raw
			}
		}
		d.SetCodecState(scene.ExtKHRBodies, st)
		return
	}
	st := &khrState{geomNode: map[int]int{}}
	d.SetCodecState(scene.ExtKHRBodies, st)
	d.ReadPhysicsAs(scene.DialectKHR)
	if gltf21.IsGLTF21(d) && (hasCore || !hasShapes) {
		// A glTF 2.1 file: colliders name the core shapes.
		d.ReadPhysicsAs(scene.DialectGLTF21)
		gltf21.Decode(d, coreRaw, hasCore, fs)
		if hasShapes {
			fs.Warnf("KHR_SHAPES_IN_GLTF21", "/extensions/"+scene.ExtKHRShapes, "a glTF 2.1 file names the core shapes; the KHR_implicit_shapes shapes are kept unread")
			st.rawRoot = map[string]json.RawMessage{scene.ExtKHRShapes: rawShapes}
			hasShapes = false
		}
	}
	if hasShapes {
		base := "/extensions/" + scene.ExtKHRShapes
		if r := scene.NewReader(rawShapes, base, fs); r != nil {
			for i, raw := range r.Array("shapes") {
				d.Shapes = append(d.Shapes, decodeKHRShape(raw, r.At("shapes")+"/"+strconv.Itoa(i), fs))
			}
			d.SetRootExtra(scene.ExtKHRShapes, r.Rest())
		}
	}
	if hasBodies {
		base := "/extensions/" + scene.ExtKHRBodies
		if r := scene.NewReader(rawBodies, base, fs); r != nil {
			for i, m := range r.Array("physicsMaterials") {
				d.PhysicsMaterials = append(d.PhysicsMaterials, scene.DecodePhysicsMaterial(m, r.At("physicsMaterials")+"/"+strconv.Itoa(i), fs))
			}
			for i, c := range r.Array("collisionFilters") {
				d.CollisionFilters = append(d.CollisionFilters, scene.DecodeCollisionFilter(c, r.At("collisionFilters")+"/"+strconv.Itoa(i), fs))
			}
			for i, j := range r.Array("physicsJoints") {
				d.Joints = append(d.Joints, scene.DecodeJointSettings(j, r.At("physicsJoints")+"/"+strconv.Itoa(i), fs))
			}
			d.SetRootExtra(scene.ExtKHRBodies, r.Rest())
		}
	}
	meshShapes := map[[2]int]int{} // (node, convex) -> model shape
	for i, n := range doc.Nodes {
		raw, ok := scene.RawExtension(n.Extensions, scene.ExtKHRBodies)
		if !ok {
			continue
		}
		path := fmt.Sprintf("/nodes/%d/extensions/%s", i, scene.ExtKHRBodies)
		decodeKHRNode(d, i, raw, path, fs, meshShapes)
	}
	khrSchema(d, fs) // the KHR fork's schema-level rules (khr_fork.go)
}

// decodeKHRShape reads one KHR_implicit_shapes shape: the OMI layout with
// KHR's defaults (capsule and cylinder: height 0.5, radii 0.25).
func decodeKHRShape(raw json.RawMessage, path string, fs *scene.Findings) scene.Shape {
	s := scene.DecodeShape(raw, path, fs, false)
	if s.Type != scene.ShapeCapsule && s.Type != scene.ShapeCylinder {
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
func khrGeometry(d *scene.Document, g *scene.Reader, fs *scene.Findings, meshShapes map[[2]int]int) int {
	if g == nil {
		return -1
	}
	hull := g.Bool("convexHull", false)
	var named []string
	for _, k := range []string{"shape", "mesh", "node"} {
		if g.Has(k) {
			named = append(named, k)
		}
	}
	switch len(named) {
	case 0:
		fs.Errorf("KHR_GEOMETRY_NO_SHAPE", g.Path(), "geometry names neither a shape nor a mesh")
		return -1
	case 1:
	default:
		fs.Errorf("KHR_GEOMETRY_SHAPE_AND_MESH", g.Path(), "geometry names %v; exactly one of shape and mesh (or node) may be set: %s is used", named, named[0])
	}
	convex := 0
	if hull {
		convex = 1
	}
	switch named[0] {
	case "shape":
		// An index out of range is reported once, by validation.
		s := g.Index("shape", -1)
		if hull {
			fs.Warnf("KHR_UNKNOWN_PROPERTY", g.At("convexHull"), "convexHull applies to a mesh, not to a shape")
		}
		if rest := g.Rest(); len(rest) > 0 {
			fs.Warnf("KHR_UNKNOWN_PROPERTY", g.Path(), "geometry keys %v are not kept", keysOf(rest))
		}
		return s
	case "mesh":
		m := g.Index("mesh", -1)
		if rest := g.Rest(); len(rest) > 0 {
			fs.Warnf("KHR_UNKNOWN_PROPERTY", g.Path(), "geometry keys %v are not kept", keysOf(rest))
		}
		if m < 0 || m >= len(d.GLTF.Meshes) {
			fs.Errorf("KHR_UNRESOLVED_REFERENCE", g.At("mesh"), "mesh %d does not exist (the file has %d meshes)", m, len(d.GLTF.Meshes))
			return -1
		}
		khrOf(d).meshForm = true
		key := [2]int{-2 - m, convex} // apart from node keys
		if s, ok := meshShapes[key]; ok {
			return s
		}
		idx := addMeshShape(d, m, hull)
		meshShapes[key] = idx
		if khrOf(d).meshShape == nil {
			khrOf(d).meshShape = map[int]bool{}
		}
		khrOf(d).meshShape[idx] = true
		return idx
	}
	n := g.Index("node", -1)
	if n < 0 || n >= len(d.GLTF.Nodes) || d.GLTF.Nodes[n].Mesh == nil {
		fs.Errorf("KHR_UNRESOLVED_REFERENCE", g.At("node"), "geometry node %d does not exist or has no mesh", n)
		return -1
	}
	if rest := g.Rest(); len(rest) > 0 {
		fs.Warnf("KHR_UNKNOWN_PROPERTY", g.Path(), "geometry keys %v are not kept", keysOf(rest))
	}
	if s, ok := meshShapes[[2]int{n, convex}]; ok {
		return s
	}
	idx := addMeshShape(d, *d.GLTF.Nodes[n].Mesh, hull)
	meshShapes[[2]int{n, convex}] = idx
	khrOf(d).geomNode[idx] = n
	if len(d.Children(n)) > 0 {
		fs.Warnf("KHR_GEOMETRY_NODE_CHILDREN", g.At("node"), "only the mesh of %s itself is used, not those of its children", d.NodeRef(n))
	}
	return idx
}

// addMeshShape appends a trimesh (or, hull, convex) model shape of mesh m.
func addMeshShape(d *scene.Document, m int, hull bool) int {
	t := scene.ShapeTrimesh
	if hull {
		t = scene.ShapeConvex
	}
	s := scene.DefaultShape(t)
	s.Mesh = m
	d.Shapes = append(d.Shapes, s)
	return len(d.Shapes) - 1
}

func keysOf(m scene.Members) []string {
	var out []string
	for _, mem := range m {
		out = append(out, mem.Key)
	}
	return out
}

func decodeKHRNode(d *scene.Document, i int, raw json.RawMessage, path string, fs *scene.Findings, meshShapes map[[2]int]int) {
	r := scene.NewReader(raw, path, fs)
	if r == nil {
		return
	}
	ne := &d.Nodes[i]
	b := &scene.Body{}
	if m := r.Object("motion"); m != nil {
		mo := scene.DefaultMotion(scene.MotionDynamic)
		if m.Bool("isKinematic", false) {
			mo.Type = scene.MotionKinematic
		}
		mo.Mass = m.Number("mass", mo.Mass)
		if mo.Mass == 0 {
			fs.Infof("KHR_MASS_ZERO", m.At("mass"), "mass 0 means infinite mass in KHR_physics_rigid_bodies")
		}
		mo.CenterOfMass = m.Vec3("centerOfMass", mo.CenterOfMass)
		mo.InertiaDiagonal = m.Vec3("inertiaDiagonal", mo.InertiaDiagonal)
		if d := mo.InertiaDiagonal; m.Has("inertiaDiagonal") && (d[0] == 0 || d[1] == 0 || d[2] == 0) {
			mo.InertiaInfinite = d == [3]float64{}
			fs.Infof("KHR_INERTIA_ZERO", m.At("inertiaDiagonal"), "a zero moment of inertia means an infinite one in KHR_physics_rigid_bodies: the body does not turn about that axis")
		}
		mo.InertiaOrientation = m.Vec4("inertiaOrientation", mo.InertiaOrientation)
		mo.LinearVelocity = m.Vec3("linearVelocity", mo.LinearVelocity)
		mo.AngularVelocity = m.Vec3("angularVelocity", mo.AngularVelocity)
		mo.GravityFactor = m.Number("gravityFactor", mo.GravityFactor)
		mo.Extra = m.Rest()
		b.Motion = &mo
	}
	if c := r.Object("collider"); c != nil {
		col := &scene.Collider{Shape: -1, PhysicsMaterial: c.Index("physicsMaterial", -1), CollisionFilter: c.Index("collisionFilter", -1)}
		g := c.Object("geometry")
		if g == nil && !c.Has("geometry") {
			fs.Errorf("KHR_UNDEFINED_PROPERTY", c.At("geometry"), "a collider needs a geometry")
		}
		col.Shape = khrGeometry(d, g, fs, meshShapes)
		col.Extra = c.Rest()
		b.Collider = col
	}
	if t := r.Object("trigger"); t != nil {
		tr := &scene.Trigger{Shape: -1, CollisionFilter: t.Index("collisionFilter", -1)}
		if t.Has("nodes") && t.Has("geometry") {
			fs.Errorf("KHR_MUTUALLY_EXCLUSIVE", t.Path(), "trigger has both geometry and nodes; only one may be set (nodes is used)")
		}
		if nodes, ok := t.Indices("nodes"); ok {
			tr.Nodes = nodes
		} else {
			tr.Shape = khrGeometry(d, t.Object("geometry"), fs, meshShapes)
		}
		tr.Extra = t.Rest()
		b.Trigger = tr
	}
	if j := r.Object("joint"); j != nil {
		ne.Joint = &scene.NodeJoint{
			Joint:           j.Index("joint", -1),
			ConnectedNode:   j.Index("connectedNode", -1),
			EnableCollision: j.Bool("enableCollision", false),
			Extra:           j.Rest(),
		}
		if j.Has("connectedNode") && ne.Joint.ConnectedNode == -1 {
			// -1 is also what an absent connectedNode reads as (the fork
			// accepts that, validateJoint leaves it to the fork): written
			// out, it is an index that does not exist.
			fs.Errorf("UNRESOLVED_REFERENCE", j.At("connectedNode"), "connected node -1 is not a node index")
		}
	}
	// What an OMI -> KHR conversion put in extras comes back.
	if x := r.Object("extras"); x != nil {
		if omi, ok := x.Raw(scene.ExtBody); ok {
			var sub scene.Findings
			if ob, _ := scene.DecodeBody(omi, x.At(scene.ExtBody), &sub); ob != nil {
				if ob.Motion != nil && b.Motion == nil {
					b.Motion = ob.Motion
				}
				if ob.Collider != nil && b.Collider == nil {
					b.Collider = ob.Collider
				}
			}
		}
		if rest := x.Rest(); len(rest) > 0 {
			var w scene.Writer
			w.Rest(rest)
			r.Use("extras")
			b.Extra = append(b.Extra, scene.Member{Key: "extras", Value: w.Bytes()})
		} else {
			r.Use("extras")
		}
	}
	b.Extra = append(b.Extra, r.Rest()...)
	if b.Motion != nil || b.Collider != nil || b.Trigger != nil || len(b.Extra) > 0 {
		ne.Body = b
	}
}

// khrPlan works out where each model shape goes in a KHR save: its index in
// KHR_implicit_shapes, or -1 when every collider and trigger using it can
// name a node that carries its mesh. It returns the warnings of the save.
func khrPlan(d *scene.Document) ([]int, []string) {
	var warns []string
	idx := make([]int, len(d.Shapes))
	for i, s := range d.Shapes {
		idx[i] = -2 // not decided
		if s.Type == scene.ShapeConvex || s.Type == scene.ShapeTrimesh {
			idx[i] = -1
		}
	}
	used := make([]bool, len(idx))
	for _, ne := range d.Nodes {
		if ne.Body == nil {
			continue
		}
		for _, s := range []int{scene.ColliderShape(ne.Body), scene.TriggerShape(ne.Body)} {
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
		case s.Type == scene.ShapeConvex || s.Type == scene.ShapeTrimesh:
			warns = append(warns, fmt.Sprintf("shape %d: no collider's node carries mesh %d (or none uses the shape), so the %s is written as a KHR_implicit_shapes entry of type %q, which KHR readers do not know", i, s.Mesh, s.Type, s.Type))
		case !isKHRShape(s.Type):
			warns = append(warns, fmt.Sprintf("shape %d: %s is not a KHR_implicit_shapes type; written with type %q, which KHR readers do not know", i, s.Type, s.Type))
		}
	}
	return idx, append(warns, khrNodeWarnings(d)...)
}

// khrNodeWarnings names what KHR_physics_rigid_bodies (in KHR and glTF
// 2.1 files) cannot hold of the nodes' bodies and gravity.
func khrNodeWarnings(d *scene.Document) []string {
	var warns []string
	for n, ne := range d.Nodes {
		name := nodeLabel(d, n)
		if b := ne.Body; b != nil {
			if c := b.Collider; c != nil && c.Shape >= 0 && c.Shape < len(d.Shapes) && d.Shapes[c.Shape].Type == scene.ShapeTrimesh && d.BodyMotion(n) == scene.MotionDynamic {
				warns = append(warns, fmt.Sprintf("node %s: a trimesh collider on a dynamic body, which KHR readers play as its convex hull (the Sample Renderer's PhysX does)", name))
			}
			if b.Motion != nil && b.Motion.Type == scene.MotionStatic {
				warns = append(warns, fmt.Sprintf("node %s: KHR has no static motion (a collider without motion is static); the OMI motion is kept in the KHR extension's extras", name))
			}
			if b.Collider != nil && b.Collider.Shape < 0 {
				warns = append(warns, fmt.Sprintf("node %s: KHR has no shapeless compound collider (a body's descendant colliders form it); kept in extras", name))
			}
		}
	}
	for n, ne := range d.Nodes {
		if g := ne.Gravity; g != nil && g.Shape >= 0 {
			warns = append(warns, fmt.Sprintf("node %s: the gravity field's shape index refers to OMI_physics_shape, which a KHR file does not have", nodeLabel(d, n)))
		}
	}
	return warns
}

func nodeLabel(d *scene.Document, n int) string {
	if n >= 0 && n < len(d.GLTF.Nodes) && d.GLTF.Nodes[n].Name != "" {
		return fmt.Sprintf("%d %q", n, d.GLTF.Nodes[n].Name)
	}
	return strconv.Itoa(n)
}

// khrMeshNode returns a node carrying the mesh of model shape s for a
// collider or trigger on node n: the node it was read from, n itself, or
// any node with that mesh and no transform; -1 if none.
func khrMeshNode(d *scene.Document, n, s int) int {
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

func patchKHR(d *scene.Document, node int, blocks map[string]json.RawMessage) {
	st := khrOf(d)
	if st == nil {
		return
	}
	gltf21.Patch(d, node, blocks, func() []int { return gltf21Index(d) })
	if !d.PhysicsDialect().KHRBodies() {
		// OMI document: keep KHR blocks that were there unchanged.
		if node < 0 {
			for k, v := range st.rawRoot {
				blocks[k] = v
			}
		} else if v, ok := st.rawNode[node]; ok {
			blocks[scene.ExtKHRBodies] = v
		}
		return
	}
	if node < 0 {
		var idx []int
		var warns []string
		var shapes []json.RawMessage
		if d.PhysicsDialect() == scene.DialectGLTF21 {
			// The shapes are the core list (gltf21.Patch); KHR_implicit_shapes
			// a 2.1 file also had is kept as it was.
			idx, warns = gltf21Index(d), gltf21Plan(d)
			for k, v := range st.rawRoot {
				blocks[k] = v
			}
		} else {
			idx, warns = khrPlan(d)
			for i, s := range d.Shapes {
				if idx[i] >= 0 {
					shapes = append(shapes, scene.EncodeShape(s))
				}
			}
		}
		st.khrIndex = idx
		d.AddSaveWarnings(warns...)
		if len(shapes) > 0 || len(d.RootExtra(scene.ExtKHRShapes)) > 0 {
			var w scene.Writer
			if len(shapes) > 0 {
				w.Set("shapes", shapes)
			}
			w.Rest(d.RootExtra(scene.ExtKHRShapes))
			blocks[scene.ExtKHRShapes] = w.Bytes()
		}
		if len(d.PhysicsMaterials) > 0 || len(d.CollisionFilters) > 0 || len(d.Joints) > 0 || len(d.RootExtra(scene.ExtKHRBodies)) > 0 {
			var w scene.Writer
			if len(d.PhysicsMaterials) > 0 {
				scene.WriteList(&w, "physicsMaterials", d.PhysicsMaterials)
			}
			if len(d.CollisionFilters) > 0 {
				scene.WriteList(&w, "collisionFilters", d.CollisionFilters)
			}
			if len(d.Joints) > 0 {
				w.Set("physicsJoints", encodeJoints(scene.SplitJointSettings(d.Joints))) // fork.go
			}
			w.Rest(d.RootExtra(scene.ExtKHRBodies))
			blocks[scene.ExtKHRBodies] = w.Bytes()
		}
		return
	}
	if node >= len(d.Nodes) {
		return
	}
	if raw := encodeKHRNode(d, node); raw != nil {
		blocks[scene.ExtKHRBodies] = raw
	}
}

// khrGeometryJSON is the geometry object for model shape s on node n.
func khrGeometryJSON(d *scene.Document, n, s int) json.RawMessage {
	var g scene.Writer
	idx := khrOf(d).khrIndex
	switch {
	case s >= 0 && s < len(idx) && idx[s] >= 0:
		g.Set("shape", idx[s])
	case s >= 0 && s < len(idx) && (khrOf(d).meshForm || khrMeshNode(d, n, s) < 0):
		// No node carries the mesh (a compound's hulls): the current
		// draft's geometry.mesh names it.
		g.Set("mesh", d.Shapes[s].Mesh)
		g.Set("convexHull", d.Shapes[s].Type == scene.ShapeConvex)
	case s >= 0 && s < len(idx):
		g.Set("node", khrMeshNode(d, n, s))
		g.Set("convexHull", d.Shapes[s].Type == scene.ShapeConvex)
	default:
		g.Set("shape", s)
	}
	return g.Bytes()
}

func encodeKHRNode(d *scene.Document, n int) json.RawMessage {
	ne := d.Nodes[n]
	b := ne.Body
	if b == nil && ne.Joint == nil {
		return nil
	}
	var w scene.Writer
	var omi scene.Writer // what KHR cannot hold, in OMI form, for extras
	if b != nil {
		if m := b.Motion; m != nil {
			if m.Type == scene.MotionStatic {
				omi.Raw("motion", encodeMotionOnly(&scene.Body{Motion: m}))
			} else {
				var mw scene.Writer
				if m.Type == scene.MotionKinematic {
					mw.Set("isKinematic", true)
				}
				mw.Set("mass", m.Mass)
				mw.Set("centerOfMass", m.CenterOfMass)
				if m.InertiaDiagonal != [3]float64{} || m.InertiaInfinite {
					// A written [0, 0, 0] is infinite in KHR: an inertia
					// left to the engine is not written at all.
					mw.Set("inertiaDiagonal", m.InertiaDiagonal)
					mw.Set("inertiaOrientation", m.InertiaOrientation)
				} else if m.InertiaOrientation != [4]float64{0, 0, 0, 1} {
					// One the file gives alone stays (a save keeps what
					// nobody edited).
					mw.Set("inertiaOrientation", m.InertiaOrientation)
				}
				mw.Set("linearVelocity", m.LinearVelocity)
				mw.Set("angularVelocity", m.AngularVelocity)
				mw.Set("gravityFactor", m.GravityFactor)
				mw.Rest(m.Extra)
				w.Raw("motion", mw.Bytes())
			}
		}
		if c := b.Collider; c != nil {
			if c.Shape < 0 {
				var cw scene.Writer
				cw.Set("shape", -1)
				ref(&cw, "physicsMaterial", c.PhysicsMaterial)
				ref(&cw, "collisionFilter", c.CollisionFilter)
				cw.Rest(c.Extra)
				omi.Raw("collider", cw.Bytes())
			} else {
				var cw scene.Writer
				cw.Raw("geometry", khrGeometryJSON(d, n, c.Shape))
				if c.PhysicsMaterial >= 0 {
					cw.Set("physicsMaterial", c.PhysicsMaterial)
				}
				if c.CollisionFilter >= 0 {
					cw.Set("collisionFilter", c.CollisionFilter)
				}
				cw.Rest(c.Extra)
				w.Raw("collider", cw.Bytes())
			}
		}
		if t := b.Trigger; t != nil {
			var tw scene.Writer
			if t.Nodes != nil {
				tw.Set("nodes", t.Nodes)
			} else if t.Shape >= 0 {
				tw.Raw("geometry", khrGeometryJSON(d, n, t.Shape))
			}
			if t.CollisionFilter >= 0 {
				tw.Set("collisionFilter", t.CollisionFilter)
			}
			tw.Rest(t.Extra)
			w.Raw("trigger", tw.Bytes())
		}
	}
	if j := ne.Joint; j != nil {
		var jw scene.Writer
		ref(&jw, "connectedNode", j.ConnectedNode)
		jw.Set("joint", j.Joint)
		jw.Set("enableCollision", j.EnableCollision)
		jw.Rest(j.Extra)
		w.Raw("joint", jw.Bytes())
	}
	var extra scene.Members
	if b != nil {
		extra = b.Extra
	}
	if omi.Len() > 0 {
		// Merge into the extras the file had, if any.
		x := &jsonobj.Object{}
		for _, m := range extra {
			if m.Key == "extras" {
				if o, err := jsonobj.Parse(m.Value); err == nil {
					x = o
				}
			}
		}
		x.Set(scene.ExtBody, omi.Bytes())
		xb, _ := x.MarshalJSON()
		w.Raw("extras", xb)
	}
	w.Rest(extra)
	return w.Bytes()
}

// encodeMotionOnly is the OMI JSON of b's motion.
func encodeMotionOnly(b *scene.Body) json.RawMessage {
	var outer struct {
		Motion json.RawMessage `json:"motion"`
	}
	_ = json.Unmarshal(scene.EncodeBody(&scene.Body{Motion: b.Motion}), &outer)
	return outer.Motion
}

func usedKHR(d *scene.Document, used []string) []string {
	st := khrOf(d)
	if st == nil {
		return used
	}
	if !d.PhysicsDialect().KHRBodies() {
		for k := range khrOf(d).rawRoot {
			used = append(used, k)
		}
		if len(khrOf(d).rawNode) > 0 {
			used = append(used, scene.ExtKHRBodies)
		}
		return used
	}
	hasShape := len(d.RootExtra(scene.ExtKHRShapes)) > 0
	if d.PhysicsDialect() == scene.DialectGLTF21 {
		// Core shapes; a KHR_implicit_shapes block kept unread stays listed.
		_, kept := khrOf(d).rawRoot[scene.ExtKHRShapes]
		hasShape = kept
	} else {
		// The plan, not khrIndex, so the list is right outside a save too.
		idx, _ := khrPlan(d)
		for _, k := range idx {
			hasShape = hasShape || k >= 0
		}
	}
	hasBody := (len(d.Shapes) > 0 && d.PhysicsDialect() == scene.DialectKHR) || len(d.PhysicsMaterials) > 0 || len(d.CollisionFilters) > 0 || len(d.Joints) > 0 || len(d.RootExtra(scene.ExtKHRBodies)) > 0
	for _, ne := range d.Nodes {
		hasBody = hasBody || ne.Body != nil || ne.Joint != nil
	}
	if hasShape {
		used = append(used, scene.ExtKHRShapes)
	}
	if hasBody {
		used = append(used, scene.ExtKHRBodies)
	}
	return used
}

// ref writes index i as key unless it is negative (none).
func ref(w *scene.Writer, key string, i int) {
	if i >= 0 {
		w.Set(key, i)
	}
}

// mustJSON is the JSON of v, which cannot fail for the values given.
func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
