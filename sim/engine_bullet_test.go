package sim

import (
	"fmt"
	"math"
	"testing"
)

// TestBulletStepIterations pins the iteration count Bullet plays each
// step size with: 10 at 1/60 s and longer, fewer for shorter steps, never
// under PhysX's 4.
func TestBulletStepIterations(t *testing.T) {
	for _, c := range []struct {
		dt   float64
		want int
	}{
		{0, 10}, {math.NaN(), 10}, {1.0 / 30, 10}, {1.0 / 60, 10}, {1.0 / 90, 9},
		{1.0 / 120, 8}, {1.0 / 240, 5}, {1.0 / 480, 4}, {1e-4, 4},
	} {
		if got := BulletStepIterations(c.dt); got != c.want {
			t.Errorf("BulletStepIterations(%g) = %d, want %d", c.dt, got, c.want)
		}
	}
}

// TestBulletPyramidRests: a pyramid of 1 m boxes (7 square layers, 140
// boxes) comes to rest and sleeps within 1 s with Bullet's default
// iterations at each step size they change over, its bottom layer within
// 5 mm of its height and its top box within 2 cm: the iteration count
// falls with the step only as far as a stack still settles.
func TestBulletPyramidRests(t *testing.T) {
	ts := tscene{shapes: []string{box(1, 1, 1), box(40, 1, 40)}, gravity: earth}
	ts.nodes = append(ts.nodes, tnode{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(1, "")})
	const layers = 7
	for k := 0; k < layers; k++ {
		n := layers - k
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				ts.nodes = append(ts.nodes, tnode{name: fmt.Sprintf("box %d %d %d", k, i, j),
					t:   [3]float64{float64(i) - float64(n-1)/2, 0.5 + float64(k), float64(j) - float64(n-1)/2},
					ext: dynamic(1, 0, "")})
			}
		}
	}
	for _, hz := range []float64{60, 120, 240} {
		t.Run(fmt.Sprintf("1/%g s", hz), func(t *testing.T) {
			s := newSim(t, ts, Options{Engine: EngineBullet, Step: 1 / hz})
			restAt := -1.0
			for s.Time < 2 {
				if err := s.Step(); err != nil {
					t.Fatal(err)
				}
				if restAt < 0 && s.Awake() == 0 {
					restAt = s.Time
				}
			}
			low, high := math.Inf(1), math.Inf(-1)
			for _, b := range s.Bodies {
				low = math.Min(low, b.CenterOfMass[1])
				high = math.Max(high, b.CenterOfMass[1])
			}
			t.Logf("%d iterations: asleep at %.3g s, lowest centre %.4f m, top %.4f m", BulletStepIterations(1/hz), restAt, low, high)
			if restAt < 0 || restAt > 1 {
				t.Errorf("asleep at %g s, want within 1 s", restAt)
			}
			if math.Abs(low-0.5) > 0.005 || math.Abs(high-(layers-0.5)) > 0.02 {
				t.Errorf("lowest centre %.4f m (want 0.5), top %.4f m (want %g)", low, high, layers-0.5)
			}
		})
	}
}
