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

// greyPart is a layer that fills the framebuffer with a grey (draw) or
// only its part (DrawPart), and says that part changed (Damage).
type greyPart struct {
	grey *float32
	part [4]int
	ok   bool
}

func (g greyPart) Damage() (x0, y0, x1, y1 int, ok bool) {
	return g.part[0], g.part[1], g.part[2], g.part[3], g.ok
}

func (g greyPart) DrawPart(x0, y0, x1, y1 int) {
	var h int32
	var vp [4]int32
	gl.GetIntegerv(gl.VIEWPORT, &vp[0])
	h = vp[3]
	gl.Enable(gl.SCISSOR_TEST)
	gl.Scissor(int32(x0), h-int32(y1), int32(x1-x0), int32(y1-y0))
	gl.ClearColor(*g.grey, *g.grey, *g.grey, 1)
	gl.Clear(gl.COLOR_BUFFER_BIT)
	gl.Disable(gl.SCISSOR_TEST)
}

// TestLayerCachePart checks ShowPart: a new key with the layer's damage
// draws only that part anew (the rest of the rectangle keeps the last
// drawing), clipped to the rectangle; damage it cannot tell, another
// rectangle or an invalidated cache draw the whole; empty damage draws
// nothing.
func TestLayerCachePart(t *testing.T) {
	headless(t)
	const w, h = 64, 48
	release := bindBenchTarget(w, h)
	defer release()
	var dst int32
	gl.GetIntegerv(gl.FRAMEBUFFER_BINDING, &dst)
	var c LayerCache
	defer c.Delete()
	grey := float32(0)
	draw := func() {
		gl.ClearColor(grey, grey, grey, 1)
		gl.Clear(gl.COLOR_BUFFER_BIT)
	}
	pixel := func(x, y int) byte { // from the top left
		var p [4]byte
		gl.BindFramebuffer(gl.READ_FRAMEBUFFER, uint32(dst))
		gl.ReadPixels(int32(x), int32(h-1-y), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(&p[0]))
		gl.BindFramebuffer(gl.READ_FRAMEBUFFER, 0)
		return p[0]
	}
	rect := [4]int{32, 8, 64, 48}
	steps := []struct {
		name       string
		grey       byte
		key        uint64
		rect       [4]int
		invalidate bool
		part       [4]int
		ok         bool
		redraw     bool
		parts      int // PartRedraws after
		// want: the grey at each probe, from the top left.
		want map[[2]int]byte
	}{
		{"first show draws whole", 40, 1, rect, false, [4]int{40, 10, 50, 20}, true, true, 0,
			map[[2]int]byte{{32, 8}: 40, {63, 47}: 40, {45, 15}: 40}},
		{"new key draws the part", 80, 2, rect, false, [4]int{40, 10, 50, 20}, true, true, 1,
			map[[2]int]byte{{40, 10}: 80, {49, 19}: 80, {39, 10}: 40, {50, 15}: 40, {45, 20}: 40, {32, 8}: 40}},
		{"part cut to the rectangle", 120, 3, rect, false, [4]int{20, 0, 40, 12}, true, true, 2,
			map[[2]int]byte{{32, 8}: 120, {39, 11}: 120, {40, 10}: 80, {31, 8}: 200, {32, 12}: 40}},
		{"empty damage draws nothing", 160, 4, rect, false, [4]int{40, 10, 40, 10}, true, false, 2,
			map[[2]int]byte{{32, 8}: 120, {45, 15}: 80, {63, 47}: 40}},
		{"damage unknown draws whole", 200, 5, rect, false, [4]int{40, 10, 50, 20}, false, true, 2,
			map[[2]int]byte{{32, 8}: 200, {45, 15}: 200, {63, 47}: 200}},
		{"another rectangle draws whole", 240, 6, [4]int{30, 8, 64, 48}, false, [4]int{40, 10, 50, 20}, true, true, 2,
			map[[2]int]byte{{30, 8}: 240, {63, 47}: 240}},
		{"invalidated draws whole", 20, 7, [4]int{30, 8, 64, 48}, true, [4]int{40, 10, 50, 20}, true, true, 2,
			map[[2]int]byte{{30, 8}: 20, {45, 15}: 20, {63, 47}: 20}},
	}
	for _, s := range steps {
		if s.invalidate {
			c.Invalidate()
		}
		gl.BindFramebuffer(gl.FRAMEBUFFER, uint32(dst))
		gl.ClearColor(200.0/255, 200.0/255, 200.0/255, 1)
		gl.Clear(gl.COLOR_BUFFER_BIT)
		grey = float32(s.grey) / 255
		before := c.Redraws
		got := c.ShowPart(uint32(dst), w, h, s.rect[0], s.rect[1], s.rect[2], s.rect[3], [4]float32{0, 0, 0, 1}, s.key, draw, greyPart{&grey, s.part, s.ok})
		if got != s.redraw || c.Redraws-before != map[bool]int{true: 1, false: 0}[s.redraw] || c.PartRedraws != s.parts {
			t.Errorf("%s: ShowPart reported %v (%d redraws, %d of parts), want %v (%d of parts)", s.name, got, c.Redraws-before, c.PartRedraws, s.redraw, s.parts)
		}
		for p, want := range s.want {
			if g := pixel(p[0], p[1]); g != want {
				t.Errorf("%s: pixel %v is grey %d, want %d", s.name, p, g, want)
			}
		}
	}
	var bound int32
	gl.GetIntegerv(gl.FRAMEBUFFER_BINDING, &bound)
	if bound != 0 || gl.IsEnabled(gl.SCISSOR_TEST) {
		t.Errorf("ShowPart left framebuffer %d bound, scissor test %v; want 0, off", bound, gl.IsEnabled(gl.SCISSOR_TEST))
	}
}
