package render

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// TestOrbitScales times the lamp's reduced redraws with the moving levels
// at the scales a moving frame may take, alternating round by round (a
// busy machine slows them alike): CPU ms, median (least):
// go test ./render -run OrbitScales -orbitprofile -v
func TestOrbitScales(t *testing.T) {
	if !*orbitProfile {
		t.Skip("run with -orbitprofile")
	}
	r, cam := showingLamp(t)
	defer r.Delete()
	opt := DefaultOptions()
	waitMovingLevels(t, r, cam, 320, 303, opt)
	sizes := [][2]int{{320, 303}, {280, 265}, {240, 227}}
	res := make([][]time.Duration, len(sizes))
	r.movingLOD = true
	defer func() { r.movingLOD = false }()
	for round := 0; round < 6; round++ {
		for k, sz := range sizes {
			release := bindBenchTarget(int32(sz[0]), int32(sz[1]))
			for i := 0; i < 9; i++ {
				c := cam
				c.Orbit(float64(i)*0.05, 0)
				c0 := cpuTime()
				r.Draw(c, sz[0], sz[1], opt)
				gl.Finish()
				if i >= 2 {
					res[k] = append(res[k], cpuTime()-c0)
				}
			}
			release()
		}
	}
	for k, sz := range sizes {
		x := res[k]
		sort.Slice(x, func(i, j int) bool { return x[i] < x[j] })
		fmt.Printf("moving levels at %4dx%-4d CPU %6.1f (%5.1f)\n", sz[0], sz[1], millis(x[len(x)/2]), millis(x[0]))
	}
}
