package render

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/assets"
	"physview/internal/testcorpus"
	"physview/scene"
)

var warmCost = flag.String("warmcost", "", "time the lamp's first draw in a window-sized view: \"cold\" without the warm-up, \"warm\" after it")

// TestWarmCost prints what the first draw of the lamp costs on this GL,
// cold or after Warm, step by step: go test ./render -run WarmCost
// -warmcost warm -v (one mode a process: llvmpipe keeps the variants of a
// program for the process's life).
func TestWarmCost(t *testing.T) {
	if *warmCost == "" {
		t.Skip("run with -warmcost cold or -warmcost warm")
	}
	headless(t)
	path := testcorpus.File(t, "gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp.gltf")
	d, err := scene.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// The demo's picture first, as in the window.
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	var v View
	const w, h = 920, 752
	demo, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.SetDocument(demo)
	r.WaitTextures()
	cam := NewCamera(r.Bounds())
	v.Present(r, cam, w, h, DefaultOptions())
	gl.Finish()
	start := time.Now()
	r.SetDocument(d)
	setDoc := time.Since(start)
	if *warmCost == "upload" {
		r.takeArrived(true)
		var worst time.Duration
		var worstWhat string
		for _, di := range r.queue {
			if di.img == nil {
				continue
			}
			for _, k := range r.imageUses[di.index] {
				s := time.Now()
				tu := beginTexture(di.img, di.levels, nil, k.srgb)
				gl.Finish()
				begin := time.Since(s)
				steps, lv := 0, 0
				for {
					s := time.Now()
					l := tu.level
					done := tu.step(uploadBand)
					gl.Finish()
					if e := time.Since(s); e > worst {
						worst, worstWhat = e, fmt.Sprintf("image %d level %d", di.index, l)
					}
					steps++
					if done {
						break
					}
					lv = tu.level
				}
				fmt.Printf("image %d %dx%d levels %d: begin %v, %d steps (last level %d)\n", di.index, di.img.Width, di.img.Height, len(di.levels), begin.Round(100*time.Microsecond), steps, lv)
			}
		}
		fmt.Printf("longest step %v: %s\n", worst, worstWhat)
		return
	}
	r.WaitTextures()
	cam = NewCamera(r.Bounds())
	opt := DefaultOptions()
	fmt.Printf("SetDocument %v; %d materials to warm\n", setDoc.Round(time.Millisecond), r.WarmLeft(cam, w, h, opt))
	if *warmCost == "warm" {
		for r.WarmLeft(cam, w, h, opt) > 0 {
			c := cpuTime()
			s := time.Now()
			left := r.Warm(cam, w, h, 0, opt, time.Nanosecond)
			gl.Finish()
			fmt.Printf("warm step: %v wall, %v CPU, %d left\n", time.Since(s).Round(time.Millisecond), (cpuTime() - c).Round(time.Millisecond), left)
		}
	}
	for i := 0; i < 3; i++ {
		v.Invalidate()
		c := cpuTime()
		s := time.Now()
		v.Present(r, cam, w, h, opt)
		gl.Finish()
		fmt.Printf("draw %d: %v wall, %v CPU\n", i+1, time.Since(s).Round(time.Millisecond), (cpuTime() - c).Round(time.Millisecond))
	}
	if e := gl.GetError(); e != gl.NO_ERROR && e != gl.INVALID_FRAMEBUFFER_OPERATION { // no default framebuffer here
		t.Errorf("GL error 0x%x", e)
	}
}
