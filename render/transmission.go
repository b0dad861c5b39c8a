package render

import (
	"math"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
)

// transmissionTarget is the texture KHR_materials_transmission reads: the
// background and opaque primitives in linear light, with mipmaps so that
// rough glass can read a blurred copy.
type transmissionTarget struct {
	fb, color, depth uint32
	w, h             int
}

func (t *transmissionTarget) delete() {
	if t.fb != 0 {
		gl.DeleteFramebuffers(1, &t.fb)
		gl.DeleteTextures(1, &t.color)
		gl.DeleteRenderbuffers(1, &t.depth)
		*t = transmissionTarget{}
	}
}

func (t *transmissionTarget) resize(w, h int) {
	if t.fb != 0 && t.w == w && t.h == h {
		return
	}
	t.delete()
	t.w, t.h = w, h
	gl.GenFramebuffers(1, &t.fb)
	gl.BindFramebuffer(gl.FRAMEBUFFER, t.fb)
	gl.GenTextures(1, &t.color)
	gl.BindTexture(gl.TEXTURE_2D, t.color)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA16F, int32(w), int32(h), 0, gl.RGBA, gl.FLOAT, nil)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	gl.GenerateMipmap(gl.TEXTURE_2D)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, t.color, 0)
	gl.GenRenderbuffers(1, &t.depth)
	gl.BindRenderbuffer(gl.RENDERBUFFER, t.depth)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, int32(w), int32(h))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, t.depth)
}

// hasTransmission reports whether any primitive shown uses a transmissive
// material with variant v active.
func (r *Renderer) hasTransmission(v int) bool {
	for _, it := range r.items {
		if r.materialOf(it.prim, v).transmission > 0 {
			return true
		}
	}
	return false
}

// drawTransmissionSource draws the background and the opaque primitives
// into the transmission texture, then restores the caller's framebuffer.
func (r *Renderer) drawTransmissionSource(cam Camera, vp mgl32.Mat4, width, height int, opt Options) {
	var prev int32
	gl.GetIntegerv(gl.DRAW_FRAMEBUFFER_BINDING, &prev)
	// Half the view's resolution: a quarter of the pixels to shade again
	// on a software rasteriser, and what is seen through glass is blurred
	// by its roughness anyway.
	tw, th := max(1, (width+1)/2), max(1, (height+1)/2)
	r.trans.resize(tw, th)
	gl.BindFramebuffer(gl.FRAMEBUFFER, r.trans.fb)
	gl.Viewport(0, 0, int32(tw), int32(th))
	// The clear colour is shown as is on screen: undo the display
	// encoding so that it looks the same through glass.
	bg := opt.Background
	gl.ClearColor(lin(bg[0]), lin(bg[1]), lin(bg[2]), 1)
	gl.Clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT)
	r.drawBackground(cam, tw, th, opt, true)
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LEQUAL)
	r.drawMeshes(cam, vp, opt, false, true)
	gl.Disable(gl.CULL_FACE)
	gl.BindTexture(gl.TEXTURE_2D, r.trans.color)
	gl.GenerateMipmap(gl.TEXTURE_2D)
	gl.BindFramebuffer(gl.FRAMEBUFFER, uint32(prev))
}

// lin converts a display value to linear light (inverse of the 1/2.2 curve).
func lin(c float32) float32 {
	if c <= 0 {
		return 0
	}
	return float32(math.Pow(float64(c), 2.2))
}

// drawBackground fills the view with the environment, sharp or blurred,
// unless the background is the plain colour.
func (r *Renderer) drawBackground(cam Camera, width, height int, opt Options, linear bool) {
	if opt.BackgroundMode == BackgroundColor {
		return
	}
	p := r.sky
	gl.UseProgram(p.id)
	view := cam.View()
	for i := 0; i < 3; i++ { // rotation only
		view[12+i] = 0
	}
	inv := mat32(cam.Projection(float64(width) / float64(height)).Mul4(view).Inv())
	p.mat4("uInvViewProj", inv)
	env := r.envTextures(opt.Environment)
	gl.ActiveTexture(gl.TEXTURE0 + unitEnvSpecular)
	gl.BindTexture(gl.TEXTURE_CUBE_MAP, env.cube)
	gl.Uniform1i(p.loc("uEnvSpecular"), unitEnvSpecular)
	lod := float32(0)
	if opt.BackgroundMode == BackgroundBlurred {
		lod = 0.5 * (envMips - 1)
	}
	p.float("uLod", lod)
	p.float("uExposure", opt.exposureScale())
	p.bool("uLinearOutput", linear)
	gl.Disable(gl.DEPTH_TEST)
	gl.DepthMask(false)
	gl.BindVertexArray(r.skyVAO)
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	gl.DepthMask(true)
	gl.ActiveTexture(gl.TEXTURE0)
}
