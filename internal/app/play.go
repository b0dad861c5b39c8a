package app

import (
	"errors"
	"fmt"
	"math"
	"time"

	"physview/scene"
	"physview/sim"
)

// PlaySpeeds are Play's speed choices (simulated seconds per wall-clock
// second).
var PlaySpeeds = []float64{0.1, 0.25, 0.5, 1, 2}

// PlayHistory is how many samples Play's plot keeps.
const PlayHistory = 2400

// maxStepsPerFrame bounds the work of one frame: a slow frame slows the
// simulation down rather than freezing the window.
const maxStepsPerFrame = 64

// stepBudget is the most time one frame spends stepping (at least one step
// is taken): a scene too heavy for real time plays slower, and the window
// stays responsive. (A variable for the test that a step asked for by
// count is never cut short by it.)
var stepBudget = 25 * time.Millisecond

// Play is the Play tab's simulation: what the user asked for and what the
// run reports.
type Play struct {
	// Playing is set while time runs; Speed indexes PlaySpeeds; Contacts
	// shows the contact points of the last step.
	Playing  bool
	Speed    int
	Contacts bool
	// Sim is the simulation (nil while stopped), built from a copy of
	// the document when Play or Step is first pressed.
	Sim *sim.Sim
	// Time is the simulated time; Bodies the simulation's bodies (the
	// nodes with motion; colliders without motion are static geometry).
	Time   float64
	Bodies int
	// StepMS is the mean time of the steps of one frame while playing.
	StepMS float64
	// Error is why the scene cannot play (or why it stopped: NaN).
	Error string
	// Notes say what was approximated, and what ODE warned about, after
	// what Play saw in the scene itself (nothing static to land on).
	Notes []string
	// Dropped says when the contact budget dropped contacts ("" when it
	// never did); Awake is how many bodies are awake (the rest sleep).
	Dropped string
	Awake   int
	// Inside lists the triggers with bodies inside, as text.
	Inside []string
	// Plotted is the name of the body in the plot ("" for none selected).
	Plotted string
	// T, Height, Speed and Energy are the plot's series.
	T, Height, SpeedPlot, Energy []float64
	// Engines is the engine Play runs on and the last engine comparison (engines.go).
	Engines PlayEngines
	// Recording is the last run's recording (playrecord.go), kept after
	// Reset until the next Play; Scrub is the recorded frame shown while
	// paused (-1: the live state).
	Recording *sim.Recording
	Scrub     int
	// startDoc is the document the run started from (Continue from here
	// simulates it again).
	startDoc *scene.Document

	// sceneNotes are Play's own notes on the scene, shown before the
	// simulation's warnings.
	sceneNotes    []string
	stepRequested bool
	last          time.Time
	acc           float64
	frames        int
	stepTime      time.Duration
}

// Running reports whether a simulation exists (playing or paused).
func (p *Play) Running() bool { return p.Sim != nil }

// PlayGravity says which world gravity Play uses for the open document:
// the file's, or, when it has none, sim.StandardGravity down -Y (never
// written into the file).
func (s *Session) PlayGravity() string {
	if s.Doc == nil {
		return ""
	}
	// The field arrows in the view are gravity too: say they play, lest
	// "none in the file" read as if they were ignored.
	fields := ""
	if n := gravityFields(s.Doc); n > 0 {
		fields = "; its gravity field plays too, inside its trigger"
		if n > 1 {
			fields = fmt.Sprintf("; its %d gravity fields play too, inside their triggers", n)
		}
	}
	if wg := s.Doc.WorldGravity; wg != nil {
		g := wg.Vector()
		return fmt.Sprintf("gravity: the file's world gravity, (%.4g, %.4g, %.4g) m/s²", g[0], g[1], g[2]) + fields
	}
	none := "none in the file"
	if fields != "" {
		none = "no world gravity in the file" // only fields
	}
	return fmt.Sprintf("gravity: %s, so Play uses %g m/s² down (-Y), as engines do (not saved)", none, sim.StandardGravity) + fields
}

// gravityFields counts the nodes with a gravity field.
func gravityFields(d *scene.Document) int {
	n := 0
	for _, ne := range d.Nodes {
		if ne.Gravity != nil {
			n++
		}
	}
	return n
}

func (p *Play) addSample(t, height, speed, energy float64) {
	if len(p.T) >= PlayHistory {
		n := len(p.T) - PlayHistory + 1
		p.T, p.Height, p.SpeedPlot, p.Energy = p.T[n:], p.Height[n:], p.SpeedPlot[n:], p.Energy[n:]
	}
	p.T = append(p.T, t)
	p.Height = append(p.Height, height)
	p.SpeedPlot = append(p.SpeedPlot, speed)
	p.Energy = append(p.Energy, energy)
}

func (p *Play) clearSamples() { p.T, p.Height, p.SpeedPlot, p.Energy = nil, nil, nil, nil }

