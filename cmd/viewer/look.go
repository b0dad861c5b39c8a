package main

import (
	"flag"
	"fmt"
	"strings"

	"physview/render"
)

// lookFlags are the lighting flags of the screenshot command.
type lookFlags struct {
	env, background *string
	exposure        *float64
}

func addLookFlags(fs *flag.FlagSet) lookFlags {
	return lookFlags{
		env:        fs.String("env", "studio", "lighting environment: studio, soft-room, outdoor or file (the file's own EXT_lights_image_based, else studio)"),
		exposure:   fs.Float64("exposure", 0, "exposure in stops (each +1 doubles the light)"),
		background: fs.String("background", "plain", "behind the scene: plain, blurred or environment"),
	}
}

// look is what the lighting flags ask for.
type look struct {
	env      render.Environment
	exposure float32
	bg       render.BackgroundMode
}

func (l lookFlags) parse() (look, error) {
	var out look
	found := false
	for i, name := range render.EnvironmentNames {
		if strings.EqualFold(strings.ReplaceAll(name, " ", "-"), *l.env) {
			out.env, found = render.Environment(i), true
		}
	}
	if strings.EqualFold(*l.env, "file") {
		out.env, found = render.EnvFile, true
	}
	if !found {
		return out, fmt.Errorf("-env %q: want studio, soft-room, outdoor or file", *l.env)
	}
	switch *l.background {
	case "plain":
		out.bg = render.BackgroundColor
	case "blurred":
		out.bg = render.BackgroundBlurred
	case "environment":
		out.bg = render.BackgroundEnvironment
	default:
		return out, fmt.Errorf("-background %q: want plain, blurred or environment", *l.background)
	}
	out.exposure = float32(*l.exposure)
	return out, nil
}

func (l look) apply(o *render.Options) {
	o.Environment, o.Exposure, o.BackgroundMode = l.env, l.exposure, l.bg
}
