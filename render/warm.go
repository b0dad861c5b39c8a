package render

import (
	"fmt"
	"math"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
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
	// part is the part of the Draw under way (0: all of it), aheadState
	// the progress of the drawing ahead and aheadKey what for.
	part int
	aheadState
	aheadKey aheadKey
	restarts int // times the camera moved during a drawing ahead
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
				// With the rasteriser's work (the copy of the view and
				// its mipmaps, the draw), which the swap would wait for
				// otherwise, outside the estimate.
				gl.Finish()
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
// lines). The first and the last are drawn in horizontal bands (the
// scissor test), each as many rows as the frame's budget pays for (see
// DrawAhead). Drawn in that order into one framebuffer they make the same
// pixels as one Draw: each pixel gets the same fragments in the same
// order.
const (
	partOpaque = 1 << iota
	partBackground
	partCopy
	partRest
	// aheadBands is how many bands the rows the scene covers are split
	// into before a band's cost was measured.
	aheadBands = 12
	// minBandRows is the fewest rows a band has (but the last of a
	// part): each band draws every primitive again, whatever its rows.
	minBandRows = 8
)

// aheadParts are the parts in order; banded ones are drawn a band at a
// time.
var aheadParts = [...]struct {
	part   int
	banded bool
}{{partOpaque, true}, {partBackground | partCopy, false}, {partRest, true}}

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
	// The textures drawn with: one made or replaced between two parts
	// (a whole image for its preview) starts the drawing over.
	uploads, texChanges int
	// The nodes drawn: an edit or a pose that moves them between two
	// parts starts it over too.
	moves int
}

// aheadState is the progress of a drawing ahead and what its bands cost.
type aheadState struct {
	// at indexes aheadParts, row is the next row of a banded part;
	// started says a part was drawn (a change then starts over).
	at, row int
	started bool
	// weights[i] holds, for the i'th banded part, by row, the sum of the
	// weights of the rows below (rowWeights): a band of rows [y0, y1) is
	// expected to cost fixed[i] + perWeight[i]*(weights[y1]-weights[y0])
	// (each band draws every primitive again, whatever its rows, then
	// shades the pixels its rows cover), both measured, 0 before.
	weights   [2][]float64
	perWeight [2]float64
	fixed     [2]time.Duration
	// whole is what the unbanded part cost when measured (0 before).
	whole time.Duration
}

