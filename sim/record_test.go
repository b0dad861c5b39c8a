package sim

import (
	"math"
	"testing"
)

// TestRecordFreeFall: a recording of a ball falling from rest holds its
// height at every step. ODE integrates semi-implicitly (the velocity first,
// then the position with the new velocity), so after n steps of dt the
// drop is g dt² n(n+1)/2 = g t²/2 + g t dt/2: the closed form g t²/2 plus
// the integrator's known lead, which the test adds. Positions are recorded
// in float64: every step matches within 1e-6 m; velocities (float32) match
// g t within float32 rounding.
func TestRecordFreeFall(t *testing.T) {
	const g, y0 = 9.81, 10.0
	s := newSim(t, tscene{shapes: []string{sphere(0.5)}, gravity: earth,
		nodes: []tnode{{name: "ball", t: [3]float64{0, y0, 0}, ext: dynamic(2, 0, "")}}}, Options{})
	r := NewRecording(s, 0)
	r.Add(s)
	for s.Time < 1-1e-9 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		r.Add(s)
	}
	if r.Len() != 241 {
		t.Fatalf("%d frames, want 241 (step 0 to 240)", r.Len())
	}
	worst := 0.0
	dt := s.StepSize()
	for i := 0; i < r.Len(); i++ {
		tm := r.Time(i)
		smp := r.Sample(i, 0)
		want := y0 - (g*tm*tm/2 + g*tm*dt/2)
		if d := math.Abs(smp.Position[1] - want); d > worst {
			worst = d
		}
		if v := -smp.LinearVelocity[1]; math.Abs(v-g*tm) > 1e-5*math.Max(1, g*tm) {
			t.Errorf("frame %d (t = %g): speed %g, want g t = %g", i, tm, v, g*tm)
		}
		if smp.Contacts != 0 || smp.Asleep {
			t.Errorf("frame %d: contacts %d asleep %v, want 0 false (falling freely)", i, smp.Contacts, smp.Asleep)
		}
	}
	if worst > 1e-6 {
		t.Errorf("worst height error %g m, want under 1e-6 m", worst)
	}
	t.Logf("241 frames, worst height error %.3g m; at t = 1 s the drop is %.6f m (g t²/2 = %.6f m)", worst, y0-r.Sample(240, 0).Position[1], g/2)
}

// TestRecordContactsSleep: a box resting on a floor records its contact
// points and falls asleep.
func TestRecordContactsSleep(t *testing.T) {
	s := newSim(t, tscene{shapes: []string{box(1, 1, 1), box(10, 1, 10)}, gravity: earth,
		nodes: []tnode{
			{name: "crate", t: [3]float64{0, 1, 0}, ext: dynamic(1, 0, "")},
			{name: "floor", ext: static(1, "")},
		}}, Options{})
	r := NewRecording(s, 0)
	for i := 0; i < 480; i++ {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		r.Add(s)
	}
	last := r.Sample(r.Len()-1, 0)
	if !last.Asleep {
		t.Errorf("the crate is not asleep after 2 s on the floor")
	}
	touching := 0
	for i := 0; i < r.Len(); i++ {
		if r.Sample(i, 0).Contacts > 0 {
			touching++
		}
	}
	if touching < 100 {
		t.Errorf("%d frames with contacts, want most of 480", touching)
	}
	if c := r.Sample(10, 0).Contacts; c != 4 {
		t.Logf("contacts at step 10: %d", c)
	}
}

// TestRecordBudget: a recording that outgrows its budget halves its rate
// (a note says so) and keeps the whole run; one that would go coarser than
// 1/30 s stops with a note while the simulation goes on.
func TestRecordBudget(t *testing.T) {
	s := newSim(t, tscene{shapes: []string{sphere(0.5)}, gravity: earth,
		nodes: []tnode{{name: "ball", t: [3]float64{0, 10, 0}, ext: dynamic(2, 0, "")}}}, Options{})
	per := 1*sampleBytes + 64
	r := NewRecording(s, 100*per)
	r.Add(s)
	for i := 0; i < 240; i++ {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		r.Add(s)
	}
	if r.Every != 4 || r.Stopped {
		t.Errorf("every %d stopped %v, want every 4 steps and still recording", r.Every, r.Stopped)
	}
	if r.End() != 1 || r.Time(0) != 0 || r.Len() != 61 {
		t.Errorf("frames from %g to %g s, %d of them; want 0 to 1 s, 61", r.Time(0), r.End(), r.Len())
	}
	if r.Bytes() > r.Budget {
		t.Errorf("%d bytes over the budget %d", r.Bytes(), r.Budget)
	}
	if r.Note == "" {
		t.Error("no note on the decimation")
	}
	for i := 0; i < 240*10; i++ {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		r.Add(s)
	}
	if !r.Stopped || r.Every != 8 {
		t.Errorf("after 11 s: stopped %v every %d, want stopped at every 8 steps (1/30 s)", r.Stopped, r.Every)
	}
	t.Log(r.Note)
}

// TestHash: the hash is the same for two runs, and changes with a mass
// changed by 1e-6 (the ball lands on a tilted box: mass matters there).
func TestHash(t *testing.T) {
	run := func(mass float64) string {
		s := newSim(t, tscene{shapes: []string{sphere(0.5), box(1, 1, 1), box(10, 1, 10)}, gravity: earth,
			nodes: []tnode{
				{name: "ball", t: [3]float64{0.2, 3, 0}, ext: dynamic(mass, 0, "")},
				{name: "crate", t: [3]float64{0, 1, 0}, ext: dynamic(1, 1, "")},
				{name: "floor", ext: static(2, "")},
			}}, Options{})
		if err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		return s.Hash()
	}
	a, b, c := run(2), run(2), run(2+1e-6)
	if a != b {
		t.Errorf("two runs hash %s and %s", a, b)
	}
	if a == c {
		t.Errorf("a mass 1e-6 kg heavier hashes the same: %s", a)
	}
	if len(a) != 32 {
		t.Errorf("hash %q: want 32 hex digits", a)
	}
}

// TestRecordBudgetFits4000: 4,000 bodies for 60 s fit the default budget
// once decimated to every fourth step of 1/240 s (60 Hz), and 1,000
// bodies fit 60 s at every step.
func TestRecordBudgetFits4000(t *testing.T) {
	frame := func(n int) int { return n*sampleBytes + 64 }
	if need := frame(4000) * (60*60 + 1); need > DefaultRecordBudget {
		t.Errorf("4,000 bodies x 60 s at 60 Hz take %d MB, over the %d MB budget", need>>20, DefaultRecordBudget>>20)
	}
	if need := frame(4000) * (60*120 + 1); need <= DefaultRecordBudget {
		t.Errorf("4,000 bodies x 60 s at 120 Hz fit (%d MB): the docs say 60 Hz", need>>20)
	}
	if need := frame(1000) * (60*240 + 1); need > DefaultRecordBudget {
		t.Errorf("1,000 bodies x 60 s at 240 Hz take %d MB, over the budget", need>>20)
	}
}
