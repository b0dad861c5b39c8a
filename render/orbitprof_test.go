package render

import (
	"flag"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
)

var orbitProfile = flag.Bool("orbitprofile", false, "print where a redraw of the orbit benchmark's lamp goes, in the window's 3D view size")

// TestOrbitProfile times redraws of StainedGlassLamp at the window's 3D
// view size (800x758 in a 1280x780 window) and parts of it, as CPU time
// (every thread: llvmpipe rasterises on its own) and wall time, medians
// of 11 redraws a few degrees apart, each waited for with glFinish:
// go test ./render -run OrbitProfile -orbitprofile -v
func TestOrbitProfile(t *testing.T) {
	if !*orbitProfile {
		t.Skip("run with -orbitprofile")
	}
	r, cam := showingLamp(t)
	defer r.Delete()
	opt := DefaultOptions()
	all := r.items
	var opaque, transmissive []drawItem
	for _, it := range all {
		if r.materialOf(it.prim, -1).transmission > 0 {
			transmissive = append(transmissive, it)
		} else {
			opaque = append(opaque, it)
		}
	}
	fmt.Println("ms, median (least) of 11 redraws")
	measure := func(name string, c Camera, w, h int, o Options, items []drawItem) {
		r.items = items
		defer func() { r.items = all }()
		release := bindBenchTarget(int32(w), int32(h))
		defer release()
		var ts, cs []time.Duration
		for i := 0; i < 13; i++ {
			c := c
			c.Orbit(float64(i)*0.05, 0)
			start, c0 := time.Now(), cpuTime()
			r.Draw(c, w, h, o)
			gl.Finish()
			if i >= 2 { // the first draws generate llvmpipe's code
				ts, cs = append(ts, time.Since(start)), append(cs, cpuTime()-c0)
			}
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
		sort.Slice(cs, func(i, j int) bool { return cs[i] < cs[j] })
		fmt.Printf("%-44s %4dx%-4d CPU %6.1f (%5.1f)  wall %6.1f (%5.1f)\n", name, w, h,
			millis(cs[5]), millis(cs[0]), millis(ts[5]), millis(ts[0]))
	}
	measure("full view", cam, 800, 758, opt, all)
	measure("0.7 of the size (the pixels: half)", cam, 560, 531, opt, all)
	measure("half the size (a quarter)", cam, 400, 379, opt, all)
	measure("0.4 of the size (the least while moving)", cam, 320, 303, opt, all)
	waitMovingLevels(t, r, cam, 320, 303, opt)
	r.movingLOD = true
	measure("0.4, the moving levels of detail", cam, 320, 303, opt, all)
	measure("0.4, moving levels, opaque alone", cam, 320, 303, opt, opaque)
	measure("0.4, moving levels, transmissive alone", cam, 320, 303, opt, transmissive)
	r.movingLOD = false
	measure("a quarter of the size", cam, 200, 190, opt, all)
	measure("64x61: what does not scale with pixels", cam, 64, 61, opt, all)
	measure("opaque primitives alone", cam, 800, 758, opt, opaque)
	measure("transmissive primitives alone (+ the copy)", cam, 800, 758, opt, transmissive)
	measure("no primitive (clear, grid, axes)", cam, 800, 758, opt, nil)
	sky := opt
	sky.BackgroundMode = BackgroundEnvironment
	measure("full view over the environment", cam, 800, 758, sky, all)
	closeUp := cam
	closeUp.Distance *= 0.3
	lo, hi := r.Bounds()
	closeUp.Target[1] = lo[1] + 0.85*(hi[1]-lo[1])
	measure("close-up of the shade (base culled)", closeUp, 800, 758, opt, all)
	measure("the close-up over the environment", closeUp, 800, 758, sky, all)

	// The moving levels against the full meshes at 320x303, alternating
	// (6 rounds of 7 redraws each way): a busy machine slows both alike.
	{
		release := bindBenchTarget(320, 303)
		res := map[bool][]time.Duration{}
		for round := 0; round < 6; round++ {
			for _, on := range []bool{true, false} {
				r.movingLOD = on
				for i := 0; i < 9; i++ {
					c := cam
					c.Orbit(float64(i)*0.05, 0)
					c0 := cpuTime()
					r.Draw(c, 320, 303, opt)
					gl.Finish()
					if i >= 2 {
						res[on] = append(res[on], cpuTime()-c0)
					}
				}
			}
		}
		r.movingLOD = false
		release()
		for _, on := range []bool{false, true} {
			x := res[on]
			sort.Slice(x, func(i, j int) bool { return x[i] < x[j] })
			name := "0.4, full meshes (alternating)"
			if on {
				name = "0.4, moving levels (alternating)"
			}
			fmt.Printf("%-44s %4dx%-4d CPU %6.1f (%5.1f)\n", name, 320, 303, millis(x[len(x)/2]), millis(x[0]))
		}
	}

	for _, sz := range [][2]int{{800, 758}, {320, 303}} {
		w, h := sz[0], sz[1]
		release := bindBenchTarget(int32(w), int32(h))
		r.Draw(cam, w, h, opt)
		gl.Finish()
		var cs, ts []time.Duration
		for i := 0; i < 11; i++ {
			start, c0 := time.Now(), cpuTime()
			r.copyView(w, h)
			gl.Finish()
			cs, ts = append(cs, cpuTime()-c0), append(ts, time.Since(start))
		}
		release()
		sort.Slice(cs, func(i, j int) bool { return cs[i] < cs[j] })
		sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
		fmt.Printf("%-44s %4dx%-4d CPU %6.1f (%5.1f)  wall %6.1f (%5.1f)\n", "transmission copy and its mipmaps", w, h, millis(cs[5]), millis(cs[0]), millis(ts[5]), millis(ts[0]))
	}
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// waitMovingLevels draws r reduced to w x h until every mesh that gets
// moving levels has them (or 20 s passed), and logs their index counts.
func waitMovingLevels(t *testing.T, r *Renderer, cam Camera, w, h int, opt Options) {
	t.Helper()
	release := bindBenchTarget(int32(w), int32(h))
	defer release()
	r.movingLOD = true
	defer func() { r.movingLOD = false }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r.Draw(cam, w, h, opt)
		gl.Finish()
		pending := 0
		for _, m := range r.lod.meshes {
			if m.moving.pending != nil {
				pending++
			}
		}
		if pending == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	lo, hi := r.Bounds()
	t.Logf("bounds %v %v", lo, hi)
	for _, it := range r.items {
		m := r.lod.meshes[it.prim.vao]
		if m == nil {
			continue
		}
		counts := []int32{it.prim.count}
		var errs []float64
		for _, l := range m.moving.levels {
			counts, errs = append(counts, l.count), append(errs, l.err)
		}
		it := it
		lvl := r.lodItem(&meshPass{cam: cam, height: h, refracting: r.materialOf(it.prim, -1).transmission > 0}, &it)
		t.Logf("mesh %d: indices %v, errors %.4g; drawn: %d", it.prim.mesh, counts, errs, r.lodCount(it.prim, lvl))
	}
}
