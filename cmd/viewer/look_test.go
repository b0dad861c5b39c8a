package main

import (
	"testing"

	"physview/internal/app"
	"physview/render"
	"physview/render/shot"
	"physview/ui"
)

// TestLookNames: the View tab numbers environments and backgrounds as the
// renderer does.
func TestLookNames(t *testing.T) {
	if len(ui.EnvironmentNames) != len(render.EnvironmentNames) {
		t.Fatalf("ui lists %d environments, render %d", len(ui.EnvironmentNames), len(render.EnvironmentNames))
	}
	for i, n := range render.EnvironmentNames {
		if ui.EnvironmentNames[i] != n {
			t.Errorf("environment %d: ui %q, render %q", i, ui.EnvironmentNames[i], n)
		}
	}
	if int(render.EnvFile) != len(render.EnvironmentNames) || int32(render.EnvFile) != app.FileEnvironment || render.EnvFile.String() != ui.FileEnvironmentName {
		t.Errorf("the file's environment is %d %q in render, after the %d built-in ones %q in ui", render.EnvFile, render.EnvFile, len(render.EnvironmentNames), ui.FileEnvironmentName)
	}
	if len(ui.BackgroundNames) != int(render.BackgroundEnvironment)+1 {
		t.Errorf("ui lists %d backgrounds", len(ui.BackgroundNames))
	}
	for _, c := range []struct {
		env, bg string
		want    shot.Look
		bad     bool
	}{
		{"studio", "plain", shot.Look{Environment: render.EnvStudio, Background: render.BackgroundColor}, false},
		{"soft-room", "blurred", shot.Look{Environment: render.EnvSoftRoom, Background: render.BackgroundBlurred}, false},
		{"Outdoor", "environment", shot.Look{Environment: render.EnvOutdoor, Background: render.BackgroundEnvironment}, false},
		{"file", "environment", shot.Look{Environment: render.EnvFile, Background: render.BackgroundEnvironment}, false},
		{"moon", "plain", shot.Look{}, true},
		{"studio", "stars", shot.Look{}, true},
	} {
		got, err := shot.ParseLook(c.env, c.bg, 0)
		if (err != nil) != c.bad || (!c.bad && got != c.want) {
			t.Errorf("%s/%s: got %+v, %v", c.env, c.bg, got, err)
		}
	}
}
