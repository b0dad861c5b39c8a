package ui

import (
	"math"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"
)

// The part of the side panel that changed since it was last drawn into
// its cache (render.LayerCache.ShowPart): while a file opens the panel's
// progress bar and counts change every few frames, and on llvmpipe a
// redraw of the whole panel costs 15-60 ms (its blended background fill),
// that of the bar's strip a few.
//
// Each list's triangles are compared with those last drawn, in order:
// the ones of the common beginning and end are the same triangles (their
// vertices, texture and scissor) drawn in the same order, so a pixel that
// none of the others covers gets the same fragments in the same order as
// before and keeps its value. The others, old and new, bound the part to
// draw anew.

// tri is one triangle of a draw list: a hash of what it draws (its
// vertices, the command's texture and scissor) and the pixels it may
// cover (from the top left, x1 and y1 exclusive).
type tri struct {
	h   uint64
	box [4]int32
}

// layerTris are a panel layer's triangles, list by list (the lists'
// owner names beside them).
type layerTris struct {
	names []string
	lists [][]tri
}

// drawnTris are the triangles last drawn into the panel's cache (Draw,
// DrawPart), nil before the first. (Damage compares with them: the
// window shows one panel.)
var drawnTris *layerTris

// maxDamage is the share of the layer's area above which the whole is
// drawn: a part that large saves little.
const maxDamage = 0.6

// Damage returns the pixels outside which the panel's pixels are those
// last drawn (render.LayerPart), or false when the whole is to be drawn:
// nothing drawn yet, a framebuffer scale other than 1 or a display not at
// 0,0 (DrawPart's scissors are whole pixels only then), or most of the
// panel changed. It is worked out once a frame.
func (l PanelLayer) Damage() (x0, y0, x1, y1 int, ok bool) {
	if l.st.damaged {
		d := l.st.damage
		return d[0], d[1], d[2], d[3], l.st.damageOK
	}
	x0, y0, x1, y1, ok = l.damage()
	l.st.damage, l.st.damageOK, l.st.damaged = [4]int{x0, y0, x1, y1}, ok, true
	return x0, y0, x1, y1, ok
}

// damage is Damage worked out.
func (l PanelLayer) damage() (x0, y0, x1, y1 int, ok bool) {
	if drawnTris == nil || l.main == nil {
		return 0, 0, 0, 0, false
	}
	if s, p := l.main.FramebufferScale(), l.main.DisplayPos(); s.X != 1 || s.Y != 1 || p.X != 0 || p.Y != 0 {
		return 0, 0, 0, 0, false
	}
	d, ok := damage(drawnTris, l.tris())
	if !ok {
		return 0, 0, 0, 0, false
	}
	if d[0] >= d[2] || d[1] >= d[3] {
		return l.X0, l.Y0, l.X0, l.Y0, true // nothing to draw
	}
	if float64((d[2]-d[0])*(d[3]-d[1])) > maxDamage*float64((l.X1-l.X0)*(l.Y1-l.Y0)) {
		return 0, 0, 0, 0, false
	}
	return int(d[0]), int(d[1]), int(d[2]), int(d[3]), true
}

// damage bounds the triangles of now that differ from was's and those of
// was that are gone. Lists are matched by owner, in order: a list drawn
// only in one of them (a window shown or hidden: the progress bar's) is
// all damage, and the lists of both keep their order, so the common
// triangles still come in the same order. It reports false when was is
// nil.
func damage(was, now *layerTris) ([4]int32, bool) {
	out := [4]int32{math.MaxInt32, math.MaxInt32, math.MinInt32, math.MinInt32}
	if was == nil || now == nil {
		return out, false
	}
	add := func(ts []tri) {
		for _, t := range ts {
			out = [4]int32{min(out[0], t.box[0]), min(out[1], t.box[1]), max(out[2], t.box[2]), max(out[3], t.box[3])}
		}
	}
	j := 0 // was's next list
	for i, name := range now.names {
		k := j
		for k < len(was.names) && was.names[k] != name {
			k++
		}
		if k == len(was.names) {
			add(now.lists[i]) // a new list
			continue
		}
		for ; j < k; j++ {
			add(was.lists[j]) // lists gone
		}
		j = k + 1
		a, b := was.lists[k], now.lists[i]
		p := 0
		for p < len(a) && p < len(b) && a[p].h == b[p].h {
			p++
		}
		s := 0
		for s < len(a)-p && s < len(b)-p && a[len(a)-1-s].h == b[len(b)-1-s].h {
			s++
		}
		add(a[p : len(a)-s])
		add(b[p : len(b)-s])
	}
	for ; j < len(was.names); j++ {
		add(was.lists[j])
	}
	return out, true
}

// tris returns the layer's triangles, made once.
func (l PanelLayer) tris() *layerTris {
	if l.st.tris != nil {
		return l.st.tris
	}
	t := &layerTris{}
	pos, scale, size := l.main.DisplayPos(), l.main.FramebufferScale(), l.main.DisplaySize()
	fbh := fbHeight(size, scale)
	for _, dl := range l.lists {
		t.names = append(t.names, dl.OwnerName())
		t.lists = append(t.lists, listTris(dl, pos, scale, fbh))
	}
	l.st.tris = t
	return t
}

