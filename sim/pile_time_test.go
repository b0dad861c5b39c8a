package sim

import (
	"math"
	"os"
	"runtime"
	"strconv"
	"testing"

	"physview/sim/ode"
)

// TestPileTime plays the benchmark's tumbling pile in Bullet for
// PHYSVIEW_PILE_SECONDS simulated seconds twice, with physview's steps
// and with Bullet's own (bullet.World.BulletStepsForTest), taking turns
// every 24 steps so that both see the same load, and logs the CPU time
// each took, their ratio, and a fingerprint of each one's motion (kinetic
// energy, mean height, contact points), which must agree. It is a
// measurement, run only when the variable is set.
func TestPileTime(t *testing.T) {
	secs, err := strconv.ParseFloat(os.Getenv("PHYSVIEW_PILE_SECONDS"), 64)
	if err != nil || secs <= 0 {
		t.Skip("a measurement: set PHYSVIEW_PILE_SECONDS=2 to run it")
	}
	runtime.LockOSThread() // the thread's CPU clock
	defer runtime.UnlockOSThread()
	ps := peerScenes()[0]
	doc := ps.scene.doc(t)
	var sims [2]*Sim // physview's steps, Bullet's
	for i := range sims {
		s, err := New(doc, Options{Step: ps.step, Engine: EngineBullet})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if i == 1 {
			if err := s.w.(bulletWorld).BulletStepsForTest(); err != nil {
				t.Fatal(err)
			}
		}
		sims[i] = s
	}
	const turn = 24
	steps := int(secs/ps.step + 0.5)
	var cpu [2]float64
	for done := 0; done < steps; done += turn {
		for i, s := range sims {
			c0 := ode.ThreadCPUTime()
			for k := done; k < min(done+turn, steps); k++ {
				if err := s.Step(); err != nil {
					t.Fatalf("step %d: %v", k, err)
				}
			}
			cpu[i] += ode.ThreadCPUTime() - c0
		}
	}
	var prints [2]string
	for i, s := range sims {
		ke, y := 0.0, 0.0
		for _, b := range s.Bodies {
			ke += 0.5 * b.Mass * b.LinearVelocity.Dot(b.LinearVelocity)
			y += b.CenterOfMass[1]
		}
		if math.IsNaN(ke) {
			t.Fatal("NaN in the bodies' velocities")
		}
		prints[i] = strconv.FormatFloat(ke, 'g', -1, 64) + " J, mean height " + strconv.FormatFloat(y/float64(len(s.Bodies)), 'g', -1, 64) + " m, " + strconv.Itoa(s.w.Contacts()) + " contact points"
	}
	t.Logf("%d steps: physview's steps %.3f s of CPU (%.2f ms a step), Bullet's own %.3f s (%.2f ms); physview's / Bullet's = %.3f",
		steps, cpu[0], 1000*cpu[0]/float64(steps), cpu[1], 1000*cpu[1]/float64(steps), cpu[0]/cpu[1])
	t.Logf("motion: %s", prints[0])
	if prints[0] != prints[1] {
		t.Errorf("the motions differ: Bullet's own steps give %s", prints[1])
	}
}
