package diff

import (
	"fmt"
	"math"
	"strings"

	"physview/scene"
)

// Physics is compared in the scene model, where OMI and KHR files read
// alike: a node's motion, collider, trigger, gravity field and joint, and
// the world gravity. Shapes, physics materials and collision filters are
// compared by content wherever a node uses them, never by index.

// dialect pointers: where each dialect keeps a node's blocks (glTF 2.1
// keeps bodies and joints in KHR_physics_rigid_bodies as the KHR drafts do).
func bodyPtr(d *scene.Document, n int) string {
	if d.PhysicsDialect().KHRBodies() {
		return ptr("nodes", n, "extensions", scene.ExtKHRBodies)
	}
	return ptr("nodes", n, "extensions", scene.ExtBody)
}

func jointPtr(d *scene.Document, n int) string {
	if d.PhysicsDialect().KHRBodies() {
		return bodyPtr(d, n) + "/joint"
	}
	return ptr("nodes", n, "extensions", scene.ExtJoint)
}

func gravityPtr(n int) string { return ptr("nodes", n, "extensions", scene.ExtGravity) }

// shapePtr points at the shape collider or trigger of node n uses: the
// OMI shapes entry, or the KHR collider's geometry (whose index in the
// file the model does not keep).
func shapePtr(d *scene.Document, n int, shape int, part string) string {
	if d.PhysicsDialect().KHRBodies() || shape < 0 {
		return bodyPtr(d, n) + "/" + part + "/geometry"
	}
	return ptr("extensions", scene.ExtShape, "shapes", shape)
}

func listPtr(d *scene.Document, list string, i int) string {
	ext := scene.ExtBody
	if d.PhysicsDialect().KHRBodies() {
		ext = scene.ExtKHRBodies
	}
	return ptr("extensions", ext, list, i)
}

// shapeText describes shape i of s: its type and parameters, a mesh named
// by its name.
func (c *comparer) shapeText(s *side, i int) string {
	if i < 0 || i >= len(s.d.Shapes) {
		return fmt.Sprintf("shape %d (missing)", i)
	}
	sh := s.d.Shapes[i]
	if sh.Type.UsesMesh() {
		return fmt.Sprintf("%s of mesh %s", sh.Type, meshName(s.d, sh.Mesh))
	}
	return strings.TrimSpace(sh.Type.String() + " " + sh.Params())
}

// shapeKey is shape i's content as a comparable string.
func (c *comparer) shapeKey(s *side, i int) string {
	if i < 0 {
		return "none"
	}
	if i >= len(s.d.Shapes) {
		return fmt.Sprint("missing ", i)
	}
	sh := s.d.Shapes[i]
	if sh.Type.UsesMesh() {
		return sh.Type.String() + " mesh " + c.meshID(s, sh.Mesh)
	}
	return sh.Type.String() + " " + sh.Params() + canonicalString(sh.Heights) + canonicalString(sh.Curves)
}

func meshName(d *scene.Document, m int) string {
	if m < 0 || m >= len(d.GLTF.Meshes) {
		return fmt.Sprintf("%d (missing)", m)
	}
	if d.GLTF.Meshes[m].Name != "" {
		return fmt.Sprintf("%q", d.GLTF.Meshes[m].Name)
	}
	return fmt.Sprint(m)
}

// motionOf returns the node's motion, nil for none or a static one: a
// static body and a collider without motion behave alike, and KHR writes
// the first as the second.
func motionOf(d *scene.Document, n int) *scene.Motion {
	b := d.Nodes[n].Body
	if b == nil || b.Motion == nil || b.Motion.Type == scene.MotionStatic {
		return nil
	}
	return b.Motion
}

func colliderOf(d *scene.Document, n int) *scene.Collider {
	if b := d.Nodes[n].Body; b != nil {
		return b.Collider
	}
	return nil
}

func triggerOf(d *scene.Document, n int) *scene.Trigger {
	if b := d.Nodes[n].Body; b != nil {
		return b.Trigger
	}
	return nil
}

