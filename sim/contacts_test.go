package sim

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"testing"
)

// overlapScene is issue 24's contact bomb: n dynamic bodies (spheres and
// boxes of 0.5 m, alternating) all at one point above a ground box.
func overlapScene(n int) tscene {
	ts := tscene{shapes: []string{sphere(0.25), box(0.5, 0.5, 0.5), box(50, 1, 50)}, gravity: earth}
	ts.nodes = append(ts.nodes, tnode{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(2, "")})
	for i := 0; i < n; i++ {
		ts.nodes = append(ts.nodes, tnode{name: fmt.Sprint("b", i), t: [3]float64{0, 1, 0}, ext: dynamic(1, i%2, "")})
	}
	return ts
}

// rssBytes reads the process's resident set size from /proc/self/statm:
// Go's heap and ODE's C allocations alike.
func rssBytes(t testing.TB) int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no /proc/self/statm: %v", err)
	}
	var size, rss int64
	if _, err := fmt.Sscan(string(data), &size, &rss); err != nil {
		t.Fatalf("statm %q: %v", data, err)
	}
	return rss * int64(os.Getpagesize())
}

// TestOverlapMemoryFlat: 2,000 bodies overlapping at one point (2 million
// touching pairs) step with a bounded contact count (the budget drops the
// rest, and says so), and the process's memory after 150 steps is within
// 48 MB of what it was after 30: flat, where it used to grow by gigabytes.
func TestOverlapMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	const n, warm, steps = 2000, 30, 150
	// With ODE's unbounded push the pile flies apart within a few steps,
	// as when this test was written; bounded (MaxSeparationSpeed) it oozes
	// apart over seconds and the 150 steps take five times as long, for the
	// same contact budget and the same memory.
	s, err := New(overlapScene(n).doc(t), Options{SeparationSpeed: math.Inf(1)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := rssBytes(t)
	var atWarm int64
	for i := 1; i <= steps; i++ {
		if err := s.Step(); err != nil {
			t.Logf("stopped at step %d: %v", i, err)
			break
		}
		if i == warm {
			runtime.GC()
			atWarm = rssBytes(t)
		}
		if i%30 == 0 {
			t.Logf("step %d: RSS %d MB, contacts %d, dropped this step %v", i, rssBytes(t)>>20, s.w.Contacts(), s.Dropped)
		}
	}
	runtime.GC()
	after := rssBytes(t)
	t.Logf("RSS %d MB before, %d MB after %d steps, %d MB after %d", before>>20, atWarm>>20, warm, after>>20, s.Steps)
	if s.Steps < warm {
		t.Fatalf("only %d steps", s.Steps)
	}
	if grow := after - atWarm; grow > 48<<20 {
		t.Errorf("memory grew by %d MB from step %d to %d, want flat (under 48 MB)", grow>>20, warm, s.Steps)
	}
	if after-before > 512<<20 {
		t.Errorf("the run takes %d MB, want under 512 MB", (after-before)>>20)
	}
	if s.Dropped.Pairs == 0 || s.DroppedSteps == 0 {
		t.Errorf("no contacts dropped (%+v in %d steps): the budget did not apply", s.Dropped, s.DroppedSteps)
	}
}

// TestContactBudget: a step makes at most Options.MaxContacts contacts and
// counts the rest; a pile within the budget drops nothing.
func TestContactBudget(t *testing.T) {
	s, err := New(overlapScene(50).doc(t), Options{MaxContacts: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Step(); err != nil {
		t.Fatal(err)
	}
	if c := s.w.Contacts(); c != 100 {
		t.Errorf("%d contacts, want the budget of 100", c)
	}
	// 50 bodies at one point: 1,225 pairs and 50 on the ground, at least
	// one contact each, 100 made.
	if s.Dropped.Pairs+s.Dropped.Contacts < 1175 {
		t.Errorf("dropped %+v, want at least 1,175 pairs or contacts", s.Dropped)
	}
	calm := newSim(t, boxScene(100), Options{})
	if err := calm.Run(1); err != nil {
		t.Fatal(err)
	}
	if calm.DroppedSteps != 0 {
		t.Errorf("100 falling boxes dropped contacts in %d steps", calm.DroppedSteps)
	}
}
