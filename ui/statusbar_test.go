package ui

import (
	"strings"
	"testing"

	"physview/internal/app"
)

// TestStatusTextSaysPlay: the status bar says whether Play runs, so that
// moving bodies are explained on every tab.
func TestStatusTextSaysPlay(t *testing.T) {
	ss := app.New()
	ss.OpenDemo()
	s := &State{S: ss}
	if got := StatusText(s); strings.Contains(got, "playing") || strings.Contains(got, "paused") {
		t.Errorf("before Play: %q", got)
	}
	if !ss.StepPlay(24) {
		t.Fatal("Play did not step the demo")
	}
	want := "paused at 0.1 s"
	if got := StatusText(s); !strings.Contains(got, want) {
		t.Errorf("after 24 steps of 1/240 s: %q, want %q in it", got, want)
	}
	ss.Play.Playing = true
	if got := StatusText(s); !strings.Contains(got, "playing 0.1 s") {
		t.Errorf("while playing: %q", got)
	}
	ss.Do(app.PlayReset{})
	if got := StatusText(s); strings.Contains(got, "playing") || strings.Contains(got, "paused") {
		t.Errorf("after Reset: %q", got)
	}
}
