package ui

import (
	"fmt"

	g "github.com/AllenDang/giu"

	"physview/scene"
)

// Edit actions: the panel changed the model in place; the viewer redraws
// what depends on it and marks the file modified.
const (
	ActionShapeEdited    ActionKind = iota + 100 // Action.Index is the shape
	ActionNodeEdited                             // Action.Index is the node (body or gravity)
	ActionVariantsEdited                         // variants or their mappings changed
)

// floatField edits a float64 through imgui's float32 field; changed calls
// back with the new value.
func floatField(label string, v float64, changed func(float64)) g.Widget {
	f := float32(v)
	return g.InputFloat(&f).Label(label).Format("%.4g").Size(80).OnChange(func() { changed(float64(f)) })
}

// shapeEditor edits the parameters of shape i.
func shapeEditor(d *scene.Document, i int, act func(Action)) g.Widget {
	if i < 0 || i >= len(d.Shapes) {
		return g.Label("")
	}
	s := &d.Shapes[i]
	edited := func() { act(Action{Kind: ActionShapeEdited, Index: i}) }
	id := func(name string) string { return fmt.Sprintf("%s##s%d", name, i) }
	switch s.Type {
	case scene.ShapeBox:
		return g.Row(
			floatField(id("x"), s.Size[0], func(v float64) { s.Size[0] = v; edited() }),
			floatField(id("y"), s.Size[1], func(v float64) { s.Size[1] = v; edited() }),
			floatField(id("z (box size, m)"), s.Size[2], func(v float64) { s.Size[2] = v; edited() }),
		)
	case scene.ShapeSphere:
		return floatField(id("radius (m)"), s.Radius, func(v float64) { s.Radius = v; edited() })
	case scene.ShapeCapsule, scene.ShapeCylinder:
		h := "height (m, full)"
		if s.Type == scene.ShapeCapsule {
			h = "height (m, between the cap centres)"
		}
		return g.Layout{
			floatField(id(h), s.Height, func(v float64) { s.Height = v; edited() }),
			g.Row(
				floatField(id("radius top"), s.RadiusTop, func(v float64) { s.RadiusTop = v; edited() }),
				floatField(id("bottom (m)"), s.RadiusBottom, func(v float64) { s.RadiusBottom = v; edited() }),
			),
		}
	}
	return g.Label(fmt.Sprintf("%s shape of mesh %d", s.Type, s.Mesh))
}

var motionNames = []string{"static", "kinematic", "dynamic"}

// motionEditor edits node n's motion: type, mass and gravity factor.
func motionEditor(n int, m *scene.Motion, act func(Action)) g.Widget {
	edited := func() { act(Action{Kind: ActionNodeEdited, Index: n}) }
	sel := int32(m.Type) - 1
	return g.Layout{
		g.Combo(fmt.Sprintf("motion##m%d", n), m.Type.String(), motionNames, &sel).Size(140).OnChange(func() {
			m.Type = scene.MotionType(sel + 1)
			edited()
		}),
		g.Row(
			floatField(fmt.Sprintf("mass (kg)##m%d", n), m.Mass, func(v float64) { m.Mass = v; edited() }),
			floatField(fmt.Sprintf("gravity factor##m%d", n), m.GravityFactor, func(v float64) { m.GravityFactor = v; edited() }),
		),
	}
}

// gravityEditor edits node n's gravity field: strength, priority, replace, stop.
func gravityEditor(n int, gr *scene.Gravity, act func(Action)) g.Widget {
	edited := func() { act(Action{Kind: ActionNodeEdited, Index: n}) }
	prio := int32(gr.Priority)
	return g.Layout{
		floatField(fmt.Sprintf("gravity (m/s²)##g%d", n), gr.Gravity, func(v float64) { gr.Gravity = v; edited() }),
		g.InputInt(&prio).Label(fmt.Sprintf("priority##g%d", n)).Size(80).OnChange(func() { gr.Priority = int(prio); edited() }),
		g.Row(
			g.Checkbox(fmt.Sprintf("replace##g%d", n), &gr.Replace).OnChange(edited),
			g.Checkbox(fmt.Sprintf("stop##g%d", n), &gr.Stop).OnChange(edited),
		),
	}
}
