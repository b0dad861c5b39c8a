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
	// Redraws counts the times the layer was drawn anew (tests),
	// PartRedraws those of them that drew only the part that changed
	// (ShowPart).
	Redraws, PartRedraws int
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
	return c.ShowPart(dst, width, height, x0, y0, x1, y1, clear, key, draw, nil)
}

// LayerPart is a layer that can say which part of it changed since it
// was last drawn into the cache (ShowPart).
type LayerPart interface {
	// Damage returns the pixels (from the top left, x1 and y1
	// exclusive) outside which the layer's pixels are the ones last
	// drawn, or false when it cannot tell.
	Damage() (x0, y0, x1, y1 int, ok bool)
	// DrawPart draws the layer into the framebuffer bound, as draw
	// would, but only into the pixels x0,y0 to x1,y1 (from the top
	// left): each of them as draw makes it.
	DrawPart(x0, y0, x1, y1 int)
}

// ShowPart is Show for a layer that can say what changed (part, nil for
// none): when only the key changed since the last Show, only the part
// that changed is cleared and drawn anew, the rest of the cache kept. On
// llvmpipe the side panel's redraw costs 15-60 ms, most of it filling
// the panel's background; a progress bar's new count is a strip of it.
func (c *LayerCache) ShowPart(dst uint32, width, height, x0, y0, x1, y1 int, clear [4]float32, key uint64, draw func(), part LayerPart) bool {
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
		// The part that changed, when only the key did.
		d, partial := rect, false
		if c.valid && c.rect == rect && part != nil {
			if px0, py0, px1, py1, ok := part.Damage(); ok {
				d = [4]int{max(px0, x0), max(py0, y0), min(px1, x1), min(py1, y1)}
				partial = true
			}
		}
		if !partial || d[0] < d[2] && d[1] < d[3] {
			gl.BindFramebuffer(gl.FRAMEBUFFER, c.t.fb)
			gl.Viewport(0, 0, int32(width), int32(height))
			gl.Enable(gl.SCISSOR_TEST)
			gl.Scissor(int32(d[0]), int32(height-d[3]), int32(d[2]-d[0]), int32(d[3]-d[1]))
			gl.ClearColor(clear[0], clear[1], clear[2], clear[3])
			gl.Clear(gl.COLOR_BUFFER_BIT)
			gl.Disable(gl.SCISSOR_TEST)
			if partial {
				part.DrawPart(d[0], d[1], d[2], d[3])
				c.PartRedraws++
			} else {
				draw()
			}
			c.Redraws++
			redrew = true
		}
		c.key, c.rect, c.valid = key, rect, true
	}
	gl.Disable(gl.SCISSOR_TEST)
	c.blit(dst, height, x0, y0, x1, y1)
	return redrew
}

// blit copies the cache's rectangle x0,y0 to x1,y1 (from the top left of
// a window height pixels high) into framebuffer dst, and leaves
// framebuffer 0 bound.
func (c *LayerCache) blit(dst uint32, height, x0, y0, x1, y1 int) {
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, c.t.fb)
	gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, dst)
	gy0, gy1 := int32(height-y1), int32(height-y0)
	gl.BlitFramebuffer(int32(x0), gy0, int32(x1), gy1, int32(x0), gy0, int32(x1), gy1, gl.COLOR_BUFFER_BIT, gl.NEAREST)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
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

// Pixels reads the cache's pixels x0,y0 to x1,y1 (from the top left), RGBA
// rows from the bottom (tests, and the window's check of its partial
// redraws), and leaves framebuffer 0 bound.
func (c *LayerCache) Pixels(x0, y0, x1, y1 int) []byte {
	if c.t.fb == 0 || x0 >= x1 || y0 >= y1 {
		return nil
	}
	out := make([]byte, 4*(x1-x0)*(y1-y0))
	gl.BindFramebuffer(gl.READ_FRAMEBUFFER, c.t.fb)
	gl.ReadPixels(int32(x0), int32(c.t.h-y1), int32(x1-x0), int32(y1-y0), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(&out[0]))
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	return out
}

// Copy puts the rectangle last drawn into framebuffer dst again, as it
// was, when the window's size is the one it was drawn at: a redraw put
// off by a frame (the window's panel in a frame already late). It
// reports whether it did, and leaves framebuffer 0 bound.
func (c *LayerCache) Copy(dst uint32, width, height int) bool {
	if !c.valid || c.t.fb == 0 || c.t.w != width || c.t.h != height {
		return false
	}
	x0, y0, x1, y1 := c.rect[0], c.rect[1], c.rect[2], c.rect[3]
	gl.Disable(gl.SCISSOR_TEST)
	c.blit(dst, height, x0, y0, x1, y1)
	return true
}

// Holds reports whether the cache holds a drawing of the rectangle
// x0,y0 to x1,y1 of a width x height window, and whether it was drawn
// with key: ShowPart then copies it, or (another key) draws anew only
// the part that changed, when the layer can say which.
func (c *LayerCache) Holds(width, height, x0, y0, x1, y1 int, key uint64) (rect, same bool) {
	rect = c.valid && c.t.fb != 0 && c.t.w == width && c.t.h == height && c.rect == [4]int{x0, y0, x1, y1}
	return rect, rect && c.key == key
}
