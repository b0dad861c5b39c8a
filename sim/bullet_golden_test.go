package sim

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateBulletGolden = flag.Bool("update-bullet-golden", false, "rewrite testdata/bullet_pile_golden.json")

// smallPile is the benchmark's tumbling pile at a tenth of its size: 200
// spheres and boxes taking turns in 5 layers over a 6 x 6 grid (the last
// layer partly filled), jittered sideways so that they tumble.
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

// TestBulletPileGolden plays a small tumbling pile in Bullet for 1 s at
// 1/240 s and compares every body's final centre of mass and linear
// velocity with testdata/bullet_pile_golden.json, to the bit: changes to
// how the Bullet world is stepped that are meant only to make it faster
// (fetching memory ahead, skipping manifolds without points) must leave
// every number as it was. A change that is meant to alter the motion
// rewrites the file with -update-bullet-golden, and the diff shows it.
func TestBulletPileGolden(t *testing.T) {
	s, err := New(smallPile().doc(t), Options{Step: 1.0 / 240, Engine: EngineBullet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 240; i++ {
		if err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	got := make([][6]float64, len(s.Bodies))
	moving := 0
	for i, b := range s.Bodies {
		got[i] = [6]float64{b.CenterOfMass[0], b.CenterOfMass[1], b.CenterOfMass[2], b.LinearVelocity[0], b.LinearVelocity[1], b.LinearVelocity[2]}
		if b.LinearVelocity.Len() > 0.05 {
			moving++
		}
	}
	// The pile must still be tumbling after 1 s, or the comparison would
	// pin bodies at rest and miss the solver's work.
	if moving < 20 {
		t.Fatalf("%d of %d bodies move after 1 s; the pile should still tumble", moving, len(got))
	}
	path := filepath.Join("testdata", "bullet_pile_golden.json")
	if *updateBulletGolden {
		// One body a line: a diff shows which bodies moved.
		var lines []string
		for _, g := range got {
			data, err := json.Marshal(g)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, string(data))
		}
		if err := os.WriteFile(path, []byte("[\n"+strings.Join(lines, ",\n")+"\n]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-bullet-golden to write it)", err)
	}
	var want [][6]float64
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(want) != len(got) {
		t.Fatalf("%d bodies, %s has %d", len(got), path, len(want))
	}
	differ := 0
	for i := range got {
		if got[i] != want[i] {
			if differ < 5 {
				t.Errorf("body %d: centre and velocity %v, want %v", i, got[i], want[i])
			}
			differ++
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d bodies differ from %s", differ, len(got), path)
	}
}
