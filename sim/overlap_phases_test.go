package sim

import (
	"math"
	"os"
	"runtime"
	"strconv"
	"testing"

	"physview/sim/ode"
)

// TestOverlapPhases times the benchmark's overlap scene (2,000 spheres at
// one point) in Bullet step by step and logs where the time goes: the
// first steps, where every box overlaps every other, the steps until the
// pair budget refuses no more pairs (the crowd has parted), and the
// rolling rest; and it holds the scene to the benchmark's bounds (no
// sphere faster than 20 m/s, every one on the ground, parted within 1 s).
// It is a measurement, run only when PHYSVIEW_OVERLAP_PHASES is set
// (about 8 s of CPU; PHYSVIEW_OVERLAP_SECONDS plays longer, for a
// profile of the rolling phase).
func TestOverlapPhases(t *testing.T) {
	if os.Getenv("PHYSVIEW_OVERLAP_PHASES") == "" {
		t.Skip("a measurement: set PHYSVIEW_OVERLAP_PHASES=1 to run it")
	}
	runtime.LockOSThread() // the thread's CPU clock
	defer runtime.UnlockOSThread()
	ps := peerScenes()[2]
	if v, err := strconv.ParseFloat(os.Getenv("PHYSVIEW_OVERLAP_SECONDS"), 64); err == nil && v > 0 {
		ps.seconds = v // longer: a profile of the rolling phase
	}
	s, err := New(ps.scene.doc(t), Options{Step: ps.step, Engine: EngineBullet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var per []float64
	var dropped []int
	top := 0.0
	for s.Time+ps.step/2 < ps.seconds {
		before := s.Dropped.Pairs
		c0 := ode.ThreadCPUTime()
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		per = append(per, ode.ThreadCPUTime()-c0)
		if n := len(per); n%120 == 0 {
			t.Logf("after step %d: %d contact points, %d awake", n, s.w.Contacts(), s.Awake())
		}
		dropped = append(dropped, s.Dropped.Pairs-before)
		for _, b := range s.Bodies {
			top = math.Max(top, b.LinearVelocity.Len())
		}
	}
	low := math.Inf(1)
	for _, b := range s.Bodies {
		low = math.Min(low, b.CenterOfMass[1])
	}
	parted := 0
	for i, d := range dropped {
		if d > 0 {
			parted = i + 1
		}
	}
	sum := func(a, b int) float64 {
		x := 0.0
		for _, v := range per[min(a, len(per)):min(b, len(per))] {
			x += v
		}
		return x
	}
	total := sum(0, len(per))
	t.Logf("%d steps, %.3f s CPU, %.3fx real time; top %.3g m/s, lowest %.4g m; last step with refused pairs: %d",
		len(per), total, ps.seconds/total, top, low, parted)
	for _, r := range [][2]int{{0, 10}, {10, 30}, {30, 60}, {60, 120}, {120, 240}, {240, 360}, {360, 480}} {
		n := min(r[1], len(per)) - r[0]
		t.Logf("steps %3d-%3d: %.3f s, %.1f ms a step, refused %d in the first", r[0], r[1], sum(r[0], r[1]), 1000*sum(r[0], r[1])/float64(n), dropped[r[0]])
	}
	for i := 0; i < 10; i++ {
		t.Logf("step %d: %.1f ms, refused %d", i, 1000*per[i], dropped[i])
	}
	if top > 20 {
		t.Errorf("a sphere reached %.3g m/s, want at most 20", top)
	}
	if low < 0.49 {
		t.Errorf("the lowest centre is at %.4g m at the end, want every sphere on the ground (0.5 m, 1 cm tolerance)", low)
	}
	if parted > 240 {
		t.Errorf("the budget refused pairs until step %d, want the crowd parted within 240 steps (1 s)", parted)
	}
}
