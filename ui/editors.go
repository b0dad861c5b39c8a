package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"physview/internal/app"
	"physview/scene"
)

// The editors below read the model and hand every change to the window as
// an Action carrying a scene.Edit; they never assign a model field. The
// window applies the edit through the document's History (undo, redo,
// drawing and validation follow its Change).

// ed collects the edits a panel section asks for.
type ed struct {
	d   *scene.Document
	act func(app.Intent)
	// items, when set, is told where some widgets are (State.ItemLog).
	items func(name string, x, y float32)
}

func (e ed) do(x scene.Edit) { e.act(app.ApplyEdit{Edit: x}) }

const fieldWidth = 88

// num is a number field: typing a finite value calls set once per change.
func num(label string, v float64, set func(float64)) { numW(label, v, fieldWidth, set) }

func numW(label string, v float64, width float32, set func(float64)) {
	x := v
	imgui.SetNextItemWidth(width)
	if imgui.InputDoubleV(label, &x, 0, 0, "%.6g", 0) && x != v && !math.IsNaN(x) {
		set(x)
	}
}

// floatField is num as a giu widget.
func floatField(label string, v float64, set func(float64)) g.Widget {
	return g.Custom(func() { num(label, v, set) })
}

// vec3 is three number fields on one line.
func vec3(id, label string, v [3]float64, set func([3]float64)) {
	for i := range 3 {
		if i > 0 {
			imgui.SameLine()
		}
		lab := fmt.Sprintf("##%s%d", id, i)
		if i == 2 {
			lab = label + "##" + id
		}
		numW(lab, v[i], 64, func(x float64) {
			w := v
			w[i] = x
			set(w)
		})
	}
}

// combo picks one of items; set gets the new index.
func combo(label string, cur int, items []string, set func(int)) {
	comboWidth(label, 150, cur, items, set)
}

// comboWidth is combo with a width of its own, for items longer than
// combo's 150 pixels show.
func comboWidth(label string, width float32, cur int, items []string, set func(int)) {
	imgui.SetNextItemWidth(width)
	preview := "choose..."
	if cur >= 0 && cur < len(items) {
		preview = items[cur]
	}
	if imgui.BeginCombo(label, preview) {
		for i, it := range items {
			if imgui.SelectableBoolV(fmt.Sprintf("%s##%d", it, i), i == cur, 0, imgui.Vec2{}) && i != cur {
				set(i)
			}
		}
		imgui.EndCombo()
	}
}

func button(label string, f func()) {
	if imgui.Button(label) {
		f()
	}
}

func check(label string, v bool, set func(bool)) {
	x := v
	if imgui.Checkbox(label, &x) {
		set(x)
	}
}

// text is a text field; set gets the new text on every change.
func text(label string, v string, width float32, set func(string)) {
	x := v
	imgui.SetNextItemWidth(width)
	if imgui.InputTextWithHint(label, "", &x, 0, nil) && x != v {
		set(x)
	}
}

// textEnter is a text field whose value is taken when Enter is pressed (for
// lists, which would lose a trailing comma while being typed).
func textEnter(label string, v string, width float32, set func(string)) {
	x := v
	imgui.SetNextItemWidth(width)
	if imgui.InputTextWithHint(label, "Enter to apply", &x, imgui.InputTextFlagsEnterReturnsTrue, nil) && x != v {
		set(x)
	}
}

// shapeEdit is what a shape kind's Inspector fields work on: the shape,
// its index, widget ids and the edit that replaces it.
type shapeEdit struct {
	s   scene.Shape
	i   int
	id  func(name string) string
	set func(label string, ns scene.Shape)
}

// shapeEditors are the Inspector's fields for each shape kind, one entry
// per kind (TestShapeKindsInUI fails when a kind has none).
var shapeEditors = map[scene.ShapeType]func(e ed, c shapeEdit){
	scene.ShapeBox: func(e ed, c shapeEdit) {
		vec3(fmt.Sprintf("box%d", c.i), "size (m)", c.s.Size, func(v [3]float64) {
			ns := c.s
			ns.Size = v
			c.set("Resize box", ns)
		})
	},
	scene.ShapeSphere: func(e ed, c shapeEdit) {
		num(c.id("radius (m)"), c.s.Radius, func(v float64) { ns := c.s; ns.Radius = v; c.set("Resize sphere", ns) })
	},
	scene.ShapeCapsule:   roundFields,
	scene.ShapeCylinder:  roundFields,
	scene.ShapeGeneral:   g4Fields,
	scene.ShapePlane:     g4Fields,
	scene.ShapeRay:       g4Fields,
	scene.ShapeHeightmap: g4Fields,
	scene.ShapeConvex:    meshFields,
	scene.ShapeTrimesh:   meshFields,
}

