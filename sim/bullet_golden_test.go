package sim

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene/anim"
)

var updateBulletGolden = flag.Bool("update-bullet-golden", false, "rewrite testdata/bullet_golden.json")

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

// TestBulletGolden plays small scenes in Bullet and compares every body's
// final centre of mass and linear velocity, and the number of bodies
// awake summed over the steps, with testdata/bullet_golden.json, to the
// bit. Changes to how the Bullet world is stepped that are meant only to
// make it faster (fetching memory ahead, deciding sleep without sorting
// the islands, skipping work for bodies continuous collision will not
// sweep) must leave every number as it was. A change meant to alter the
// motion rewrites the file with -update-bullet-golden, and the diff
// shows it. The scenes: a tumbling pile (the solver's work), a crate
// that falls asleep and is woken by a falling ball (sleep per island), a
// box carried by an animated kinematic platform (a kinematic body wakes
// what it touches), and a fast ball swept against a thin wall.
func TestBulletGolden(t *testing.T) {
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
	got := map[string][][6]float64{}
	for name, mk := range cases {
		r := mk(t)
		awake := 0
		for i := 0; i < int(r.seconds*240+0.5); i++ { // every scene steps at 1/240 s
			if err := r.s.Step(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			awake += r.s.Awake()
		}
		var rows [][6]float64
		for _, b := range r.s.Bodies {
			rows = append(rows, [6]float64{b.CenterOfMass[0], b.CenterOfMass[1], b.CenterOfMass[2], b.LinearVelocity[0], b.LinearVelocity[1], b.LinearVelocity[2]})
		}
		got[name] = append(rows, [6]float64{float64(awake)})
	}
	// What each scene must show for the comparison to pin anything.
	moving := 0
	for _, b := range got["pile"][:200] {
		if v := (mgl64.Vec3{b[3], b[4], b[5]}); v.Len() > 0.05 {
			moving++
		}
	}
	if moving < 20 {
		t.Errorf("pile: %d of 200 bodies move after 1 s; it should still tumble", moving)
	}
	if sw := got["swept ball"]; sw[0][0] > 1 {
		t.Errorf("swept ball: at x = %g, through the wall at x = 1", sw[0][0])
	}
	path := filepath.Join("testdata", "bullet_golden.json")
	names := make([]string, 0, len(got))
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	if *updateBulletGolden {
		// One body a line: a diff shows which bodies moved.
		var parts []string
		for _, n := range names {
			var lines []string
			for _, row := range got[n] {
				data, err := json.Marshal(row)
				if err != nil {
					t.Fatal(err)
				}
				lines = append(lines, "  "+string(data))
			}
			parts = append(parts, fmt.Sprintf(" %q: [\n%s\n ]", n, strings.Join(lines, ",\n")))
		}
		if err := os.WriteFile(path, []byte("{\n"+strings.Join(parts, ",\n")+"\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-bullet-golden to write it)", err)
	}
	var want map[string][][6]float64
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, n := range names {
		g, w := got[n], want[n]
		if len(g) != len(w) {
			t.Errorf("%s: %d rows, %s has %d", n, len(g), path, len(w))
			continue
		}
		differ := 0
		for i := range g {
			if g[i] != w[i] {
				if differ < 3 {
					t.Errorf("%s: row %d is %v, want %v", n, i, g[i], w[i])
				}
				differ++
			}
		}
		if differ > 0 {
			t.Errorf("%s: %d of %d rows differ from %s", n, differ, len(g), path)
		}
	}
}
