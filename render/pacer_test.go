package render

import (
	"testing"
	"time"
)

// TestPacer follows a scene's view while its textures stream in: drawn at
// once untextured (no black view while a file loads), then drawn again at
// most once per interval, and at once when the last texture is in.
func TestPacer(t *testing.T) {
	t0 := time.Unix(1000, 0)
	type step struct {
		at               time.Duration // after the document arrived
		arrived, pending int
		redraw           bool
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"the first frame shows the untextured model", []step{
			{0, 0, 5, false},
			{300 * time.Millisecond, 3, 2, false},
			{600 * time.Millisecond, 2, 0, true},
			{700 * time.Millisecond, 0, 0, false},
		}},
		{"slow textures: drawn at once, then every interval", []step{
			{0, 0, 5, false},
			{time.Second, 1, 4, false},
			{StreamRedrawInterval, 1, 3, true},
			{StreamRedrawInterval + time.Second, 0, 3, false},
			{2 * StreamRedrawInterval, 0, 3, false},
			{2*StreamRedrawInterval + 5*time.Millisecond, 1, 2, true},
			{2*StreamRedrawInterval + 10*time.Millisecond, 0, 3, false},
			{2*StreamRedrawInterval + 20*time.Millisecond, 3, 0, true},
		}},
		{"no images: drawn at once", []step{
			{0, 0, 0, false},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p Pacer
			for i, s := range tc.steps {
				now := t0.Add(s.at)
				if got := p.Arrived(now, s.arrived, s.pending); got != s.redraw {
					t.Fatalf("step %d (%v): redraw = %v; want %v", i, s.at, got, s.redraw)
				}
				if p.Streaming() != (s.pending > 0) {
					t.Errorf("step %d: streaming = %v with %d pending", i, p.Streaming(), s.pending)
				}
				// What the window does when Present drew: the first frame
				// of a document always draws (its view is invalid).
				if s.redraw || !p.Shown() {
					p.Drawn(now)
				}
			}
		})
	}
}

// TestPacerHolds: after Reset (a new document) the view keeps the picture
// before it while textures are pending, until HoldInterval has passed or
// the view was drawn; never without pending textures or before any Reset.
func TestPacerHolds(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, tc := range []struct {
		name    string
		reset   bool
		at      time.Duration // after Reset
		pending int
		drawn   bool
		want    bool
	}{
		{"textures coming", true, 100 * time.Millisecond, 19, false, true},
		{"just before the interval", true, HoldInterval - time.Millisecond, 1, false, true},
		{"interval passed: drawn untextured", true, HoldInterval, 1, false, false},
		{"every texture in", true, 100 * time.Millisecond, 0, false, false},
		{"already drawn", true, 100 * time.Millisecond, 3, true, false},
		{"no document replaced yet", false, 100 * time.Millisecond, 3, false, false},
	} {
		var p Pacer
		if tc.reset {
			p.Reset()
			p.since = t0
		}
		if tc.drawn {
			p.Drawn(t0)
		}
		if got := p.Holding(t0.Add(tc.at), tc.pending); got != tc.want {
			t.Errorf("%s: Holding = %v, want %v", tc.name, got, tc.want)
		}
		if p.Streaming() != (tc.pending > 0) {
			t.Errorf("%s: Streaming = %v with %d pending", tc.name, p.Streaming(), tc.pending)
		}
	}
}
