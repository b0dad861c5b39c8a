package ui

/*
// The OpenGL renderer of cimgui-go's GLFW backend, linked in with it (its
// cimgui.a): drawing the panel's part of the draw data into another
// framebuffer needs this one call, resolved at the final link.
extern void ImGui_ImplOpenGL3_RenderDrawData(void* drawData);
*/
import "C"

import (
	"hash/maphash"
	"math"
	"strings"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/utils/vectors"
)

// PanelLayer is the side panel's part of this frame's ImGui draw data: the
// draw lists of the "Panel" window and its child windows. The window keeps
// the panel's pixels in a framebuffer of its own (render.LayerCache) and
// copies them to the screen while Key stays the same: on a software
// rasteriser the panel's blended fill costs about as much CPU as a reduced
// redraw of a heavy model, and while the camera moves it does not change.
type PanelLayer struct {
	// Key identifies what the lists draw (their vertices, indices and
	// commands, and the display's size): equal keys, equal pixels. (The
	// panel shows no texture but the font atlas, whose glyphs stay where
	// they are once drawn.)
	Key uint64
	// X0, Y0, X1, Y1 bound the rectangle they draw in, framebuffer
	// pixels from the top left.
	X0, Y0, X1, Y1 int
	lists          []*imgui.DrawList
	main           *imgui.DrawData
	st             *layerState
}

// layerState is what a PanelLayer works out once: its triangles and
// its damage (Damage).
type layerState struct {
	tris     *layerTris
	damage   [4]int
	damageOK bool
	damaged  bool
}

// panelWindow is the name of the side panel's ImGui window (Build).
const panelWindow = "Panel"

// panelSeed makes the keys comparable within the process.
var panelSeed = maphash.MakeSeed()

// layerData is the draw data the panel's lists are drawn from, made once.
var layerData *imgui.DrawData

// TakePanelLayer ends this frame's ImGui frame (imgui.Render: the
// backend's own call after the frame is then a no-op) and finds the
// panel's draw lists in its draw data. It reports false when the panel
// must be drawn as usual this frame: no panel, its lists not contiguous,
// a list drawn before them overlapping their rectangle (the copy would
// cover it), or the font atlas changing (the backend uploads it only
// after the panel would be drawn). The modal popups closed this frame
// are left out of the frame's draw data (dropClosedPopups), whether
// or not the panel is found.
func TakePanelLayer() (PanelLayer, bool) {
	imgui.Render()
	dd := imgui.CurrentDrawData()
	if dd == nil || dd.CData == nil || !dd.Valid() {
		closedPopups = closedPopups[:0]
		return PanelLayer{}, false
	}
	dropClosedPopups(dd)
	if td := imgui.CurrentIO().Fonts().TexData(); td == nil || td.CData == nil || td.Status() != imgui.TextureStatusOK {
		return PanelLayer{}, false
	}
	all := drawLists(dd)
	first, last := -1, -1
	for i, l := range all {
		name := l.OwnerName()
		if name == panelWindow || strings.HasPrefix(name, panelWindow+"/") {
			if first < 0 {
				first = i
			} else if last != i-1 {
				return PanelLayer{}, false // not one run of lists
			}
			last = i
		}
	}
	if first < 0 {
		return PanelLayer{}, false
	}
	scale, pos, size := dd.FramebufferScale(), dd.DisplayPos(), dd.DisplaySize()
	l := PanelLayer{lists: all[first : last+1], main: dd, st: &layerState{}}
	var h maphash.Hash
	h.SetSeed(panelSeed)
	h.Write(floatBytes(size.X, size.Y, scale.X, scale.Y, pos.X, pos.Y))
	box := emptyBox()
	for _, dl := range l.lists {
		box = box.union(drawnBox(dl))
		cmds := dl.CmdBuffer()
		h.Write(rawBytes(unsafe.Pointer(cmds.Data.CData), cmds.Size, int(unsafe.Sizeof(*cmds.Data.CData))))
		idx := dl.IdxBuffer()
		h.Write(rawBytes(unsafe.Pointer(idx.Data), idx.Size, int(unsafe.Sizeof(*idx.Data))))
		vtx := dl.VtxBuffer()
		h.Write(rawBytes(unsafe.Pointer(vtx.Data.CData), vtx.Size, int(unsafe.Sizeof(*vtx.Data.CData))))
	}
	// The pixels it may cover, in framebuffer pixels.
	l.X0, l.Y0, l.X1, l.Y1 = pixels(box, pos, scale, size)
	if l.X0 >= l.X1 || l.Y0 >= l.Y1 {
		return PanelLayer{}, false
	}
	// What is drawn before the panel must not reach into its pixels: the
	// copy would be drawn over it.
	for _, dl := range all[:first] {
		x0, y0, x1, y1 := pixels(drawnBox(dl), pos, scale, size)
		if x0 < l.X1 && l.X0 < x1 && y0 < l.Y1 && l.Y0 < y1 {
			return PanelLayer{}, false
		}
	}
	l.Key = h.Sum64()
	return l, true
}