// physicsSignature is node n's physics as text (for matching renamed nodes).
func (c *comparer) physicsSignature(s *side, n int) string {
	var sb strings.Builder
	if m := motionOf(s.d, n); m != nil {
		fmt.Fprintf(&sb, "motion %s %.6g;", m.Type, m.Mass)
	}
	if col := colliderOf(s.d, n); col != nil {
		sb.WriteString("collider " + c.shapeKey(s, col.Shape) + ";")
	}
	if t := triggerOf(s.d, n); t != nil {
		sb.WriteString("trigger " + c.shapeKey(s, t.Shape) + ";")
	}
	if s.d.Nodes[n].Joint != nil {
		sb.WriteString("joint;")
	}
	if s.d.Nodes[n].Gravity != nil {
		sb.WriteString("gravity " + s.d.Nodes[n].Gravity.Type.String())
	}
	return sb.String()
}

// motionText describes a motion in a few words.
func motionText(m *scene.Motion) string {
	return fmt.Sprintf("%s, mass %s kg", m.Type, num(m.Mass))
}

func (c *comparer) comparePhysics() {
	before := len(c.changes)
	a, b := c.a.d, c.b.d
	for na := range a.GLTF.Nodes {
		nb, ok := c.nodeAB[na]
		if !ok {
			continue
		}
		c.compareMotion(na, nb)
		c.compareCollider(na, nb)
		c.compareTrigger(na, nb)
		c.compareGravity(na, nb)
		c.compareJoint(na, nb)
	}
	c.compareWorldGravity()
	if da, db := a.PhysicsDialect(), b.PhysicsDialect(); da != db && (hasPhysics(a) || hasPhysics(b)) {
		what := "physics equal"
		if n := len(c.changes) - before; n > 0 {
			what = fmt.Sprintf("%d physics changes listed", n)
		}
		c.addDoc(Physics, Changed, "/extensionsUsed", "/extensionsUsed", "dialect changed %s → %s, %s", strings.ToUpper(da.String()), strings.ToUpper(db.String()), what)
	}
}

func hasPhysics(d *scene.Document) bool {
	if len(d.Shapes) > 0 || d.WorldGravity != nil {
		return true
	}
	for _, n := range d.Nodes {
		if n.Body != nil || n.Joint != nil || n.Gravity != nil {
			return true
		}
	}
	return false
}

func (c *comparer) compareMotion(na, nb int) {
	a, b := c.a.d, c.b.d
	ma, mb := motionOf(a, na), motionOf(b, nb)
	pa, pb := bodyPtr(a, na)+"/motion", bodyPtr(b, nb)+"/motion"
	switch {
	case ma == nil && mb == nil:
		return
	case ma == nil:
		c.addNode(Physics, Added, na, nb, "", pb, "motion added: %s", motionText(mb))
		return
	case mb == nil:
		c.addNode(Physics, Removed, na, nb, pa, "", "motion removed (was %s)", motionText(ma))
		return
	}
	if ma.Type != mb.Type {
		c.addNode(Physics, Changed, na, nb, pa, pb, "motion type %s → %s", ma.Type, mb.Type)
	}
	field := func(name, unit string, x, y []float64) {
		if !approxSlice(x, y) {
			vx, vy := nums(x), nums(y)
			if len(x) == 1 {
				vx, vy = num(x[0]), num(y[0])
			}
			c.addNode(Physics, Changed, na, nb, pa+"/"+name, pb+"/"+name, "%s %s → %s%s", name, vx, vy, unit)
		}
	}
	field("mass", " kg", []float64{ma.Mass}, []float64{mb.Mass})
	inertia := func(m *scene.Motion) []float64 {
		if m.InertiaInfinite {
			return []float64{-1, -1, -1}
		}
		return m.InertiaDiagonal[:]
	}
	if !approxSlice(inertia(ma), inertia(mb)) {
		show := func(m *scene.Motion) string {
			switch {
			case m.InertiaInfinite:
				return "infinite"
			case m.InertiaDiagonal == [3]float64{}:
				return "computed"
			}
			return nums(m.InertiaDiagonal[:]) + " kg·m²"
		}
		c.addNode(Physics, Changed, na, nb, pa+"/inertiaDiagonal", pb+"/inertiaDiagonal", "inertia %s → %s", show(ma), show(mb))
	}
	field("inertiaOrientation", "", ma.InertiaOrientation[:], mb.InertiaOrientation[:])
	field("centerOfMass", " m", ma.CenterOfMass[:], mb.CenterOfMass[:])
	field("linearVelocity", " m/s", ma.LinearVelocity[:], mb.LinearVelocity[:])
	field("angularVelocity", " rad/s", ma.AngularVelocity[:], mb.AngularVelocity[:])
	field("gravityFactor", "", []float64{ma.GravityFactor}, []float64{mb.GravityFactor})
}

