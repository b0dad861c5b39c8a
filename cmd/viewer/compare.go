package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"physview/internal/app"
	"physview/sim"
)

// engineFlags are simulate's engine choice and its comparison mode
// (-engine, -compare, -threshold), kept apart from simulate.go's flags.
type engineFlags struct {
	engine    *string
	compare   *bool
	threshold *float64
}

func addEngineFlags(fs *flag.FlagSet) engineFlags {
	return engineFlags{
		engine:    fs.String("engine", sim.EngineODE, "physics engine: "+strings.Join(sim.Engines, " or ")),
		compare:   fs.Bool("compare", false, "run the file in both engines and compare every dynamic body's trajectory (exit 1 when one parts by more than -threshold)"),
		threshold: fs.Float64("threshold", app.DefaultCompareThreshold, "with -compare: the distance in metres at which two trajectories count as parted"),
	}
}

// check refuses an unknown engine or threshold (status 2).
func (f engineFlags) check() error {
	known := false
	for _, e := range sim.Engines {
		known = known || *f.engine == e
	}
	if !known {
		return fail(2, "simulate: -engine %q is not one of %s", *f.engine, strings.Join(sim.Engines, ", "))
	}
	if !(*f.threshold > 0) || math.IsInf(*f.threshold, 0) {
		return fail(2, "simulate: -threshold %g must be a distance in metres greater than 0", *f.threshold)
	}
	return nil
}

// runCompare is simulate -compare: both engines on the file, a report per
// dynamic body, exit 1 when any body's trajectories part by more than the
// threshold.
func runCompare(path string, f engineFlags, seconds, dt float64, animation int, asJSON bool, stdout, stderr io.Writer) error {
	d, err := app.OpenForView(path)
	if err != nil {
		return fail(2, "%v", err)
	}
	c, err := app.Compare(d, app.CompareOptions{Seconds: seconds, Step: dt, Threshold: *f.threshold, Animation: animation})
	if c == nil {
		return fail(1, "%s: %v", path, err)
	}
	defaults := app.DefaultsPlayed(d)
	for _, l := range app.DefaultsPlayedShown(defaults) {
		fmt.Fprintf(stderr, "viewer: %s: %s\n", path, l)
	}
	for _, n := range c.Notes {
		fmt.Fprintln(stderr, "viewer: note:", n)
	}
	if werr := c.Write(stdout, asJSON); werr != nil {
		return werr
	}
	if err != nil {
		return fail(1, "%s: %v (the comparison above stops there)", path, err)
	}
	if c.Parted > 0 {
		return fail(1, "%s: %d of %d bodies part by more than %g m between %s and %s", path, c.Parted, len(c.Bodies), c.Threshold, c.Engines[0], c.Engines[1])
	}
	return playedDefaultsStatus(path, defaults)
}
