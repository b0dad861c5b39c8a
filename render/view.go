package render

import (
	"fmt"
	"math"
	"os"
	"sort"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// View caches the rendered 3D view in an offscreen framebuffer,
// so a frame in which nothing changed costs one blit instead of a full
// redraw (which on a software rasteriser would take the CPU from the image
// decoders, and per frame is wasted work anyway).
//
// While the camera moves (the window calls Moving each frame it does) the
// view is drawn at a reduced resolution when a full one would not fit in a
// frame at the window's 30 fps, and scaled up to the window (dynamic
// resolution): on a software rasteriser a frame's cost is mostly its
// pixels. Two frames after the camera stops the view is drawn at full
// resolution again, so what stays on screen is the full picture; images
// (RenderImage) are never reduced.
type View struct {
	// Samples is the multisampling of the cache (0: none). Each sample
	// multiplies the cost of a redraw on a software rasteriser.
	Samples int
	// Budget is how long a redraw of the 3D view may take while the
	// camera moves (0: PHYSVIEW_DYNRES's, else the lesser of
	// DefaultViewBudget and the one Steer set); a redraw that would take
	// longer is drawn with fewer pixels.
	Budget time.Duration
	// steered is the budget the window set from its frames' other work
	// (Steer; 0: none).
	steered time.Duration

	full, low viewTarget
	valid     bool
	// reduced is set while the cache holds a reduced drawing (in low).
	reduced bool
	// moving counts down the frames after the last Moving: the view
	// stays reduced for as long, so that a drag whose mouse events skip
	// a frame does not redraw at full resolution in between.
	moving int
	// fullCost is the time of a full-resolution redraw, lowCost that of
	// a reduced one of lowShare of the pixels (0: none measured yet).
	fullCost, lowCost time.Duration
	lowShare          float64
	// lowRecent keeps the last lowN reduced redraws of lowShare, lowNext
	// the slot the next one takes: the scale follows their high
	// percentile (slowRedraw), so that few of them overrun.
	lowRecent [lowKept]time.Duration
	lowN      int
	lowNext   int
	// shown says how the last frame's view was made and redraw how long
	// that took, for the frame log.
	shown  string
	redraw time.Duration
}

// viewTarget is one framebuffer of the cache: colour and depth.
type viewTarget struct {
	fb, color, depth uint32
	w, h             int
}

const (
	// DefaultViewBudget is the time a redraw may take while the camera
	// moves: the window draws at most 30 frames a second (33 ms each),
	// of which its panel, the copy to the window and the swap take about
	// a third on a software rasteriser.
	DefaultViewBudget = 18 * time.Millisecond
	// minViewScale bounds the reduction: below 0.3 of the width and
	// height the moving picture gets too coarse to aim by (at 0.3 the
	// lamp's beads and glass panes still show while it turns).
	minViewScale = 0.3
	// lowKept is how many reduced redraws slowRedraw looks at.
	lowKept = 8
	// movingFrames is how many frames after the last camera move the
	// view stays reduced; the next one is drawn at full resolution.
	movingFrames = 2
	// scaleSteps quantises the scale, so that the reduced framebuffer is
	// not made anew on every frame as the measured cost jitters.
	scaleSteps = 20
)

// PHYSVIEW_DYNRES=off draws every frame at full resolution (the orbit
// benchmark's comparison); a duration ("5ms") replaces the default
// budget (the window tests force a reduction with a tiny one).
var noDynamicResolution, envBudget = dynresEnv(os.Getenv("PHYSVIEW_DYNRES"))

func dynresEnv(s string) (off bool, budget time.Duration) {
	if s == "off" {
		return true, 0
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return false, d
	}
	return false, 0
}

// Invalidate makes the next Present redraw.
func (v *View) Invalidate() { v.valid = false }

// Moving says the camera moved this frame: the redraws of this frame and
// the next movingFrames may be reduced.
func (v *View) Moving() { v.moving = movingFrames + 1 }

// Settling reports whether the view shown is reduced: the window must
// draw another frame, which brings back the full resolution once the
// camera has stopped.
func (v *View) Settling() bool { return v.reduced }

// Shown says how the view of the last Present was made: "WxH" when it was
// redrawn (the reduced size while moving), "copy" when the cached drawing
// was shown again, "none" before the first.
func (v *View) Shown() string {
	if v.shown == "" {
		return "none"
	}
	return v.shown
}

// Redraw returns how long the last redraw took (the drawing and the
// wait for the rasteriser).
func (v *View) Redraw() time.Duration { return v.redraw }

// Present draws the scene into the cache if it is out of date or the size
// changed, then copies it to the lower-left width x height pixels of the
// default framebuffer. It reports whether it redrew.
func (v *View) Present(r *Renderer, cam Camera, width, height int, opt Options) bool {
	if width <= 0 || height <= 0 {
		return false
	}
	moving := v.moving > 0
	if v.moving > 0 {
		v.moving--
	}
	if v.reduced && !moving {
		v.valid = false // the camera stopped: the full picture
	}
	if v.full.fb == 0 || v.full.w != width || v.full.h != height {
		v.full.resize(width, height, v.Samples)
		v.valid = false
	}
	redrew := false
	v.shown = "copy"
	if !v.valid {
		t := &v.full
		scale := 1.0
		if moving && !noDynamicResolution && v.Samples == 0 { // a multisampled blit cannot scale
			scale = v.scaleFor()
		}
		if scale < 1 {
			lw := max(1, int(math.Round(float64(width)*scale)))
			lh := max(1, int(math.Round(float64(height)*scale)))
			if v.low.fb == 0 || v.low.w != lw || v.low.h != lh {
				v.low.resize(lw, lh, v.Samples)
			}
			t = &v.low
		}
		start := time.Now()
		gl.BindFramebuffer(gl.FRAMEBUFFER, t.fb)
		// A reduced frame may draw the moving levels of detail.
		r.movingLOD = scale < 1
		r.Draw(cam, t.w, t.h, opt)
		r.movingLOD = false
		// Wait for the rasteriser, to know what the redraw cost: the
		// swap would wait for it anyway.
		gl.Finish()
		v.redraw = time.Since(start)
		v.measured(v.redraw, float64(t.w*t.h)/float64(width*height))
		v.reduced = scale < 1
		v.valid, redrew = true, true
		if !v.reduced {
			// The moving levels, built while the window is still.
			r.PrepareMovingLevels()
		}
		v.shown = fmt.Sprintf("%dx%d", t.w, t.h)
	}
	v.blit(width, height)
	return redrew
}

// Show copies the picture last drawn, when there is one of this size,
// without drawing anything.
func (v *View) Show(width, height int) {
	if v.full.fb == 0 || v.full.w != width || v.full.h != height {
		return
	}
	v.shown = "copy"
	v.blit(width, height)
}

// blit copies the cached drawing (the reduced one, scaled up, while it is
// the one shown) to the lower-left width x height pixels of the default
// framebuffer.
func (v *View) blit(width, height int) {
	src, filter := &v.full, uint32(gl.NEAREST)
	if v.reduced {
		src, filter = &v.low, gl.LINEAR
	}
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, src.fb)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, 0)
	gl.BlitFramebuffer(0, 0, int32(src.w), int32(src.h), 0, 0, int32(width), int32(height), gl.COLOR_BUFFER_BIT, filter)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
}

