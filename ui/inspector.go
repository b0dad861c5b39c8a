package ui

import (
	"fmt"
	"math"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/app"
	"physview/scene"
)

// inspector edits the selected node: name, transform, body (motion,
// collider, trigger), gravity field and joint, each addable and removable.
func inspector(s *State, act func(app.Intent)) g.Widget {
	return g.Custom(func() {
		d := s.S.Doc
		n := s.S.Selected
		if n < 0 || n >= len(d.GLTF.Nodes) {
			imgui.TextWrapped("Select a node in the Scene tab or click one in the view.")
			return
		}
		e := ed{d: d, act: act, items: s.ItemLog}
		imgui.TextWrapped(NodeLabel(d, n))
		if s.S.Timeline.Posed {
			imgui.TextWrapped("Animated pose shown: these fields are the file's rest values.")
		}
		text(fmt.Sprintf("name##n%d", n), d.GLTF.Nodes[n].Name, 220, func(v string) { e.do(scene.SetNodeName{Node: n, To: v}) })
		// KHR_node_visibility: the node and its subtree drawn or not;
		// physics ignores it. On the name's line, so nothing below moves.
		imgui.SameLine()
		visible := d.NodeVisible(n)
		if imgui.Checkbox(fmt.Sprintf("visible##vis%d", n), &visible) {
			e.do(scene.SetNodeVisible{Node: n, Visible: visible})
		}
		if imgui.IsItemHovered() {
			imgui.SetTooltip("KHR_node_visibility: hide the node and its subtree (its colliders still collide)")
		}
		e.transformFields(n)
		imgui.Text("Gizmo:")
		for _, m := range []struct {
			mode app.GizmoMode
			name string
		}{{app.GizmoOff, "off"}, {app.GizmoTranslate, "move (W)"}, {app.GizmoRotate, "rotate (E)"}, {app.GizmoScale, "scale (R)"}} {
			imgui.SameLine()
			if imgui.RadioButtonBool(m.name+"##gz", s.S.View.Gizmo == m.mode) {
				act(app.SetGizmo{Mode: m.mode})
			}
		}

		ne := d.Nodes[n]
		b := ne.Body
		if b == nil {
			b = &scene.Body{}
		}
		imgui.Separator()
		if b.Motion != nil {
			imgui.Text("Motion")
			e.motionFields(n, b.Motion)
		} else {
			imgui.Text("No motion (not a body of its own).")
			imgui.SameLine()
			button(fmt.Sprintf("Add motion##am%d", n), func() {
				m := scene.DefaultMotion(scene.MotionDynamic)
				e.do(d.SetMotionEdit(n, &m, "Add motion"))
			})
		}
		imgui.Separator()
		if b.Collider != nil {
			imgui.Text("Collider")
			e.colliderFields(n, b.Collider)
		} else {
			if len(childColliderNodes(d, n)) > 0 {
				// Its compound is listed below: "No collider." would read
				// as a body that collides with nothing.
				imgui.Text("No collider on the node itself.")
			} else {
				imgui.Text("No collider.")
			}
			e.addShapeMenu(fmt.Sprintf("Add collider##ac%d", n), n,
				func(sh scene.Shape) { e.do(d.AddColliderEdit(n, sh)) },
				func(t scene.ShapeType) { e.fit(n, t, false) },
				func() { s.compound.start(n) })
		}
		compoundControls(s, e, n) // compound.go
		compoundParts(s, e, n)
		imgui.Separator()
		if b.Trigger != nil {
			imgui.Text("Trigger")
			e.triggerFields(n, b.Trigger)
		} else {
			imgui.Text("No trigger.")
			e.addShapeMenu(fmt.Sprintf("Add trigger##at%d", n), n,
				func(sh scene.Shape) { e.do(d.AddTriggerEdit(n, sh)) },
				func(t scene.ShapeType) { e.fit(n, t, true) }, nil)
		}
		imgui.Separator()
		if gv := ne.Gravity; gv != nil {
			imgui.Text("Gravity field")
			e.gravityFields(n, gv)
		} else {
			imgui.Text("No gravity field.")
			combo(fmt.Sprintf("Add gravity field##ag%d", n), -1, gravityTypeNames(), func(k int) {
				e.do(d.AddGravityEdit(n, scene.GravityType(k+1), 2))
			})
		}
		imgui.Separator()
		if j := ne.Joint; j != nil {
			imgui.Text("Joint")
			e.jointFields(n, j)
		} else {
			imgui.Text("No joint.")
			if d.BodyNode(n) >= 0 || ne.Body != nil && ne.Body.Collider != nil {
				e.addJointFields(n) // joints.go: a frame child at the pivot
			} else {
				nodes := make([]string, len(d.GLTF.Nodes))
				for i := range nodes {
					nodes[i] = nodeName(d, i)
				}
				combo(fmt.Sprintf("Add joint to##aj%d", n), -1, nodes, func(k int) {
					if k == n {
						act(app.ShowError{Text: "a joint connects two different nodes"})
						return
					}
					e.do(d.AddJointEdit(n, k))
				})
			}
		}
	})
}

