package main

import (
	"errors"
	"fmt"
	"io"
	"math"

	"physview/internal/report"
	"physview/scene"
	"physview/sim"
)

// cmdSimulate runs the scene for -t seconds in steps of -dt and prints each
// dynamic body's final pose; -o writes the file with the poses applied.
func cmdSimulate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("simulate")
	seconds := fs.Float64("t", 1, "seconds to simulate")
	dt := fs.Float64("dt", sim.DefaultStep, "fixed time step in seconds")
	asJSON := fs.Bool("json", false, "print JSON")
	out := fs.String("o", "", "write the file with the final poses applied")
	animation := fs.Int("animation", -1, "the animation kinematic bodies on animated nodes follow (index; -1: all at once)")
	if err := parseFlags(fs, args, 1, "one FILE"); err != nil {
		return err
	}
	if !(*seconds >= 0) || math.IsInf(*seconds, 0) {
		return fail(2, "simulate: -t %g must be a number of seconds, 0 or more", *seconds)
	}
	if !(*dt > 0) || *dt > 1 {
		return fail(2, "simulate: -dt %g must be greater than 0 and at most 1 second", *dt)
	}
	path := fs.Arg(0)
	d, err := loadForView(path)
	if err != nil {
		return err
	}
	s, err := sim.New(d, sim.Options{Step: *dt})
	if err != nil {
		return fail(1, "%s: %v", path, err)
	}
	defer s.Close()
	if err := animateKinematic(s, d, *animation); err != nil {
		return fail(2, "simulate: %v", err)
	}
	for _, w := range s.Warnings {
		fmt.Fprintln(stderr, "viewer: note:", w)
	}
	shown := len(s.Warnings)
	runErr := s.Run(*seconds)
	// What ODE said while stepping, and the contacts the budget dropped:
	// on stderr, so that stdout stays the poses (JSON with -json).
	for _, w := range s.Warnings[shown:] {
		fmt.Fprintln(stderr, "viewer: note:", w)
	}
	if s.DroppedSteps > 0 {
		fmt.Fprintf(stderr, "viewer: note: %d of %d steps made too many contacts: %d touching pairs and %d contact points were dropped\n",
			s.DroppedSteps, s.Steps, s.Dropped.Pairs, s.Dropped.Contacts)
	}
	var nan *sim.NaNError
	var far *sim.RangeError
	if runErr != nil && !errors.As(runErr, &nan) && !errors.As(runErr, &far) {
		return fail(1, "%s: %v", path, runErr)
	}
	if err := printBodies(stdout, s, *asJSON); err != nil {
		return err
	}
	if runErr != nil {
		return fail(1, "%s: %v (the poses above are the last finite ones)", path, runErr)
	}
	if *out != "" {
		s.Apply()
		warnings, err := saveDocument(s.Doc, *out)
		if err != nil {
			return fail(1, "%v", err)
		}
		for _, w := range warnings {
			fmt.Fprintln(stderr, "viewer: note:", w)
		}
	}
	return nil
}

// printBodies prints each dynamic body's final state, as text or JSON.
func printBodies(w io.Writer, s *sim.Sim, asJSON bool) error {
	r := report.Simulation{Time: s.Time, Steps: s.Steps, StepSize: s.StepSize(), Gravity: [3]float64(s.GravityVector()), DefaultGravity: s.DefaultGravity}
	for _, b := range s.Bodies {
		if b.Type != scene.MotionDynamic {
			continue
		}
		q := b.Rotation
		r.Bodies = append(r.Bodies, report.BodyState{
			Node: b.Node, Name: b.Name,
			Position:        [3]float64(b.Position),
			Rotation:        [4]float64{q.V[0], q.V[1], q.V[2], q.W},
			LinearVelocity:  [3]float64(b.LinearVelocity),
			AngularVelocity: [3]float64(b.AngularVelocity),
		})
	}
	if asJSON {
		return r.WriteJSON(w)
	}
	r.WriteText(w)
	return nil
}