// Draw draws the panel's lists into the framebuffer bound, as the backend
// would draw them into the window's (the same projection and scissors).
func (l PanelLayer) Draw() {
	l.render()
	drawnTris = l.tris()
}

// render draws the lists with the backend's renderer.
func (l PanelLayer) render() {
	if layerData == nil {
		layerData = imgui.NewDrawData()
	}
	dd := layerData
	dd.Clear()
	for _, dl := range l.lists {
		dd.AddDrawList(dl)
	}
	dd.SetValid(true)
	dd.SetDisplayPos(l.main.DisplayPos())
	dd.SetDisplaySize(l.main.DisplaySize())
	dd.SetFramebufferScale(l.main.FramebufferScale())
	C.ImGui_ImplOpenGL3_RenderDrawData(unsafe.Pointer(dd.CData))
}

// Detach leaves the panel's lists out of the frame's draw data (their
// commands emptied: ImGui makes them anew next frame), so that the
// backend does not draw over the copy.
func (l PanelLayer) Detach() {
	for _, dl := range l.lists {
		v := dl.CmdBuffer()
		v.Size = 0
		dl.SetCmdBuffer(v)
	}
}

// closedPopups are the ids of the modal popups closed this frame (the
// file browser's Enter, a prompt answered): ImGui still draws them in the
// frame that closes them.
var closedPopups []string

// closedPopup notes that the modal popup id closed this frame.
func closedPopup(id string) { closedPopups = append(closedPopups, id) }

// dropClosedPopups leaves the popups closed this frame (and their child
// windows) out of its draw data, as Detach does: the frame that took the
// file browser's Enter shows the view without the dialog, which on a
// software rasteriser is also the frame's cost of drawing it (the whole
// window dimmed behind it: 10-20 ms of llvmpipe's) saved, in the frame
// that starts the load.
func dropClosedPopups(dd *imgui.DrawData) {
	if len(closedPopups) == 0 {
		return
	}
	for _, dl := range drawLists(dd) {
		name := dl.OwnerName()
		for _, id := range closedPopups {
			if name == id || strings.HasPrefix(name, id+"/") {
				v := dl.CmdBuffer()
				v.Size = 0
				dl.SetCmdBuffer(v)
			}
		}
	}
	closedPopups = closedPopups[:0]
}

// drawLists returns the draw data's lists in the order they are drawn.
func drawLists(dd *imgui.DrawData) []*imgui.DrawList {
	v := dd.CmdLists()
	if v.Size == 0 || v.Data == nil || v.Data.CData == nil {
		return nil
	}
	// CmdLists holds ImDrawList pointers; the vector's Data wraps the
	// address of the first.
	ptrs := unsafe.Slice((*unsafe.Pointer)(unsafe.Pointer(v.Data.CData)), v.Size)
	out := make([]*imgui.DrawList, len(ptrs))
	for i, p := range ptrs {
		out[i] = imgui.NewDrawListFromC(p)
	}
	return out
}

