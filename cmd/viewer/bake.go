package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"physview/internal/app"
	"physview/internal/report"
	"physview/scene"
	"physview/sim"
)

// simulateExtras are simulate's flags for recording, hashing and baking.
type simulateExtras struct {
	hashEvery *int
	record    *string
	bake      *bool
	rate      *float64
	tolerance *float64
	angle     *float64
	strip     *bool
}

func addSimulateExtras(fs *flag.FlagSet) *simulateExtras {
	return &simulateExtras{
		hashEvery: fs.Int("hash-every", 0, "also print the state's hash every N steps"),
		record:    fs.String("record", "", "write every body's state at every step to OUT.csv or OUT.json"),
		bake:      fs.Bool("bake", false, "with -o: write the file with the run baked into an animation \"Simulation\""),
		rate:      fs.Float64("rate", app.DefaultBakeRate, "-bake: samples per second"),
		tolerance: fs.Float64("tolerance", app.DefaultBakeTolerance, "-bake: how far (m) the reduced keys may stray from the samples"),
		angle:     fs.Float64("angle-tolerance", 0.1, "-bake: how far (degrees) the reduced rotation keys may stray"),
		strip:     fs.Bool("strip-physics", false, "-bake: remove the bodies and joints (for plain viewers) instead of making the baked bodies kinematic"),
	}
}

// check refuses flag values that cannot work, before anything runs.
func (e *simulateExtras) check(out string) error {
	if *e.hashEvery < 0 {
		return fail(2, "simulate: -hash-every %d must be 0 or more", *e.hashEvery)
	}
	if r := *e.record; r != "" {
		if ext := strings.ToLower(filepath.Ext(r)); ext != ".csv" && ext != ".json" {
			return fail(2, "simulate: -record %s: the file must end in .csv or .json", r)
		}
	}
	if *e.bake {
		if out == "" {
			return fail(2, "simulate: -bake needs -o OUT (the baked file)")
		}
		if !(*e.rate > 0) || math.IsInf(*e.rate, 0) || *e.rate > 10000 {
			return fail(2, "simulate: -rate %g must be more than 0 and at most 10000 Hz", *e.rate)
		}
		if !(*e.tolerance >= 0) || math.IsInf(*e.tolerance, 0) || !(*e.angle >= 0) || math.IsInf(*e.angle, 0) {
			return fail(2, "simulate: -tolerance %g and -angle-tolerance %g must be numbers, 0 or more", *e.tolerance, *e.angle)
		}
	} else if *e.strip {
		return fail(2, "simulate: -strip-physics goes with -bake")
	}
	return nil
}

// recording returns a recording of s when -record or -bake asks for one.
func (e *simulateExtras) recording(s *sim.Sim) *sim.Recording {
	if *e.record == "" && !*e.bake {
		return nil
	}
	return sim.NewRecording(s, 0)
}

// run steps s to t seconds, recording when asked to, and returns the
// hashes taken every -hash-every steps.
func (e *simulateExtras) run(s *sim.Sim, t float64, rec *sim.Recording) ([]report.StepHash, error) {
	return app.RunRecorded(s, t, rec, *e.hashEvery)
}

// writeRecord writes the recording to the -record file (and says on
// stderr when the budget decimated or stopped it).
func (e *simulateExtras) writeRecord(rec *sim.Recording, stderr io.Writer) error {
	if *e.record == "" || rec == nil {
		return nil
	}
	if rec.Note != "" {
		fmt.Fprintln(stderr, "viewer: note:", rec.Note)
	}
	f, err := os.Create(*e.record)
	if err != nil {
		return fail(1, "simulate: -record: %v", err)
	}
	write := app.WriteRecordingCSV
	if strings.EqualFold(filepath.Ext(*e.record), ".json") {
		write = app.WriteRecordingJSON
	}
	werr := write(f, rec)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fail(1, "simulate: writing %s: %v", *e.record, werr)
	}
	return nil
}

// writeBaked bakes the recording into d (the file as opened) and saves it
// to out.
func (e *simulateExtras) writeBaked(d *scene.Document, rec *sim.Recording, out string, stderr io.Writer) error {
	tol, ang := *e.tolerance, *e.angle*math.Pi/180
	// 0 asks for every sample: Bake reads a negative tolerance so.
	if tol == 0 {
		tol = -1
	}
	if ang == 0 {
		ang = -1
	}
	edit, st, err := app.Bake(d, rec, app.BakeOptions{Rate: *e.rate, Tolerance: tol, Angle: ang, StripPhysics: *e.strip})
	if err != nil {
		return fail(1, "%s: %v", d.Path, err)
	}
	if _, err := scene.Apply(d, edit); err != nil {
		return fail(1, "%s: bake: %v", d.Path, err)
	}
	warnings, err := app.SaveDocument(d, out)
	if err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintf(stderr, "viewer: note: baked %d bodies over %.4g s: %d samples each, %d keys in all\n", st.Bodies, st.Duration, st.Samples, st.Keys)
	if rec.Note != "" && *e.record == "" { // said by writeRecord otherwise
		fmt.Fprintln(stderr, "viewer: note:", rec.Note)
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "viewer: note:", w)
	}
	return nil
}
