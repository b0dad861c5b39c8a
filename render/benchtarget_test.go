package render

import "github.com/go-gl/gl/v3.3-core/gl"

// bindBenchTarget binds a single-sampled w x h framebuffer with colour and
// depth for the frame benchmarks to draw into, and returns what releases it
// (binding the default framebuffer again).
func bindBenchTarget(w, h int32) func() {
	var fb, color, depth uint32
	gl.GenFramebuffers(1, &fb)
	gl.BindFramebuffer(gl.FRAMEBUFFER, fb)
	gl.GenRenderbuffers(1, &color)
	gl.BindRenderbuffer(gl.RENDERBUFFER, color)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, w, h)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, color)
	gl.GenRenderbuffers(1, &depth)
	gl.BindRenderbuffer(gl.RENDERBUFFER, depth)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, w, h)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth)
	return func() {
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		gl.DeleteFramebuffers(1, &fb)
		gl.DeleteRenderbuffers(1, &color)
		gl.DeleteRenderbuffers(1, &depth)
	}
}