// roundFields edit a capsule's or cylinder's height and radii.
func roundFields(e ed, c shapeEdit) {
	s := c.s
	h := "full height (m)"
	if s.Type == scene.ShapeCapsule {
		h = "mid height (m, between cap centres)"
	}
	num(c.id(h), s.Height, func(v float64) { ns := s; ns.Height = v; c.set("Resize "+s.Type.String(), ns) })
	num(c.id("radius top"), s.RadiusTop, func(v float64) { ns := s; ns.RadiusTop = v; c.set("Resize "+s.Type.String(), ns) })
	imgui.SameLine()
	num(c.id("bottom (m)"), s.RadiusBottom, func(v float64) { ns := s; ns.RadiusBottom = v; c.set("Resize "+s.Type.String(), ns) })
}

// g4Fields edit the G4MF kinds (general, plane, ray, heightmap).
func g4Fields(e ed, c shapeEdit) {
	if w, ok := G4ShapeEditor(fmt.Sprint(c.i), c.s, func(ns scene.Shape) { c.set("Edit "+c.s.Type.String()+" shape", ns) }); ok {
		w.Build()
	}
}

// meshFields choose the mesh of a convex or trimesh shape.
func meshFields(e ed, c shapeEdit) {
	meshes := []string{}
	for m, mesh := range e.d.GLTF.Meshes {
		meshes = append(meshes, fmt.Sprintf("%d %s", m, mesh.Name))
	}
	combo(c.id("mesh"), c.s.Mesh, meshes, func(m int) { ns := c.s; ns.Mesh = m; c.set("Set shape mesh", ns) })
}

func shapeTypeNames() []string {
	var names []string
	for _, t := range scene.ShapeTypes() {
		names = append(names, t.String())
	}
	return names
}

// shapeFields edits the parameters of shape i, the shape of node's collider
// (or trigger, when trigger is set): its type (keeping its size) and each
// dimension.
func (e ed) shapeFields(i int, node int, trigger bool) {
	d := e.d
	if i < 0 || i >= len(d.Shapes) {
		return
	}
	s := d.Shapes[i]
	set := func(label string, ns scene.Shape) { e.do(scene.SetShape{Index: i, Shape: ns, Label: label}) }
	id := func(name string) string { return fmt.Sprintf("%s##s%d", name, i) }
	types := scene.ShapeTypes()
	cur := -1
	for k, t := range types {
		if t == s.Type {
			cur = k
		}
	}
	combo(id("shape type"), cur, shapeTypeNames(), func(k int) {
		mesh := -1
		if node >= 0 && d.GLTF.Nodes[node].Mesh != nil {
			mesh = *d.GLTF.Nodes[node].Mesh
		}
		if types[k].UsesMesh() && mesh < 0 && s.Mesh < 0 {
			e.act(app.ShowError{Text: "a " + types[k].String() + " shape needs a mesh: select a node with a mesh, or use Fit to mesh"})
			return
		}
		set("Change shape type to "+types[k].String(), s.WithType(types[k], mesh))
	})
	if f, ok := shapeEditors[s.Type]; ok {
		f(e, shapeEdit{s: s, i: i, id: id, set: set})
	}
	if users := d.ShapeUsers(i); len(users) > 1 && node >= 0 {
		imgui.TextColored(warnColor, fmt.Sprintf("Shared by %d nodes: edits change all of them.", len(users)))
		if imgui.IsItemHovered() {
			// Which nodes, without a line that would move the widgets below.
			tip := "Also: " + app.SharedShapeOthers(d, node, i) + ".\nMake single gives " + d.NodeName(node) + " a copy of its own."
			imgui.SetTooltip(strings.ReplaceAll(tip, "%", "%%"))
		}
		imgui.SameLine()
		button(id("Make single"), func() { e.do(app.MakeSingleEdit(d, node, trigger)) })
	}
}