// listTris returns a draw list's triangles. A command's scissor is the
// one the backend sets (imgui_impl_opengl3: its clip rectangle in
// framebuffer pixels, truncated), fbh the framebuffer's height.
func listTris(dl *imgui.DrawList, pos, scale imgui.Vec2, fbh float32) []tri {
	vv, iv := dl.VtxBuffer(), dl.IdxBuffer()
	if vv.Size <= 0 || iv.Size <= 0 || vv.Data == nil || vv.Data.CData == nil || iv.Data == nil {
		return nil
	}
	vsize := int(unsafe.Sizeof(*vv.Data.CData))
	vbase := unsafe.Pointer(vv.Data.CData)
	idx := unsafe.Slice((*uint16)(unsafe.Pointer(iv.Data)), iv.Size)
	var out []tri
	for _, c := range cmdSlice(dl.CmdBuffer()) {
		n, first, off := int(c.ElemCount()), int(c.IdxOffset()), int(c.VtxOffset())
		if n == 0 || first+n > len(idx) {
			continue
		}
		sx, sy, sw, sh, ok := scissorOf(c.ClipRect(), pos, scale, fbh)
		if !ok {
			continue // drawn nowhere
		}
		// The scissor from the top left.
		clip := [4]int32{sx, int32(fbh) - (sy + sh), sx + sw, int32(fbh) - sy}
		base := mix(mix(mix(mix(14695981039346656037, uint64(uint32(sx))), uint64(uint32(sy))), uint64(uint32(sw))), uint64(uint32(sh)))
		base = mix(base, uint64(c.TexID()))
		for k := 0; k+2 < n; k += 3 {
			h := base
			b := [4]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(-1))}
			for j := 0; j < 3; j++ {
				v := int(idx[first+k+j]) + off
				if v >= vv.Size {
					continue
				}
				// ImDrawVert: position (two floats), uv (two
				// floats), colour (four bytes).
				w := (*[5]uint32)(unsafe.Add(vbase, v*vsize))
				for _, x := range w {
					h = mix(h, uint64(x))
				}
				px, py := math.Float32frombits(w[0]), math.Float32frombits(w[1])
				b = [4]float32{min(b[0], px), min(b[1], py), max(b[2], px), max(b[3], py)}
			}
			// The pixels whose centres it may cover, a pixel more each
			// side, within the scissor.
			box := [4]int32{
				int32(math.Floor(float64((b[0]-pos.X)*scale.X))) - 1,
				int32(math.Floor(float64((b[1]-pos.Y)*scale.Y))) - 1,
				int32(math.Ceil(float64((b[2]-pos.X)*scale.X))) + 1,
				int32(math.Ceil(float64((b[3]-pos.Y)*scale.Y))) + 1,
			}
			box = [4]int32{max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3])}
			if box[0] >= box[2] || box[1] >= box[3] {
				continue // scissored away
			}
			out = append(out, tri{h: h, box: box})
		}
	}
	return out
}

// fbHeight is the framebuffer's height as the backend takes it.
func fbHeight(size, scale imgui.Vec2) float32 { return float32(int(size.Y * scale.Y)) }

// mix folds x into the hash h (FNV-1a over its bytes' worth, a word at a
// time).
func mix(h, x uint64) uint64 {
	h ^= x
	h *= 1099511628211
	h ^= h >> 29
	return h
}

// scissorOf is the scissor box the backend sets for a clip rectangle:
// x, y (from the bottom), width, height in framebuffer pixels; false
// when it draws nothing.
func scissorOf(r imgui.Vec4, pos, scale imgui.Vec2, fbh float32) (x, y, w, h int32, ok bool) {
	minX, minY := (r.X-pos.X)*scale.X, (r.Y-pos.Y)*scale.Y
	maxX, maxY := (r.Z-pos.X)*scale.X, (r.W-pos.Y)*scale.Y
	if maxX <= minX || maxY <= minY {
		return 0, 0, 0, 0, false
	}
	return int32(minX), int32(fbh - maxY), int32(maxX - minX), int32(maxY - minY), true
}

// DrawPart draws the panel's lists into the framebuffer bound as Draw
// does, but only into the pixels x0,y0 to x1,y1 (from the top left): each
// command's scissor is the backend's own cut to them (render.LayerPart).
func (l PanelLayer) DrawPart(x0, y0, x1, y1 int) {
	pos, scale, size := l.main.DisplayPos(), l.main.FramebufferScale(), l.main.DisplaySize()
	fbh := fbHeight(size, scale)
	type saved struct {
		c *imgui.DrawCmd
		r imgui.Vec4
	}
	var restore []saved
	for _, dl := range l.lists {
		for _, c := range cmdSlice(dl.CmdBuffer()) {
			r := c.ClipRect()
			sx, sy, sw, sh, ok := scissorOf(r, pos, scale, fbh)
			if !ok {
				continue
			}
			// The scissor's pixels from the top left, cut to the part,
			// as a clip rectangle whose scissor is exactly those
			// (whole pixels: the scale is 1, Damage).
			top, bottom := int32(fbh)-(sy+sh), int32(fbh)-sy
			cx0, cy0 := max(sx, int32(x0)), max(top, int32(y0))
			cx1, cy1 := min(sx+sw, int32(x1)), min(bottom, int32(y1))
			restore = append(restore, saved{c, r})
			if cx0 >= cx1 || cy0 >= cy1 {
				c.SetClipRect(imgui.Vec4{X: pos.X, Y: pos.Y, Z: pos.X, W: pos.Y}) // nothing
				continue
			}
			c.SetClipRect(imgui.Vec4{X: float32(cx0)/scale.X + pos.X, Y: float32(cy0)/scale.Y + pos.Y, Z: float32(cx1)/scale.X + pos.X, W: float32(cy1)/scale.Y + pos.Y})
		}
	}
	l.render()
	for _, s := range restore {
		s.c.SetClipRect(s.r)
	}
	drawnTris = l.tris()
}
