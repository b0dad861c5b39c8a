package render

import (
	"fmt"
	"math"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Warming the shaders of a new document before it is shown.
//
// llvmpipe generates the machine code of a shader when it is first drawn
// with a given state: the program, the formats, filters and sizes of the
// textures bound to its samplers, the framebuffer's formats, blending and
// depth (a "variant"): the lamp's first draw took 245-310 ms of CPU in
// one frame, the next 115-160. Warm draws each material of the document
// once, through the same code as Draw and with the same textures bound,
// into a framebuffer of the view's size and formats with every pixel but
// one scissored away, a few materials a frame, while the window still
// shows the old picture: the real first draw then finds the variants
// made. DrawAhead then draws that first picture a part a frame.

// warmState is the progress of the warm-up of one document.
type warmState struct {
	// done lists the materials drawn once (by material index, -1 the
	// default material; the variant they were drawn for is part of the
	// key).
	done map[warmKey]bool
	// only, set during a warm-up draw, restricts drawMeshes to the items
	// of these materials and leaves out the background.
	only map[int]bool
	// target is the framebuffer warmed and drawn ahead into, like View's.
	target warmTarget
	// part is the part of the drawing ahead under way (0: a whole Draw),
	// ahead the next part to draw and aheadKey what for.
	part, ahead int
	aheadKey    aheadKey
	restarts    int // times the camera moved during a drawing ahead
	// drawCost estimates what drawing one material to warm it costs,
	// [1] for transmissive ones (their shaders are the longest to make),
	// 0 before one was measured (Warm).
	drawCost [2]time.Duration
	// copied is set once the transmission pass's copy of the view was
	// made at the view's size.
	copied bool
	// shown is set once the document was drawn for real (Draw): every
	// variant it needs is made by then.
	shown bool
}

type warmKey struct{ material, variant int }

// warmTarget is a framebuffer of the view's formats and samples.
type warmTarget struct {
	viewTarget
	samples int
}

// resetWarm starts the warm-up over for a new document.
func (r *Renderer) resetWarm() {
	r.warm.target.delete()
	r.warm = warmState{done: map[warmKey]bool{}}
}

// WarmLeft reports how many of the materials the view draws with opt
// (the items not culled for cam) are not warmed yet; 0 once the document
// was drawn.
func (r *Renderer) WarmLeft(cam Camera, width, height int, opt Options) int {
	if r.doc == nil || r.warm.shown || r.warm.done == nil {
		return 0
	}
	n := 0
	for _, m := range r.warmOrder(cam, width, height, opt) {
		if !r.warm.done[warmKey{m, opt.Variant}] {
			n++
		}
	}
	return n
}

// warmOrder lists the materials of the items Draw would draw, opaque ones
// first, each once.
func (r *Renderer) warmOrder(cam Camera, width, height int, opt Options) []int {
	if width <= 0 || height <= 0 {
		return nil
	}
	vp := mat32(cam.Projection(float64(width) / float64(height)).Mul4(cam.View()))
	var props map[string][]float64
	if r.pose != nil {
		props = r.pose.Props
	}
	hidden := r.doc.HiddenNodes(props)
	seen := map[int]bool{}
	var order [3][]int
	for i := range r.items {
		it := &r.items[i]
		if hidden != nil && it.node >= 0 && it.node < len(hidden) && hidden[it.node] {
			continue
		}
		if offScreen(it, vp) {
			continue
		}
		idx := r.warmIndex(it.prim, opt.Variant)
		if seen[idx] {
			continue
		}
		seen[idx] = true
		m := r.materialOf(it.prim, opt.Variant)
		pass := 0
		switch {
		case m.alphaMode == 2:
			pass = 2
		case m.transmission > 0:
			pass = 1
		}
		order[pass] = append(order[pass], idx)
	}
	return append(append(order[0], order[1]...), order[2]...)
}

// texturesIn reports whether every texture material idx samples is
// uploaded (or failed, and drawn with its stand-in for good): drawn
// before, it would be warmed with the wrong textures.
func (r *Renderer) texturesIn(idx int) bool {
	if idx < 0 || idx >= len(r.materials) {
		return true
	}
	for slot, ref := range r.materials[idx].tex {
		if ref.texture >= 0 && r.texture(ref.texture, slotSRGB(slot), 0) == 0 {
			return false
		}
	}
	return true
}

// Warm draws materials of the document not warmed yet whose textures are
// in, one after the other while budget lasts (at least one step when any
// is ready; another only when one as long as the last fits, a material's
// draw only when its kind's measured cost does), for a view of width x height pixels with samples
// multisampling drawn with cam and opt. It returns how many materials
// are left to warm and how many of those could be warmed now (their
// textures are in). The framebuffer binding, viewport and scissor are
// left as imgui expects them (the default framebuffer bound, the
// scissor test off).
func (r *Renderer) Warm(cam Camera, width, height, samples int, opt Options, budget time.Duration) (left, ready int) {
	if r.doc == nil || r.warm.shown || r.warm.done == nil || width <= 0 || height <= 0 {
		return 0, 0
	}
	start := time.Now()
	t := &r.warm.target
	var bound, worked bool
	var last time.Duration // what the last step took
	for _, m := range r.warmOrder(cam, width, height, opt) {
		k := warmKey{m, opt.Variant}
		if r.warm.done[k] {
			continue
		}
		if !r.texturesIn(m) {
			left++
			continue
		}
		if !bound {
			if t.fb == 0 || t.w != width || t.h != height || t.samples != samples {
				t.resize(width, height, samples)
				t.samples = samples
			}
			gl.BindFramebuffer(gl.FRAMEBUFFER, t.fb)
			gl.Enable(gl.SCISSOR_TEST)
			gl.Scissor(0, 0, 1, 1)
			bound = true
		}
		// A transmissive material needs three steps of its own first
		// (each 2-40 ms on llvmpipe): the code
		// of glGenerateMipmap, then the copy of the view the pass reads,
		// made at the view's size with its mipmaps, then filled once.
		steps := []func() bool{
			func() bool {
				if !r.materialTransmits(m) || !r.WarmMipmaps() {
					return false
				}
				gl.BindFramebuffer(gl.FRAMEBUFFER, t.fb)
				return true
			},
			func() bool {
				if !r.materialTransmits(m) || (r.trans.fb != 0 && r.trans.w == width && r.trans.h == height) {
					return false
				}
				r.trans.resize(width, height)
				r.warm.copied = false
				return true
			},
			func() bool {
				if !r.materialTransmits(m) || r.warm.copied {
					return false
				}
				// Unscissored, as Draw and DrawAhead copy: llvmpipe
				// copies an unscissored blit between like formats
				// with memcpy, but makes the code of a shader for a
				// scissored one (0.1-0.2 s of CPU) that no real
				// draw needs.
				gl.Disable(gl.SCISSOR_TEST)
				r.copyView(width, height)
				gl.Enable(gl.SCISSOR_TEST)
				r.warm.copied = true
				return true
			},
			func() bool {
				r.warm.only = map[int]bool{m: true}
				// The copy made above is read: a scissored copy
				// in this Draw would make that shader's code.
				r.warm.part = partOpaque | partBackground | partRest
				r.Draw(cam, width, height, opt)
				r.warm.part = 0
				r.warm.only = nil
				r.warm.done[k] = true
				return true
			},
		}
		tr := 0
		if r.materialTransmits(m) {
			tr = 1
		}
		for si, step := range steps {
			// Another step only when one as long as the last fits, and
			// a material's draw only when one as long as the estimate
			// of its kind does (before any is measured, firstWarmDraw:
			// more than a frame's budget, so in a frame of its own).
			est := last
			if si == len(steps)-1 {
				est = r.warm.drawCost[tr]
				if est == 0 {
					est = firstWarmDraw
				}
			}
			if worked && time.Since(start)+est > budget {
				left++
				ready++
				break
			}
			s := time.Now()
			if step() {
				worked, last = true, time.Since(s)
				if si == len(steps)-1 {
					// A longer draw raises the estimate at once, a
					// shorter one lowers it a quarter of the way.
					if c := &r.warm.drawCost[tr]; last > *c {
						*c = last
					} else {
						*c = (3**c + last) / 4
					}
				}
			}
		}
	}
	if bound {
		gl.Disable(gl.SCISSOR_TEST)
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	}
	return left, ready // the target stays for DrawAhead
}

// firstWarmDraw is what Warm takes a material's draw to cost before one
// of its kind was measured: more than the window gives a frame's uploads
// and warm-up (the lamp's transmissive glass took 15-45 ms on llvmpipe).
const firstWarmDraw = 50 * time.Millisecond

// materialTransmits reports whether material idx is drawn in the
// transmission pass (it reads the copy of the view and its mipmaps).
func (r *Renderer) materialTransmits(idx int) bool {
	return idx >= 0 && idx < len(r.materials) && r.materials[idx].transmission > 0
}

// warmIndex is the material index gp is drawn with under variant v, -1
// for the default material.
func (r *Renderer) warmIndex(gp *gpuPrimitive, v int) int {
	idx := r.materialIndex(gp, v)
	if idx < 0 || idx >= len(r.materials) {
		return -1
	}
	return idx
}

// WarmMipmaps makes llvmpipe generate the code glGenerateMipmap runs (its
// blitter's shaders), once per renderer, on a texture of a few pixels, and
// that of a copy from one view's framebuffer to another: the
// transmission pass builds the mipmaps of its copy of the view on every
// draw, and the first build costs about 0.1 s of code generation, which
// no draw of the document can take apart. The window calls it in an
// idle frame; Warm does it before the first transmissive material. It
// reports whether it did the work (false: done before).
func (r *Renderer) WarmMipmaps() bool {
	if r.mipmapsWarm {
		return false
	}
	r.mipmapsWarm = true
	// The same format, filters and wrap as the transmission target, and
	// sides that are not powers of two, as a window's rarely are
	// (llvmpipe's code depends on it).
	var t transmissionTarget
	t.resize(5, 3)
	t.delete()
	gl.ActiveTexture(gl.TEXTURE0)
	// And the copy of a view into another (View's adopt, after
	// DrawAhead), whose code is llvmpipe's blitter's too.
	var a, b viewTarget
	a.resize(5, 3, 0)
	b.resize(5, 3, 0)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, a.fb)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, b.fb)
	gl.BlitFramebuffer(0, 0, 5, 3, 0, 0, 5, 3, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	a.delete()
	b.delete()
	return true
}