// cmdSlice returns the commands of a list's command buffer (the vector's
// Data wraps the address of the first).
func cmdSlice(v vectors.Vector[imgui.DrawCmd]) []*imgui.DrawCmd {
	if v.Size <= 0 || v.Data == nil || v.Data.CData == nil {
		return nil
	}
	base, size := unsafe.Pointer(v.Data.CData), int(unsafe.Sizeof(*v.Data.CData))
	out := make([]*imgui.DrawCmd, v.Size)
	for i := range out {
		out[i] = imgui.NewDrawCmdFromC(unsafe.Add(base, i*size))
	}
	return out
}

// rawBytes is n elements of size bytes each at p, as bytes (nil when
// empty).
func rawBytes(p unsafe.Pointer, n, size int) []byte {
	if p == nil || n <= 0 {
		return nil
	}
	return unsafe.Slice((*byte)(p), n*size)
}

// floatBytes is the bytes of fs, for the key.
func floatBytes(fs ...float32) []byte {
	b := make([]byte, 0, 4*len(fs))
	for _, f := range fs {
		u := math.Float32bits(f)
		b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
	}
	return b
}

// box is a rectangle, x0, y0, x1, y1 in display coordinates.
type box [4]float32

func emptyBox() box {
	inf := float32(math.Inf(1))
	return box{inf, inf, -inf, -inf}
}

func (b box) empty() bool { return b[0] >= b[2] || b[1] >= b[3] }

func (b box) union(o box) box {
	return box{min(b[0], o[0]), min(b[1], o[1]), max(b[2], o[2]), max(b[3], o[3])}
}

// pixels returns the framebuffer pixels whose centres b (display
// coordinates) holds, x0, y0 inclusive, x1, y1 exclusive, from the top
// left: the pixels a rasteriser may cover drawing within b.
func pixels(b box, pos, scale, size imgui.Vec2) (x0, y0, x1, y1 int) {
	if b.empty() {
		return 0, 0, 0, 0
	}
	fx, fy := float64(scale.X), float64(scale.Y)
	x0 = max(0, int(math.Ceil(float64(b[0]-pos.X)*fx-0.5)))
	y0 = max(0, int(math.Ceil(float64(b[1]-pos.Y)*fy-0.5)))
	x1 = min(int(math.Ceil(float64(size.X)*fx)), int(math.Floor(float64(b[2]-pos.X)*fx-0.5))+1)
	y1 = min(int(math.Ceil(float64(size.Y)*fy)), int(math.Floor(float64(b[3]-pos.Y)*fy-0.5))+1)
	return x0, y0, x1, y1
}

// drawnBox bounds what a draw list draws: each command's triangles within
// its clip rectangle (a window's background is drawn with the whole
// display as its clip rectangle, so the clip rectangles alone would not
// do).
func drawnBox(dl *imgui.DrawList) box {
	vv, iv := dl.VtxBuffer(), dl.IdxBuffer()
	if vv.Size <= 0 || iv.Size <= 0 || vv.Data == nil || vv.Data.CData == nil || iv.Data == nil {
		return emptyBox()
	}
	vsize := int(unsafe.Sizeof(*vv.Data.CData))
	vbase := unsafe.Pointer(vv.Data.CData)
	idx := unsafe.Slice((*uint16)(unsafe.Pointer(iv.Data)), iv.Size)
	out := emptyBox()
	for _, c := range cmdSlice(dl.CmdBuffer()) {
		n, first, off := int(c.ElemCount()), int(c.IdxOffset()), int(c.VtxOffset())
		if n == 0 || first+n > len(idx) { // a callback draws no elements
			continue
		}
		b := emptyBox()
		for _, i := range idx[first : first+n] {
			v := int(i) + off
			if v >= vv.Size {
				continue
			}
			// ImDrawVert begins with its position, two floats.
			p := (*[2]float32)(unsafe.Add(vbase, v*vsize))
			b = box{min(b[0], p[0]), min(b[1], p[1]), max(b[2], p[0]), max(b[3], p[1])}
		}
		r := c.ClipRect()
		b = box{max(b[0], r.X), max(b[1], r.Y), min(b[2], r.Z), min(b[3], r.W)}
		if !b.empty() {
			out = out.union(b)
		}
	}
	return out
}
