package ui

import (
	"fmt"

	g "github.com/AllenDang/giu"

	"physview/internal/app"
)

// timelineWidgets is the Animation tab's widget state.
type timelineWidgets struct {
	anim, speed int32
	scrub       float32
}

// TimelineTab lays out the Animation tab: the animation (or all), Play or
// Pause, Rest, Loop, the speed, and the playhead as a slider to scrub with
// its time shown.
func TimelineTab(s *State, act func(app.Intent)) g.Widget {
	t := &s.S.Timeline
	m := t.Model
	if m == nil {
		return g.Label("The file has no animations.")
	}
	names := []string{"All at once"}
	for i, a := range m.Animations {
		name := a.Name
		if name == "" {
			name = fmt.Sprintf("animation %d", i)
		}
		names = append(names, fmt.Sprintf("%d: %s (%.2f s)", i, name, a.End-a.Start))
	}
	w := &s.timeline
	w.anim = int32(t.Animation + 1)
	speeds := make([]string, len(app.TimelineSpeeds))
	for i, v := range app.TimelineSpeeds {
		speeds[i] = fmt.Sprintf("%gx", v)
	}
	w.speed = int32(t.Speed)
	start, end := t.Range()
	w.scrub = float32(t.Time)
	loop := t.Loop
	label := "Play"
	if t.Playing {
		label = "Pause"
	}
	state := "rest pose (the file's transforms and weights)"
	if t.Posed {
		state = fmt.Sprintf("t = %.3f s of %.3f s", t.Time, end)
		if !t.Playing {
			state += " (paused)"
		}
	}
	var problems []g.Widget
	for _, p := range m.Problems {
		problems = append(problems, g.Label("skipped: "+p).Wrapped(true))
	}
	return g.Layout{
		g.Combo("Animation", names[w.anim], names, &w.anim).Size(300).OnChange(func() { act(app.SetTimelineAnimation{Index: int(w.anim) - 1}) }),
		g.Row(
			g.Button(label).Size(70, 0).OnClick(func() { act(app.TimelineToggle{}) }),
			g.Button("Rest").Size(60, 0).OnClick(func() { act(app.TimelineRest{}) }),
			g.Checkbox("Loop", &loop).OnChange(func() { act(app.SetTimelineLoop{On: loop}) }),
			g.Combo("Speed##timeline", speeds[w.speed], speeds, &w.speed).Size(70).OnChange(func() { act(app.SetTimelineSpeed{Choice: int(w.speed)}) }),
		),
		g.SliderFloat(&w.scrub, float32(start), float32(max(end, start+1e-6))).Label("##playhead").Format("%.3f s").Size(-1).
			OnChange(func() { act(app.ScrubTimeline{Time: float64(w.scrub)}) }),
		g.Label(state),
		g.Label("Editing while posed changes the file's rest values; the pose is applied on top.").Wrapped(true),
		g.Layout(problems),
	}
}

// groupThousands writes n with commas between thousands: 1,200.
func groupThousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
