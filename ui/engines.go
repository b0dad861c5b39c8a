package ui

import (
	"image/color"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"physview/internal/app"
	"physview/sim"
)

// engineLabels are the engines' names in the combo.
var engineLabels = map[string]string{sim.EngineODE: "ODE", sim.EngineBullet: "Bullet"}

// engineWidgets are the Play tab's engine combo (ODE or Bullet; a change
// stops the run) and its "Compare engines" button with the last
// comparison's summary.
func engineWidgets(s *State, act func(app.Intent)) g.Widget {
	p := &s.S.Play
	idx := int32(p.PlayEngineIndex())
	names := make([]string, len(sim.Engines))
	for i, e := range sim.Engines {
		names[i] = engineLabels[e]
	}
	var lines []g.Widget
	for i, l := range p.Engines.CompareSummary() {
		w := g.Label(l).Wrapped(true)
		if i > 0 {
			lines = append(lines, g.Style().SetColor(g.StyleColorText, color.RGBA{255, 200, 90, 255}).To(w))
			continue
		}
		lines = append(lines, w)
	}
	if len(lines) > 0 {
		lines = append(lines, g.Label("In the view: ODE orange, Bullet cyan: the tracks of the centres of mass and, while Play shows a time (scrub the recording), each engine's bodies there as ghosts.").Wrapped(true))
	}
	return g.Layout{
		g.Row(
			g.Combo("Engine", names[idx], names, &idx).Size(90).OnChange(func() { act(app.SetPlayEngine{Engine: sim.Engines[idx]}) }),
			g.Custom(func() {
				button("Compare engines", func() { act(app.CompareEngines{}) })
				if s.ItemLog != nil { // where window tests click
					lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
					s.ItemLog("compare engines", (lo.X+hi.X)/2, (lo.Y+hi.Y)/2)
				}
			}),
		),
		g.Condition(p.Engines.CompareError != "", g.Style().SetColor(g.StyleColorText, color.RGBA{255, 110, 100, 255}).To(g.Label("compare: "+p.Engines.CompareError).Wrapped(true)), nil),
		g.Layout(lines),
	}
}
