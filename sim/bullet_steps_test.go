package sim

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene/anim"
)

// smallPile is the benchmark's tumbling pile at a twentieth of its size:
// 200 spheres and boxes taking turns in layers over a 6 x 6 grid,
// jittered sideways so that they tumble.
func smallPile() tscene {
	ts := tscene{shapes: []string{sphere(0.25), box(0.5, 0.5, 0.5), box(20, 1, 20)}, gravity: earth}
	ts.nodes = append(ts.nodes, tnode{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(2, "")})
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 200; i++ {
		x, z, y := i%6, (i/6)%6, i/36
		j := func() float64 { return 0.4 * (r.Float64() - 0.5) }
		ts.nodes = append(ts.nodes, tnode{name: fmt.Sprint("b", i),
			t:   [3]float64{0.9*float64(x) - 2.25 + j(), 1 + 0.9*float64(y), 0.9*float64(z) - 2.25 + j()},
			ext: dynamic(1, i%2, "")})
	}
	return ts
}

// TestBulletStepsSame plays small scenes in Bullet twice, with
// physview's steps and with Bullet's own (bullet.World.BulletStepsForTest),
// and requires every body's final centre of mass and linear velocity and
// the number of bodies awake summed over the steps to be the same to the
// bit: physview replaces some of Bullet's solver and world steps only to
// go faster (fetching memory ahead, deciding sleep without sorting the
// islands, skipping manifolds without points and the predictive-contact
// pass of bodies continuous collision will not sweep). The scenes: a
// tumbling pile (the solver's work), a crate that falls asleep and is
// woken by a falling ball (sleep per island), a box carried by an
// animated kinematic platform (a kinematic body wakes what it touches),
// and a fast ball swept against a thin wall.
func TestBulletStepsSame(t *testing.T) {
	type run struct {
		s       *Sim
		seconds float64 // at 1/240 s, the default step
	}
	cases := map[string]func(t *testing.T) run{
		"pile": func(t *testing.T) run {
			return run{newSim(t, smallPile(), Options{Step: 1.0 / 240, Engine: EngineBullet}), 1}
		},
		"sleep and wake": func(t *testing.T) run {
			return run{newSim(t, tscene{shapes: []string{box(1, 1, 1), box(20, 1, 20), sphere(0.25)}, gravity: earth, nodes: []tnode{
				{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, "")},
				{name: "crate", t: [3]float64{0, 0.5, 0}, ext: dynamic(1, 0, "")},
				{name: "ball", t: [3]float64{0.3, 30, 0}, ext: dynamic(5, 2, "")},
			}}, Options{Engine: EngineBullet}), 4}
		},
		"kinematic platform": func(t *testing.T) run {
			d := platformScene(t, 3, false)
			m := anim.NewModel(d)
			s, err := New(d, Options{Engine: EngineBullet})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			moves := m.Moves(0)
			s.AnimateKinematic(&KinematicAnimation{
				World: func(tt float64) []mgl64.Mat4 { return m.Pose(0, tt).World },
				Moves: func(n int) bool { return n < len(moves) && moves[n] },
			})
			return run{s, 3}
		},
		"swept ball": func(t *testing.T) run {
			return run{newSim(t, tscene{shapes: []string{sphere(0.1), box(0.02, 4, 4)}, nodes: []tnode{
				{name: "wall", t: [3]float64{1, 0, 0}, ext: static(1, "")},
				{name: "ball", ext: dynamic(1, 0, `"linearVelocity": [100, 0, 0]`)},
			}}, Options{Engine: EngineBullet, NoDefaultGravity: true}), 0.1}
		},
	}
	play := func(t *testing.T, mk func(t *testing.T) run, bullets bool) [][6]float64 {
		r := mk(t)
		if bullets {
			if err := r.s.w.(bulletWorld).BulletStepsForTest(); err != nil {
				t.Fatal(err)
			}
		}
		awake := 0
		for i := 0; i < int(r.seconds*240+0.5); i++ {
			if err := r.s.Step(); err != nil {
				t.Fatal(err)
			}
			awake += r.s.Awake()
		}
		var rows [][6]float64
		for _, b := range r.s.Bodies {
			rows = append(rows, [6]float64{b.CenterOfMass[0], b.CenterOfMass[1], b.CenterOfMass[2], b.LinearVelocity[0], b.LinearVelocity[1], b.LinearVelocity[2]})
		}
		return append(rows, [6]float64{float64(awake)})
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			ours, bullets := play(t, mk, false), play(t, mk, true)
			if len(ours) != len(bullets) {
				t.Fatalf("%d rows with physview's steps, %d with Bullet's", len(ours), len(bullets))
			}
			differ := 0
			for i := range ours {
				if ours[i] != bullets[i] {
					if differ < 3 {
						t.Errorf("row %d: %v with physview's steps, %v with Bullet's", i, ours[i], bullets[i])
					}
					differ++
				}
			}
			if differ > 0 {
				t.Errorf("%d of %d rows differ", differ, len(ours))
			}
			// What the scene must show for the comparison to pin anything.
			switch name {
			case "pile":
				moving := 0
				for _, b := range ours[:200] {
					if v := (mgl64.Vec3{b[3], b[4], b[5]}); v.Len() > 0.05 {
						moving++
					}
				}
				if moving < 20 {
					t.Errorf("%d of 200 bodies move after 1 s; the pile should still tumble", moving)
				}
			case "sleep and wake":
				// Two bodies over 960 steps: the crate slept for a while.
				if a := ours[len(ours)-1][0]; a >= 2*960 || a <= 960 {
					t.Errorf("bodies awake summed over the steps: %g, want between 960 and 1920", a)
				}
			case "swept ball":
				if x := ours[0][0]; x > 1 {
					t.Errorf("the ball is at x = %g, through the wall at x = 1", x)
				}
			}
		})
	}
}
