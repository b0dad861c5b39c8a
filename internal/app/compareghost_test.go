package app

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
)

// TestCompareGhostsAtScrubTime: after "Compare engines" on the thin wall
// scene (the ball tunnels through the wall in ODE, stops at it in Bullet),
// scrubbing Play's recording draws the ball where each engine had it at
// the time shown, in the engine's colour: ODE's ghost on the ball Play
// shows (Play runs ODE), Bullet's at the wall. Outside the comparison's
// time, or without one, nothing is drawn.
func TestCompareGhostsAtScrubTime(t *testing.T) {
	s, _ := open(t, "testdata/compare/thin_wall.gltf")
	if got := s.CompareGhostLines(); got != nil {
		t.Fatalf("%d ghost lines before any comparison", len(got))
	}
	s.Do(CompareEngines{Seconds: 0.5})
	if s.Play.Engines.Compare == nil {
		t.Fatalf("compare: %s", s.Play.Engines.CompareError)
	}
	if got := s.CompareGhostLines(); got != nil {
		t.Fatalf("%d ghost lines before Play ran", len(got))
	}
	stepTo(t, s, 240) // 1 s
	cases := []struct {
		time float64
		// odeX and bulletX are where the ball's centre must be drawn
		// (NaN: no ghost of that engine).
		odeX, bulletX float64
	}{
		{0, 0.1, 0.1},
		{0.1, 10.1, 1.89},
		{0.25, 25.1, 1.89},
		{0.75, math.NaN(), math.NaN()}, // after the 0.5 s compared
	}
	for _, tc := range cases {
		s.Do(ScrubRecording{Time: tc.time})
		if !s.Play.Scrubbing() || math.Abs(s.Play.ScrubTime()-tc.time) > 1e-9 {
			t.Fatalf("scrubbed to %g s, want %g", s.Play.ScrubTime(), tc.time)
		}
		lines := s.CompareGhostLines()
		for e, want := range []float64{tc.odeX, tc.bulletX} {
			c, n := ghostCentre(lines, CompareEngineColors[e])
			if math.IsNaN(want) {
				if n != 0 {
					t.Errorf("t=%g: %d lines of engine %d's ghost, want none", tc.time, n, e)
				}
				continue
			}
			if n == 0 {
				t.Errorf("t=%g: no ghost of engine %d", tc.time, e)
				continue
			}
			p, _ := s.Play.Engines.Compare.PoseAt(e, 0, tc.time)
			if math.Abs(c[0]-want) > 0.01 || c.Sub(p.Position).Len() > 1e-6 {
				t.Errorf("t=%g: engine %d's ghost centred at %v, want x = %g, at the compared %v", tc.time, e, c, want, p.Position)
			}
			if e == 0 {
				// Play runs ODE: its ghost is on the ball the view shows.
				s.ApplyPlayPoses(s.Play.Sim)
				live := s.Play.Sim.Doc.GLTF.Nodes[1].Translation
				if d := c.Sub(mgl64.Vec3(live)).Len(); d > 1e-6 {
					t.Errorf("t=%g: ODE's ghost %v, the scrubbed ball at %v", tc.time, c, live)
				}
			}
		}
	}
	s.Do(PlayReset{})
	if got := s.CompareGhostLines(); got != nil {
		t.Errorf("%d ghost lines after Reset", len(got))
	}
}

// ghostCentre is the mean of the end points of the lines of colour col
// and how many there are.
func ghostCentre(lines []debugdraw.Line, col [4]float32) (mgl64.Vec3, int) {
	var sum mgl64.Vec3
	n := 0
	for _, l := range lines {
		if l.Color != col {
			continue
		}
		for _, p := range [][3]float32{l.A, l.B} {
			sum = sum.Add(mgl64.Vec3{float64(p[0]), float64(p[1]), float64(p[2])})
		}
		n++
	}
	if n == 0 {
		return sum, 0
	}
	return sum.Mul(1 / float64(2*n)), n
}
