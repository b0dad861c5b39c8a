package sim

import (
	"fmt"
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
// binding (gravity from the scene as forces, states read back each step).
func BenchmarkBoxes1000(b *testing.B) {
	d := boxScene(1000).doc(b)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var total, cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := New(d, Options{})
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
