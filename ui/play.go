package ui

import (
	"fmt"
	"image/color"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/implot"
	g "github.com/AllenDang/giu"

	"physview/internal/app"
)

// PlayTab lays out the Play tab: Play/Pause, Step, Reset, the speed, the
// contact toggle, the run's state and a plot of the selected body's height
// and speed and the scene's energy over time.
func PlayTab(s *State, act func(app.Intent)) g.Widget {
	p := &s.S.Play
	label := "Play"
	if p.Playing {
		label = "Pause"
	}
	speeds := make([]string, len(app.PlaySpeeds))
	for i, v := range app.PlaySpeeds {
		speeds[i] = fmt.Sprintf("%gx", v)
	}
	s.speed = int32(p.Speed)
	contacts := p.Contacts
	status := "stopped: Play builds the physics world from the scene as it is now\n" + s.S.PlayGravity()
	if p.Running() {
		status = fmt.Sprintf("t = %.3f s", p.Time)
		if !p.Playing {
			status += " (paused)"
		}
	}
	var notes []g.Widget
	for _, n := range p.Notes {
		notes = append(notes, g.Label("note: "+n).Wrapped(true))
	}
	var inside []g.Widget
	for _, n := range p.Inside {
		inside = append(inside, g.Label(n).Wrapped(true))
	}
	// Said only while Play runs: before, nothing is plotted whatever is
	// selected, and the line read as if the selection were wrong.
	plotted := ""
	if p.Running() {
		plotted = "Click a body above (or select one in the view) to plot its height and speed."
		if p.Plotted != "" {
			plotted = "Plotting " + p.Plotted
		}
	}
	bodies, allBodies := s.S.PlayBodies(maxPlayBodyButtons)
	info := ""
	if p.Running() {
		info = plural(p.Bodies, "body", "bodies") + " with motion"
		if p.Awake < p.Bodies {
			info += fmt.Sprintf(", %d asleep", p.Bodies-p.Awake)
		}
		if p.Playing && p.StepMS > 0 {
			info += fmt.Sprintf("; stepping takes %.1f ms a frame", p.StepMS)
		}
	}
	return g.Layout{
		g.Row(
			g.Button(label).Size(70, 0).OnClick(func() { act(app.PlayToggle{}) }),
			g.Button("Step").Size(60, 0).OnClick(func() { act(app.PlayStep{}) }),
			g.Button("Reset").Size(60, 0).OnClick(func() { act(app.PlayReset{}) }),
			g.Combo("Speed", speeds[s.speed], speeds, &s.speed).Size(70).OnChange(func() { act(app.SetPlaySpeed{Choice: int(s.speed)}) }),
		),
		engineWidgets(s, act), // engines.go
		g.Checkbox("Contact points", &contacts).OnChange(func() { act(app.SetContacts{On: contacts}) }),
		g.Label(status).Wrapped(true),
		recordingWidgets(s, act),
		g.Condition(info != "", g.Label(info).Wrapped(true), nil),
		g.Condition(p.Error != "", g.Style().SetColor(g.StyleColorText, color.RGBA{255, 110, 100, 255}).To(g.Label(p.Error).Wrapped(true)), nil),
		g.Condition(p.Dropped != "", g.Style().SetColor(g.StyleColorText, color.RGBA{255, 200, 90, 255}).To(g.Label(p.Dropped).Wrapped(true)), nil),
		g.Custom(func() {
			// What is simulated, by name; a click plots that body.
			selectButtons(playBodyNodes(bodies), func(k int) string { return playBodyName(bodies, k) }, "pbsel", func(k int) { act(app.Select{Node: k}) })
			if more := allBodies - len(bodies); more > 0 {
				imgui.TextDisabled(fmt.Sprintf("and %d more", more))
			}
		}),
		g.Layout(inside),
		g.Condition(plotted != "", g.Label(plotted).Wrapped(true), nil),
		g.Custom(func() { playPlot(p) }),
		g.Layout(notes),
	}
}

// maxPlayBodyButtons is how many bodies the Play tab lists as buttons.
const maxPlayBodyButtons = 24

func playBodyNodes(bs []app.PlayBody) []int {
	out := make([]int, len(bs))
	for i, b := range bs {
		out[i] = b.Node
	}
	return out
}

func playBodyName(bs []app.PlayBody, node int) string {
	for _, b := range bs {
		if b.Node == node {
			return b.Name
		}
	}
	return ""
}

// plural says n things with the noun's singular or plural form.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// playPlot draws the series with ImPlot: height (m) and speed (m/s) on the
// left axis, energy (J) on the right one; both fit the data.
func playPlot(p *app.Play) {
	if len(p.T) == 0 {
		return
	}
	fit := implot.AxisFlagsAutoFit
	if implot.BeginPlotV("##play", imgui.Vec2{X: -1, Y: 220}, implot.FlagsNoTitle) {
		implot.SetupAxesV("t (s)", "m, m/s", fit, fit)
		implot.SetupAxisV(implot.AxisY2, "J", fit|implot.AxisFlagsOpposite)
		implot.SetupLegend(implot.LocationNorthWest)
		n := int32(len(p.T))
		// Height and speed are plotted even with no body chosen (NaN, no
		// line), so that each series keeps its colour when one is.
		implot.SetAxis(implot.AxisY1)
		implot.PlotLinedoublePtrdoublePtr("height", &p.T[0], &p.Height[0], n)
		implot.PlotLinedoublePtrdoublePtr("speed", &p.T[0], &p.SpeedPlot[0], n)
		implot.SetAxis(implot.AxisY2)
		implot.PlotLinedoublePtrdoublePtr("energy", &p.T[0], &p.Energy[0], n)
		if p.Scrubbing() {
			// The plot follows the scrubbed time: a line marks it.
			at := p.ScrubTime()
			implot.PlotInfLinesdoublePtr("shown", &at, 1)
		}
		implot.EndPlot()
	}
}

// recordingWidgets are the Play tab's recording controls: the slider that
// scrubs the recording (paused), Continue from here, Bake to animation,
// and what the recording holds.
func recordingWidgets(s *State, act func(app.Intent)) g.Widget {
	p := &s.S.Play
	rec := p.Recording
	state := p.RecordingState()
	if state == "" {
		return g.Layout{}
	}
	var ws g.Layout
	if p.Running() && rec.Len() > 1 {
		s.recScrub = float32(p.ScrubTime())
		ws = append(ws,
			g.SliderFloat(&s.recScrub, 0, float32(rec.End())).Label("##recording").Format("recording %.3f s").Size(-1).
				OnChange(func() { act(app.ScrubRecording{Time: float64(s.recScrub)}) }),
		)
	}
	shown := state
	if p.Scrubbing() {
		shown = fmt.Sprintf("showing step %d of the recording (t = %.3f s); %s", rec.FrameStep(p.Scrub), p.ScrubTime(), state)
	}
	buttons := []g.Widget{g.Button("Bake to animation").OnClick(func() { act(app.BakeRecording{}) })}
	if p.Scrubbing() {
		// (No g.Condition inside a Row: giu's Row ranges its nil branch.)
		buttons = append(buttons, g.Button("Continue from here").OnClick(func() { act(app.ContinueFromHere{}) }))
	}
	ws = append(ws,
		g.Row(buttons...),
		g.Label(shown).Wrapped(true),
		g.Condition(rec.Note != "", g.Style().SetColor(g.StyleColorText, color.RGBA{255, 200, 90, 255}).To(g.Label("recording: "+rec.Note).Wrapped(true)), nil),
	)
	return ws
}