func (s *Session) notifyPlay(f func(PlayView)) {
	for _, v := range s.Views {
		if pv, ok := v.(PlayView); ok {
			f(pv)
		}
	}
}

// PlayFrame advances Play to now (real time times the speed, at most
// maxStepsPerFrame steps and stepBudget of work) and reports whether the
// simulation moved. The window calls it once per frame.
func (s *Session) PlayFrame(now time.Time) bool {
	p := &s.Play
	if (p.Playing || p.stepRequested) && p.Sim == nil && s.Doc != nil {
		s.startPlay(now)
	}
	if p.Sim == nil {
		p.stepRequested = false
		return false
	}
	steps := 0
	if p.Playing {
		dt := math.Min(now.Sub(p.last).Seconds(), 0.1)
		p.acc += dt * PlaySpeeds[p.Speed]
		steps = int(p.acc / p.Sim.StepSize())
		p.acc -= float64(steps) * p.Sim.StepSize()
		if steps > maxStepsPerFrame {
			steps, p.acc = maxStepsPerFrame, 0
		}
	}
	p.last = now
	if p.stepRequested && p.Scrubbing() {
		// Step while scrubbing: the next recorded frame.
		p.stepRequested = false
		s.stepRecording(1)
		return true
	}
	if p.stepRequested {
		p.stepRequested, steps = false, 1
	}
	return s.stepPlay(steps, true)
}

// StepPlay advances a running simulation by n steps at once (the window's
// clock and its time budget aside: all n, however long they take), for
// tests and scripted runs; it starts Play first when needed.
func (s *Session) StepPlay(n int) bool {
	if s.Play.Sim == nil {
		if s.Doc == nil {
			return false
		}
		s.startPlay(s.now())
		if s.Play.Sim == nil {
			return false
		}
	}
	return s.stepPlay(n, false)
}

// stepPlay takes steps steps; with budget (a frame's share of real time)
// it stops after stepBudget of work.
func (s *Session) stepPlay(steps int, budget bool) bool {
	p := &s.Play
	start := time.Now()
	done := 0
	for ; done < steps; done++ {
		if budget && done > 0 && time.Since(start) > stepBudget {
			// Too slow for real time: play slower rather than stall the window.
			p.acc = 0
			break
		}
		if err := p.Sim.Step(); err != nil {
			p.Error, p.Playing = err.Error(), false
			break
		}
		s.recordStep() // playrecord.go
		s.sample()
	}
	if done > 0 && p.Playing {
		p.frames++
		p.stepTime += time.Since(start)
		p.StepMS = float64(p.stepTime.Microseconds()) / 1000 / float64(p.frames)
	}
	p.Time = p.Sim.Time
	p.Notes, p.Awake = p.notes(), p.Sim.Awake()
	if sm := p.Sim; sm.DroppedSteps > 0 {
		p.Dropped = fmt.Sprintf("contacts dropped in %d of %d steps (%d pairs, %d points): too many bodies touch at once for the contact budget", sm.DroppedSteps, sm.Steps, sm.Dropped.Pairs, sm.Dropped.Contacts)
	}
	if done == 0 {
		return false
	}
	s.updateInside()
	s.notifyPlay(func(v PlayView) { v.PlayStepped(p.Sim) })
	return true
}

// startPlay builds the simulation from the document as it is now.
func (s *Session) startPlay(now time.Time) {
	p := &s.Play
	sm, err := sim.New(s.Doc, sim.Options{RecordContacts: true, Engine: p.Engines.Engine})
	if err != nil {
		p.Error, p.Playing, p.stepRequested = err.Error(), false, false
		if errors.Is(err, sim.ErrNoBodies) {
			// Say how to get something that moves, not only that nothing does.
			p.Error += NoBodiesHint
		}
		return
	}
	p.Sim = sm
	s.animateKinematic(sm) // kinematic bodies follow the animations (timeline.go)
	s.startRecording(sm)   // playrecord.go
	p.last, p.acc, p.frames, p.stepTime, p.StepMS = now, 0, 0, 0, 0
	p.sceneNotes = nil
	// Values of the wrong type play as their defaults: said first, and
	// in the message line, since the run is not the file's (played_defaults.go).
	defaults := DefaultsPlayed(s.Doc)
	for _, l := range DefaultsPlayedShown(defaults) {
		p.sceneNotes = append(p.sceneNotes, "played a default: "+l)
	}
	if note := DefaultsPlayedNote(s.Name, defaults); note != "" {
		s.Fail(note)
	}
	if !hasGround(s.Doc) {
		p.sceneNotes = append(p.sceneNotes, NoGroundNote)
	}
	p.Error, p.Bodies, p.Dropped, p.Awake = "", len(sm.Bodies), "", sm.Awake()
	p.Notes = p.notes()
	p.clearSamples()
	s.sample()
	s.updateInside()
	s.notifyPlay(func(v PlayView) { v.PlayStarted(sm) })
}

// NoBodiesHint follows sim.ErrNoBodies in the Play tab: what to do to
// have something to simulate.
const NoBodiesHint = ". To drop something, select a node with a mesh, then Inspector > Add motion (dynamic) and Add collider."

