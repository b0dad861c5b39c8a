package ui

import (
	"fmt"
	"math"

	imgui "github.com/AllenDang/cimgui-go/imgui"

	"physview/internal/app"
	"physview/scene"
)

// The Inspector's joint authoring: "Add joint" on a body node (template,
// the other body or the world, enableCollision) and the main axis's limit
// in degrees, through the same edits as `viewer edit`'s joint commands.

// jointForm is what the Add joint fields hold between frames, per node.
type jointForm struct {
	template int // scene.JointType
	other    int // node, -1 for the world
	axis     int // world X, Y or Z
	collide  bool
}

// loggedCombo is combo that tells e.items where it is ("NAME") and, while
// open, where each choice is ("NAME: CHOICE"), so a test can pick one.
func (e ed) loggedCombo(name, label string, cur int, items []string, set func(int)) {
	imgui.SetNextItemWidth(150)
	preview := "choose..."
	if cur >= 0 && cur < len(items) {
		preview = items[cur]
	}
	open := imgui.BeginCombo(label, preview)
	if e.items != nil && !open {
		// The middle of the box, not of box and label: the label does
		// not open the combo.
		lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
		e.items(name, lo.X+75, (lo.Y+hi.Y)/2)
	}
	if !open {
		return
	}
	for i, it := range items {
		if imgui.SelectableBoolV(fmt.Sprintf("%s##%d", it, i), i == cur, 0, imgui.Vec2{}) && i != cur {
			set(i)
		}
		e.logItem(name + ": " + it)
	}
	imgui.EndCombo()
}

// jointForms are the forms by document and node, so another file's node
// of the same index starts afresh.
var jointForms = map[jointFormKey]*jointForm{}

type jointFormKey struct {
	d *scene.Document
	n int
}

// addJointFields offers a new joint from body node n.
func (e ed) addJointFields(n int) {
	d := e.d
	key := jointFormKey{d, n}
	f := jointForms[key]
	if f == nil {
		if len(jointForms) > 64 {
			clear(jointForms) // forms of documents long closed
		}
		f = &jointForm{template: int(scene.JointHinge), other: -1, axis: 1}
		jointForms[key] = f
	}
	// Joint children (frames made by Add joint) are listed for selection.
	for _, c := range d.Children(n) {
		if d.Nodes[c].Joint != nil {
			button(fmt.Sprintf("Select joint %q##js%d", d.NodeName(c), c), func() { e.act(app.Select{Node: c}) })
		}
	}
	e.loggedCombo("joint template", fmt.Sprintf("template##jt%d", n), f.template, scene.JointTypeNames(), func(k int) { f.template = k })
	targets := []string{"world"}
	ids := []int{-1}
	for i := range d.GLTF.Nodes {
		if i == n || d.BodyNode(i) != i && (d.Nodes[i].Body == nil || d.Nodes[i].Body.Collider == nil) {
			continue
		}
		targets = append(targets, nodeName(d, i))
		ids = append(ids, i)
	}
	cur := 0
	for k, id := range ids {
		if id == f.other {
			cur = k
		}
	}
	e.loggedCombo("joint to", fmt.Sprintf("to##jo%d", n), cur, targets, func(k int) { f.other = ids[k] })
	e.loggedCombo("joint axis", fmt.Sprintf("axis (world; pivot midway)##jx%d", n), f.axis, []string{"X", "Y", "Z"}, func(k int) { f.axis = k })
	check(fmt.Sprintf("collide##jc%d", n), f.collide, func(b bool) { f.collide = b })
	button(fmt.Sprintf("Add joint##ja%d", n), func() {
		var axis [3]float64
		axis[f.axis] = 1
		x, err := d.NewJointEdit(scene.NewJoint{A: n, B: f.other, Type: scene.JointType(f.template), Axis: axis, Collide: f.collide})
		if err != nil {
			e.act(app.ShowError{Text: err.Error()})
			return
		}
		e.do(x)
	})
	e.logItem("joint add")
}