// fit adds a collider or trigger fitted to node n's mesh.
func (e ed) fit(n int, t scene.ShapeType, trigger bool) {
	x, err := e.d.FitColliderEdit(n, t, trigger)
	if err != nil {
		e.act(app.ShowError{Text: err.Error()})
		return
	}
	e.do(x)
}

// transformFields edits node n's translation, rotation (as Euler angles in
// degrees, X then Y then Z) and scale.
func (e ed) transformFields(n int) {
	d := e.d
	tr := d.NodeTransform(n)
	set := func(label string, t scene.Transform) {
		e.do(scene.SetNodeTransform{Node: n, Transform: t, Label: label})
	}
	vec3(fmt.Sprintf("t%d", n), "translation (m)", tr.Translation, func(v [3]float64) { t := tr; t.Translation = v; set("Move node", t) })
	euler := QuatToEuler(tr.Rotation)
	vec3(fmt.Sprintf("r%d", n), "rotation (deg XYZ)", euler, func(v [3]float64) { t := tr; t.Rotation = EulerToQuat(v); set("Rotate node", t) })
	vec3(fmt.Sprintf("s%d", n), "scale", tr.Scale, func(v [3]float64) { t := tr; t.Scale = v; set("Scale node", t) })
}

// EulerToQuat turns angles in degrees about X, then Y, then Z (fixed axes)
// into a quaternion x, y, z, w.
func EulerToQuat(deg [3]float64) [4]float64 {
	r := func(i int) float64 { return deg[i] * math.Pi / 180 }
	q := mgl64.QuatRotate(r(2), mgl64.Vec3{0, 0, 1}).Mul(mgl64.QuatRotate(r(1), mgl64.Vec3{0, 1, 0})).Mul(mgl64.QuatRotate(r(0), mgl64.Vec3{1, 0, 0})).Normalize()
	return [4]float64{q.V[0], q.V[1], q.V[2], q.W}
}

// QuatToEuler is the inverse of EulerToQuat, rounded to 1e-9 degrees.
func QuatToEuler(q [4]float64) [3]float64 {
	m := mgl64.Quat{W: q[3], V: mgl64.Vec3{q[0], q[1], q[2]}}.Normalize().Mat4()
	// R = Rz * Ry * Rx.
	var x, y, z float64
	sy := -m.At(2, 0)
	if sy > 1 {
		sy = 1
	} else if sy < -1 {
		sy = -1
	}
	y = math.Asin(sy)
	if math.Abs(sy) < 1-1e-9 {
		x = math.Atan2(m.At(2, 1), m.At(2, 2))
		z = math.Atan2(m.At(1, 0), m.At(0, 0))
	} else {
		x = math.Atan2(-m.At(1, 2), m.At(1, 1))
	}
	round := func(r float64) float64 { return math.Round(r*180/math.Pi*1e9)/1e9 + 0 }
	return [3]float64{round(x), round(y), round(z)}
}