// DrawAhead draws the warmed document's first picture for v, a part at a
// time while budget lasts (at least one band a call), into the warm-up's
// framebuffer, and when the last part is drawn makes it v's cached view,
// as if v.Present had drawn it: on llvmpipe a full draw of the lamp is the
// longest frame of an open (most of it the transmissive glass's pixels),
// and each band costs a share of it in a frame of its own while the old
// picture stays. A band is as many rows as what is left of budget pays
// for, each row weighed by the screen width of the primitives that cover
// it (the lamp's glass rows cost many times the others) at the cost per
// weight the bands before measured (bandEnd); another band follows in the
// same call only when its estimate fits in what is left, the background
// only when what it took last does. It reports whether v holds the new picture. The
// default framebuffer is left bound, the scissor test off.
func (r *Renderer) DrawAhead(v *View, cam Camera, width, height int, opt Options, budget time.Duration) (done bool) {
	if r.doc == nil || width <= 0 || height <= 0 {
		return false
	}
	a := &r.warm.aheadState
	k := aheadKey{cam, width, height, opt, r.envTextures(opt.Environment), r.lutTexture(), r.uploads, r.texChanges, r.moves}
	if a.started && r.warm.aheadKey != k {
		// Again from the first part; three times for the camera (it
		// keeps moving) and it is drawn at once.
		a.at, a.row, a.started = 0, 0, false
		if old := r.warm.aheadKey; old.cam != k.cam || old.width != k.width || old.height != k.height || old.opt != k.opt || old.moves != k.moves {
			r.warm.restarts++
		}
	}
	r.warm.aheadKey = k
	t := &r.warm.target
	if t.fb == 0 || t.w != width || t.h != height || t.samples != v.Samples {
		t.resize(width, height, v.Samples)
		t.samples = v.Samples
		a.at, a.row, a.started = 0, 0, false
	}
	if !a.started {
		a.weights[0], a.weights[1] = r.rowWeights(cam, width, height, opt)
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fb)
	start := time.Now()
	worked := false
	for a.at < len(aheadParts) {
		if r.warm.restarts >= 3 {
			// The camera keeps moving: all of it now, as Present would.
			r.Draw(cam, width, height, opt)
			a.at = len(aheadParts)
			break
		}
		p := aheadParts[a.at]
		left := budget - time.Since(start)
		y0, y1 := 0, height
		bi := 0
		if a.at > 0 {
			bi = 1
		}
		if p.banded {
			y0 = a.row
			y1 = a.bandEnd(bi, y0, height, left)
			if d, ok := a.estimate(bi, y0, y1); worked && (!ok || d > left) {
				break // before the cost was measured, in a frame of its own
			}
		} else if worked && (a.whole == 0 || a.whole > left) {
			break // in a frame of its own before it was measured
		}
		s := time.Now()
		if p.banded {
			gl.Enable(gl.SCISSOR_TEST)
			gl.Scissor(0, int32(y0), int32(width), int32(y1-y0))
		}
		r.warm.part = p.part
		r.Draw(cam, width, height, opt)
		r.warm.part = 0
		gl.Disable(gl.SCISSOR_TEST)
		// What the part cost, the rasteriser's work included.
		gl.Finish()
		d := time.Since(s)
		a.started, worked = true, true
		if p.banded {
			a.measured(bi, y0, y1, d)
			r.noteAhead(p.part, y0, y1, d)
			if a.row = y1; a.row >= height {
				a.at, a.row = a.at+1, 0
			}
		} else {
			a.whole = max(a.whole, d)
			r.noteAhead(p.part, 0, height, d)
			a.at++
		}
	}
	if a.at < len(aheadParts) {
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		return false
	}
	a.at, a.row, a.started = 0, 0, false
	// The first textured picture is drawn: the whole images may decode
	// and go up now (Poll), not while its parts took the frames.
	r.drawnTextured = r.drawnTextured || len(r.decoded) == r.imgCount
	v.adopt(&t.viewTarget, width, height)
	t.delete()
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return true
}

// Refresh draws v's picture anew ahead, a part a call (DrawAhead), while
// v keeps showing the one it has: for a change that need not show at once
// (the whole textures replacing the reduced ones, the computed lighting),
// whose whole redraw would be one long frame (the lamp's: 40-60 ms on
// llvmpipe). It reports whether v holds the new picture, and ok false
// when v has no picture of this size to keep (the caller draws it whole).
func (r *Renderer) Refresh(v *View, cam Camera, width, height int, opt Options, budget time.Duration) (done, ok bool) {
	if !v.valid || v.reduced || v.full.fb == 0 || v.full.w != width || v.full.h != height {
		return false, false
	}
	return r.DrawAhead(v, cam, width, height, opt, budget), true
}

// estimate is what a band of rows [y0, y1) of banded part i is expected
// to cost; ok is false before the cost per weight was measured.
func (a *aheadState) estimate(i, y0, y1 int) (d time.Duration, ok bool) {
	w := a.weights[i]
	switch {
	case len(w) <= y1:
		return 0, false
	case a.perWeight[i] > 0:
		return a.fixed[i] + time.Duration(a.perWeight[i]*(w[y1]-w[y0])), true
	case a.fixed[i] > 0 && empty(w, y0, y1):
		return a.fixed[i], true
	}
	return 0, false
}

// empty reports whether no primitive covers rows [y0, y1) of weights w.
func empty(w []float64, y0, y1 int) bool { return w[y1]-w[y0] <= 2*emptyRow*float64(y1-y0) }

// bandEnd returns where the band of banded part i that starts at row y0
// ends: an aheadBands'th of the part's weight (its rows that primitives
// cover), at least minBandRows; once the cost per weight was measured,
// fewer rows when left does not pay for that many. Rows no primitive
// covers up to the part's end are one band.
func (a *aheadState) bandEnd(i, y0, height int, left time.Duration) int {
	w := a.weights[i]
	lo := min(height, y0+minBandRows)
	if len(w) != height+1 {
		return min(height, y0+max(minBandRows, height/aheadBands))
	}
	if empty(w, y0, height) {
		return height // nothing to draw but the clear and the lines
	}
	y := lo
	if a.perWeight[i] == 0 {
		for y < height && w[y]-w[y0] < w[height]/aheadBands {
			y++
		}
		return y
	}
	// Not more than an even split's weight either: the cost of a row
	// varies many times over under primitives of like widths (the lamp's
	// glass), and the estimate learns it a band late.
	for y < height && w[y+1]-w[y0] <= w[height]/aheadBands {
		if d, _ := a.estimate(i, y0, y+1); d > left {
			break
		}
		y++
	}
	return y
}

