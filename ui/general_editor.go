package ui

import (
	"fmt"
	"slices"

	g "github.com/AllenDang/giu"

	"physview/scene"
)

// G4ShapeEditor edits the parameters of a G4MF shape kind (general, plane,
// ray, heightmap): size, each curve's radii, exponent and taper sections, a
// ray's length. It never writes the model: each change calls set with a new
// Shape value (curves copied), which the caller turns into an undoable edit.
// id keeps the widget ids of two editors apart. ok is false for the OMI
// kinds, which the caller edits itself.
func G4ShapeEditor(id string, s scene.Shape, set func(scene.Shape)) (w g.Widget, ok bool) {
	lbl := func(name string) string { return fmt.Sprintf("%s##g4%s", name, id) }
	switch s.Type {
	case scene.ShapeGeneral:
		return generalEditor(lbl, s, set), true
	case scene.ShapePlane:
		return g.Label("plane: normal +Y through the node's origin (move or turn the node to place it)"), true
	case scene.ShapeRay:
		return floatField(lbl("length (m, along -Y)"), s.Length, func(v float64) {
			s.Length = v
			set(s)
		}), true
	case scene.ShapeHeightmap:
		return g.Label(fmt.Sprintf("heightmap of %g x %g samples, 1 m apart (scale the node for other spacings)", s.Size[0], s.Size[2])), true
	}
	return nil, false
}

// copyCurves returns s with its curves (and their tapers) copied, so a
// change to the copy leaves the model's shape as it was.
func copyCurves(s scene.Shape) scene.Shape {
	s.Curves = slices.Clone(s.Curves)
	for i := range s.Curves {
		s.Curves[i].Taper = slices.Clone(s.Curves[i].Taper)
	}
	return s
}

// withCurve returns s with curve ci changed by f, leaving s untouched.
func withCurve(s scene.Shape, ci int, f func(*scene.Curve)) scene.Shape {
	s = copyCurves(s)
	f(&s.Curves[ci])
	return s
}

func vec3Row(lbl func(string) string, names [3]string, v [3]float64, set func([3]float64)) g.Widget {
	var ws []g.Widget
	for k := 0; k < 3; k++ {
		k := k
		ws = append(ws, floatField(lbl(names[k]), v[k], func(x float64) {
			v[k] = x
			set(v)
		}))
	}
	return g.Row(ws...)
}

func generalEditor(lbl func(string) string, s scene.Shape, set func(scene.Shape)) g.Widget {
	lay := g.Layout{
		vec3Row(lbl, [3]string{"x", "y", "z (box size, m)"}, s.Size, func(v [3]float64) {
			s2 := copyCurves(s)
			s2.Size = v
			set(s2)
		}),
	}
	for ci, c := range s.Curves {
		ci, c := ci, c
		cl := func(name string) string { return lbl(fmt.Sprintf("%s c%d", name, ci)) }
		lay = append(lay,
			g.Label(fmt.Sprintf("curve %d", ci)),
			vec3Row(cl, [3]string{"rx", "ry", "rz (radii, m; 0: not on that axis)"}, c.Radii, func(v [3]float64) {
				set(withCurve(s, ci, func(c *scene.Curve) { c.Radii = v }))
			}),
			g.Row(
				floatField(cl("exponent (2 round, >2 squarer, <2 pointier)"), c.Exponent, func(v float64) {
					set(withCurve(s, ci, func(c *scene.Curve) { c.Exponent = v }))
				}),
				g.Button(cl("remove curve")).OnClick(func() {
					s2 := copyCurves(s)
					s2.Curves = slices.Delete(s2.Curves, ci, ci+1)
					set(s2)
				}),
			),
		)
		for ti, t := range c.Taper {
			ti, t := ti, t
			tl := func(name string) string { return cl(fmt.Sprintf("%s t%d", name, ti)) }
			lay = append(lay,
				vec3Row(tl, [3]string{"px", "py", "pz (taper position, m)"}, t.Position, func(v [3]float64) {
					set(withCurve(s, ci, func(c *scene.Curve) { c.Taper[ti].Position = v }))
				}),
				vec3Row(tl, [3]string{"rx", "ry", "rz (taper radii, m)"}, t.Radii, func(v [3]float64) {
					set(withCurve(s, ci, func(c *scene.Curve) { c.Taper[ti].Radii = v }))
				}),
			)
		}
		lay = append(lay, g.Row(
			g.Button(cl("add taper section")).OnClick(func() {
				set(withCurve(s, ci, func(c *scene.Curve) {
					c.Taper = append(c.Taper, scene.Taper{Position: [3]float64{0, s.Size[1] / 2, 0}, Radii: c.Radii})
				}))
			}),
			g.Button(cl("remove taper")).OnClick(func() {
				set(withCurve(s, ci, func(c *scene.Curve) { c.Taper = nil }))
			}),
		))
	}
	lay = append(lay, g.Button(lbl("add curve")).OnClick(func() {
		s2 := copyCurves(s)
		s2.Curves = append(s2.Curves, scene.Curve{Radii: [3]float64{0.25, 0.25, 0.25}, Exponent: 2})
		set(s2)
	}))
	if o, ok := s.Classify(); ok {
		lay = append(lay, g.Row(
			g.Label(fmt.Sprintf("exactly an OMI %s", o.Type)),
			g.Button(lbl("convert to OMI "+o.Type.String())).OnClick(func() { set(o) }),
		))
	}
	return lay
}
