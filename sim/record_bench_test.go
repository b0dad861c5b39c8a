package sim

import (
	"fmt"
	"runtime"
	"testing"

	"physview/sim/ode"
)

// BenchmarkRecordOverhead steps the box benchmark scene (1,000 and 4,000
// boxes falling on a floor, all awake) with a Recording and reports the
// thread CPU time Recording.Add takes against the steps' (overhead-%),
// the recording's memory per body-second at 240 Hz (bytes/body-s) and
// Add's cost per body (ns/body). (Timing the two apart in one run keeps
// the machine's load out of the ratio; a run without recording is timed
// too and logged.)
//
//	go test -run '^$' -bench RecordOverhead -benchtime 1x ./sim/
func BenchmarkRecordOverhead(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			d := boxScene(n).doc(b)
			steps := 240
			if n > 1000 {
				steps = 120
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var stepCPU, addCPU, plainCPU float64
			var rec *Recording
			for i := 0; i < b.N; i++ {
				for _, record := range []bool{false, true} {
					s, err := New(d, Options{NoSleep: true})
					if err != nil {
						b.Fatal(err)
					}
					var r *Recording
					if record {
						r = NewRecording(s, 0)
						r.Add(s)
					}
					for k := 0; k < steps; k++ {
						c0 := ode.ThreadCPUTime()
						if err := s.Step(); err != nil {
							b.Fatal(err)
						}
						c1 := ode.ThreadCPUTime()
						if !record {
							plainCPU += c1 - c0
							continue
						}
						stepCPU += c1 - c0
						r.Add(s)
						addCPU += ode.ThreadCPUTime() - c1
					}
					if record {
						rec = r
						r.Close()
					}
					s.Close()
				}
			}
			b.ReportMetric(100*addCPU/stepCPU, "overhead-%")
			b.ReportMetric(float64(rec.Bytes())/float64(n)/rec.End(), "bytes/body-s")
			b.ReportMetric(addCPU/float64(steps*b.N*n)*1e9, "ns/body")
			b.Logf("%d bodies, %d steps: stepping %.3f s (%.3f s in a run without recording), recording %.4f s (%.1f%%); %.1f MB recorded",
				n, steps*b.N, stepCPU, plainCPU, addCPU, 100*addCPU/stepCPU, float64(rec.Bytes())/(1<<20))
		})
	}
}