// The parts of a drawing ahead: the opaque primitives (after the clear),
// the background behind them with the copy of both the transmission pass
// reads, and the rest (the transmissive primitives, the blended ones, the
// lines). The first and the last are drawn in aheadBands horizontal bands
// (the scissor test), a band a frame. Drawn in that order into one
// framebuffer they make the same pixels as one Draw: each pixel gets the
// same fragments in the same order.
const (
	partOpaque = 1 << iota
	partBackground
	partCopy
	partRest
	aheadBands = 12
)

// aheadStep is one call's part of a drawing ahead: which parts, in which
// band (-1: the whole view).
type aheadStep struct{ part, band int }

var aheadSteps = func() (s []aheadStep) {
	for b := 0; b < aheadBands; b++ {
		s = append(s, aheadStep{partOpaque, b})
	}
	s = append(s, aheadStep{partBackground | partCopy, -1})
	for b := 0; b < aheadBands; b++ {
		s = append(s, aheadStep{partRest, b})
	}
	return s
}()

// drawing reports whether the draw under way includes part p (every part
// when none is chosen).
func (r *Renderer) drawing(p int) bool { return r.warm.part == 0 || r.warm.part&p != 0 }

// aheadKey is what a drawing ahead is drawn for: a change starts it over.
type aheadKey struct {
	cam           Camera
	width, height int
	opt           Options
	// The lighting drawn with: a stand-in replaced by the computed one
	// between two parts would leave a picture of both.
	env *gpuEnv
	lut uint32
}

