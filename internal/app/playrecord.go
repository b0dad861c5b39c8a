package app

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/scene"
	"physview/sim"
)

// Play's recording: every run records each body's state at every step
// (sim.Recording, within its memory budget); while paused the recording
// can be scrubbed and stepped through, continued from a scrubbed step,
// drawn as trajectories and baked into an animation.

// ScrubRecording pauses Play and shows the recorded frame at Time (s).
type ScrubRecording struct{ Time float64 }

// StepRecording pauses Play and moves Delta recorded steps back or
// forward; forward past the end of the recording steps the simulation.
type StepRecording struct{ Delta int }

// ContinueFromHere resumes Play from the scrubbed step: the recording
// after it is replaced by the new run.
type ContinueFromHere struct{}

// BakeRecording bakes the last recording into the document as an
// animation (one undoable edit) and stops Play so that it shows.
type BakeRecording struct{}

func (ScrubRecording) intent()   {}
func (StepRecording) intent()    {}
func (ContinueFromHere) intent() {}
func (BakeRecording) intent()    {}

// playRecordBudget is the memory a window's recording may take (bytes):
// sim.DefaultRecordBudget unless a test sets it.
var playRecordBudget = sim.DefaultRecordBudget

// doRecording carries out the recording's intents (Session.Do); it
// reports whether in was one of them.
func (s *Session) doRecording(in Intent) bool {
	p := &s.Play
	switch in := in.(type) {
	case ScrubRecording:
		if p.Sim == nil || p.Recording.Len() == 0 {
			return true
		}
		s.scrubTo(p.Recording.FrameAt(in.Time))
	case StepRecording:
		s.stepRecording(in.Delta)
	case ContinueFromHere:
		s.continueFromHere()
	case BakeRecording:
		s.bakeRecording()
	default:
		return false
	}
	return true
}

// Scrubbing reports whether the scene shows a recorded frame instead of
// the simulation's live state.
func (p *Play) Scrubbing() bool { return p.Sim != nil && p.Scrub >= 0 && p.Scrub < p.Recording.Len() }

// ScrubTime is the time of the frame shown while scrubbing, else Time.
func (p *Play) ScrubTime() float64 {
	if p.Scrubbing() {
		return p.Recording.Time(p.Scrub)
	}
	return p.Time
}

// RecordingState says what the recording holds, for the Play tab ("" for
// no recording).
func (p *Play) RecordingState() string {
	r := p.Recording
	if r.Len() == 0 {
		return ""
	}
	text := fmt.Sprintf("recorded %.3f s (%d frames, %d bodies, %.1f MB)", r.End(), r.Len(), len(r.Nodes), float64(r.Bytes())/(1<<20))
	if p.Sim == nil {
		text += "; kept after Reset: Bake it, or Play again to record anew"
	}
	return text
}

// startRecording begins a recording of sm (Play started): the previous
// one is dropped.
func (s *Session) startRecording(sm *sim.Sim) {
	p := &s.Play
	p.Recording.Close()
	p.Recording = sim.NewRecording(sm, playRecordBudget)
	p.Recording.Add(sm)
	p.Scrub = -1
	// Continue from here re-simulates from the document as it was.
	p.startDoc = s.Doc.Clone()
}

// recordStep adds the simulation's state after a step, and leaves a
// scrubbed frame: stepping live shows the live state.
func (s *Session) recordStep() {
	p := &s.Play
	if p.Recording != nil {
		p.Recording.Add(p.Sim)
	}
	p.Scrub = -1
}

// scrubTo pauses Play and shows frame i of the recording (the live state
// when i is its last frame and that is where the simulation is).
func (s *Session) scrubTo(i int) {
	p := &s.Play
	r := p.Recording
	if p.Sim == nil || r.Len() == 0 {
		return
	}
	i = max(0, min(i, r.Len()-1))
	p.Playing = false
	p.Scrub = i
	if r.FrameStep(i) == p.Sim.Steps {
		p.Scrub = -1 // the live state
	}
	s.notifyPlay(func(v PlayView) { v.PlayStepped(p.Sim) })
}