// measured takes in the time d of a redraw of share of the full view's
// pixels (1 at full resolution), smoothed over the last few redraws of
// each kind. A full redraw faster than the average replaces it at once:
// the first redraws of a document include llvmpipe generating its shader
// code, which would otherwise keep the next orbits reduced too far for
// several stops.
func (v *View) measured(d time.Duration, share float64) {
	ema := func(old, x time.Duration) time.Duration {
		if old == 0 {
			return x
		}
		return (old*2 + x) / 3
	}
	if share >= 1 {
		v.fullCost = min(d, ema(v.fullCost, d))
		return
	}
	if v.lowShare != share {
		v.lowCost, v.lowN, v.lowNext = 0, 0, 0 // another size: start its average over
	}
	v.lowCost, v.lowShare = ema(v.lowCost, d), share
	v.lowRecent[v.lowNext] = d
	v.lowNext = (v.lowNext + 1) % lowKept
	v.lowN = min(lowKept, v.lowN+1)
}

// slowRedraw returns what a reduced redraw of lowShare costs for the
// scale: the slowest but one of the last lowKept (about their 90th
// percentile: the frames the user sees late are those of the slow
// redraws, not of the average one); lowCost when none was kept.
func (v *View) slowRedraw() time.Duration {
	if v.lowN == 0 {
		return v.lowCost
	}
	s := append([]time.Duration(nil), v.lowRecent[:v.lowN]...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[max(0, v.lowN-2)]
}

// Steer sets the budget of the redraws while the camera moves from what
// the rest of the window's frame takes (cmd/viewer's frame pacing): it
// counts only below DefaultViewBudget, and not when Budget or
// PHYSVIEW_DYNRES set one.
func (v *View) Steer(budget time.Duration) { v.steered = budget }

// scaleFor returns the linear scale a redraw while moving is drawn at:
// the one at which the estimated cost fits the budget, in steps of
// 1/scaleSteps, between minViewScale and 1. A redraw's cost is taken as
// a part per frame (vertices, set-up) plus a part per pixel, fitted to
// the last full redraw and the slow ones of the last reduced redraws
// (slowRedraw); with only a full one, all of it is taken as per pixel.
func (v *View) scaleFor() float64 {
	budget := v.Budget
	if budget <= 0 {
		budget = envBudget
	}
	if budget <= 0 {
		budget = DefaultViewBudget
		if v.steered > 0 {
			budget = min(budget, v.steered)
		}
	}
	if v.fullCost <= budget {
		return 1
	}
	fixed, perPixel := 0.0, float64(v.fullCost)
	if low := v.slowRedraw(); low > 0 && v.lowShare < 1 {
		b := float64(v.fullCost-low) / (1 - v.lowShare)
		if b > 0 && b < float64(v.fullCost) {
			fixed, perPixel = float64(v.fullCost)-b, b
		}
	}
	share := (float64(budget) - fixed) / perPixel
	if share <= 0 {
		return minViewScale
	}
	s := math.Floor(math.Sqrt(share)*scaleSteps) / scaleSteps
	return math.Max(minViewScale, math.Min(1, s))
}

func (t *viewTarget) resize(width, height, samples int) {
	t.delete()
	t.w, t.h = width, height
	gl.GenFramebuffers(1, &t.fb)
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fb)
	gl.GenRenderbuffers(1, &t.color)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.color)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, int32(samples), gl.RGBA8, int32(width), int32(height))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, t.color)
	gl.GenRenderbuffers(1, &t.depth)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.depth)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, int32(samples), gl.DEPTH_COMPONENT24, int32(width), int32(height))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, t.depth)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
}

func (t *viewTarget) delete() {
	if t.fb != 0 {
		gl.DeleteFramebuffers(1, &t.fb)
		gl.DeleteRenderbuffers(1, &t.color)
		gl.DeleteRenderbuffers(1, &t.depth)
		*t = viewTarget{}
	}
}

// Delete frees the cache's GL objects.
func (v *View) Delete() {
	v.full.delete()
	v.low.delete()
	v.valid, v.reduced = false, false
}

// Finish waits until the GL has carried out every command issued so far
// (on llvmpipe: the rasteriser has drawn them), so that what follows, the
// window's swap, costs only its own work (cmd/viewer's frame pacing).
func Finish() { gl.Finish() }
