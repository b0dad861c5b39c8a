package app

import (
	"math"
	"time"

	"physview/scene"
	"physview/scene/anim"
	"physview/sim"
)

// TimelineSpeeds are the timeline's speed choices (animation seconds per
// wall-clock second).
var TimelineSpeeds = []float64{0.1, 0.25, 0.5, 1, 2}

// Timeline is the animation timeline: which of the document's animations
// is shown (or all), whether it plays, loops, at what speed, and the
// playhead. While Posed the scene shows Pose instead of the rest pose;
// edits still change the file's rest values.
type Timeline struct {
	// Model is the document's animations (nil without a document).
	Model *anim.Model
	// Animation indexes Model.Animations; -1 plays them all at once.
	Animation int
	Playing   bool
	Loop      bool
	// Speed indexes TimelineSpeeds.
	Speed int
	// Time is the playhead in seconds.
	Time float64
	// Posed is set once the timeline was played or scrubbed, until Rest.
	Posed bool
	// Pose is what the scene shows while Posed.
	Pose *anim.Pose

	last time.Time
}

// Range returns the shown animation's time range: its first and last key
// (0 to the latest end for all animations).
func (t *Timeline) Range() (start, end float64) {
	if t.Model == nil {
		return 0, 0
	}
	if a := t.Animation; a >= 0 && a < len(t.Model.Animations) {
		return t.Model.Animations[a].Start, t.Model.Animations[a].End
	}
	return 0, t.Model.Duration(-1)
}

// PoseView is a View that shows the timeline's pose.
type PoseView interface {
	// PoseChanged says the scene now shows p (nil: the rest pose).
	PoseChanged(p *anim.Pose)
}

// TimelineToggle plays or pauses the timeline (playing from the end of a
// non-looping animation starts it again).
type TimelineToggle struct{}

// TimelineRest stops the timeline and shows the rest pose.
type TimelineRest struct{}

// SetTimelineAnimation chooses the animation (-1: all at once).
type SetTimelineAnimation struct{ Index int }

// ScrubTimeline moves the playhead to Time (clamped to the range) and
// shows that pose.
type ScrubTimeline struct{ Time float64 }

// SetTimelineLoop turns looping on or off.
type SetTimelineLoop struct{ On bool }

// SetTimelineSpeed sets the speed to TimelineSpeeds[Choice].
type SetTimelineSpeed struct{ Choice int }

func (TimelineToggle) intent()       {}
func (TimelineRest) intent()         {}
func (SetTimelineAnimation) intent() {}
func (ScrubTimeline) intent()        {}
func (SetTimelineLoop) intent()      {}
func (SetTimelineSpeed) intent()     {}

// doTimeline carries out the timeline's intents (Session.Do).
func (s *Session) doTimeline(in Intent) {
	t := &s.Timeline
	if t.Model == nil {
		return
	}
	start, end := t.Range()
	switch in := in.(type) {
	case TimelineToggle:
		t.Playing = !t.Playing
		if t.Playing {
			if t.Time >= end && !t.Loop || !t.Posed {
				t.Time = start
			}
			t.last = s.now()
			s.poseTimeline()
		}
	case TimelineRest:
		t.Playing, t.Posed, t.Pose, t.Time = false, false, nil, start
		s.notifyPose(nil)
	case SetTimelineAnimation:
		if in.Index < -1 || in.Index >= len(t.Model.Animations) {
			return
		}
		t.Animation = in.Index
		start, _ := t.Range()
		t.Time = start
		if t.Posed {
			s.poseTimeline()
		}
	case ScrubTimeline:
		t.Time = math.Max(start, math.Min(end, in.Time))
		s.poseTimeline()
	case SetTimelineLoop:
		t.Loop = in.On
	case SetTimelineSpeed:
		if in.Choice >= 0 && in.Choice < len(TimelineSpeeds) {
			t.Speed = in.Choice
		}
	}
}

// TimelineFrame advances a playing timeline to now (real time times the
// speed; looping wraps, else it stops at the end) and reports whether the
// pose changed. The window calls it once per frame. Play's simulation
// takes precedence: while it runs the timeline holds still.
func (s *Session) TimelineFrame(now time.Time) bool {
	t := &s.Timeline
	if !t.Playing || t.Model == nil || s.Play.Sim != nil {
		t.last = now
		return false
	}
	dt := math.Min(now.Sub(t.last).Seconds(), 0.1) * TimelineSpeeds[t.Speed]
	t.last = now
	start, end := t.Range()
	t.Time += dt
	if t.Time > end {
		if t.Loop && end > start {
			t.Time = start + math.Mod(t.Time-start, end-start)
		} else {
			t.Time, t.Playing = end, false
		}
	}
	s.poseTimeline()
	return true
}

// poseTimeline poses the document at the playhead and tells the views.
func (s *Session) poseTimeline() {
	t := &s.Timeline
	t.Posed = true
	t.Pose = t.Model.Pose(t.Animation, t.Time)
	s.notifyPose(t.Pose)
}

func (s *Session) notifyPose(p *anim.Pose) {
	for _, v := range s.Views {
		if pv, ok := v.(PoseView); ok {
			pv.PoseChanged(p)
		}
	}
}

// resetTimeline reads a new document's animations: rest pose, stopped,
// animation 0 (speed and looping kept).
func (s *Session) resetTimeline(d *scene.Document) {
	t := &s.Timeline
	*t = Timeline{Speed: t.Speed, Loop: t.Loop}
	if d != nil && d.GLTF != nil && len(d.GLTF.Animations) > 0 {
		t.Model = anim.NewModel(d)
	}
}

// timelineChanged follows an edit: a change of structure re-reads the
// animations; a posed scene is posed again (the edit changed rest values
// the pose is built on).
func (s *Session) timelineChanged(ch scene.Change) {
	t := &s.Timeline
	if ch.Structure && s.Doc != nil {
		anim, posed, playing, tm := t.Animation, t.Posed, t.Playing, t.Time
		s.resetTimeline(s.Doc)
		if t.Model == nil {
			s.notifyPose(nil)
			return
		}
		if anim < len(t.Model.Animations) {
			t.Animation = anim
		}
		t.Posed, t.Playing, t.Time = posed, playing, tm
	}
	if t.Posed && t.Model != nil {
		s.poseTimeline()
	}
}

// animateKinematic makes Play's kinematic bodies on animated nodes follow
// the timeline's animation (or all of them), from the simulation's start.
func (s *Session) animateKinematic(sm *sim.Sim) {
	m := s.Timeline.Model
	if m == nil {
		return
	}
	world, moves := m.Driver(s.Timeline.Animation)
	sm.AnimateKinematic(&sim.KinematicAnimation{World: world, Moves: moves})
}
