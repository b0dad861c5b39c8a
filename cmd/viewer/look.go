package main

import (
	"flag"

	"physview/render/shot"
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

// parse returns the look the flags ask for.
func (l lookFlags) parse() (shot.Look, error) {
	return shot.ParseLook(*l.env, *l.background, *l.exposure)
}
