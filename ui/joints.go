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

var jointForms = map[int]*jointForm{}

// addJointFields offers a new joint from body node n.
func (e ed) addJointFields(n int) {
	d := e.d
	f := jointForms[n]
	if f == nil {
		f = &jointForm{template: int(scene.JointHinge), other: -1, axis: 1}
		jointForms[n] = f
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
	d := e.d
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
	set := func(lo, hi float64, label string) {
		s, err := js.WithLimit(ax, lo, hi, math.Inf(1), 0)
		if lim != nil {
			s, err = js.WithLimit(ax, lo, hi, lim.Stiffness, lim.Damping)
		}
		if err == nil {
			var x scene.Edit
			x, err = d.SetJointEdit(n, s, label)
			if err == nil {
				e.do(x)
				return
			}
		}
		e.act(app.ShowError{Text: err.Error()})
	}
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
	button(fmt.Sprintf("Free##jf%d", n), func() {
		x, err := d.SetJointEdit(n, js.WithoutLimit(ax), "Free "+ax.String())
		if err != nil {
			e.act(app.ShowError{Text: err.Error()})
			return
		}
		e.do(x)
	})
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