// partCompare compares the shape, material and filter a collider or
// trigger uses.
func (c *comparer) compareCollider(na, nb int) {
	a, b := c.a.d, c.b.d
	ca, cb := colliderOf(a, na), colliderOf(b, nb)
	pa, pb := bodyPtr(a, na)+"/collider", bodyPtr(b, nb)+"/collider"
	switch {
	case ca == nil && cb == nil:
		return
	case ca == nil:
		c.addNode(Physics, Added, na, nb, "", pb, "collider added: %s", c.shapeText(c.b, cb.Shape))
		return
	case cb == nil:
		c.addNode(Physics, Removed, na, nb, pa, "", "collider removed (was %s)", c.shapeText(c.a, ca.Shape))
		return
	}
	c.compareShape("collider", na, nb, ca.Shape, cb.Shape)
	if ka, kb := c.materialKey(c.a, ca.PhysicsMaterial), c.materialKey(c.b, cb.PhysicsMaterial); ka != kb {
		c.addNode(Physics, Changed, na, nb, listPtr(a, "physicsMaterials", ca.PhysicsMaterial), listPtr(b, "physicsMaterials", cb.PhysicsMaterial),
			"collider material %s → %s", ka, kb)
	}
	if ka, kb := c.filterKey(c.a, ca.CollisionFilter), c.filterKey(c.b, cb.CollisionFilter); ka != kb {
		c.addNode(Physics, Changed, na, nb, listPtr(a, "collisionFilters", ca.CollisionFilter), listPtr(b, "collisionFilters", cb.CollisionFilter),
			"collider filter %s → %s", ka, kb)
	}
}

// compareShape reports a collider's or trigger's shape change: a resize
// when the type is the same, a new shape otherwise.
func (c *comparer) compareShape(part string, na, nb, sa, sb int) {
	if c.shapeKey(c.a, sa) == c.shapeKey(c.b, sb) {
		return
	}
	ta, tb := c.shapeText(c.a, sa), c.shapeText(c.b, sb)
	pa, pb := shapePtr(c.a.d, na, sa, part), shapePtr(c.b.d, nb, sb, part)
	if sa >= 0 && sb >= 0 && sa < len(c.a.d.Shapes) && sb < len(c.b.d.Shapes) && c.a.d.Shapes[sa].Type == c.b.d.Shapes[sb].Type {
		c.addNode(Physics, Changed, na, nb, pa, pb, "%s resized: %s → %s", part, ta, tb)
		return
	}
	c.addNode(Physics, Changed, na, nb, pa, pb, "%s shape changed: %s → %s", part, ta, tb)
}

// materialKey and filterKey describe a physics material or filter by
// content ("none" for -1).
func (c *comparer) materialKey(s *side, i int) string {
	if i < 0 || i >= len(s.d.PhysicsMaterials) {
		return "none"
	}
	m := s.d.PhysicsMaterials[i]
	return fmt.Sprintf("{friction %s/%s, restitution %s, combine %s/%s}", num(m.StaticFriction), num(m.DynamicFriction), num(m.Restitution), m.FrictionCombine, m.RestitutionCombine)
}

func (c *comparer) filterKey(s *side, i int) string {
	if i < 0 || i >= len(s.d.CollisionFilters) {
		return "none"
	}
	f := s.d.CollisionFilters[i]
	return fmt.Sprintf("{systems %v, collide with %v, not with %v}", f.CollisionSystems, f.CollideWithSystems, f.NotCollideWithSystems)
}

func (c *comparer) triggerNodes(s *side, t *scene.Trigger) string {
	ids := make([]string, len(t.Nodes))
	for i, n := range t.Nodes {
		ids[i] = c.nodeID(s, n)
	}
	return strings.Join(ids, ",")
}