var warnColor = imgui.Vec4{X: 0.95, Y: 0.8, Z: 0.35, W: 1}

// shapeChoice is one entry of the add-collider and add-trigger menus.
type shapeChoice struct {
	Label string
	Type  scene.ShapeType
	// Fit fits a shape of Type to the node's mesh; else Type is added at
	// its default size.
	Fit bool
	// Header starts a group ("Fit to mesh", "Default size").
	Header string
}

// CompoundChoice is the Fit-to-mesh entry for a compound of convex hulls.
const CompoundChoice = "fit compound of convex hulls (concave mesh)..."

// addShapeChoices lists the menu's entries: for a node with a mesh the
// fits first (what people want), then every kind at its default size
// (the kinds built from a mesh only as fits).
func addShapeChoices(hasMesh bool) []shapeChoice {
	var out []shapeChoice
	if hasMesh {
		for i, t := range scene.ShapeTypes() {
			c := shapeChoice{Label: "fit " + t.String() + " to the mesh", Type: t, Fit: true}
			if i == 0 {
				c.Header = "Fit to mesh"
			}
			out = append(out, c)
		}
	}
	first := true
	for _, t := range scene.ShapeTypes() {
		if t.UsesMesh() {
			continue
		}
		c := shapeChoice{Label: t.String() + " (default size)", Type: t}
		if first {
			c.Header, first = "Default size", false
		}
		out = append(out, c)
	}
	return out
}

// addShapeMenu offers a shape fitted to the node's mesh (first, when it
// has one) or a new shape of each type; add gets the shape. compound, when
// set, is offered with the fits: a compound of convex hulls for a concave
// mesh (it opens its settings).
func (e ed) addShapeMenu(label string, n int, add func(scene.Shape), fit func(scene.ShapeType), compound func()) {
	d := e.d
	hasMesh := d.GLTF.Nodes[n].Mesh != nil
	preview := "choose a shape..."
	if hasMesh {
		preview = "fit to mesh or choose a shape..."
	}
	imgui.SetNextItemWidth(250)
	opened := imgui.BeginCombo(label, preview)
	if compound != nil {
		e.logItem("add collider")
	}
	if !opened {
		return
	}
	for _, c := range addShapeChoices(hasMesh) {
		if c.Header != "" {
			imgui.SeparatorText(c.Header)
		}
		if imgui.SelectableBool(c.Label) {
			if c.Fit {
				fit(c.Type)
			} else {
				add(scene.DefaultShape(c.Type))
			}
		}
		if c.Fit && c.Type == scene.ShapeConvex && compound != nil {
			// Right after the one convex hull: its concave-mesh sibling.
			if imgui.SelectableBool(CompoundChoice) {
				compound()
			}
			e.logItem("compound entry")
		}
	}
	imgui.EndCombo()
}

