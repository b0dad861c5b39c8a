package render

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/go-gl/mathgl/mgl64"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/assets"
	"physview/internal/testcorpus"
	"physview/scene"
	"physview/shaders"
)

var warmCost = flag.String("warmcost", "", "time the lamp's first draw in a window-sized view: \"cold\" without the warm-up, \"warm\" after it; \"upload\" times each texture's upload steps instead")

// TestWarmCost prints what the first draw of the lamp costs on this GL,
// cold or after Warm, step by step, or what each upload step costs: go
// test ./render -run WarmCost -warmcost warm -v (one mode a process:
// llvmpipe keeps the variants of a program for the process's life).
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
	Preload(d) // as the window's load does, off the frame
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
		// The distinct programs the materials use, each compiled and
		// linked once more here (the draws below use the renderer's).
		seen := map[shaderFeatures]bool{}
		for _, m := range r.materials {
			f := m.features()
			if seen[f] {
				continue
			}
			seen[f] = true
			c := cpuTime()
			s := time.Now()
			p, err := newProgram(shaders.MeshVert, meshSource(f))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("program %v: compile and link %v wall, %v CPU\n", f, time.Since(s).Round(time.Millisecond), (cpuTime() - c).Round(time.Millisecond))
			gl.DeleteProgram(p.id)
		}
		for r.WarmLeft(cam, w, h, opt) > 0 {
			c := cpuTime()
			s := time.Now()
			left, _ := r.Warm(cam, w, h, 0, opt, time.Nanosecond)
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

// warmFile is texturedFile(3) with the third material transmissive.
func warmFile() string {
	f := texturedFile(3)
	f = strings.Replace(f, `{"asset":{"version":"2.0"},`, `{"asset":{"version":"2.0"},"extensionsUsed":["KHR_materials_transmission"],`, 1)
	return strings.Replace(f, `"normalTexture":{"index":2}}`, `"normalTexture":{"index":2},"extensions":{"KHR_materials_transmission":{"transmissionFactor":1}}}`, 1)
}

// TestWarm: Warm waits for a material's textures, then warms one material
// a call when the budget is spent (the transmissive one after two steps
// of their own: glGenerateMipmap's code and the copy of the view), leaves
// the default framebuffer bound and the scissor test off, and changes no
// pixel of the picture drawn after it; the first real draw ends it.
func TestWarm(t *testing.T) {
	headless(t)
	const w, h = 160, 120
	image := func(warm bool) []byte {
		d, err := scene.Decode([]byte(warmFile()), nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := New()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Delete()
		r.SetDocument(d)
		cam := NewCamera(r.Bounds())
		opt := DefaultOptions()
		if warm {
			if n := r.WarmLeft(cam, w, h, opt); n != 3 {
				t.Errorf("WarmLeft %d before the textures, want 3", n)
			}
			if left, ready := r.Warm(cam, w, h, 0, opt, time.Second); left != 3 || ready != 0 || len(r.warm.done) != 0 {
				t.Errorf("Warm before the textures: %d left, %d ready, %d warmed; want 3, 0 and 0", left, ready, len(r.warm.done))
			}
			r.WaitTextures()
			var lefts, readies []int
			for i := 0; i < 10 && r.WarmLeft(cam, w, h, opt) > 0; i++ {
				left, ready := r.Warm(cam, w, h, 0, opt, time.Nanosecond)
				lefts, readies = append(lefts, left), append(readies, ready)
			}
			if want := []int{2, 1, 1, 1, 1, 0}; !slices.Equal(lefts, want) || !slices.Equal(readies, want) {
				t.Errorf("materials left after each Warm: %v, ready %v; want %v for both", lefts, readies, want)
			}
			var fb int32
			gl.GetIntegerv(gl.FRAMEBUFFER_BINDING, &fb)
			if fb != 0 || gl.IsEnabled(gl.SCISSOR_TEST) {
				t.Errorf("after Warm: framebuffer %d bound, scissor test %v; want 0 and off", fb, gl.IsEnabled(gl.SCISSOR_TEST))
			}
		} else {
			r.WaitTextures()
		}
		img, err := r.RenderImage(cam, w, h, opt)
		if err != nil {
			t.Fatal(err)
		}
		if n := r.WarmLeft(cam, w, h, opt); n != 0 {
			t.Errorf("WarmLeft %d after a draw, want 0", n)
		}
		return img.Pix
	}
	cold, warm := image(false), image(true)
	if !bytes.Equal(cold, warm) {
		t.Errorf("the picture drawn after the warm-up differs from the one drawn without it")
	}
	// With time enough, every step in one call, each into the warm-up's
	// framebuffer (headless, the default one would fail the draws).
	d, err := scene.Decode([]byte(warmFile()), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := showing(t, d)
	defer r.Delete()
	gl.GetError()
	cam := NewCamera(r.Bounds())
	if left, ready := r.Warm(cam, w, h, 0, DefaultOptions(), time.Minute); left != 0 || ready != 0 {
		t.Errorf("Warm with a minute's budget left %d (%d ready), want 0", left, ready)
	}
	if e := gl.GetError(); e != gl.NO_ERROR {
		t.Errorf("GL error 0x%x while warming", e)
	}
	if bytes.Count(cold, []byte{255, 255, 255, 255}) == len(cold)/4 {
		t.Errorf("the picture is blank")
	}
}

// TestUploadStepEstimate: Poll takes a step only when its estimated cost
// fits in what is left of the budget (one step a Poll when every step is
// estimated too long, all of them in one Poll when none is).
func TestUploadStepEstimate(t *testing.T) {
	headless(t)
	for _, c := range []struct {
		name      string
		perByte   float64 // ns, both estimates
		wantPolls int
	}{
		// 2 images x 2 textures x (storage + 7 levels).
		{"every step too long", 1e9, 32},
		{"every step fits", 1e-6, 1},
	} {
		func() { // not t.Run: the GL context is current on this thread
			d, err := scene.Decode([]byte(texturedFile(2)), nil)
			if err != nil {
				t.Fatal(err)
			}
			r, err := New()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Delete()
			r.SetDocument(d)
			r.takeArrived(true) // every image decoded
			r.cost = uploadCost{c.perByte, c.perByte}
			r.UploadBudget = time.Second
			polls := 0
			for r.Uploading() && polls < 100 {
				r.Poll()
				polls++
			}
			if polls != c.wantPolls || r.Uploads() != 4 {
				t.Errorf("%s: %d polls made %d textures, want %d polls and 4", c.name, polls, r.Uploads(), c.wantPolls)
			}
		}()
	}
}

// TestDrawAhead: the first picture drawn a part a call (the opaque
// primitives in aheadBands bands, the background and the transmission
// copy, the rest in as many bands) is byte-identical to one drawn at
// once, and becomes the view's cached picture on the last call (one part
// a call when the budget is spent).
func TestDrawAhead(t *testing.T) {
	headless(t)
	const w, h = 160, 120
	d, err := scene.Decode([]byte(warmFile()), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := showing(t, d)
	defer r.Delete()
	r.waitEnv = true // the lighting computed, not its stand-in, in both
	cam := NewCamera(r.Bounds())
	opt := DefaultOptions()
	opt.Grid, opt.BackgroundMode = true, BackgroundEnvironment
	read := func(fb uint32) []byte { return readFramebuffer(fb, w, h) }
	var ahead, once View
	defer ahead.Delete()
	defer once.Delete()
	var calls []bool
	maxCalls := 2*((h+minBandRows-1)/minBandRows) + 1 // bands of minBandRows, and the background
	for i := 0; i < 2*maxCalls && !ahead.valid; i++ {
		calls = append(calls, r.DrawAhead(&ahead, cam, w, h, opt, time.Nanosecond))
	}
	// With no time at all one band a call: the first of each part an
	// aheadBands'th of the weight, then minBandRows rows.
	wantCalls := make([]bool, len(calls))
	wantCalls[len(wantCalls)-1] = true
	if !slices.Equal(calls, wantCalls) || len(calls) < 3 || len(calls) > maxCalls {
		t.Fatalf("DrawAhead reported %v, want false but in the last of 3 to %d calls", calls, maxCalls)
	}
	if gl.IsEnabled(gl.SCISSOR_TEST) {
		t.Errorf("the scissor test is left on")
	}
	once.Present(r, cam, w, h, opt)
	got, want := read(ahead.full.fb), read(once.full.fb)
	if !bytes.Equal(got, want) {
		n := 0
		for i := range got {
			if got[i] != want[i] {
				n++
			}
		}
		t.Errorf("the picture drawn in parts differs from the one drawn at once in %d bytes of %d", n, len(got))
	}
	if r.warm.target.fb != 0 {
		t.Errorf("the framebuffer drawn into is kept after the drawing")
	}
	// With time enough, all of it in one call.
	var all View
	defer all.Delete()
	if !r.DrawAhead(&all, cam, w, h, opt, time.Minute) || !bytes.Equal(read(all.full.fb), want) {
		t.Errorf("a drawing ahead with a minute's budget is not done in one call, or differs")
	}
}

// TestDrawAheadPoseChange: nodes that move between two parts of a
// drawing ahead (an edit, a pose) start it over, so that the picture is
// not half the old scene and half the new.
func TestDrawAheadPoseChange(t *testing.T) {
	headless(t)
	const w, h = 160, 120
	d, err := scene.Decode([]byte(warmFile()), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := showing(t, d)
	defer r.Delete()
	r.waitEnv = true
	cam := NewCamera(r.Bounds())
	opt := DefaultOptions()
	read := func(fb uint32) []byte { return readFramebuffer(fb, w, h) }
	var ahead, once View
	defer ahead.Delete()
	defer once.Delete()
	if r.DrawAhead(&ahead, cam, w, h, opt, time.Nanosecond) {
		t.Fatal("the first band drew the whole picture")
	}
	world := d.WorldMatrices()
	for i := range world {
		world[i] = mgl64.Translate3D(0.4, 0.2, 0).Mul4(world[i])
	}
	r.SetPoses(world)
	for i := 0; i < 100 && !r.DrawAhead(&ahead, cam, w, h, opt, time.Nanosecond); i++ {
	}
	once.Present(r, cam, w, h, opt)
	if !bytes.Equal(read(ahead.full.fb), read(once.full.fb)) {
		t.Error("the picture drawn ahead across a move differs from one drawn at once after it")
	}
}

// TestBandEnd: a band of the drawing ahead is as many rows as what is left
// of the budget pays for at the measured cost per weight, at least
// minBandRows, and before a band was measured an aheadBands'th of the
// part's weight; rows that weigh more make it shorter.
func TestBandEnd(t *testing.T) {
	const h = 240
	uniform := make([]float64, h+1) // weight 10 a row
	heavy := make([]float64, h+1)   // rows 120 and up weigh 100
	bare := make([]float64, h+1)    // no primitive: emptyRow a row
	for y := 1; y <= h; y++ {
		uniform[y] = float64(10 * y)
		heavy[y] = heavy[y-1] + 10
		if y > 120 {
			heavy[y] += 90
		}
		bare[y] = float64(emptyRow * y)
	}
	ms := float64(time.Millisecond) / 10 // a row of weight 10 costs 1 ms
	cases := []struct {
		name      string
		weights   []float64
		perWeight float64
		y0        int
		left      time.Duration
		want      int
	}{
		{"not measured yet", uniform, 0, 0, time.Second, 20},
		{"not measured, heavy rows", heavy, 0, 120, time.Second, 131},
		{"ten rows' worth", uniform, ms, 20, 10 * time.Millisecond, 30},
		{"less than the fewest rows", uniform, ms, 20, time.Millisecond, 20 + minBandRows},
		{"an even split at most", uniform, ms, 0, time.Second, 20},
		{"the part's end", uniform, ms, 235, time.Second, h},
		{"heavy rows cost more", heavy, ms, 110, 30 * time.Millisecond, 122},
		{"nothing drawn: one band", bare, 0, 0, time.Nanosecond, h},
	}
	for _, c := range cases {
		a := aheadState{}
		a.weights[0], a.perWeight[0] = c.weights, c.perWeight
		if got := a.bandEnd(0, c.y0, h, c.left); got != c.want {
			t.Errorf("%s: band from row %d ends at %d, want %d", c.name, c.y0, got, c.want)
		}
	}
	// The measured cost: a band no primitive covers gives the fixed part,
	// a covered one the cost per weight beyond it; a costlier band raises
	// the estimate at once, a cheaper one lowers it a quarter of the way.
	a := aheadState{}
	a.weights[0], a.weights[1] = uniform, bare
	a.measured(0, 0, 10, 20*time.Millisecond)
	a.measured(0, 10, 20, 10*time.Millisecond)
	if want := (3*2*ms + ms) / 4; math.Abs(a.perWeight[0]-want) > 1 {
		t.Errorf("cost per weight %v ns, want %v", a.perWeight[0], want)
	}
	a.measured(1, 0, 10, 3*time.Millisecond)
	if a.fixed[1] != 3*time.Millisecond || a.perWeight[1] != 0 {
		t.Errorf("an empty band gave a fixed part of %v and %v ns per weight, want 3ms and 0", a.fixed[1], a.perWeight[1])
	}
	if d, ok := a.estimate(1, 0, 10); !ok || d != 3*time.Millisecond {
		t.Errorf("estimate of an empty band %v, %v, want the fixed part, 3ms", d, ok)
	}
	a.perWeight[1] = 10 * ms
	if d, ok := a.estimate(1, 0, 10); !ok || d != 13*time.Millisecond {
		t.Errorf("estimate %v, %v, want 13ms (3 fixed, 10 rows of 1 ms)", d, ok)
	}
	if _, ok := (&aheadState{weights: [2][]float64{uniform}}).estimate(0, 0, 10); ok {
		t.Errorf("an estimate before any band was measured")
	}
}

// TestRefresh: a view with a picture is drawn anew ahead, a band a call
// with no time, and ends byte-identical to a redraw at once; a view with
// no picture of that size is left to Present; a texture replaced between
// two parts starts the drawing over.
func TestRefresh(t *testing.T) {
	headless(t)
	const w, h = 160, 120
	d, err := scene.Decode([]byte(warmFile()), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := showing(t, d)
	defer r.Delete()
	r.waitEnv = true
	cam := NewCamera(r.Bounds())
	opt := DefaultOptions()
	var v, once View
	defer v.Delete()
	defer once.Delete()
	if _, ok := r.Refresh(&v, cam, w, h, opt, time.Minute); ok {
		t.Fatal("Refresh took a view with no picture")
	}
	v.Present(r, cam, w, h, opt)
	if _, ok := r.Refresh(&v, cam, w, h+1, opt, time.Minute); ok {
		t.Error("Refresh took a view whose picture is of another size")
	}
	calls, restarted := 0, false
	for done := false; !done; calls++ {
		var ok bool
		if done, ok = r.Refresh(&v, cam, w, h, opt, time.Nanosecond); !ok {
			t.Fatal("Refresh gave up on a view with a picture")
		}
		if calls == 2 && !restarted {
			restarted = true
			r.texChanges++ // a whole image replaced its preview
		}
		if calls > 100 {
			t.Fatal("no new picture after 100 calls")
		}
	}
	if calls < 6 {
		t.Errorf("the refresh took %d calls, want more than the 3 before the texture changed and 3 parts after", calls)
	}
	once.Present(r, cam, w, h, opt)
	read := func(fb uint32) []byte { return readFramebuffer(fb, w, h) }
	if !bytes.Equal(read(v.full.fb), read(once.full.fb)) {
		t.Error("the refreshed picture differs from one drawn at once")
	}
}

// readFramebuffer returns the w x h RGBA pixels of framebuffer fb, rows
// bottom first, and leaves the default framebuffer bound.
func readFramebuffer(fb uint32, w, h int) []byte {
	pix := make([]byte, w*h*4)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, fb)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(pix))
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return pix
}
