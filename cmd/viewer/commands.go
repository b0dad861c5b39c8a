package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"

	"physview/internal/app"
	"physview/internal/report"
	"physview/scene"
	"physview/scene/anim"
)

// load reads path; a file that cannot be read is exit status 2.
func load(path string) (*scene.Document, error) {
	d, err := openDocument(path)
	if err != nil {
		return nil, fail(2, "%v", err)
	}
	return d, nil
}

// openDocument reads a file of any registered format.
func openDocument(path string) (*scene.Document, error) { return app.OpenDocument(path) }

// poseFlags are -time and -animation, shared by screenshot and inspect;
// a NaN time (no -time) is the rest pose.
type poseFlags struct {
	time      *float64
	animation *int
}

func addPoseFlags(fs *flag.FlagSet) poseFlags {
	return poseFlags{
		time:      fs.Float64("time", math.NaN(), "pose the scene at T seconds of the animation (clamped to its range; default: the rest pose)"),
		animation: fs.Int("animation", 0, "the animation -time samples (index); -1 plays them all"),
	}
}

func cmdInspect(args []string, w io.Writer) error {
	fs := newFlags("inspect")
	asJSON := fs.Bool("json", false, "print JSON")
	pf := addPoseFlags(fs)
	sceneIdx := fs.Int("scene", -1, "index of the scene to report (default: the file's scene)")
	if err := parseFlags(fs, args, 1, "one FILE"); err != nil {
		return err
	}
	d, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	if err := d.SetShownScene(*sceneIdx); err != nil {
		return fail(2, "%s: -scene: %v", fs.Arg(0), err)
	}
	r := report.Inspect(d)
	if r.Bounds, err = report.PosedBounds(d, *pf.animation, *pf.time); err != nil {
		return fail(2, "-%v", err) // the error starts with the flag's name
	}
	if *asJSON {
		return r.WriteJSON(w)
	}
	r.WriteText(w)
	report.WriteBounds(w, r.Bounds, anim.PoseName(*pf.animation, *pf.time))
	return nil
}

func cmdConvert(args []string, w io.Writer) error {
	fs := newFlags("convert")
	physics := fs.String("physics", "", "write the physics as omi, khr or gltf2.1 (default: the dialect it was read in)")
	if err := parseFlags(fs, args, 2, "IN and OUT"); err != nil {
		return err
	}
	c, err := app.Convert(fs.Arg(0), fs.Arg(1), *physics)
	if ce := (*scene.ContentError)(nil); errors.As(err, &ce) {
		// Read, but what it holds cannot be written in the new form:
		// errors in the file (1), not a file that cannot be read (2).
		return fail(1, "%v", err)
	}
	if err != nil {
		return fail(2, "%v", err)
	}
	for _, warning := range c.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warning)
	}
	fmt.Fprintf(w, "wrote %s (%d errors, %d warnings carried over from %s)\n", fs.Arg(1), c.Errors, c.FindingWarnings, fs.Arg(0))
	return nil
}