// mainLimitFields edits the limit of joint node n's main axis (a hinge's
// angle, a slider's position) in degrees or metres.
func (e ed) mainLimitFields(n int, js scene.JointSettings) {
	ax, err := js.MainAxis()
	if err != nil {
		return
	}
	unit := "m"
	if ax.Angular {
		unit = "°"
	}
	var lim *scene.JointLimit
	for i, l := range js.Limits {
		want := []int{ax.Axis}
		if ax.Swing {
			want = []int{0, 2}
		}
		axes := l.LinearAxes
		if ax.Angular {
			axes = l.AngularAxes
		}
		if !l.LocksAll() && sameInts(axes, want) {
			lim = &js.Limits[i]
		}
	}
	setLimit := func(lo, hi, k, c float64, label string) {
		s, err := js.WithLimit(ax, lo, hi, k, c)
		if err != nil {
			e.act(app.ShowError{Text: err.Error()})
			return
		}
		e.setJoint(n, s, label)
	}
	set := func(lo, hi float64, label string) {
		if lim != nil {
			setLimit(lo, hi, lim.Stiffness, lim.Damping, label)
			return
		}
		setLimit(lo, hi, math.Inf(1), 0, label)
	}
	defer e.mainDriveFields(n, js, ax)
	imgui.Text(fmt.Sprintf("%s (%s):", ax, unit))
	imgui.SameLine()
	if lim == nil {
		imgui.Text("free")
		imgui.SameLine()
		lo, hi := -0.5, 0.5
		if ax.Angular {
			lo, hi = -math.Pi/4, math.Pi/4
			if ax.Swing {
				lo = 0
			}
		}
		button(fmt.Sprintf("Limit##jl%d", n), func() { set(lo, hi, "Limit "+ax.String()) })
		e.logItem("joint limit")
		return
	}
	lo, hi := app.ShownUnits(ax, lim.Min), app.ShownUnits(ax, lim.Max)
	num(fmt.Sprintf("min##jm%d", n), lo, func(v float64) { set(app.JointUnits(ax, v), lim.Max, "Set "+ax.String()+" min") })
	imgui.SameLine()
	num(fmt.Sprintf("max##jM%d", n), hi, func(v float64) { set(lim.Min, app.JointUnits(ax, v), "Set "+ax.String()+" max") })
	imgui.SameLine()
	button(fmt.Sprintf("Free##jf%d", n), func() { e.setJoint(n, js.WithoutLimit(ax), "Free "+ax.String()) })
	// A soft limit: a spring (stiffness) and a damper past its ends.
	infNum(fmt.Sprintf("stiffness (inf: hard)##jk%d", n), lim.Stiffness, func(v float64) {
		setLimit(lim.Min, lim.Max, v, lim.Damping, "Set "+ax.String()+" limit stiffness")
	})
	imgui.SameLine()
	num(fmt.Sprintf("damping##jd%d", n), lim.Damping, func(v float64) {
		setLimit(lim.Min, lim.Max, lim.Stiffness, v, "Set "+ax.String()+" limit damping")
	})
}

// setJoint gives joint node n settings s: typed values fold into one undo
// step (SetJointSettings merges) unless other joints share the settings,
// which then get a copy of their own first.
func (e ed) setJoint(n int, s scene.JointSettings, label string) {
	d := e.d
	k := d.Nodes[n].Joint.Joint
	if len(d.JointSettingsUsers(k)) <= 1 {
		e.do(scene.SetJointSettings{Index: k, Settings: s, Label: label + " of " + d.NodeName(n)})
		return
	}
	x, err := d.SetJointEdit(n, s, label)
	if err != nil {
		e.act(app.ShowError{Text: err.Error()})
		return
	}
	e.do(x)
}

