package ui

import (
	"fmt"
	"image/color"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/implot"
	g "github.com/AllenDang/giu"
)

// PlaySpeeds are the speed choices of the Play tab (simulated seconds per
// wall-clock second).
var PlaySpeeds = []float64{0.1, 0.25, 0.5, 1, 2}

// PlayHistory is how many samples the Play plot keeps.
const PlayHistory = 2400

// PlayState is the Play tab: what the user asked for (the window reads and
// clears the requests) and what the window reports back.
type PlayState struct {
	// Playing is set by Play and cleared by Pause (or by an error).
	Playing bool
	// StepRequested and ResetRequested are one-shot requests.
	StepRequested, ResetRequested bool
	// SpeedChoice indexes PlaySpeeds.
	SpeedChoice int32
	// Contacts shows the contact points of the last step.
	Contacts bool

	// Running is set while a simulation exists (playing or paused).
	Running bool
	// Time is the simulated time; Info a line about the run (bodies, frame time).
	Time float64
	Info string
	// Error is why the scene cannot play (or why it stopped: NaN).
	Error string
	// Notes say what was approximated.
	Notes []string
	// Inside lists the triggers with bodies inside, as text.
	Inside []string
	// Plotted is the name of the body in the plot ("" for none selected).
	Plotted string
	// T, Height, Speed and Energy are the plot's series.
	T, Height, Speed, Energy []float64
}

// Play is the Play tab's state, shared by the panel and the window.
var Play = &PlayState{SpeedChoice: 3}

// AddSample appends one plot sample, keeping the last PlayHistory.
func (p *PlayState) AddSample(t, height, speed, energy float64) {
	if len(p.T) >= PlayHistory {
		n := len(p.T) - PlayHistory + 1
		p.T, p.Height, p.Speed, p.Energy = p.T[n:], p.Height[n:], p.Speed[n:], p.Energy[n:]
	}
	p.T = append(p.T, t)
	p.Height = append(p.Height, height)
	p.Speed = append(p.Speed, speed)
	p.Energy = append(p.Energy, energy)
}

// ClearSamples empties the plot.
func (p *PlayState) ClearSamples() {
	p.T, p.Height, p.Speed, p.Energy = nil, nil, nil, nil
}

// PlayTab lays out the Play tab: Play/Pause, Step, Reset, the speed, the
// contact toggle, the run's state and a plot of the selected body's height
// and speed and the scene's energy over time.
func PlayTab(s *State) g.Widget {
	p := Play
	label := "Play"
	if p.Playing {
		label = "Pause"
	}
	speeds := make([]string, len(PlaySpeeds))
	for i, v := range PlaySpeeds {
		speeds[i] = fmt.Sprintf("%gx", v)
	}
	status := "stopped: Play builds the physics world from the scene as it is now"
	if p.Running {
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
	plotted := "Select a body (Scene tab) to plot its height and speed."
	if p.Plotted != "" {
		plotted = "Plotting " + p.Plotted
	}
	return g.Layout{
		g.Row(
			g.Button(label).Size(70, 0).OnClick(func() { p.Playing = !p.Playing }),
			g.Button("Step").Size(60, 0).OnClick(func() { p.Playing = false; p.StepRequested = true }),
			g.Button("Reset").Size(60, 0).OnClick(func() { p.Playing = false; p.ResetRequested = true }),
			g.Combo("##speed", speeds[p.SpeedChoice], speeds, &p.SpeedChoice).Size(70),
		),
		g.Checkbox("Contact points", &p.Contacts),
		g.Label(status).Wrapped(true),
		g.Condition(p.Info != "", g.Label(p.Info).Wrapped(true), nil),
		g.Condition(p.Error != "", g.Style().SetColor(g.StyleColorText, color.RGBA{255, 110, 100, 255}).To(g.Label(p.Error).Wrapped(true)), nil),
		g.Layout(inside),
		g.Label(plotted).Wrapped(true),
		g.Custom(func() { playPlot(p) }),
		g.Layout(notes),
	}
}

// playPlot draws the series with ImPlot: height (m) and speed (m/s) on the
// left axis, energy (J) on the right one; both fit the data.
func playPlot(p *PlayState) {
	if len(p.T) == 0 {
		return
	}
	fit := implot.AxisFlagsAutoFit
	if implot.BeginPlotV("##play", imgui.Vec2{X: -1, Y: 220}, implot.FlagsNoTitle) {
		implot.SetupAxesV("t (s)", "m, m/s", fit, fit)
		implot.SetupAxisV(implot.AxisY2, "J", fit|implot.AxisFlagsOpposite)
		implot.SetupLegend(implot.LocationNorthWest)
		n := int32(len(p.T))
		if p.Plotted != "" {
			implot.SetAxis(implot.AxisY1)
			implot.PlotLinedoublePtrdoublePtr("height", &p.T[0], &p.Height[0], n)
			implot.PlotLinedoublePtrdoublePtr("speed", &p.T[0], &p.Speed[0], n)
		}
		implot.SetAxis(implot.AxisY2)
		implot.PlotLinedoublePtrdoublePtr("energy", &p.T[0], &p.Energy[0], n)
		implot.EndPlot()
	}
}