// motionFields edits node n's motion.
func (e ed) motionFields(n int, m *scene.Motion) {
	d := e.d
	set := func(label string, f func(m *scene.Motion)) {
		c := *m
		f(&c)
		e.do(d.SetMotionEdit(n, &c, label))
	}
	combo(fmt.Sprintf("motion##m%d", n), int(m.Type)-1, []string{"static", "kinematic", "dynamic"}, func(k int) {
		set("Set motion type", func(m *scene.Motion) { m.Type = scene.MotionType(k + 1) })
	})
	imgui.SameLine()
	button(fmt.Sprintf("Remove motion##m%d", n), func() { e.do(d.SetMotionEdit(n, nil, "")) })
	// The same numbers mean other things in KHR: a zero mass or moment is
	// infinite there, and the labels say so.
	khr := d.PhysicsDialect().KHRBodies()
	massLabel, inertiaLabel := "mass (kg)", "inertia (0: computed)"
	if khr {
		massLabel, inertiaLabel = "mass (kg, 0: infinite)", "inertia (all 0: computed; a 0: infinite)"
		if m.InertiaInfinite {
			inertiaLabel = "inertia (0: infinite, never turns)"
		}
	}
	num(fmt.Sprintf("%s##m%d", massLabel, n), m.Mass, func(v float64) { set("Set mass", func(m *scene.Motion) { m.Mass = v }) })
	imgui.SameLine()
	num(fmt.Sprintf("gravity factor##m%d", n), m.GravityFactor, func(v float64) {
		set("Set gravity factor", func(m *scene.Motion) { m.GravityFactor = v })
	})
	vec3(fmt.Sprintf("com%d", n), "centre of mass", m.CenterOfMass, func(v [3]float64) {
		set("Set centre of mass", func(m *scene.Motion) { m.CenterOfMass = v })
	})
	vec3(fmt.Sprintf("inertia%d", n), inertiaLabel, m.InertiaDiagonal, func(v [3]float64) {
		set("Set inertia", func(m *scene.Motion) { m.InertiaDiagonal = v })
	})
	vec3(fmt.Sprintf("lv%d", n), "velocity (m/s)", m.LinearVelocity, func(v [3]float64) {
		set("Set linear velocity", func(m *scene.Motion) { m.LinearVelocity = v })
	})
	vec3(fmt.Sprintf("av%d", n), "spin (rad/s)", m.AngularVelocity, func(v [3]float64) {
		set("Set angular velocity", func(m *scene.Motion) { m.AngularVelocity = v })
	})
}

func indexNames(prefix string, count int, name func(int) string) []string {
	names := []string{"(none)"}
	for i := range count {
		names = append(names, fmt.Sprintf("%s %d %s", prefix, i, name(i)))
	}
	return names
}

func (e ed) materialNames() []string {
	d := e.d
	return indexNames("material", len(d.PhysicsMaterials), func(i int) string {
		m := d.PhysicsMaterials[i]
		return fmt.Sprintf("(friction %g, bounce %g)", m.DynamicFriction, m.Restitution)
	})
}

func (e ed) filterNames() []string {
	d := e.d
	return indexNames("filter", len(d.CollisionFilters), func(i int) string {
		return "[" + strings.Join(d.CollisionFilters[i].CollisionSystems, ", ") + "]"
	})
}

// colliderFields edits node n's collider: its shape, material and filter.
func (e ed) colliderFields(n int, c *scene.Collider) {
	d := e.d
	if c.Shape < 0 {
		imgui.Text("compound collider: the colliders of its descendants")
	} else {
		e.shapeFields(c.Shape, n, false)
	}
	combo(fmt.Sprintf("physics material##c%d", n), c.PhysicsMaterial+1, e.materialNames(), func(k int) {
		nc := *c
		nc.PhysicsMaterial = k - 1
		e.do(d.SetColliderEdit(n, nc, "Assign physics material"))
	})
	combo(fmt.Sprintf("collision filter##c%d", n), c.CollisionFilter+1, e.filterNames(), func(k int) {
		nc := *c
		nc.CollisionFilter = k - 1
		e.do(d.SetColliderEdit(n, nc, "Assign collision filter"))
	})
	button(fmt.Sprintf("Remove collider##c%d", n), func() { e.do(d.RemoveColliderEdit(n)) })
}

// triggerFields edits node n's trigger.
func (e ed) triggerFields(n int, t *scene.Trigger) {
	d := e.d
	if t.Nodes != nil {
		imgui.Text(fmt.Sprintf("compound trigger of nodes %v", t.Nodes))
	} else {
		e.shapeFields(t.Shape, n, true)
		combo(fmt.Sprintf("collision filter##t%d", n), t.CollisionFilter+1, e.filterNames(), func(k int) {
			nt := *t
			nt.CollisionFilter = k - 1
			e.do(d.SetTriggerEdit(n, nt, "Assign collision filter"))
		})
	}
	button(fmt.Sprintf("Remove trigger##t%d", n), func() { e.do(d.RemoveTriggerEdit(n)) })
}

func gravityTypeNames() []string {
	var names []string
	for _, t := range scene.GravityTypes() {
		names = append(names, t.String())
	}
	return names
}

