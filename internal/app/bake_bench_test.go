//go:build unix

package app

import (
	"fmt"
	"math"
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/sim"
)

// syntheticRun is a recording of n bodies over seconds at 60 Hz (every
// fourth step of 1/240 s), made up rather than simulated: each body falls
// from its own height, spinning, and rests on the ground once there.
func syntheticRun(d *scene.Document, n int, seconds float64) *sim.Recording {
	nodes, names, types := make([]int, n), make([]string, n), make([]scene.MotionType, n)
	for i := range nodes {
		nodes[i], names[i], types[i] = i+1, fmt.Sprint("b", i), scene.MotionDynamic
	}
	rec := sim.NewRecordingOf(nodes, names, types, sim.DefaultStep, 0)
	samples := make([]sim.BodySample, n)
	for step := 0; float64(step)*sim.DefaultStep <= seconds+1e-9; step += 4 {
		t := float64(step) * sim.DefaultStep
		for i := range samples {
			y0 := 1 + float64(i%50)*0.2
			land := math.Sqrt(2 * y0 / 9.81)
			tt := math.Min(t, land)
			p := mgl64.Vec3{float64(i%100) * 2, y0 - 9.81*tt*tt/2, float64(i/100) * 2}
			q := mgl64.QuatRotate(2*tt, mgl64.Vec3{0, 1, 0})
			v := mgl64.Vec3{0, -9.81 * tt, 0}
			if t >= land {
				v = mgl64.Vec3{}
			}
			samples[i] = sim.BodySample{Position: p, Rotation: q, LinearVelocity: v}
		}
		rec.AddFrame(step, samples)
	}
	return rec
}

// BenchmarkBake bakes 4,000 bodies over 10 s (a made-up recording at
// 60 Hz: each body falls, spinning, and rests) into an animation and
// reports the time it takes and the keys it keeps.
//
//	go test -run '^$' -bench Bake -benchtime 1x ./internal/app/
func BenchmarkBake(b *testing.B) {
	const n, seconds = 4000, 10.0
	d := loadPile(b, n)
	rec := syntheticRun(d, n, seconds)
	b.ResetTimer()
	var st BakeStats
	var took time.Duration
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		edit, s, err := Bake(d, rec, BakeOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := scene.Apply(d.Clone(), edit); err != nil {
			b.Fatal(err)
		}
		took += time.Since(start)
		st = s
	}
	cpu := (processCPU() - cpu0) / float64(b.N)
	b.ReportMetric(took.Seconds()/float64(b.N), "s/bake")
	b.ReportMetric(cpu, "cpu-s/bake")
	b.ReportMetric(float64(st.Keys)/float64(2*st.Bodies), "keys/channel")
	b.Logf("%d bodies x %g s: %d samples a body, %d keys in all; %.2f s a bake (%.2f CPU s)", st.Bodies, st.Duration, st.Samples, st.Keys, took.Seconds()/float64(b.N), cpu)
}

// processCPU is the CPU time (user and system) the process used so far.
func processCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// loadPile loads a document of a floor and n dynamic spheres (writePile).
func loadPile(b *testing.B, n int) *scene.Document {
	b.Helper()
	p := writePile(b, b.TempDir(), n, "")
	d, err := scene.Load(p)
	if err != nil {
		b.Fatal(err)
	}
	return d
}
