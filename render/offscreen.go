package render

import (
	"fmt"
	"image"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// RenderImage draws one frame into an offscreen framebuffer of width x height
// with 4x multisampling and reads it back, top row first. The framebuffer
// binding and viewport are restored afterwards.
func (r *Renderer) RenderImage(cam Camera, width, height int, opt Options) (*image.NRGBA, error) {
	if width <= 0 || height <= 0 {
		return nil, fmt.Errorf("image size %dx%d", width, height)
	}
	var prevFB int32
	var prevViewport [4]int32
	gl.GetIntegerv(gl.FRAMEBUFFER_BINDING, &prevFB)
	gl.GetIntegerv(gl.VIEWPORT, &prevViewport[0])

	w, h := int32(width), int32(height)
	// Multisampled target to draw into.
	var msFB, msColor, msDepth uint32
	gl.GenFramebuffers(1, &msFB)
	gl.BindFramebuffer(gl.FRAMEBUFFER, msFB)
	gl.GenRenderbuffers(1, &msColor)
	gl.BindRenderbuffer(gl.RENDERBUFFER, msColor)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, 4, gl.RGBA8, w, h)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, msColor)
	gl.GenRenderbuffers(1, &msDepth)
	gl.BindRenderbuffer(gl.RENDERBUFFER, msDepth)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, 4, gl.DEPTH_COMPONENT24, w, h)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, msDepth)
	var fb, color uint32 // the single-sampled target, made after the draw
	defer func() {
		gl.DeleteFramebuffers(1, &msFB)
		gl.DeleteFramebuffers(1, &fb)
		gl.DeleteRenderbuffers(1, &msColor)
		gl.DeleteRenderbuffers(1, &msDepth)
		gl.DeleteRenderbuffers(1, &color)
		gl.BindFramebuffer(gl.FRAMEBUFFER, uint32(prevFB))
		gl.Viewport(prevViewport[0], prevViewport[1], prevViewport[2], prevViewport[3])
	}()
	gl.BindFramebuffer(gl.FRAMEBUFFER, msFB)
	if st := gl.CheckFramebufferStatus(gl.FRAMEBUFFER); st != gl.FRAMEBUFFER_COMPLETE {
		return nil, fmt.Errorf("offscreen framebuffer incomplete (0x%x)", st)
	}
	// An image is drawn once: it waits for the environment's prefilter
	// rather than show the stand-in.
	r.waitEnv = true
	r.Draw(cam, width, height, opt)
	r.waitEnv = false
	// The depth samples are not resolved: they go now, and the colour
	// samples once resolved, before the pixels are read into a new
	// image, so that the two never add to the readback's memory.
	// Deleting a renderbuffer detaches it; llvmpipe frees its memory
	// when the draws that use it are done.
	gl.DeleteRenderbuffers(1, &msDepth)
	msDepth = 0
	gl.Finish() // the blit would wait for the draw as well

	// Single-sampled target to resolve into and read, made only now: it
	// is not part of the draw's peak either.
	gl.GenFramebuffers(1, &fb)
	gl.GenRenderbuffers(1, &color)
	gl.BindRenderbuffer(gl.RENDERBUFFER, color)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, w, h)
	gl.BindFramebuffer(gl.FRAMEBUFFER, fb)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, color)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, msFB)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, fb)
	gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, fb)
	gl.DeleteFramebuffers(1, &msFB)
	gl.DeleteRenderbuffers(1, &msColor)
	msFB, msColor = 0, 0
	gl.Finish() // the samples are freed once the resolve is done

	img := image.NewNRGBA(image.Rect(0, 0, width, height))
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(img.Pix))
	// GL rows run bottom-up.
	row := 4 * width
	tmp := make([]byte, row)
	for y := 0; y < height/2; y++ {
		a, b := img.Pix[y*row:(y+1)*row], img.Pix[(height-1-y)*row:(height-y)*row]
		copy(tmp, a)
		copy(a, b)
		copy(b, tmp)
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	if e := gl.GetError(); e != gl.NO_ERROR {
		return img, fmt.Errorf("GL error 0x%x while rendering", e)
	}
	return img, nil
}
