package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"
)

// View caches the rendered 3D view in an offscreen framebuffer,
// so a frame in which nothing changed costs one blit instead of a full
// redraw (which on a software rasteriser would take the CPU from the image
// decoders, and per frame is wasted work anyway).
type View struct {
	// Samples is the multisampling of the cache (0: none). Each sample
	// multiplies the cost of a redraw on a software rasteriser.
	Samples int

	fb, color, depth uint32
	w, h             int
	valid            bool
}

// Invalidate makes the next Present redraw.
func (v *View) Invalidate() { v.valid = false }

// Present draws the scene into the cache if it is out of date or the size
// changed, then copies it to the lower-left width x height pixels of the
// default framebuffer. It reports whether it redrew.
func (v *View) Present(r *Renderer, cam Camera, width, height int, opt Options) bool {
	if width <= 0 || height <= 0 {
		return false
	}
	redrew := false
	if v.fb == 0 || v.w != width || v.h != height {
		v.resize(width, height)
	}
	if !v.valid {
		gl.BindFramebuffer(gl.FRAMEBUFFER, v.fb)
		r.Draw(cam, width, height, opt)
		v.valid, redrew = true, true
	}
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, v.fb)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, 0)
	gl.BlitFramebuffer(0, 0, int32(width), int32(height), 0, 0, int32(width), int32(height), gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return redrew
}

// Show copies the picture last drawn, when there is one of this size,
// without drawing anything.
func (v *View) Show(width, height int) {
	if v.fb == 0 || v.w != width || v.h != height {
		return
	}
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, v.fb)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, 0)
	gl.BlitFramebuffer(0, 0, int32(width), int32(height), 0, 0, int32(width), int32(height), gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
}

func (v *View) resize(width, height int) {
	v.Delete()
	v.w, v.h = width, height
	gl.GenFramebuffers(1, &v.fb)
	gl.BindFramebuffer(gl.FRAMEBUFFER, v.fb)
	gl.GenRenderbuffers(1, &v.color)
	gl.BindRenderbuffer(gl.RENDERBUFFER, v.color)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, int32(v.Samples), gl.RGBA8, int32(width), int32(height))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, v.color)
	gl.GenRenderbuffers(1, &v.depth)
	gl.BindRenderbuffer(gl.RENDERBUFFER, v.depth)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, int32(v.Samples), gl.DEPTH_COMPONENT24, int32(width), int32(height))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, v.depth)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	v.valid = false
}

// Delete frees the cache's GL objects.
func (v *View) Delete() {
	if v.fb != 0 {
		gl.DeleteFramebuffers(1, &v.fb)
		gl.DeleteRenderbuffers(1, &v.color)
		gl.DeleteRenderbuffers(1, &v.depth)
		v.fb, v.color, v.depth = 0, 0, 0
	}
}