// measured takes in that a band of rows [y0, y1) of banded part i took
// d: a band no primitive covers measures the fixed part, another the cost
// per weight beyond it. A costlier band raises the estimate at once, a
// cheaper one lowers it a quarter of the way.
func (a *aheadState) measured(i, y0, y1 int, d time.Duration) {
	w := a.weights[i]
	if len(w) <= y1 || y1 <= y0 {
		return
	}
	follow := func(p *float64, x float64) {
		if x > *p {
			*p = x
		} else {
			*p = (3**p + x) / 4
		}
	}
	weight := w[y1] - w[y0]
	if empty(w, y0, y1) {
		f := float64(a.fixed[i])
		follow(&f, float64(d))
		a.fixed[i] = time.Duration(f)
		return
	}
	follow(&a.perWeight[i], float64(max(d-a.fixed[i], d/2))/weight)
}

// emptyRow is the weight of a row no primitive covers (its clear, the
// lines): next to nothing beside a primitive's width in pixels.
const emptyRow = 1

// rowWeights returns, for the opaque part and for the rest, the running
// sums by row (len height+1) of what each row is expected to cost:
// emptyRow plus, for each primitive of the part, its screen width on the
// rows its bounding box covers.
func (r *Renderer) rowWeights(cam Camera, width, height int, opt Options) (opaque, rest []float64) {
	vp := mat32(cam.Projection(float64(width) / float64(height)).Mul4(cam.View()))
	var row [2][]float64
	for i := range row {
		row[i] = make([]float64, height+1)
	}
	base := float64(emptyRow)
	for i := range r.items {
		it := &r.items[i]
		pi := 0
		if it.prim != nil {
			if m := r.materialOf(it.prim, opt.Variant); m.alphaMode == 2 || m.transmission > 0 {
				pi = 1
			}
		}
		x0, x1, y0, y1 := 0.0, float64(width), 0, height
		if it.dyn == nil && it.prim != nil && len(it.prim.corners) > 0 {
			mvp := vp.Mul4(mat32(it.model))
			xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
			behind := false
			for _, c := range it.prim.corners {
				p := mvp.Mul4x1(mgl32.Vec4{float32(c[0]), float32(c[1]), float32(c[2]), 1})
				if p[3] <= 1e-6 {
					behind = true // the whole view
					break
				}
				x, y := float64(p[0]/p[3]), float64(p[1]/p[3])
				xlo, xhi, ylo, yhi = math.Min(xlo, x), math.Max(xhi, x), math.Min(ylo, y), math.Max(yhi, y)
			}
			if !behind {
				px := func(v float64, n int) float64 { return math.Max(0, math.Min(float64(n), (v*0.5+0.5)*float64(n))) }
				x0, x1 = px(xlo, width), px(xhi, width)
				y0, y1 = int(math.Floor(px(ylo, height))), int(math.Ceil(px(yhi, height)))
			}
		}
		if x1 <= x0 || y1 <= y0 {
			continue
		}
		row[pi][y0] += x1 - x0
		row[pi][y1] -= x1 - x0
	}
	for i := range row {
		sum, acc := make([]float64, height+1), 0.0
		for y := 0; y < height; y++ {
			acc += row[i][y]
			sum[y+1] = sum[y] + base + acc
		}
		row[i] = sum
	}
	return row[0], row[1]
}

// noteAhead records a part of a drawing ahead for the window's frame
// lines (NoteSteps).
func (r *Renderer) noteAhead(part, y0, y1 int, d time.Duration) {
	if !r.NoteSteps {
		return
	}
	name := "opaque"
	switch {
	case part&partBackground != 0:
		name = "background"
	case part&partRest != 0:
		name = "rest"
	}
	r.Notes = append(r.Notes, fmt.Sprintf("ahead %s rows %d-%d %.1f ms", name, y0, y1, float64(d.Microseconds())/1000))
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
