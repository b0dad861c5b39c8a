package sim

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"physview/sim/ode"
)

// TestPileAB steps worlds of the tumbling pile in Bullet in turn, 24 steps
// each, in one process, so that every variant sees the same load:
// PHYSVIEW_PILE_AB lists the variants' bullet.World.Tune bits (e.g. "0,3,0,3":
// physview's speed-ups on, off, on, off),
// PHYSVIEW_PILE_SECONDS the simulated time (2 s by default).
func TestPileAB(t *testing.T) {
	spec := os.Getenv("PHYSVIEW_PILE_AB")
	if spec == "" {
		t.Skip("set PHYSVIEW_PILE_AB to the variants' bits to compare builds of the pile")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	seconds := 2.0
	if v, err := strconv.ParseFloat(os.Getenv("PHYSVIEW_PILE_SECONDS"), 64); err == nil && v > 0 {
		seconds = v
	}
	ts := tumblingPile()
	var sims []*Sim
	var bits []uint
	for _, f := range strings.Split(spec, ",") {
		b, err := strconv.ParseUint(strings.TrimSpace(f), 0, 32)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(ts.doc(t), Options{Step: 1.0 / 240, Engine: EngineBullet})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.w.(bulletWorld).Tune(uint(b))
		sims = append(sims, s)
		bits = append(bits, uint(b))
	}
	steps := int(seconds*240 + 0.5)
	cpu := make([]float64, len(sims))
	half := make([]float64, len(sims))
	for k := 0; k < steps; k += 24 {
		for j := range sims {
			i := (j + k/24) % len(sims)
			c0 := ode.ThreadCPUTime()
			for n := k; n < k+24 && n < steps; n++ {
				if err := sims[i].Step(); err != nil {
					t.Fatal(err)
				}
			}
			cpu[i] += ode.ThreadCPUTime() - c0
			if k < steps/2 {
				half[i] = cpu[i]
			}
		}
	}
	for i, s := range sims {
		var top, low float64 = 0, 1e9
		for _, b := range s.Bodies {
			top = max(top, b.LinearVelocity.Len())
			low = min(low, b.CenterOfMass[1])
		}
		t.Logf("bits %#x: %.3f s CPU (%.3f of the first; first half %.3f, second %.3f), top speed %.3g, lowest %.4g, contacts %d",
			bits[i], cpu[i], cpu[i]/cpu[0], half[i], cpu[i]-half[i], top, low, s.w.Contacts())
	}
}