// physicsTab lists and edits the document-level physics: world gravity,
// physics materials and collision filters.
func physicsTab(s *State, act func(app.Intent)) g.Widget {
	return g.Custom(func() {
		d := s.S.Doc
		e := ed{d: d, act: act}
		// The dialect Save and Save as write the physics in (an undoable
		// edit; the notice lists what the target cannot hold).
		dialects := []scene.PhysicsDialect{scene.DialectOMI, scene.DialectKHR, scene.DialectGLTF21}
		var labels []string
		for _, p := range dialects {
			labels = append(labels, app.DialectLabel(p))
		}
		comboWidth("saved as##dialect", 220, int(d.PhysicsDialect()), labels, func(k int) {
			act(app.ConvertPhysics{To: dialects[k]})
		})
		imgui.Separator()
		imgui.Text("World gravity")
		if wg := d.WorldGravity; wg != nil {
			num("strength (m/s²)##wg", wg.Gravity, func(v float64) {
				c := *wg
				c.Gravity = v
				e.do(scene.SetWorldGravity{Gravity: &c})
			})
			vec3("wgdir", "direction", wg.Direction, func(v [3]float64) {
				c := *wg
				c.Direction = v
				e.do(scene.SetWorldGravity{Gravity: &c})
			})
			button("Remove world gravity", func() { e.do(scene.SetWorldGravity{}) })
		} else {
			imgui.TextWrapped("None in the file: Play uses 9.80665 m/s² down (-Y), as engines do, without writing it.")
			button("Add world gravity (9.81 m/s² down)", func() {
				e.do(scene.SetWorldGravity{Gravity: &scene.WorldGravity{Gravity: 9.81, Direction: [3]float64{0, -1, 0}}})
			})
		}
		imgui.Separator()
		imgui.Text(fmt.Sprintf("Physics materials (%d)", len(d.PhysicsMaterials)))
		for i, m := range d.PhysicsMaterials {
			id := fmt.Sprintf("pm%d", i)
			set := func(f func(m *scene.PhysicsMaterial)) {
				c := m
				f(&c)
				e.do(scene.SetPhysicsMaterial{Index: i, Material: c})
			}
			imgui.Text(fmt.Sprintf("material %d, used by %s", i, count(len(d.PhysicsMaterialUsers(i)), "collider")))
			num("static friction##"+id, m.StaticFriction, func(v float64) { set(func(m *scene.PhysicsMaterial) { m.StaticFriction = v }) })
			imgui.SameLine()
			num("dynamic##"+id, m.DynamicFriction, func(v float64) { set(func(m *scene.PhysicsMaterial) { m.DynamicFriction = v }) })
			num("restitution##"+id, m.Restitution, func(v float64) { set(func(m *scene.PhysicsMaterial) { m.Restitution = v }) })
			modes := []string{"average", "minimum", "maximum", "multiply"}
			combo("friction combine##"+id, indexOf(modes, m.FrictionCombine), modes, func(k int) { set(func(m *scene.PhysicsMaterial) { m.FrictionCombine = modes[k] }) })
			combo("restitution combine##"+id, indexOf(modes, m.RestitutionCombine), modes, func(k int) {
				set(func(m *scene.PhysicsMaterial) { m.RestitutionCombine = modes[k] })
			})
			button("Remove##"+id, func() { e.do(d.RemovePhysicsMaterialEdit(i)) })
		}
		button("Add physics material", func() { e.do(scene.AddPhysicsMaterial{Material: scene.DefaultPhysicsMaterial()}) })
		if n := s.S.Selected; n >= 0 && n < len(d.Nodes) && d.Nodes[n].Body != nil && d.Nodes[n].Body.Collider != nil {
			imgui.SameLine()
			imgui.TextDisabled("(assign one in the Inspector)")
		}
		imgui.Separator()
		imgui.Text(fmt.Sprintf("Collision filters (%d)", len(d.CollisionFilters)))
		for i, f := range d.CollisionFilters {
			id := fmt.Sprintf("cf%d", i)
			set := func(g func(f *scene.CollisionFilter)) {
				c := f.Clone()
				g(&c)
				e.do(scene.SetCollisionFilter{Index: i, Filter: c})
			}
			imgui.Text(fmt.Sprintf("filter %d, used by %s (comma-separated system names)", i, count(len(d.CollisionFilterUsers(i)), "node")))
			textEnter("in systems##"+id, strings.Join(f.CollisionSystems, ", "), 220, func(v string) {
				set(func(f *scene.CollisionFilter) { f.CollisionSystems = splitList(v) })
			})
			with := f.NotCollideWithSystems == nil
			check("collides only with the listed##"+id, with, func(b bool) {
				set(func(f *scene.CollisionFilter) {
					list := f.CollideWithSystems
					if list == nil {
						list = f.NotCollideWithSystems
					}
					if list == nil {
						list = []string{}
					}
					f.CollideWithSystems, f.NotCollideWithSystems = nil, nil
					if b {
						f.CollideWithSystems = list
					} else {
						f.NotCollideWithSystems = list
					}
				})
			})
			list, label := f.CollideWithSystems, "collide with##"+id
			if !with {
				list, label = f.NotCollideWithSystems, "do not collide with##"+id
			}
			textEnter(label, strings.Join(list, ", "), 220, func(v string) {
				set(func(f *scene.CollisionFilter) {
					if with {
						f.CollideWithSystems = splitList(v)
					} else {
						f.NotCollideWithSystems = splitList(v)
					}
				})
			})
			button("Remove##"+id, func() { e.do(d.RemoveCollisionFilterEdit(i)) })
		}
		button("Add collision filter", func() {
			e.do(scene.AddCollisionFilter{Filter: scene.CollisionFilter{CollisionSystems: []string{"default"}, CollideWithSystems: []string{"default"}}})
		})
	})
}

func splitList(v string) []string {
	out := []string{}
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

// count says "1 node", "2 nodes".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