func (c *comparer) compareTrigger(na, nb int) {
	a, b := c.a.d, c.b.d
	ta, tb := triggerOf(a, na), triggerOf(b, nb)
	pa, pb := bodyPtr(a, na)+"/trigger", bodyPtr(b, nb)+"/trigger"
	switch {
	case ta == nil && tb == nil:
		return
	case ta == nil:
		c.addNode(Physics, Added, na, nb, "", pb, "trigger added: %s", c.triggerText(c.b, tb))
		return
	case tb == nil:
		c.addNode(Physics, Removed, na, nb, pa, "", "trigger removed (was %s)", c.triggerText(c.a, ta))
		return
	}
	if (ta.Nodes == nil) != (tb.Nodes == nil) || c.triggerNodes(c.a, ta) != c.triggerNodes(c.b, tb) {
		c.addNode(Physics, Changed, na, nb, pa+"/nodes", pb+"/nodes", "trigger %s → %s", c.triggerText(c.a, ta), c.triggerText(c.b, tb))
	} else if ta.Nodes == nil {
		c.compareShape("trigger", na, nb, ta.Shape, tb.Shape)
	}
	if ka, kb := c.filterKey(c.a, ta.CollisionFilter), c.filterKey(c.b, tb.CollisionFilter); ka != kb {
		c.addNode(Physics, Changed, na, nb, listPtr(a, "collisionFilters", ta.CollisionFilter), listPtr(b, "collisionFilters", tb.CollisionFilter),
			"trigger filter %s → %s", ka, kb)
	}
}

func (c *comparer) triggerText(s *side, t *scene.Trigger) string {
	if t.Nodes != nil {
		return fmt.Sprintf("compound of %d nodes", len(t.Nodes))
	}
	return c.shapeText(s, t.Shape)
}

// gravityPlain is a gravity field as plain values, its shape by content.
func (c *comparer) gravityPlain(s *side, g *scene.Gravity) any {
	p, ok := plain(g).(map[string]any)
	if !ok {
		p = map[string]any{}
	}
	delete(p, "Extra")
	delete(p, "SubExtra")
	p["Type"] = g.Type.String()
	p["Shape"] = c.shapeKey(s, g.Shape)
	return p
}

func (c *comparer) compareGravity(na, nb int) {
	ga, gb := c.a.d.Nodes[na].Gravity, c.b.d.Nodes[nb].Gravity
	pa, pb := gravityPtr(na), gravityPtr(nb)
	switch {
	case ga == nil && gb == nil:
		return
	case ga == nil:
		c.addNode(Physics, Added, na, nb, "", pb, "gravity field added: %s, %s m/s²", gb.Type, num(gb.Gravity))
		return
	case gb == nil:
		c.addNode(Physics, Removed, na, nb, pa, "", "gravity field removed (was %s, %s m/s²)", ga.Type, num(ga.Gravity))
		return
	}
	var parts []string
	diffValues(c.gravityPlain(c.a, ga), c.gravityPlain(c.b, gb), "", "", func(l leaf) {
		name := field(l)
		if name != "" {
			name = strings.ToLower(name[:1]) + name[1:]
		}
		parts = append(parts, fmt.Sprintf("%s %s → %s", name, show(l.va), show(l.vb)))
	})
	if len(parts) > 0 {
		c.addNode(Physics, Changed, na, nb, pa, pb, "gravity field: %s", strings.Join(parts, ", "))
	}
}

func (c *comparer) compareWorldGravity() {
	ga, gb := c.a.d.WorldGravity, c.b.d.WorldGravity
	text := func(g *scene.WorldGravity) string {
		if g == nil {
			return "none"
		}
		return fmt.Sprintf("%s m/s² towards %s", num(g.Gravity), nums(g.Direction[:]))
	}
	p := ptr("extensions", scene.ExtGravity)
	switch {
	case ga == nil && gb == nil:
	case ga == nil:
		c.addDoc(Physics, Added, "", p, "world gravity added: %s", text(gb))
	case gb == nil:
		c.addDoc(Physics, Removed, p, "", "world gravity removed (was %s)", text(ga))
	case !approx(ga.Gravity, gb.Gravity) || !approxSlice(ga.Direction[:], gb.Direction[:]):
		c.addDoc(Physics, Changed, p, p, "world gravity %s → %s", text(ga), text(gb))
	}
}

