package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"
)

// transmissionTarget is the texture KHR_materials_transmission reads: a
// copy of the view once the background and the opaque primitives are
// drawn, with mipmaps so that rough glass can read a blurred copy. Copying
// the view (rather than drawing the scene a second time into a linear-light
// target, as the Khronos Sample Viewer does) costs one blit and a mipmap
// build on a software rasteriser; the shader undoes the display encoding,
// tone map and exposure of what it reads.
type transmissionTarget struct {
	fb, color uint32
	w, h      int
}

func (t *transmissionTarget) delete() {
	if t.fb != 0 {
		gl.DeleteFramebuffers(1, &t.fb)
		gl.DeleteTextures(1, &t.color)
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
	gl.GenTextures(1, &t.color)
	gl.BindTexture(gl.TEXTURE_2D, t.color)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, int32(w), int32(h), 0, gl.RGBA, gl.UNSIGNED_BYTE, nil)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	gl.GenerateMipmap(gl.TEXTURE_2D)
}

// copyView copies the bound framebuffer's width x height colour into the
// transmission texture (resolving multisampling), builds its mipmaps and
// binds it to its unit; the caller's framebuffer stays bound.
func (r *Renderer) copyView(width, height int) {
	var prev int32
	gl.GetIntegerv(gl.DRAW_FRAMEBUFFER_BINDING, &prev)
	r.trans.resize(width, height)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, r.trans.fb)
	gl.FramebufferTexture2D(gl.DRAW_FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, r.trans.color, 0)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, uint32(prev))
	w, h := int32(width), int32(height)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, uint32(prev))
	gl.ActiveTexture(gl.TEXTURE0 + unitTransmission)
	gl.BindTexture(gl.TEXTURE_2D, r.trans.color)
	gl.GenerateMipmap(gl.TEXTURE_2D)
	gl.ActiveTexture(gl.TEXTURE0)
}

// drawBackground fills the view with the environment, sharp or blurred,
// unless the background is the plain colour: wherever the depth buffer
// is still clear, so that drawn after the opaque primitives it shades
// only the pixels they leave (its triangle lies on the far plane, at the
// clear depth; the depth test must be on, LEQUAL).
func (r *Renderer) drawBackground(cam Camera, width, height int, opt Options) {
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
		lod = 0.5 * float32(env.mips-1)
	}
	gl.UniformMatrix3fv(p.loc("uEnvRotation"), 1, false, &env.toEnv[0])
	p.float("uLod", lod)
	p.float("uExposure", opt.exposureScale())
	var offset bool
	gl.GetBooleanv(gl.POLYGON_OFFSET_FILL, &offset)
	gl.Disable(gl.POLYGON_OFFSET_FILL)
	gl.Disable(gl.CULL_FACE)
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LEQUAL)
	gl.DepthMask(false)
	gl.BindVertexArray(r.skyVAO)
	gl.DrawArrays(gl.TRIANGLES, 0, 3)
	gl.DepthMask(true)
	if offset {
		gl.Enable(gl.POLYGON_OFFSET_FILL)
	}
	gl.ActiveTexture(gl.TEXTURE0)
}