// gravityFields edits node n's gravity field.
func (e ed) gravityFields(n int, gv *scene.Gravity) {
	d := e.d
	set := func(label string, f func(g *scene.Gravity)) {
		c := *gv
		f(&c)
		e.do(scene.SetGravity{Node: n, Gravity: &c, Label: label})
	}
	combo(fmt.Sprintf("field type##g%d", n), int(gv.Type)-1, gravityTypeNames(), func(k int) {
		set("Set gravity type", func(g *scene.Gravity) { g.Type = scene.GravityType(k + 1) })
	})
	imgui.SameLine()
	button(fmt.Sprintf("Remove gravity##g%d", n), func() { e.do(d.RemoveGravityEdit(n)) })
	num(fmt.Sprintf("gravity (m/s²)##g%d", n), gv.Gravity, func(v float64) { set("Set gravity", func(g *scene.Gravity) { g.Gravity = v }) })
	prio := int32(gv.Priority)
	imgui.SetNextItemWidth(fieldWidth)
	if imgui.InputIntV(fmt.Sprintf("priority##g%d", n), &prio, 1, 10, 0) && int(prio) != gv.Priority {
		set("Set gravity priority", func(g *scene.Gravity) { g.Priority = int(prio) })
	}
	check(fmt.Sprintf("replace##g%d", n), gv.Replace, func(b bool) { set("Set gravity replace", func(g *scene.Gravity) { g.Replace = b }) })
	imgui.SameLine()
	check(fmt.Sprintf("stop##g%d", n), gv.Stop, func(b bool) { set("Set gravity stop", func(g *scene.Gravity) { g.Stop = b }) })
	switch gv.Type {
	case scene.GravityDirectional:
		vec3(fmt.Sprintf("gdir%d", n), "direction", gv.Direction, func(v [3]float64) {
			set("Set gravity direction", func(g *scene.Gravity) { g.Direction = v })
		})
	default:
		num(fmt.Sprintf("unit distance (m, 0 = constant)##g%d", n), gv.UnitDistance, func(v float64) {
			set("Set unit distance", func(g *scene.Gravity) { g.UnitDistance = v })
		})
		if gv.UnitDistance > 0 {
			imgui.TextWrapped(fmt.Sprintf("Inverse square: %g m/s² at %g m, 4x at half. Inside %g m (a quarter of it) the pull eases to 0 at the centre, as a solid core, so nothing passing through gains energy.",
				gv.Gravity, gv.UnitDistance, scene.CoreFraction*gv.UnitDistance))
		}
		if gv.Type == scene.GravityDisc || gv.Type == scene.GravityTorus {
			num(fmt.Sprintf("radius (m)##g%d", n), gv.Radius, func(v float64) { set("Set gravity radius", func(g *scene.Gravity) { g.Radius = v }) })
		}
		if gv.Type == scene.GravityShaped {
			combo(fmt.Sprintf("pull towards##g%d", n), gv.Shape+1, indexNames("shape", len(d.Shapes), func(i int) string { return d.Shapes[i].Type.String() }), func(k int) {
				set("Set gravity shape", func(g *scene.Gravity) { g.Shape = k - 1 })
			})
		}
	}
}

// jointFields edits node n's joint: what it connects and its limits and
// drives.
func (e ed) jointFields(n int, j *scene.NodeJoint) {
	d := e.d
	nodes := make([]string, len(d.GLTF.Nodes))
	for i := range nodes {
		nodes[i] = nodeName(d, i)
	}
	combo(fmt.Sprintf("connected node##j%d", n), j.ConnectedNode, nodes, func(k int) {
		nj := *j
		nj.ConnectedNode = k
		e.do(scene.SetNodeJoint{Node: n, Joint: &nj, Label: "Connect joint"})
	})
	e.retargetFields(n) // joints.go
	check(fmt.Sprintf("collide with the connected body##j%d", n), j.EnableCollision, func(b bool) {
		nj := *j
		nj.EnableCollision = b
		e.do(scene.SetNodeJoint{Node: n, Joint: &nj, Label: "Set joint collision"})
	})
	button(fmt.Sprintf("Remove joint##j%d", n), func() { e.do(d.RemoveJointEdit(n)) })
	if j.Joint < 0 || j.Joint >= len(d.Joints) {
		imgui.TextColored(warnColor, fmt.Sprintf("joint settings %d do not exist", j.Joint))
		return
	}
	e.mainLimitFields(n, d.Joints[j.Joint]) // joints.go: in degrees
	e.jointSettingsFields(j.Joint)
}

