package app

import (
	"math"
	"strings"
	"testing"

	"physview/sim"
)

const tumbleFixture = "testdata/play_tumble.gltf"

// poseView is a PlayView that writes the shown poses into the
// simulation's document each step, as the window's view does.
type poseView struct {
	recorder
	s      *Session
	shown  int
	scrubs int
}

func (v *poseView) PlayStarted(sm *sim.Sim) { v.s.ApplyPlayPoses(sm) }
func (v *poseView) PlayStepped(sm *sim.Sim) {
	v.s.ApplyPlayPoses(sm)
	v.shown++
	if v.s.Play.Scrubbing() {
		v.scrubs++
	}
}
func (v *poseView) PlayStopped() {}

func openPlaying(t *testing.T) (*Session, *poseView) {
	t.Helper()
	s, _ := open(t, tumbleFixture)
	v := &poseView{s: s}
	s.Views = []View{v}
	return s, v
}

// stepTo steps Play until its simulation has taken steps in all
// (StepPlay stops early when a frame's time budget is spent).
func stepTo(t *testing.T, s *Session, steps int) {
	t.Helper()
	if s.Play.Sim == nil {
		s.StepPlay(1)
	}
	for s.Play.Sim != nil && s.Play.Sim.Steps < steps {
		if !s.StepPlay(steps - s.Play.Sim.Steps) {
			t.Fatalf("Play did not step: %s", s.Play.Error)
		}
	}
}

