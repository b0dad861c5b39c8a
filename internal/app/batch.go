package app

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"physview/internal/report"
	"physview/scene"
	"physview/scene/anim"
	"physview/sim"
)

// What the viewer's one-shot commands (convert, edit, simulate) do, without
// their flags: cmd/viewer parses the command line and prints.

// Converted is what Convert wrote.
type Converted struct {
	// Warnings say, one line each, what the output format or the physics
	// dialect could not carry.
	Warnings []string
	// Errors and FindingWarnings count the input's findings, which the
	// output carries over.
	Errors, FindingWarnings int
}

// Convert reads in and writes it as out, in the format out's ending names
// and, when physics is "omi" or "khr", in that physics dialect ("" keeps
// the one it was read in). Errors name the file or the bad -physics value.
func Convert(in, out, physics string) (Converted, error) {
	d, err := OpenDocument(in)
	if err != nil {
		return Converted{}, err
	}
	if err := d.MissingDataError(); err != nil {
		// The copy would lack those bytes.
		return Converted{}, fmt.Errorf("%s: %w", in, err)
	}
	var dialectWarnings []string
	if physics != "" {
		p, ok := scene.ParsePhysicsDialect(physics)
		if !ok {
			return Converted{}, fmt.Errorf("convert: -physics %q: want omi, khr or gltf2.1", physics)
		}
		dialectWarnings = d.SetPhysicsDialect(p)
	}
	warnings, err := SaveDocument(d, out)
	if ce := (*scene.ContentError)(nil); errors.As(err, &ce) {
		// A fault of the input: name it, not the output.
		return Converted{}, fmt.Errorf("%s: %w (nothing written to %s)", in, ce, out)
	}
	if err != nil {
		return Converted{}, err
	}
	for _, dw := range dialectWarnings {
		if !slices.Contains(warnings, dw) {
			warnings = append(warnings, dw)
		}
	}
	c := scene.CountBySeverity(d.Findings())
	return Converted{Warnings: warnings, Errors: c[scene.Error], FindingWarnings: c[scene.Warning]}, nil
}

// EditFile opens file, applies each command (app's edit commands, e.g.
// {"rename", "0", "Crate"}) as one undoable edit and saves once, to out or,
// when out is "", to file; done hears each command with the name of the
// edit it made and what the command notes about it ("" for nothing). A
// bad command or value stops before anything is written; errors name the
// file.
func EditFile(file, out string, cmds [][]string, done func(cmd []string, edit, note string)) (warnings []string, err error) {
	if _, err := os.Stat(file); err != nil {
		return nil, fmt.Errorf("%s: %v", file, unwrapPathErr(err))
	}
	// The file's lock for the whole edit: another `viewer edit` or a
	// window that has it open makes this one wait, then refuse, rather
	// than both saving and one edit being lost.
	lock, err := scene.LockDocument(file, EditLockWait)
	if err != nil {
		if errors.Is(err, scene.ErrLocked) {
			return nil, fmt.Errorf("edit %s: the file is %v, which did not let go of it within %v; nothing written", file, scene.ErrLocked, EditLockWait)
		}
		return nil, fmt.Errorf("edit: %w", err)
	}
	defer lock.Release()
	scene.RecoverSave(file) // a save of it killed before: finished first
	s := New()
	defer s.Close()
	if err := s.LoadNow(file); err != nil {
		return nil, err
	}
	for _, c := range cmds {
		if err := s.RunCommand(c); err != nil {
			var ce *CommandError
			if errors.As(err, &ce) {
				return nil, fmt.Errorf("edit %s: %v (nothing written)", file, err)
			}
			return nil, fmt.Errorf("edit %s: %v", file, err)
		}
		done(c, s.Hist.UndoName(), s.CommandNote())
	}
	if out == "" {
		out = file
	}
	if warnings, err = s.SaveTo(out); err != nil {
		if errors.Is(err, scene.ErrReadOnly) || errors.Is(err, scene.ErrFolderNotWritable) || errors.Is(err, scene.ErrFolderGone) {
			return nil, fmt.Errorf("edit: %w (here: -o OUT writes the result to another file)", err)
		}
		return nil, fmt.Errorf("edit: %w", err)
	}
	return warnings, nil
}

// EditUsage is `viewer edit`'s help: the commands come from EditCommands,
// so a command added there shows here.
func EditUsage() string {
	var b strings.Builder
	b.WriteString("usage: viewer edit [-o OUT] FILE COMMAND...\n  commands (each one undoable edit; NODE is a node name or index; \";\" may separate them):\n")
	for _, c := range EditCommands() {
		fmt.Fprintf(&b, "    %s\n", c.Usage)
	}
	return b.String()
}

// AnimateKinematic makes s's kinematic bodies on nodes that animation a of
// d moves (every animation for a = -1) follow it, sampled at the
// simulation's time (clamped to the animation's range). Nothing happens
// when d has no animations; an index out of range is an error naming it.
func AnimateKinematic(s *sim.Sim, d *scene.Document, a int) error {
	if len(d.GLTF.Animations) == 0 {
		return nil
	}
	m := anim.NewModel(d)
	if a < -1 || a >= len(m.Animations) {
		return fmt.Errorf("-animation %d: the file has %d animations", a, len(m.Animations))
	}
	world, moves := m.Driver(a)
	s.AnimateKinematic(&sim.KinematicAnimation{World: world, Moves: moves})
	return nil
}

// SimulationReport is what `viewer simulate` prints about s: its clock,
// its gravity and each dynamic body's state (kinematic and static ones
// are left out).
func SimulationReport(s *sim.Sim) report.Simulation {
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
	r.Joints = jointReport(s)
	return r
}

// DroppedNote says how many of s's steps made more contacts than the
// budget holds and what was dropped; "" when none did.
func DroppedNote(s *sim.Sim) string {
	if s.DroppedSteps == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d steps made too many contacts: %d touching pairs and %d contact points were dropped",
		s.DroppedSteps, s.Steps, s.Dropped.Pairs, s.Dropped.Contacts)
}
