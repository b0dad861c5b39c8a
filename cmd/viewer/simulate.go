package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"physview/internal/app"
	"physview/sim"
)

// cmdSimulate runs the scene for -t seconds in steps of -dt and prints each
// dynamic body's final pose and the state's hash; -o writes the file with
// the poses applied (or, with -bake, the run baked into an animation);
// -record writes every step.
func cmdSimulate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("simulate")
	seconds := fs.Float64("t", 1, "seconds to simulate")
	dt := fs.Float64("dt", sim.DefaultStep, "fixed time step in seconds")
	asJSON := fs.Bool("json", false, "print JSON")
	out := fs.String("o", "", "write the file with the final poses applied")
	animation := fs.Int("animation", -1, "the animation kinematic bodies on animated nodes follow (index; -1: all at once)")
	engine := addEngineFlags(fs)    // compare.go
	extras := addSimulateExtras(fs) // -hash-every, -record, -bake (bake.go)
	if err := parseFlags(fs, args, 1, "one FILE"); err != nil {
		return err
	}
	if err := extras.check(*out); err != nil {
		return err
	}
	if err := engine.check(); err != nil {
		return err
	}
	if !(*seconds >= 0) || math.IsInf(*seconds, 0) {
		return fail(2, "simulate: -t %g must be a number of seconds, 0 or more", *seconds)
	}
	if !(*dt > 0) || *dt > 1 {
		return fail(2, "simulate: -dt %g must be greater than 0 and at most 1 second", *dt)
	}
	path := fs.Arg(0)
	if *engine.compare {
		return runCompare(path, engine, *seconds, *dt, *animation, *asJSON, stdout, stderr)
	}
	d, err := app.OpenForView(path)
	if err != nil {
		return fail(2, "%v", err)
	}
	s, err := sim.New(d, sim.Options{Step: *dt, Engine: *engine.engine})
	if err != nil {
		return fail(1, "%s: %v", path, err)
	}
	defer s.Close()
	if err := app.AnimateKinematic(s, d, *animation); err != nil {
		return fail(2, "simulate: %v", err)
	}
	// Notes go to stderr, so that stdout stays the poses (JSON with -json).
	note := func(lines ...string) {
		for _, l := range lines {
			fmt.Fprintln(stderr, "viewer: note:", l)
		}
	}
	// A value of the wrong type plays as its default: said up front, as
	// screenshot says what it does not draw, and the exit status is 1.
	defaults := app.DefaultsPlayed(d)
	for _, l := range app.DefaultsPlayedShown(defaults) {
		fmt.Fprintf(stderr, "viewer: %s: %s\n", path, l)
	}
	note(s.Warnings...)
	shown := len(s.Warnings)
	rec := extras.recording(s)
	hashes, runErr := extras.run(s, *seconds, rec)
	note(s.Warnings[shown:]...) // what ODE said while stepping
	if dropped := app.DroppedNote(s); dropped != "" {
		note(dropped)
	}
	if runErr != nil && !sim.Stopped(runErr) {
		return fail(1, "%s: %v", path, runErr)
	}
	rep := app.SimulationReport(s)
	rep.Hash, rep.Hashes = s.Hash(), hashes
	if err := rep.Write(stdout, *asJSON); err != nil {
		return err
	}
	if err := extras.writeRecord(rec, stderr); err != nil {
		return err
	}
	if runErr != nil {
		return fail(1, "%s: %v (the poses above are the last finite ones)", path, runErr)
	}
	if *out != "" && *extras.bake {
		if err := extras.writeBaked(d, rec, *out, stderr); err != nil {
			return err
		}
		return playedDefaultsStatus(path, defaults)
	}
	if *out != "" {
		s.Apply()
		warnings, err := app.SaveDocument(s.Doc, *out)
		if err != nil {
			return fail(1, "%v", err)
		}
		note(warnings...)
	}
	return playedDefaultsStatus(path, defaults)
}

// playedDefaultsStatus is simulate's exit for a run that played defaults
// for values of the wrong type: like a screenshot that draws less than the
// file asks, it is not the file's run, so not a success (status 1).
func playedDefaultsStatus(path string, defaults []string) error {
	if len(defaults) == 0 {
		return nil
	}
	return fail(1, "%s: played defaults for values of the wrong type: %s", path, firstOfDefaults(defaults))
}

// firstOfDefaults joins the first lines with "; " and says how many more
// there are.
func firstOfDefaults(lines []string) string {
	return strings.Join(app.DefaultsPlayedShown(lines), "; ")
}