// uninterrupted runs the fixture for steps in a plain simulation with
// the options `viewer simulate` uses (no contact points kept).
func uninterrupted(t *testing.T, s *Session, steps int) string {
	t.Helper()
	sm, err := sim.New(s.Doc, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sm.Close()
	for sm.Steps < steps {
		if err := sm.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return sm.Hash()
}

// TestPlayRecords: Play records every step of every body; Reset keeps the
// recording until the next Play, which starts a new one.
func TestPlayRecords(t *testing.T) {
	s, _ := openPlaying(t)
	stepTo(t, s, 120)
	r := s.Play.Recording
	if r.Len() != 121 || len(r.Nodes) != 4 || r.FrameStep(120) != 120 {
		t.Fatalf("recording of %d frames, %d bodies; want 121 and 4", r.Len(), len(r.Nodes))
	}
	last := r.Sample(120, 0)
	if last.Position != s.Play.Sim.Bodies[0].Position {
		t.Errorf("last frame %v, live %v", last.Position, s.Play.Sim.Bodies[0].Position)
	}
	s.Do(PlayReset{})
	if s.Play.Recording != r || !strings.Contains(s.Play.RecordingState(), "kept after Reset") {
		t.Errorf("Reset dropped the recording (state %q)", s.Play.RecordingState())
	}
	s.StepPlay(1)
	if s.Play.Recording == r || s.Play.Recording.Len() != 2 {
		t.Errorf("the next Play kept the old recording (%d frames)", s.Play.Recording.Len())
	}
}

// TestScrubAndStep: scrubbing shows the recorded poses in the
// simulation's document; , and . step through the recording; forward
// from the live end steps the simulation.
func TestScrubAndStep(t *testing.T) {
	s, v := openPlaying(t)
	stepTo(t, s, 240)
	crate := s.Play.Sim.Doc.GLTF.Nodes[1]
	live := crate.Translation
	s.Do(ScrubRecording{Time: 0.5})
	if !s.Play.Scrubbing() || s.Play.Scrub != 120 || s.Play.Playing {
		t.Fatalf("scrubbed to frame %d (scrubbing %v, playing %v), want frame 120, paused", s.Play.Scrub, s.Play.Scrubbing(), s.Play.Playing)
	}
	want := s.Play.Recording.Sample(120, 0).Position
	got := s.Play.Sim.Doc.GLTF.Nodes[1].Translation
	if math.Abs(got[1]-want[1]) > 1e-12 || got == live {
		t.Errorf("scrubbed crate at %v, recorded %v (live %v)", got, want, live)
	}
	s.Do(StepRecording{Delta: -1})
	if s.Play.Scrub != 119 {
		t.Errorf("one step back: frame %d, want 119", s.Play.Scrub)
	}
	s.Do(StepRecording{Delta: 10})
	if s.Play.Scrub != 129 {
		t.Errorf("ten steps forward: frame %d, want 129", s.Play.Scrub)
	}
	if s.Play.ScrubTime() != s.Play.Recording.Time(129) {
		t.Errorf("scrub time %g", s.Play.ScrubTime())
	}
	s.Do(StepRecording{Delta: 1000})
	if s.Play.Scrubbing() || s.Play.Sim.Steps != 240 {
		t.Errorf("stepping past the end: scrubbing %v at step %d, want the live state at 240", s.Play.Scrubbing(), s.Play.Sim.Steps)
	}
	s.Do(StepRecording{Delta: 1})
	if s.Play.Sim.Steps != 241 || s.Play.Recording.Len() != 242 {
		t.Errorf("a step forward from the live end: step %d, %d frames; want 241, 242", s.Play.Sim.Steps, s.Play.Recording.Len())
	}
	if v.scrubs < 3 {
		t.Errorf("the view was shown %d scrubbed frames, want 3 or more", v.scrubs)
	}
}

// TestContinueFromHere: scrubbing back to 0.5 s and continuing gives,
// 1 s later, the state an uninterrupted run has at 1.5 s, bit for bit;
// the recording after 0.5 s is replaced. The window's run also hashes as
// a plain simulation with simulate's options does.
func TestContinueFromHere(t *testing.T) {
	s, _ := openPlaying(t)
	stepTo(t, s, 360) // 1.5 s
	first := s.Play.Sim.Hash()
	s.Do(ScrubRecording{Time: 0.5})
	s.Do(ContinueFromHere{})
	if s.Play.Scrubbing() || !s.Play.Playing || s.Play.Sim.Steps != 120 || s.Play.Recording.Len() != 121 {
		t.Fatalf("after Continue: scrubbing %v playing %v step %d, %d frames; want live, playing, 120, 121",
			s.Play.Scrubbing(), s.Play.Playing, s.Play.Sim.Steps, s.Play.Recording.Len())
	}
	s.Play.Playing = false
	stepTo(t, s, 360)
	if got := s.Play.Sim.Hash(); got != first {
		t.Errorf("continued to 1.5 s: hash %s, the first run had %s", got, first)
	}
	if want := uninterrupted(t, s, 360); want != first {
		t.Errorf("an uninterrupted simulation hashes %s at 1.5 s, Play %s", want, first)
	}
	if s.Play.Recording.Len() != 361 {
		t.Errorf("%d frames, want 361", s.Play.Recording.Len())
	}
}

// TestBakeInWindow: Bake to animation adds the animation as one undoable
// edit and stops Play; undo takes it away.
func TestBakeInWindow(t *testing.T) {
	s, _ := openPlaying(t)
	stepTo(t, s, 240)
	n := s.Hist.Len()
	s.Do(BakeRecording{})
	if s.Hist.Len() != n+1 || len(s.Doc.GLTF.Animations) != 1 || s.Play.Running() {
		t.Fatalf("after Bake: %d undo steps (want %d), %d animations, running %v", s.Hist.Len(), n+1, len(s.Doc.GLTF.Animations), s.Play.Running())
	}
	if s.Timeline.Model == nil || len(s.Timeline.Model.Animations) != 1 {
		t.Error("the Animation tab does not list the baked animation")
	}
	s.Do(Undo{})
	if len(s.Doc.GLTF.Animations) != 0 || s.Doc.Nodes[1].Body.Motion.Type.String() != "dynamic" {
		t.Errorf("after undo: %d animations, crate %v", len(s.Doc.GLTF.Animations), s.Doc.Nodes[1].Body.Motion.Type)
	}
	s.Do(Redo{})
	if len(s.Doc.GLTF.Animations) != 1 {
		t.Errorf("after redo: %d animations", len(s.Doc.GLTF.Animations))
	}
}

// TestTrajectories: View > Trajectories draws the recorded paths: every
// dynamic body's, or the selected one's, with ticks every 0.1 s and a
// contact marker.
func TestTrajectories(t *testing.T) {
	s, _ := openPlaying(t)
	stepTo(t, s, 240)
	if l := s.TrajectoryLines(0.01); l != nil {
		t.Errorf("%d lines with the option off", len(l))
	}
	s.View.Trajectories = true
	all := s.TrajectoryLines(0.01)
	s.Select(2) // the ball
	ball := s.TrajectoryLines(0.01)
	// 240 segments, 10 ticks, one 3-line contact marker.
	if len(ball) != 240+10+3 {
		t.Errorf("the ball's path has %d lines, want 240 segments + 10 ticks + 3 for the contact", len(ball))
	}
	if len(all) <= len(ball) {
		t.Errorf("all bodies: %d lines, the ball alone %d", len(all), len(ball))
	}
	slow, fast := ball[0].Color, ball[len(ball)/2].Color
	if slow == fast {
		t.Errorf("the path is one colour %v: want it coloured by speed", slow)
	}
}