// stepRecording moves delta recorded frames from the shown one; forward
// from the live state it steps the simulation.
func (s *Session) stepRecording(delta int) {
	p := &s.Play
	if p.Sim == nil || p.Recording.Len() == 0 {
		if delta > 0 {
			p.Playing, p.stepRequested = false, true
		}
		return
	}
	cur := p.Scrub
	if !p.Scrubbing() {
		cur = p.Recording.Len() - 1
		if delta > 0 {
			p.Playing = false
			s.stepPlay(delta, false) // the steps the user asked for
			return
		}
	}
	s.scrubTo(cur + delta)
}

// continueFromHere resumes Play from the scrubbed step. ODE's state (its
// contact warm starts, sleep counters) cannot be restored from a
// recording, so the run is simulated again from the start up to the
// scrubbed step, deterministically: the state there, and so every step
// after it, is bit for bit what the first run had.
func (s *Session) continueFromHere() {
	p := &s.Play
	if !p.Scrubbing() || p.startDoc == nil {
		return
	}
	target := p.Recording.FrameStep(p.Scrub)
	sm, err := sim.New(p.startDoc, p.simOptions())
	if err != nil {
		p.Error = err.Error()
		return
	}
	s.animateKinematic(sm)
	for sm.Steps < target {
		if err := sm.Step(); err != nil {
			sm.Close()
			p.Error = err.Error()
			return
		}
	}
	s.logf("continued from step %d (t = %.4g s), simulated again from the start", target, sm.Time)
	p.Recording.Truncate(p.Scrub)
	// The plot keeps what came before.
	k := 0
	for k < len(p.T) && p.T[k] <= sm.Time+sm.StepSize()/2 {
		k++
	}
	p.T, p.Height, p.SpeedPlot, p.Energy = p.T[:k], p.Height[:k], p.SpeedPlot[:k], p.Energy[:k]
	old := p.Sim
	p.Sim = sm
	old.Close()
	p.Scrub = -1
	p.Time, p.Error = sm.Time, ""
	p.Playing, p.last, p.acc = true, s.now(), 0
	p.Notes, p.Awake = p.notes(), sm.Awake()
	s.updateInside()
	s.notifyPlay(func(v PlayView) { v.PlayStarted(sm) })
}

// simOptions are the options Play builds its simulation with.
func (p *Play) simOptions() sim.Options { return sim.Options{RecordContacts: true} }

// bakeRecording bakes the recording into the document (one undoable
// edit) and stops Play, so that the document, with its new animation,
// shows.
func (s *Session) bakeRecording() {
	p := &s.Play
	if s.Doc == nil || p.Recording.Len() == 0 {
		s.Fail("Nothing to bake: Play the scene first (every run is recorded)")
		return
	}
	edit, st, err := Bake(s.Doc, p.Recording, BakeOptions{})
	if err != nil {
		s.Fail("Not baked: " + err.Error())
		return
	}
	p.Playing = false
	s.stopPlay()
	n := s.Hist.Len()
	s.Edit(edit)
	if s.Hist.Len() == n {
		return // refused: Edit said why
	}
	s.logf("baked %d bodies over %.3g s into animation %q (%d keys)", st.Bodies, st.Duration, BakeAnimationName, st.Keys)
	s.Notice(fmt.Sprintf("Baked %d bodies over %.3g s into animation %q (%d keys); the bodies are kinematic now. Ctrl+Z undoes it.", st.Bodies, st.Duration, BakeAnimationName, st.Keys))
}

// ApplyPlayPoses writes the poses Play shows into sm's document: the
// scrubbed recorded frame, or the live state (sim.Sim.Apply). The view
// calls it before it draws the simulation.
func (s *Session) ApplyPlayPoses(sm *sim.Sim) {
	p := &s.Play
	if !p.Scrubbing() || sm != p.Sim {
		sm.Apply()
		return
	}
	r := p.Recording
	d := sm.Doc
	for b, n := range r.Nodes {
		smp := r.Sample(p.Scrub, b)
		world := mgl64.Translate3D(smp.Position[0], smp.Position[1], smp.Position[2]).Mul4(smp.Rotation.Normalize().Mat4())
		if par := d.Parent(n); par >= 0 {
			world = d.WorldMatrix(par).Inv().Mul4(world)
		}
		q := rotationOf(world)
		tr := scene.Transform{Translation: [3]float64(world.Col(3).Vec3()), Rotation: [4]float64{q.V[0], q.V[1], q.V[2], q.W}, Scale: d.NodeTransform(n).Scale}
		scene.Apply(d, scene.SetNodeTransform{Node: n, Transform: tr, Label: "Recorded pose"})
	}
}

