package sim

import (
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"physview/sim/ode"
)

// boxScene is the benchmark scene, the same as ode.ReferenceRun's: a static
// floor and n boxes of 0.5 m and 1 kg, 10 to a row, 1 m apart, in layers
// from 1 m up.
func boxScene(n int) tscene {
	ts := tscene{shapes: []string{box(0.5, 0.5, 0.5), box(100, 1, 100)}, gravity: earth}
	ts.nodes = append(ts.nodes, tnode{name: "floor", t: [3]float64{0, -0.5, 0}, ext: static(1, "")})
	for i := 0; i < n; i++ {
		ts.nodes = append(ts.nodes, tnode{name: fmt.Sprint("box", i),
			t:   [3]float64{float64(i%10) - 4.5, 1 + float64(i/100), float64((i/10)%10) - 4.5},
			ext: dynamic(1, 0, "")})
	}
	return ts
}

const benchSteps = 480 // 2 s: the boxes fall, land and settle

// BenchmarkBoxes1000 steps 1,000 boxes falling on a floor through the
// binding (gravity from the scene as forces, states read back each step),
// every body kept awake as in the reference run (BenchmarkBoxes1000ODE).
func BenchmarkBoxes1000(b *testing.B) {
	d := boxScene(1000).doc(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var total, cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := New(d, Options{NoSleep: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, c0 := time.Now(), ode.ThreadCPUTime()
		for k := 0; k < benchSteps; k++ {
			if err := s.Step(); err != nil {
				b.Fatal(err)
			}
		}
		total += time.Since(start)
		cpu += time.Duration((ode.ThreadCPUTime() - c0) * 1e9)
		b.StopTimer()
		s.Close()
	}
	b.ReportMetric(float64(benchSteps*b.N)/total.Seconds(), "steps/s")
	b.ReportMetric(float64(benchSteps*b.N)/cpu.Seconds(), "steps/cpu-s")
}

// BenchmarkBoxes1000ODE steps the same scene through ODE's C API alone:
// the floor for BenchmarkBoxes1000.
func BenchmarkBoxes1000ODE(b *testing.B) {
	total := 0.0
	for i := 0; i < b.N; i++ {
		total += ode.ReferenceRun(1000, benchSteps, DefaultStep, 20)
	}
	b.ReportMetric(float64(benchSteps*b.N)/total, "steps/cpu-s")
}

// TestBoxesSettle: the benchmark scene is sane: after 2 s every box rests
// on the floor or on another box.
func TestBoxesSettle(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	s, err := New(boxScene(100).doc(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Run(3); err != nil {
		t.Fatal(err)
	}
	for _, b := range s.Bodies {
		if y := b.Position[1]; y < 0.24 || b.LinearVelocity.Len() > 0.05 {
			t.Fatalf("%s at y = %g moving at %g m/s after 3 s, want resting on the floor", b.Name, y, b.LinearVelocity.Len())
		}
	}
}

// pileScene is issue 24's Play benchmark: 4,000 spheres (radius 0.25 m)
// and boxes (0.5 m) in a 10 x 20 x 20 grid 0.6 m apart, falling onto a
// ground box.
func pileScene() tscene {
	ts := tscene{shapes: []string{sphere(0.25), box(0.5, 0.5, 0.5), box(40, 1, 40)}, gravity: earth}
	ts.nodes = append(ts.nodes, tnode{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(2, "")})
	for i := 0; i < 4000; i++ {
		x, y, z := i%10, (i/10)%20, i/200
		ts.nodes = append(ts.nodes, tnode{name: fmt.Sprint("b", i),
			t:   [3]float64{0.6*float64(x) - 2.7, 0.5 + 0.6*float64(y), 0.6*float64(z) - 5.7},
			ext: dynamic(1, i%2, "")})
	}
	return ts
}

// BenchmarkPile4000 plays pileScene for 4 s at 1/240 s and reports
// simulated seconds per wall-clock second (1 or more is real time) and per
// CPU second of the stepping thread, and the same with every body kept
// awake (NoSleep, the binding before resting bodies slept) as the baseline
// measured in the same run: "speedup" is the CPU time ratio.
func BenchmarkPile4000(b *testing.B) {
	d := pileScene().doc(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	run := func(opt Options) (wall, cpu float64) {
		s, err := New(d, opt)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		start, c0 := time.Now(), ode.ThreadCPUTime()
		if err := s.Run(4); err != nil {
			b.Fatal(err)
		}
		return time.Since(start).Seconds(), ode.ThreadCPUTime() - c0
	}
	var wall, cpu, baseWall, baseCPU float64
	for i := 0; i < b.N; i++ {
		w, c := run(Options{})
		wall, cpu = wall+w, cpu+c
		b.StopTimer()
		w, c = run(Options{NoSleep: true})
		baseWall, baseCPU = baseWall+w, baseCPU+c
		b.StartTimer()
	}
	b.ReportMetric(4*float64(b.N)/wall, "sim-s/wall-s")
	b.ReportMetric(4*float64(b.N)/cpu, "sim-s/cpu-s")
	b.ReportMetric(4*float64(b.N)/baseWall, "nosleep-sim-s/wall-s")
	b.ReportMetric(4*float64(b.N)/baseCPU, "nosleep-sim-s/cpu-s")
	b.ReportMetric(baseCPU/cpu, "speedup")
}

// TestPileSleeps: the benchmark pile has landed and sleeps after 2 s: every
// column stands (no body below the ground or knocked over), every body is
// asleep, and one more second costs no contacts.
func TestPileSleeps(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	s := newSim(t, pileScene(), Options{})
	if err := s.Run(2); err != nil {
		t.Fatal(err)
	}
	if a := s.Awake(); a != 0 {
		t.Errorf("%d of %d bodies awake after 2 s, want all asleep", a, len(s.Bodies))
	}
	for i, b := range s.Bodies {
		// Column bodies are 0.5 m tall: body i sits at 0.25 + 0.5 * row.
		want := 0.25 + 0.5*float64((i/10)%20)
		if math.Abs(b.Position[1]-want) > 0.05 {
			t.Fatalf("%s at y = %.3f, want %.3f (its column fell)", b.Name, b.Position[1], want)
		}
	}
}