var axisNames = [3]string{"x", "y", "z"}

// jointSettingsFields edits joint settings i: each limit's axes and range,
// each drive.
func (e ed) jointSettingsFields(i int) {
	d := e.d
	js := d.Joints[i]
	set := func(label string, f func(s *scene.JointSettings)) {
		c := js.Clone()
		f(&c)
		e.do(scene.SetJointSettings{Index: i, Settings: c})
	}
	imgui.Text(fmt.Sprintf("joint settings %d (used by %s)", i, count(len(d.JointSettingsUsers(i)), "joint node")))
	for li, l := range js.Limits {
		id := fmt.Sprintf("j%dl%d", i, li)
		imgui.Text(fmt.Sprintf("limit %d:", li))
		imgui.SameLine()
		for a := range 3 {
			imgui.SameLine()
			check(fmt.Sprintf("lin %s##%s", axisNames[a], id), contains(l.LinearAxes, a), func(b bool) {
				set("Set limit axes", func(s *scene.JointSettings) { s.Limits[li].LinearAxes = toggle(s.Limits[li].LinearAxes, a, b) })
			})
		}
		// What "lin" and "ang" mean and the range's unit, at the end of
		// the row of the limit's kind (both rows while it has no axes),
		// where a word moves no field.
		none := len(l.LinearAxes) == 0 && len(l.AngularAxes) == 0
		if none || len(l.LinearAxes) > 0 {
			imgui.SameLine()
			imgui.TextDisabled("linear: slides (m)")
		}
		imgui.Text("          ")
		for a := range 3 {
			imgui.SameLine()
			check(fmt.Sprintf("ang %s##%s", axisNames[a], id), contains(l.AngularAxes, a), func(b bool) {
				set("Set limit axes", func(s *scene.JointSettings) { s.Limits[li].AngularAxes = toggle(s.Limits[li].AngularAxes, a, b) })
			})
		}
		if none || len(l.AngularAxes) > 0 {
			imgui.SameLine()
			imgui.TextDisabled("angular: turns (°)")
		}
		// Degrees for angular axes, as in the row above and `viewer edit`.
		u := app.LimitUnits(l)
		infNum(fmt.Sprintf("min##%s", id), u.Shown(l.Min), func(v float64) { set("Set limit min", func(s *scene.JointSettings) { s.Limits[li].Min = u.File(v) }) })
		imgui.SameLine()
		infNum(fmt.Sprintf("max (%s)###max%s", u.Label, id), u.Shown(l.Max), func(v float64) { set("Set limit max", func(s *scene.JointSettings) { s.Limits[li].Max = u.File(v) }) })
		infNum(fmt.Sprintf("stiffness##%s", id), l.Stiffness, func(v float64) {
			set("Set limit stiffness", func(s *scene.JointSettings) { s.Limits[li].Stiffness = v })
		})
		imgui.SameLine()
		num(fmt.Sprintf("damping##%s", id), l.Damping, func(v float64) { set("Set limit damping", func(s *scene.JointSettings) { s.Limits[li].Damping = v }) })
		button(fmt.Sprintf("Remove limit##%s", id), func() {
			set("Remove joint limit", func(s *scene.JointSettings) { s.Limits = append(s.Limits[:li:li], s.Limits[li+1:]...) })
		})
	}
	button(fmt.Sprintf("Add limit##j%d", i), func() {
		set("Add joint limit", func(s *scene.JointSettings) {
			s.Limits = append(s.Limits, scene.JointLimit{AngularAxes: []int{0}, Min: -math.Pi / 4, Max: math.Pi / 4, Stiffness: math.Inf(1)})
		})
	})
	for di, dr := range js.Drives {
		id := fmt.Sprintf("j%dd%d", i, di)
		imgui.Text(fmt.Sprintf("drive %d:", di))
		imgui.SameLine()
		combo(fmt.Sprintf("type##%s", id), map[string]int{"linear": 0, "angular": 1}[dr.Type], []string{"linear", "angular"}, func(k int) {
			set("Set drive type", func(s *scene.JointSettings) { s.Drives[di].Type = []string{"linear", "angular"}[k] })
		})
		combo(fmt.Sprintf("mode##%s", id), map[string]int{"force": 0, "acceleration": 1}[dr.Mode], []string{"force", "acceleration"}, func(k int) {
			set("Set drive mode", func(s *scene.JointSettings) { s.Drives[di].Mode = []string{"force", "acceleration"}[k] })
		})
		du := app.DriveUnitsOf(dr)
		combo(fmt.Sprintf("axis: %s###axis%s", du.Axis, id), dr.Axis, axisNames[:], func(k int) { set("Set drive axis", func(s *scene.JointSettings) { s.Drives[di].Axis = k }) })
		force := "max force"
		if dr.Type == "angular" {
			force = "max torque"
		}
		infNum(fmt.Sprintf("%s (%s)###force%s", force, du.Force, id), dr.MaxForce, func(v float64) { set("Set drive force", func(s *scene.JointSettings) { s.Drives[di].MaxForce = v }) })
		optNum(fmt.Sprintf("velocity target (%s)###vel%s", du.Velocity, id), dr.VelocityTarget, func(v *float64) {
			set("Set drive velocity", func(s *scene.JointSettings) { s.Drives[di].VelocityTarget = v })
		})
		var shown *float64
		if dr.PositionTarget != nil {
			v := du.Position.Shown(*dr.PositionTarget)
			shown = &v
		}
		optNum(fmt.Sprintf("position target (%s)###pos%s", du.Position.Label, id), shown, func(v *float64) {
			if v != nil {
				x := du.Position.File(*v)
				v = &x
			}
			set("Set drive position", func(s *scene.JointSettings) { s.Drives[di].PositionTarget = v })
		})
		num(fmt.Sprintf("stiffness##%s", id), dr.Stiffness, func(v float64) {
			set("Set drive stiffness", func(s *scene.JointSettings) { s.Drives[di].Stiffness = v })
		})
		imgui.SameLine()
		num(fmt.Sprintf("damping##%s", id), dr.Damping, func(v float64) { set("Set drive damping", func(s *scene.JointSettings) { s.Drives[di].Damping = v }) })
		button(fmt.Sprintf("Remove drive##%s", id), func() {
			set("Remove joint drive", func(s *scene.JointSettings) { s.Drives = append(s.Drives[:di:di], s.Drives[di+1:]...) })
		})
	}
	button(fmt.Sprintf("Add drive##j%d", i), func() {
		set("Add joint drive", func(s *scene.JointSettings) {
			v := 0.0
			s.Drives = append(s.Drives, scene.JointDrive{Type: "angular", Mode: "force", Axis: 0, MaxForce: math.Inf(1), VelocityTarget: &v, Damping: 1})
		})
	})
}

