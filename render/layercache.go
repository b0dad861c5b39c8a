package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"
)

// LayerCache keeps a rectangle of the window that the UI draws (the side
// panel) in a framebuffer of its own and copies it to the window each
// frame, drawing it anew only when what it shows changed (its key). On a
// software rasteriser the panel's blended fill costs about as much CPU as
// a reduced redraw of a heavy model, and while the camera moves the panel
// stays the same. The framebuffer is cleared to the window's clear colour
// under the rectangle and drawn with the calls that would draw into the
// window, so a copy kept is the copy drawn anew, byte for byte; against
// the window drawn into directly, llvmpipe shades a few edge pixels of
// the text differently (65 of the 1280x780 window's panel's 365,000).
type LayerCache struct {
	t     viewTarget
	key   uint64
	valid bool
	rect  [4]int
	// Redraws counts the times the layer was drawn anew (tests).
	Redraws int
}

// Invalidate makes the next Show draw anew.
func (c *LayerCache) Invalidate() { c.valid = false }

// Show puts the rectangle x0,y0 to x1,y1 (pixels from the top left) of a
// width x height window into framebuffer dst: drawn anew into the cache by
// draw (which draws into the framebuffer bound, over clear) when the key,
// the rectangle or the window's size changed since the last Show, copied
// from the cache otherwise. It reports whether it drew anew, and leaves
// framebuffer 0 bound and the scissor test off.
func (c *LayerCache) Show(dst uint32, width, height, x0, y0, x1, y1 int, clear [4]float32, key uint64, draw func()) bool {
	if width <= 0 || height <= 0 || x0 >= x1 || y0 >= y1 {
		return false
	}
	rect := [4]int{x0, y0, x1, y1}
	redrew := false
	if c.t.fb == 0 || c.t.w != width || c.t.h != height {
		c.resize(width, height)
		c.valid = false
	}
	if !c.valid || c.key != key || c.rect != rect {
		gl.BindFramebuffer(gl.FRAMEBUFFER, c.t.fb)
		gl.Viewport(0, 0, int32(width), int32(height))
		gl.Enable(gl.SCISSOR_TEST)
		gl.Scissor(int32(x0), int32(height-y1), int32(x1-x0), int32(y1-y0))
		gl.ClearColor(clear[0], clear[1], clear[2], clear[3])
		gl.Clear(gl.COLOR_BUFFER_BIT)
		gl.Disable(gl.SCISSOR_TEST)
		draw()
		c.key, c.rect, c.valid = key, rect, true
		c.Redraws++
		redrew = true
	}
	gl.Disable(gl.SCISSOR_TEST)
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, c.t.fb)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, dst)
	gy0, gy1 := int32(height-y1), int32(height-y0)
	gl.BlitFramebuffer(int32(x0), gy0, int32(x1), gy1, int32(x0), gy0, int32(x1), gy1, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return redrew
}

// resize makes the cache's framebuffer, colour only.
func (c *LayerCache) resize(width, height int) {
	c.t.delete()
	c.t.w, c.t.h = width, height
	gl.GenFramebuffers(1, &c.t.fb)
	gl.BindFramebuffer(gl.FRAMEBUFFER, c.t.fb)
	gl.GenRenderbuffers(1, &c.t.color)
	gl.BindRenderbuffer(gl.RENDERBUFFER, c.t.color)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, int32(width), int32(height))
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, c.t.color)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
}

// Delete frees the cache's GL objects.
func (c *LayerCache) Delete() {
	c.t.delete()
	c.valid = false
}