// Trajectory colours: slow blue to fast red; the first contact white.
var (
	slowColor    = [4]float32{0.2, 0.45, 1, 1}
	fastColor    = [4]float32{1, 0.25, 0.1, 1}
	contactColor = [4]float32{1, 1, 1, 1}
)

// maxTrajectoryBodies bounds how many paths "all dynamic bodies" draws;
// maxTrajectorySegments how many segments all of them have together (the
// lines are rebuilt every frame while Play runs).
const (
	maxTrajectoryBodies   = 200
	maxTrajectorySegments = 20000
)

// TrajectoryLines are the paths of the recording (View > Trajectories):
// the selected body's, or every dynamic body's when the selection is no
// recorded body, as polylines coloured by speed (blue slow, red at the
// fastest speed of the recording), with a tick of size r every 0.1 s and
// a white marker where the body first touched something.
func (s *Session) TrajectoryLines(r float64) []debugdraw.Line {
	p := &s.Play
	rec := p.Recording
	if !s.View.Trajectories || rec.Len() < 2 {
		return nil
	}
	sel := s.Selected
	if sel >= 0 && s.Doc != nil && sel < len(s.Doc.GLTF.Nodes) {
		sel = s.Doc.BodyNode(sel) // a collider child draws its body's path
	}
	var bodies []int
	for b, n := range rec.Nodes {
		if sel >= 0 && n == sel {
			bodies = []int{b}
			break
		}
		if rec.Types[b] == scene.MotionDynamic && len(bodies) < maxTrajectoryBodies {
			bodies = append(bodies, b)
		}
	}
	stride := max(1, (len(bodies)*rec.Len()+maxTrajectorySegments-1)/maxTrajectorySegments)
	var out []debugdraw.Line
	for _, b := range bodies {
		fastest := 0.0
		for i := 0; i < rec.Len(); i += stride {
			fastest = math.Max(fastest, rec.Sample(i, b).LinearVelocity.Len())
		}
		color := func(v float64) [4]float32 {
			u := float32(0)
			if fastest > 0 {
				u = float32(v / fastest)
			}
			var c [4]float32
			for k := range c {
				c[k] = slowColor[k] + (fastColor[k]-slowColor[k])*u
			}
			return c
		}
		prev := rec.Sample(0, b)
		touched := prev.Contacts > 0
		if touched {
			out = append(out, marker(prev.Position, r*2, contactColor)...)
		}
		nextTick := 0.1
		for i := stride; i < rec.Len(); i += stride {
			cur := rec.Sample(i, b)
			out = append(out, debugdraw.Line{A: vec32(prev.Position), B: vec32(cur.Position), Color: color(cur.LinearVelocity.Len())})
			if t := rec.Time(i); t+1e-9 >= nextTick {
				nextTick = (math.Floor((t+1e-9)/0.1) + 1) * 0.1
				out = append(out, tick(prev.Position, cur.Position, r, color(cur.LinearVelocity.Len()))...)
			}
			if !touched && cur.Contacts > 0 {
				touched = true
				out = append(out, marker(cur.Position, r*2, contactColor)...)
			}
			prev = cur
		}
	}
	return out
}

func vec32(v mgl64.Vec3) [3]float32 { return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])} }

// tick is a short cross line at b, across the path from a to b.
func tick(a, b mgl64.Vec3, r float64, c [4]float32) []debugdraw.Line {
	dir := b.Sub(a)
	if dir.Len() == 0 {
		dir = mgl64.Vec3{0, 1, 0}
	}
	side := dir.Cross(mgl64.Vec3{0, 1, 0})
	if side.Len() < 1e-9*dir.Len() {
		side = dir.Cross(mgl64.Vec3{1, 0, 0})
	}
	side = side.Normalize().Mul(r)
	return []debugdraw.Line{{A: vec32(b.Sub(side)), B: vec32(b.Add(side)), Color: c}}
}

// marker is a three-axis cross of radius r at p.
func marker(p mgl64.Vec3, r float64, c [4]float32) []debugdraw.Line {
	var out []debugdraw.Line
	for k := 0; k < 3; k++ {
		var ax mgl64.Vec3
		ax[k] = r
		out = append(out, debugdraw.Line{A: vec32(p.Sub(ax)), B: vec32(p.Add(ax)), Color: c})
	}
	return out
}
