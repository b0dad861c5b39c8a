package render

import (
	"testing"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// TestLayerCache shows a layer into a framebuffer frame after frame and
// checks when it is drawn anew (a new key, rectangle or window size) and
// that what lands in the window's rectangle is the last drawing, the
// pixels around it untouched.
func TestLayerCache(t *testing.T) {
	headless(t)
	const w, h = 64, 48
	release := bindBenchTarget(w, h)
	defer release()
	var dst int32
	gl.GetIntegerv(gl.FRAMEBUFFER_BINDING, &dst)
	var c LayerCache
	defer c.Delete()
	// Each drawing fills the bound framebuffer with its own grey.
	draws := 0
	draw := func() {
		draws++
		g := float32(draws*40) / 255
		gl.ClearColor(g, g, g, 1)
		gl.Clear(gl.COLOR_BUFFER_BIT)
	}
	pixel := func(x, y int) [4]byte { // from the top left
		var p [4]byte
		gl.BindFramebuffer(gl.READ_FRAMEBUFFER, uint32(dst))
		gl.ReadPixels(int32(x), int32(h-1-y), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(&p[0]))
		gl.BindFramebuffer(gl.READ_FRAMEBUFFER, 0)
		return p
	}
	steps := []struct {
		name           string
		width, height  int
		rect           [4]int
		key            uint64
		redraw         bool
		wantGrey       byte // inside the rectangle
		outside        [2]int
		wantOutside    byte // the window's own grey (200) where untouched
		invalidateBack bool
	}{
		{"first show draws", w, h, [4]int{40, 8, 64, 48}, 1, true, 40, [2]int{39, 20}, 200, false},
		{"same key copies", w, h, [4]int{40, 8, 64, 48}, 1, false, 40, [2]int{10, 10}, 200, false},
		{"new key draws", w, h, [4]int{40, 8, 64, 48}, 2, true, 80, [2]int{40, 7}, 200, false},
		{"new rectangle draws", w, h, [4]int{30, 8, 64, 48}, 2, true, 120, [2]int{29, 30}, 200, false},
		{"invalidated draws", w, h, [4]int{30, 8, 64, 48}, 2, true, 160, [2]int{0, 0}, 200, true},
		{"same again copies", w, h, [4]int{30, 8, 64, 48}, 2, false, 160, [2]int{29, 8}, 200, false},
		{"another window size draws", w, h - 8, [4]int{30, 0, 64, 40}, 2, true, 200, [2]int{0, 47}, 200, false},
	}
	for _, s := range steps {
		if s.invalidateBack {
			c.Invalidate()
		}
		// The window as the backend leaves it: cleared to its own grey.
		gl.BindFramebuffer(gl.FRAMEBUFFER, uint32(dst))
		gl.ClearColor(200.0/255, 200.0/255, 200.0/255, 1)
		gl.Clear(gl.COLOR_BUFFER_BIT)
		before := c.Redraws
		got := c.Show(uint32(dst), s.width, s.height, s.rect[0], s.rect[1], s.rect[2], s.rect[3], [4]float32{0, 0, 0, 1}, s.key, draw)
		if got != s.redraw || c.Redraws-before != map[bool]int{true: 1, false: 0}[s.redraw] {
			t.Errorf("%s: Show reported %v (%d redraws), want %v", s.name, got, c.Redraws-before, s.redraw)
		}
		// Inside: the last drawing's grey, at the rectangle's corners
		// (window height s.height from the top, in a taller target when
		// the window is smaller: the rows below are not the window's).
		off := h - s.height
		for _, p := range [][2]int{{s.rect[0], s.rect[1]}, {s.rect[2] - 1, s.rect[3] - 1}} {
			if px := pixel(p[0], p[1]+off); px[0] != s.wantGrey || px[3] != 255 {
				t.Errorf("%s: pixel %v is %v, want grey %d", s.name, p, px, s.wantGrey)
			}
		}
		if px := pixel(s.outside[0], s.outside[1]); px[0] != s.wantOutside {
			t.Errorf("%s: pixel %v outside the rectangle is %v, want the window's %d", s.name, s.outside, px, s.wantOutside)
		}
	}
	var bound int32
	gl.GetIntegerv(gl.FRAMEBUFFER_BINDING, &bound)
	if bound != 0 || gl.IsEnabled(gl.SCISSOR_TEST) {
		t.Errorf("Show left framebuffer %d bound, scissor test %v; want 0, off", bound, gl.IsEnabled(gl.SCISSOR_TEST))
	}
}