// finite returns x as a plain value: infinities (a free limit, an
// unlimited force) as the strings "inf" and "-inf", which JSON lacks.
func finite(x float64) any {
	switch {
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return x
}

// jointPlain is a joint's settings as plain values.
func jointPlain(d *scene.Document, j *scene.NodeJoint) any {
	if j.Joint < 0 || j.Joint >= len(d.Joints) {
		return "missing"
	}
	s := d.Joints[j.Joint].SplitLimits() // OMI's weld limit and KHR's two are one
	lims := make([]any, len(s.Limits))
	for i, l := range s.Limits {
		lims[i] = map[string]any{"linearAxes": plain(l.LinearAxes), "angularAxes": plain(l.AngularAxes),
			"min": finite(l.Min), "max": finite(l.Max), "stiffness": finite(l.Stiffness), "damping": finite(l.Damping)}
	}
	drives := make([]any, len(s.Drives))
	for i, dr := range s.Drives {
		m := map[string]any{"type": dr.Type, "mode": dr.Mode, "axis": float64(dr.Axis), "maxForce": finite(dr.MaxForce),
			"stiffness": finite(dr.Stiffness), "damping": finite(dr.Damping)}
		if dr.PositionTarget != nil {
			m["positionTarget"] = finite(*dr.PositionTarget)
		}
		if dr.VelocityTarget != nil {
			m["velocityTarget"] = finite(*dr.VelocityTarget)
		}
		drives[i] = m
	}
	return map[string]any{"limits": lims, "drives": drives}
}

func (c *comparer) jointText(s *side, n int, j *scene.NodeJoint) string {
	limits, drives := 0, 0
	if j.Joint >= 0 && j.Joint < len(s.d.Joints) {
		limits, drives = len(s.d.Joints[j.Joint].SplitLimits().Limits), len(s.d.Joints[j.Joint].Drives)
	}
	other := "nothing"
	if j.ConnectedNode >= 0 && j.ConnectedNode < len(s.d.GLTF.Nodes) {
		other = fmt.Sprintf("%q", s.d.NodeName(j.ConnectedNode))
	}
	return fmt.Sprintf("connected to %s, %d limits, %d drives", other, limits, drives)
}

func (c *comparer) compareJoint(na, nb int) {
	ja, jb := c.a.d.Nodes[na].Joint, c.b.d.Nodes[nb].Joint
	pa, pb := jointPtr(c.a.d, na), jointPtr(c.b.d, nb)
	switch {
	case ja == nil && jb == nil:
		return
	case ja == nil:
		c.addNode(Physics, Added, na, nb, "", pb, "joint added: %s", c.jointText(c.b, nb, jb))
		return
	case jb == nil:
		c.addNode(Physics, Removed, na, nb, pa, "", "joint removed (was %s)", c.jointText(c.a, na, ja))
		return
	}
	var parts []string
	if c.nodeID(c.a, ja.ConnectedNode) != c.nodeID(c.b, jb.ConnectedNode) {
		parts = append(parts, fmt.Sprintf("connected node %q → %q", c.a.d.NodeName(ja.ConnectedNode), c.b.d.NodeName(jb.ConnectedNode)))
	}
	if ja.EnableCollision != jb.EnableCollision {
		parts = append(parts, fmt.Sprintf("enableCollision %v → %v", ja.EnableCollision, jb.EnableCollision))
	}
	diffValues(jointPlain(c.a.d, ja), jointPlain(c.b.d, jb), "", "", func(l leaf) {
		switch {
		case !l.inA:
			parts = append(parts, fmt.Sprintf("%s added %s", leafPath(l), show(l.vb)))
		case !l.inB:
			parts = append(parts, fmt.Sprintf("%s removed", leafPath(l)))
		default:
			parts = append(parts, fmt.Sprintf("%s %s → %s", leafPath(l), show(l.va), show(l.vb)))
		}
	})
	if len(parts) > 0 {
		c.addNode(Physics, Changed, na, nb, pa, pb, "joint: %s", strings.Join(parts, ", "))
	}
}

// leafPath is a leaf's pointer below what was compared, without the leading
// slash ("settings" for the whole value).
func leafPath(l leaf) string {
	p := l.pa
	if !l.inA {
		p = l.pb
	}
	if p == "" {
		return "settings"
	}
	return p[1:]
}

// field is the last token of a leaf's pointer ("" for the whole value).
func field(l leaf) string {
	p := l.pa
	if !l.inA {
		p = l.pb
	}
	return p[strings.LastIndexByte(p, '/')+1:]
}