// mainDriveFields edits the drive on joint node n's main axis: a motor
// (velocity target, rad/s or m/s) or a spring (position target, degrees or
// m), its mode, gains and max force.
func (e ed) mainDriveFields(n int, js scene.JointSettings, ax scene.JointAxis) {
	if ax.Swing {
		return
	}
	typ, unit, vunit := "linear", "m", "m/s"
	if ax.Angular {
		typ, unit, vunit = "angular", "°", "rad/s"
	}
	di := -1
	for i, dr := range js.Drives {
		if dr.Type == typ && dr.Axis == ax.Axis {
			di = i
		}
	}
	drive := func(dr scene.JointDrive, label string) {
		s, err := js.WithDrive(dr)
		if err != nil {
			e.act(app.ShowError{Text: err.Error()})
			return
		}
		e.setJoint(n, s, label)
	}
	imgui.Text(fmt.Sprintf("drive on %s:", ax))
	imgui.SameLine()
	if di < 0 {
		button(fmt.Sprintf("Motor##jdm%d", n), func() {
			v := 1.0
			drive(scene.JointDrive{Type: typ, Mode: "acceleration", Axis: ax.Axis, MaxForce: math.Inf(1), VelocityTarget: &v, Damping: 10}, "Add motor")
		})
		imgui.SameLine()
		button(fmt.Sprintf("Spring##jds%d", n), func() {
			p := 0.0
			drive(scene.JointDrive{Type: typ, Mode: "acceleration", Axis: ax.Axis, MaxForce: math.Inf(1), PositionTarget: &p, Stiffness: 100, Damping: 20}, "Add spring")
		})
		return
	}
	dr := js.Drives[di]
	with := func(f func(d *scene.JointDrive), label string) {
		c := dr
		f(&c)
		drive(c, label)
	}
	button(fmt.Sprintf("Remove##jdr%d", n), func() {
		s := js.Clone()
		s.Drives = append(s.Drives[:di:di], s.Drives[di+1:]...)
		e.setJoint(n, s, "Remove drive")
	})
	combo(fmt.Sprintf("mode##jdo%d", n), map[string]int{"force": 0, "acceleration": 1}[dr.Mode], []string{"force", "acceleration"}, func(k int) {
		with(func(d *scene.JointDrive) { d.Mode = []string{"force", "acceleration"}[k] }, "Set drive mode")
	})
	optNum(fmt.Sprintf("velocity target (%s)##jdv%d", vunit, n), dr.VelocityTarget, func(v *float64) {
		with(func(d *scene.JointDrive) { d.VelocityTarget = v }, "Set drive velocity")
	})
	var shown *float64
	if dr.PositionTarget != nil {
		v := app.ShownUnits(ax, *dr.PositionTarget)
		shown = &v
	}
	optNum(fmt.Sprintf("position target (%s)##jdp%d", unit, n), shown, func(v *float64) {
		if v != nil {
			x := app.JointUnits(ax, *v)
			v = &x
		}
		with(func(d *scene.JointDrive) { d.PositionTarget = v }, "Set drive position")
	})
	num(fmt.Sprintf("stiffness##jdk%d", n), dr.Stiffness, func(v float64) { with(func(d *scene.JointDrive) { d.Stiffness = v }, "Set drive stiffness") })
	imgui.SameLine()
	num(fmt.Sprintf("damping##jdd%d", n), dr.Damping, func(v float64) { with(func(d *scene.JointDrive) { d.Damping = v }, "Set drive damping") })
	force := fmt.Sprintf("max force (N, inf: none)###jdf%d", n)
	if ax.Angular {
		force = fmt.Sprintf("max torque (N·m, inf: none)###jdf%d", n)
	}
	infNum(force, dr.MaxForce, func(v float64) { with(func(d *scene.JointDrive) { d.MaxForce = v }, "Set drive max force") })
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// retargetFields connects joint node n to another body or the world
// through a new frame there (scene.RetargetJointEdit), one undo step.
func (e ed) retargetFields(n int) {
	d := e.d
	targets := []string{"world"}
	ids := []int{-1}
	own := d.BodyNode(n)
	for i := range d.GLTF.Nodes {
		if d.BodyNode(i) != i && (d.Nodes[i].Body == nil || d.Nodes[i].Body.Collider == nil) || own >= 0 && d.BodyNode(i) == own {
			continue
		}
		targets = append(targets, nodeName(d, i))
		ids = append(ids, i)
	}
	e.loggedCombo("joint retarget", fmt.Sprintf("connect to (a new frame there)##jr%d", n), -1, targets, func(k int) {
		x, err := d.RetargetJointEdit(n, ids[k])
		if err != nil {
			e.act(app.ShowError{Text: err.Error()})
			return
		}
		e.do(x)
	})
}