// infNum is a number field that also takes "inf" and "-inf" (free limits,
// unlimited force).
func infNum(label string, v float64, set func(float64)) {
	s := strconv.FormatFloat(v, 'g', 6, 64)
	imgui.SetNextItemWidth(fieldWidth)
	x := s
	if imgui.InputTextWithHint(label, "", &x, imgui.InputTextFlagsEnterReturnsTrue, nil) {
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err == nil && !math.IsNaN(f) && f != v {
			set(f)
		}
	}
}

// optNum edits an optional number: empty means none.
func optNum(label string, v *float64, set func(*float64)) {
	s := ""
	if v != nil {
		s = strconv.FormatFloat(*v, 'g', 6, 64)
	}
	x := s
	imgui.SetNextItemWidth(fieldWidth)
	if imgui.InputTextWithHint(label, "none", &x, imgui.InputTextFlagsEnterReturnsTrue, nil) {
		x = strings.TrimSpace(x)
		if x == "" {
			set(nil)
		} else if f, err := strconv.ParseFloat(x, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			set(&f)
		}
	}
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func toggle(s []int, v int, on bool) []int {
	var out []int
	for a := range 3 {
		if (a == v && on) || (a != v && contains(s, a)) {
			out = append(out, a)
		}
	}
	return out
}

// nodeName names node n in a list of nodes: "3 Crate", or "node 3".
func nodeName(d *scene.Document, n int) string {
	if d.GLTF.Nodes[n].Name != "" {
		return fmt.Sprintf("%d %s", n, d.NodeName(n))
	}
	return d.NodeName(n)
}