// DrawAhead draws the warmed document's first picture for v, a part
// (aheadSteps) at a time while budget lasts (at least one a call), into the warm-up's framebuffer, and when the last
// part is drawn makes it v's cached view, as if v.Present had drawn it:
// on llvmpipe a full draw of the lamp is the longest frame of an open
// (most of it the transmissive glass's pixels), and each part costs a
// share of it in a frame of its own while the old picture stays. It
// reports whether v holds the new picture. The default framebuffer is
// left bound, the scissor test off.
func (r *Renderer) DrawAhead(v *View, cam Camera, width, height int, opt Options, budget time.Duration) (done bool) {
	if r.doc == nil || width <= 0 || height <= 0 {
		return false
	}
	k := aheadKey{cam, width, height, opt, r.envTextures(opt.Environment), r.lutTexture()}
	if r.warm.ahead > 0 && r.warm.aheadKey != k {
		r.warm.ahead = 0 // the camera moved: again from the first part
		r.warm.restarts++
	}
	r.warm.aheadKey = k
	t := &r.warm.target
	if t.fb == 0 || t.w != width || t.h != height || t.samples != v.Samples {
		t.resize(width, height, v.Samples)
		t.samples = v.Samples
		r.warm.ahead = 0
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fb)
	start := time.Now()
	var longest time.Duration // the costliest part of this call
	for r.warm.ahead < len(aheadSteps) {
		s := time.Now()
		if r.warm.restarts >= 3 {
			// The camera keeps moving: all of it now, as Present would.
			r.Draw(cam, width, height, opt)
			r.warm.ahead = len(aheadSteps)
		} else {
			st := aheadSteps[r.warm.ahead]
			if st.band >= 0 {
				y0, y1 := r.aheadBand(cam, width, height, st.band)
				gl.Enable(gl.SCISSOR_TEST)
				gl.Scissor(0, int32(y0), int32(width), int32(y1-y0))
			}
			r.warm.part = st.part
			r.Draw(cam, width, height, opt)
			r.warm.part = 0
			gl.Disable(gl.SCISSOR_TEST)
			r.warm.ahead++
		}
		// What the part cost, the rasteriser's work included: another
		// as long as the costliest so far must fit in what is left (the
		// bands over the transmissive glass cost many times the others).
		gl.Finish()
		longest = max(longest, time.Since(s))
		if time.Since(start)+longest > budget {
			break
		}
	}
	if r.warm.ahead < len(aheadSteps) {
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		return false
	}
	r.warm.ahead = 0
	v.adopt(&t.viewTarget, width, height)
	t.delete()
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return true
}

