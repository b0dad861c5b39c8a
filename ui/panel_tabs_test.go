package ui

import (
	"testing"

	g "github.com/AllenDang/giu"

	"physview/internal/app"
)

// TestPickDuringPlayStaysOnPlay: a pick in the 3D view brings the
// Inspector forward, except while Play runs (issue 22 item 9: the Play tab
// then shows the picked body's plot).
func TestPickDuringPlayStaysOnPlay(t *testing.T) {
	ss := app.New()
	ss.OpenDemo()
	s := &State{S: ss}
	if f := tabFlags(s, "Inspector"); f != 0 {
		t.Fatalf("no pick yet: flags %v", f)
	}
	ss.Do(app.Select{Node: 1, FromView: true})
	if f := tabFlags(s, "Inspector"); f != g.TabItemFlagsSetSelected {
		t.Errorf("pick while stopped: flags %v, want the Inspector selected", f)
	}
	if f := tabFlags(s, "Inspector"); f != 0 {
		t.Errorf("the same pick selected the Inspector twice")
	}
	ss.StepPlay(1)
	ball, err := app.FindNode(ss.Doc, "Ball (dynamic sphere)")
	if err != nil {
		t.Fatal(err)
	}
	ss.Do(app.Select{Node: ball, FromView: true})
	if f := tabFlags(s, "Inspector"); f != 0 {
		t.Errorf("pick during Play: flags %v, want the Play tab kept", f)
	}
	ss.StepPlay(1)
	if ss.Play.Plotted != "Ball (dynamic sphere)" {
		t.Errorf("plotting %q after picking the ball during Play", ss.Play.Plotted)
	}
}

// TestAskedTabComesForwardOnce: the tab a double-click in the Scene tree
// asks for is selected on the next frame only, so that the user can
// leave it again.
func TestAskedTabComesForwardOnce(t *testing.T) {
	ss := app.New()
	ss.OpenDemo()
	s := &State{S: ss, tab: "Inspector"}
	if f := tabFlags(s, "Play"); f != 0 {
		t.Errorf("Play tab: flags %v, want 0", f)
	}
	if f := tabFlags(s, "Inspector"); f != g.TabItemFlagsSetSelected {
		t.Errorf("asked-for Inspector: flags %v, want selected", f)
	}
	if f := tabFlags(s, "Inspector"); f != 0 {
		t.Errorf("the Inspector was brought forward twice: flags %v", f)
	}
}
