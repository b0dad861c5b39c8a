package sim

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestSleepAndWake: a box resting on the floor falls asleep; a ball
// dropped on it wakes it (the box is knocked down into the floor's contact
// layer and moves); a body drifting slowly in zero gravity, touching
// nothing, never sleeps and keeps its speed.
func TestSleepAndWake(t *testing.T) {
	s := newSim(t, tscene{shapes: []string{box(1, 1, 1), box(20, 1, 20), sphere(0.25)}, gravity: earth, nodes: []tnode{
		{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
		{name: "crate", t: [3]float64{0, 0.5, 0}, ext: dynamic(1, 0, "")},
		{name: "ball", t: [3]float64{0.3, 30, 0}, ext: dynamic(5, 2, "")},
	}}, Options{})
	crate, ball := s.Bodies[0], s.Bodies[1]
	asleepAt := -1.0
	hit := false
	for s.Time < 4 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if asleepAt < 0 && s.Awake() == 1 {
			asleepAt = s.Time
		}
		if ball.Position[1] < 1.3 {
			hit = true
		}
	}
	if asleepAt < 0 || asleepAt > 0.5 {
		t.Errorf("the crate fell asleep at t = %g, want within 0.5 s", asleepAt)
	}
	if !hit {
		t.Fatal("the ball never reached the crate")
	}
	// The ball (from 30 m, 24 m/s) hit the crate off-centre: the crate was
	// woken and turned or moved.
	if moved := crate.Position.Sub(mgl64.Vec3{0, 0.5, 0}).Len(); moved < 0.01 && crate.Rotation.W > 0.9999 {
		t.Errorf("the crate did not move when hit (moved %g m)", moved)
	}

	drift := newSim(t, tscene{shapes: []string{sphere(0.5)}, nodes: []tnode{
		{name: "drifter", ext: dynamic(1, 0, `"linearVelocity": [0.02, 0, 0]`)},
	}}, Options{NoDefaultGravity: true})
	if err := drift.Run(5); err != nil {
		t.Fatal(err)
	}
	if x := drift.Bodies[0].Position[0]; math.Abs(x-0.1) > 1e-6 {
		t.Errorf("the drifter is at x = %g after 5 s at 0.02 m/s, want 0.1 (it fell asleep)", x)
	}
}
