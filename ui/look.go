package ui

import (
	g "github.com/AllenDang/giu"
)

// EnvironmentNames are the lighting environments in the order the
// renderer numbers them (render.EnvironmentNames).
var EnvironmentNames = []string{"Studio", "Soft room", "Outdoor"}

// BackgroundNames are the background modes in the order the renderer
// numbers them (render.BackgroundMode).
var BackgroundNames = []string{"Plain colour", "Environment, blurred", "Environment"}

// lookControls are the View tab's environment, exposure and background
// controls.
func lookControls(s *State) g.Widget {
	env := "Studio"
	if int(s.Environment) >= 0 && int(s.Environment) < len(EnvironmentNames) {
		env = EnvironmentNames[s.Environment]
	}
	bg := BackgroundNames[0]
	if int(s.Background) >= 0 && int(s.Background) < len(BackgroundNames) {
		bg = BackgroundNames[s.Background]
	}
	return g.Layout{
		g.Combo("Environment", env, EnvironmentNames, &s.Environment).Size(200),
		g.Row(
			g.SliderFloat(&s.Exposure, -4, 4).Label("Exposure (stops)").Format("%+.1f").Size(200),
			g.Button("0##exposure").OnClick(func() { s.Exposure = 0 }),
		),
		g.Combo("Background", bg, BackgroundNames, &s.Background).Size(200),
	}
}
