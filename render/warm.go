package render

import (
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Warming the shaders of a new document before it is shown.
//
// llvmpipe generates the machine code of a shader when it is first drawn
// with a given state: the program, the formats, filters and sizes of the
// textures bound to its samplers, the framebuffer's formats, blending and
// depth (a "variant"). The first draw of the lamp makes about a dozen of
// them, 0.2-0.3 s of CPU in one frame. Warm draws each material of the
// document once, through the same code as Draw and with the same
// textures bound, into a framebuffer of the view's size and formats with
// every pixel scissored away, a few materials a frame, while the window
// still shows the old picture: the real first draw then finds the
// variants made and costs what any other draw does.

// warmState is the progress of the warm-up of one document.
type warmState struct {
	// done lists the materials drawn once (by material index, -1 the
	// default material; the variant they were drawn for is part of the
	// key).
	done map[warmKey]bool
	// only, set during a warm-up draw, restricts drawMeshes to the items
	// of these materials and leaves out the background.
	only map[int]bool
	// target is the framebuffer warmed into, like View's.
	target viewTarget
	// copied is set once the transmission pass's copy of the view was
	// made at the view's size.
	copied bool
	// shown is set once the document was drawn for real (Draw): every
	// variant it needs is made by then.
	shown bool
}

type warmKey struct{ material, variant int }

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
// in, one after the other until budget has passed (at least one when
// any is ready), for a view of width x height pixels with samples
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
	for _, m := range r.warmOrder(cam, width, height, opt) {
		k := warmKey{m, opt.Variant}
		if r.warm.done[k] {
			continue
		}
		if !r.texturesIn(m) {
			left++
			continue
		}
		if worked && time.Since(start) >= budget {
			left++
			ready++
			continue
		}
		if !bound {
			if t.fb == 0 || t.w != width || t.h != height {
				t.resize(width, height, samples)
			}
			gl.BindFramebuffer(gl.FRAMEBUFFER, t.fb)
			gl.Enable(gl.SCISSOR_TEST)
			gl.Scissor(0, 0, 1, 1)
			bound = true
		}
		if r.materialTransmits(m) && r.WarmMipmaps() {
			// A step of its own: the next frame warms the material.
			worked = true
			left++
			ready++
			continue
		}
		if r.materialTransmits(m) && (r.trans.fb == 0 || r.trans.w != width || r.trans.h != height) {
			// The copy of the view the transmission pass reads, made
			// at the view's size with its mipmaps, then filled once:
			// 10-25 ms each on llvmpipe, steps of their own.
			r.trans.resize(width, height)
			r.warm.copied = false
			worked = true
			left++
			ready++
			continue
		}
		if r.materialTransmits(m) && !r.warm.copied {
			r.copyView(width, height)
			r.warm.copied = true
			worked = true
			left++
			ready++
			continue
		}
		r.warm.only = map[int]bool{m: true}
		r.Draw(cam, width, height, opt)
		r.warm.only = nil
		r.warm.done[k] = true
		worked = true
	}
	if bound {
		gl.Disable(gl.SCISSOR_TEST)
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	}
	if left == 0 {
		t.delete()
	}
	return left, ready
}

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
// blitter's shaders), once per renderer, on a texture of a few pixels: the
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
	return true
}