// aheadBand returns the rows [y0, y1) of band b of a view of width x
// height: the rows the scene's bounds cover are split evenly (the first
// and the last band reach the view's edges), so that the bands cost about
// the same.
func (r *Renderer) aheadBand(cam Camera, width, height, b int) (y0, y1 int) {
	lo, hi := 0.0, float64(height)
	vp := cam.Projection(float64(width) / float64(height)).Mul4(cam.View())
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for i := 0; i < 8; i++ {
		c := r.min
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				c[k] = r.max[k]
			}
		}
		p := vp.Mul4x1(c.Vec4(1))
		if p[3] <= 1e-9 {
			ylo, yhi = lo, hi // a corner behind the eye: split the whole view
			break
		}
		y := (p[1]/p[3]*0.5 + 0.5) * float64(height)
		ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
	}
	ylo, yhi = math.Max(lo, ylo), math.Min(hi, yhi)
	if yhi-ylo < float64(aheadBands) {
		ylo, yhi = lo, hi
	}
	split := func(k int) int {
		switch k {
		case 0:
			return 0
		case aheadBands:
			return height
		}
		return int(ylo + (yhi-ylo)*float64(k)/aheadBands)
	}
	return split(b), split(b + 1)
}

// adopt makes the drawing in t (width x height, v's samples) v's cached
// view.
func (v *View) adopt(t *viewTarget, width, height int) {
	if v.full.fb == 0 || v.full.w != width || v.full.h != height {
		v.full.resize(width, height, v.Samples)
	}
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, t.fb)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, v.full.fb)
	w, h := int32(width), int32(height)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	v.valid, v.reduced = true, false
	v.shown = fmt.Sprintf("%dx%d", width, height)
}
