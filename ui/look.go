package ui

import (
	g "github.com/AllenDang/giu"
)

// EnvironmentNames are the lighting environments in the order the
// renderer numbers them (render.EnvironmentNames).
var EnvironmentNames = []string{"Studio", "Soft room", "Outdoor"}

// FileEnvironmentName is the entry after the built-in environments, listed
// when the document carries its own (EXT_lights_image_based); the
// renderer numbers it render.EnvFile.
const FileEnvironmentName = "From the file"

// BackgroundNames are the background modes in the order the renderer
// numbers them (render.BackgroundMode).
var BackgroundNames = []string{"Plain colour", "Environment, blurred", "Environment"}

// lookControls are the View tab's environment, exposure and background
// controls.
func lookControls(s *State) g.Widget {
	names := EnvironmentNames
	if s.S.Doc != nil && s.S.Doc.ImageBasedLight() >= 0 {
		names = append(names[:len(names):len(names)], FileEnvironmentName)
	}
	env := "Studio"
	if int(s.S.View.Environment) >= 0 && int(s.S.View.Environment) < len(names) {
		env = names[s.S.View.Environment]
	}
	bg := BackgroundNames[0]
	if int(s.S.View.Background) >= 0 && int(s.S.View.Background) < len(BackgroundNames) {
		bg = BackgroundNames[s.S.View.Background]
	}
	return g.Layout{
		g.Combo("Environment", env, names, &s.S.View.Environment).Size(200),
		g.Row(
			g.SliderFloat(&s.S.View.Exposure, -4, 4).Label("Exposure (stops)").Format("%+.1f").Size(200),
			g.Button("Reset##exposure").OnClick(func() { s.S.View.Exposure = 0 }),
		),
		g.Combo("Background", bg, BackgroundNames, &s.S.View.Background).Size(200),
	}
}