// NoGroundNote is Play's note on a scene whose dynamic bodies have nothing
// to land on.
const NoGroundNote = "nothing static to land on (no collider without motion, no kinematic body): the bodies fall without end; the grid is not a floor"

// notes are Play's own notes on the scene, then the simulation's warnings.
func (p *Play) notes() []string {
	if p.Sim == nil {
		return nil
	}
	if len(p.sceneNotes) == 0 {
		return p.Sim.Warnings
	}
	return append(append([]string(nil), p.sceneNotes...), p.Sim.Warnings...)
}

// hasGround reports whether d has anything a falling body can land on: a
// collider (not a trigger) with no motion on its node or above it (static
// geometry), or a kinematic body.
func hasGround(d *scene.Document) bool {
	for i, ne := range d.Nodes {
		b := ne.Body
		if b == nil {
			continue
		}
		if b.Motion != nil && b.Motion.Type == scene.MotionKinematic {
			return true
		}
		if b.Collider != nil && b.Motion == nil && !hasMotionAbove(d, i) {
			return true
		}
	}
	return false
}

// PlayBody is one body of a running Play, as the Play tab lists it.
type PlayBody struct {
	// Node is the body's node; Name its name.
	Node int
	Name string
}

// PlayBodies lists the moving bodies of the running simulation (nil while
// stopped), at most max of them, and how many there are in all.
func (s *Session) PlayBodies(max int) ([]PlayBody, int) {
	sm := s.Play.Sim
	if sm == nil {
		return nil, 0
	}
	var out []PlayBody
	for _, b := range sm.Bodies {
		if len(out) == max {
			break
		}
		name := b.Name
		if name == "" {
			name = fmt.Sprintf("node %d", b.Node)
		}
		out = append(out, PlayBody{Node: b.Node, Name: name})
	}
	return out, len(sm.Bodies)
}

// stopPlay drops the simulation and shows the document again.
func (s *Session) stopPlay() {
	p := &s.Play
	// The notes were the run's: the stopped tab says the gravity itself.
	p.Time, p.Inside, p.Plotted, p.StepMS, p.Notes, p.sceneNotes = 0, nil, "", 0, nil, nil
	p.clearSamples()
	p.Recording.Close() // kept for Bake; nothing more is added
	if p.Sim == nil {
		return
	}
	p.Sim.Close()
	p.Sim = nil
	s.notifyPlay(func(v PlayView) { v.PlayStopped() })
}

// sample adds one point to the plot: the selected body's height and speed
// and the scene's energy.
func (s *Session) sample() {
	p := &s.Play
	sm := p.Sim
	h, v := math.NaN(), math.NaN()
	if j, ok := s.plottedJoint(); ok { // a joint node: play_joint.go
		h, v = j[0], j[1]
	} else if b := s.plotted(); b != nil {
		h, v = b.CenterOfMass[1], b.LinearVelocity.Len()
	}
	p.addSample(sm.Time, h, v, sm.Energy())
}

// plotted sets Play.Plotted to the body of the selection and returns it
// (nil for none).
func (s *Session) plotted() *sim.Body {
	p := &s.Play
	p.Plotted = ""
	if i := p.Sim.BodyIndex(s.Selected); i >= 0 {
		p.Plotted = p.Sim.Bodies[i].Name
		return p.Sim.Bodies[i]
	}
	return nil
}

// updateInside lists the triggers with bodies inside.
func (s *Session) updateInside() {
	p := &s.Play
	sm := p.Sim
	p.Inside = nil
	for _, t := range sm.Triggers {
		in := sm.Inside(t)
		if len(in) == 0 {
			continue
		}
		names := ""
		for i, b := range in {
			if i > 0 {
				names += ", "
			}
			names += sm.Bodies[b].Name
		}
		p.Inside = append(p.Inside, fmt.Sprintf("trigger %q: %s inside", sm.Doc.GLTF.Nodes[t].Name, names))
	}
}

// MovingNodes lists the nodes whose debug lines move when the bodies do:
// every body's subtree, the joints connected into one, and the compound
// triggers listing one.
func MovingNodes(s *sim.Sim) []int {
	d := s.Doc
	in := map[int]bool{}
	var walk func(int)
	walk = func(n int) {
		if in[n] {
			return
		}
		in[n] = true
		for _, c := range d.Children(n) {
			walk(c)
		}
	}
	for _, b := range s.Bodies {
		walk(b.Node)
	}
	for i, ne := range d.Nodes {
		if ne.Joint != nil && in[ne.Joint.ConnectedNode] {
			in[i] = true
		}
		if ne.Body != nil && ne.Body.Trigger != nil {
			for _, t := range ne.Body.Trigger.Nodes {
				if in[t] {
					in[i] = true
				}
			}
		}
	}
	out := make([]int, 0, len(in))
	for n := range in {
		out = append(out, n)
	}
	return out
}
