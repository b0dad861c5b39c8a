package app

import (
	"math"
	"testing"
	"time"

	"physview/scene"
	"physview/scene/anim"
)

// poseRecorder is a View that also records the poses it is shown.
type poseRecorder struct {
	recorder
	poses []*anim.Pose
}

func (r *poseRecorder) PoseChanged(p *anim.Pose) { r.poses = append(r.poses, p) }

// joint1Angle is the turn of the skin fixture's joint 1 (node 2) about Z
// in the last pose shown, in degrees; NaN for the rest pose.
func (r *poseRecorder) joint1Angle() float64 {
	if len(r.poses) == 0 || r.poses[len(r.poses)-1] == nil {
		return math.NaN()
	}
	m := r.poses[len(r.poses)-1].World[2]
	return math.Atan2(m[1], m[0]) * 180 / math.Pi
}

func TestTimeline(t *testing.T) {
	s := New()
	r := &poseRecorder{}
	s.Views = []View{r}
	clock := time.Unix(1000, 0)
	s.Now = func() time.Time { return clock }
	s.Open("../../scene/anim/testdata/skin.gltf")
	if err := s.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tl := &s.Timeline
	if tl.Model == nil || len(tl.Model.Animations) != 1 || tl.Posed {
		t.Fatalf("timeline after open: model %v, posed %v", tl.Model, tl.Posed)
	}
	if lo, hi := tl.Range(); lo != 0 || hi != 1 {
		t.Fatalf("range %g..%g, want 0..1", lo, hi)
	}
	near := func(step string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("%s: %g, want %g", step, got, want)
		}
	}
	// Scrub: the pose at 0.5 s turns joint 1 by 45 degrees; past the end
	// clamps to 1 s (90 degrees).
	s.Do(ScrubTimeline{Time: 0.5})
	near("scrub 0.5: angle", r.joint1Angle(), 45)
	s.Do(ScrubTimeline{Time: 7})
	near("scrub 7: time", tl.Time, 1)
	near("scrub 7: angle", r.joint1Angle(), 90)
	// Play, looping at 1x: 0.25 s after the end wraps to 0.25 s.
	s.Do(SetTimelineLoop{On: true})
	s.Do(TimelineToggle{})
	// Frames of 50 ms (a frame counts at most 0.1 s).
	for i := 0; i < 5; i++ {
		clock = clock.Add(50 * time.Millisecond)
		if !s.TimelineFrame(clock) {
			t.Fatal("a playing timeline did not move")
		}
	}
	near("loop: time", tl.Time, 0.25)
	near("loop: angle", r.joint1Angle(), 22.5)
	// Half speed: 0.1 s of wall clock is 0.05 s.
	s.Do(SetTimelineSpeed{Choice: 2})
	for i := 0; i < 2; i++ {
		clock = clock.Add(50 * time.Millisecond)
		s.TimelineFrame(clock)
	}
	near("half speed: time", tl.Time, 0.3)
	// Without looping it stops at the end.
	s.Do(SetTimelineLoop{On: false})
	s.Do(SetTimelineSpeed{Choice: 4})
	for i := 0; i < 10; i++ {
		clock = clock.Add(100 * time.Millisecond)
		s.TimelineFrame(clock)
	}
	if tl.Playing || tl.Time != 1 {
		t.Errorf("no loop: playing %v at %g, want stopped at 1", tl.Playing, tl.Time)
	}
	// Paused: no frame moves it.
	clock = clock.Add(time.Second)
	if s.TimelineFrame(clock) {
		t.Error("a stopped timeline moved")
	}
	// An edit while posed poses again (on the edited rest values).
	n := len(r.poses)
	s.Do(ApplyEdit{Edit: scene.SetNodeName{Node: 1, To: "root joint"}})
	if len(r.poses) != n+1 || r.poses[n] == nil {
		t.Errorf("an edit while posed: %d poses shown, want %d", len(r.poses), n+1)
	}
	// Rest: the rest pose is shown.
	s.Do(TimelineRest{})
	if tl.Posed || r.poses[len(r.poses)-1] != nil {
		t.Errorf("rest: posed %v, last pose %v", tl.Posed, r.poses[len(r.poses)-1])
	}
	// Animation out of range is ignored.
	s.Do(SetTimelineAnimation{Index: 5})
	if tl.Animation != 0 {
		t.Errorf("animation %d after a bad index, want 0", tl.Animation)
	}
}

// TestPlayCarriesBoxOnAnimatedPlatform: Play in the session moves the
// kinematic platform by its animation and the box on it is carried along.
func TestPlayCarriesBoxOnAnimatedPlatform(t *testing.T) {
	s, _ := open(t, "../../scene/anim/testdata/platform.gltf")
	// 2.5 s at 1/240 s (StepPlay stops early when a batch takes too long).
	for i := 0; i < 1000; i++ {
		n := 600
		if s.Play.Sim != nil {
			n -= s.Play.Sim.Steps
		}
		if n <= 0 {
			break
		}
		if !s.StepPlay(n) {
			t.Fatalf("Play did not run: %s", s.Play.Error)
		}
	}
	sm := s.Play.Sim
	box := sm.Bodies[sm.BodyIndex(1)].Position
	if math.Abs(box[0]-1) > 0.01 {
		t.Errorf("box at %v after 2.5 s, want x = 1 (the platform's travel) within 1%%", box)
	}
}
