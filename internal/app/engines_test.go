package app

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestPlayEngine: the engine combo's intent makes Play run on Bullet (a
// run in progress stops), the demo plays in it without NaN, the choice
// survives opening another document, and an unknown name changes nothing.
func TestPlayEngine(t *testing.T) {
	s := New()
	s.OpenDemo()
	now := time.Unix(100, 0)
	s.Do(PlayStep{})
	s.PlayFrame(now)
	if s.Play.Sim == nil || s.Play.Sim.EngineName() != "ode" {
		t.Fatalf("Play runs on %v, want ode by default", s.Play.Sim)
	}
	s.Do(SetPlayEngine{Engine: "bullet"})
	if s.Play.Sim != nil || s.Play.EngineName() != "bullet" || s.Play.PlayEngineIndex() != 1 {
		t.Fatalf("after choosing Bullet: sim %v, engine %q", s.Play.Sim, s.Play.EngineName())
	}
	s.Do(PlayToggle{})
	for i := 0; i < 60; i++ {
		now = now.Add(50 * time.Millisecond)
		s.PlayFrame(now)
	}
	if s.Play.Sim == nil || s.Play.Sim.EngineName() != "bullet" || s.Play.Error != "" || s.Play.Time < 1 {
		t.Fatalf("Bullet run: sim %v, error %q, t = %g", s.Play.Sim, s.Play.Error, s.Play.Time)
	}
	for _, b := range s.Play.Sim.Bodies {
		if p := b.Position; math.IsNaN(p[0]+p[1]+p[2]) || b.CenterOfMass[1] < -0.2 {
			t.Errorf("%s at %v in Bullet", b.Name, p)
		}
	}
	s.Do(SetPlayEngine{Engine: "havok"})
	if s.Play.EngineName() != "bullet" || s.Play.Sim == nil {
		t.Errorf("an unknown engine changed the choice to %q or stopped the run", s.Play.EngineName())
	}
	s.OpenDemo()
	if s.Play.EngineName() != "bullet" {
		t.Errorf("opening a document reset the engine to %q", s.Play.EngineName())
	}
}

// TestCompareEnginesIntent: "Compare engines" on the thin wall scene
// reports the ball that tunnels in ODE, with its cause, and both engines'
// tracks for drawing.
func TestCompareEnginesIntent(t *testing.T) {
	s, _ := open(t, "testdata/compare/thin_wall.gltf")
	s.Do(CompareEngines{Seconds: 0.5})
	p := s.Play.Engines
	if p.CompareError != "" || p.Compare == nil {
		t.Fatalf("compare: %q", p.CompareError)
	}
	lines := p.CompareSummary()
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "ODE and Bullet over 0.5 s: 1 of 1 bodies parted by more than 0.05 m") ||
		!strings.Contains(lines[1], "bullet ball: parted at 0.0208 s") || !strings.Contains(lines[1], "likely cause: tunnelling") {
		t.Errorf("summary:\n%s", strings.Join(lines, "\n"))
	}
	c := p.Compare
	if len(c.Tracks) != 2 || len(c.Tracks[0]) != 1 || len(c.Tracks[0][0]) != 31 || len(c.Tracks[1][0]) != 31 {
		t.Fatalf("tracks: %d engines, want 2 with 31 points (120 steps, one every 4, and the start)", len(c.Tracks))
	}
	if x0, x1 := c.Tracks[0][0][30][0], c.Tracks[1][0][30][0]; x0 < 40 || math.Abs(x1-1.89) > 0.01 {
		t.Errorf("track ends at x = %g (ode) and %g (bullet), want past 40 and 1.89", x0, x1)
	}
}
