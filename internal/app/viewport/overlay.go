package viewport

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
)

// Colours of the lines on top (debugdraw.Legend names the others).
var compoundColor = [4]float32{0.2, 0.9, 1, 1} // the compound fit's preview

// handlePixels is about how large handles stay on screen.
const handlePixels = 12

// updateOverlay rebuilds the lines drawn on top when something they show
// changed: the hovered node's colliders, the selected node's box and
// handles, the gravity probe, the skins' bones and the compound preview.
func (c *Controller) updateOverlay(vp Rect) {
	if !c.overlayDirty {
		return
	}
	c.overlayDirty = false
	s := c.s
	var lines []debugdraw.Line
	if n := s.Hovered; n >= 0 && n != s.Selected {
		for _, l := range c.debug.PickLines(n) {
			l.Color = debugdraw.ColorHover
			lines = append(lines, l)
		}
	}
	if n := s.Selected; n >= 0 {
		// The selected node's meshes in white corner brackets (its
		// colliders are drawn yellow by the cache).
		if lo, hi, ok := c.r.NodeBounds(n); ok {
			lines = append(lines, debugdraw.SelectionBrackets(lo, hi, debugdraw.ColorSelectionBox)...)
		}
	}
	hs, _ := s.Handles()
	if len(hs) > 0 {
		size := debugdraw.PixelSize(vp.View, vp.Proj, hs[0].Pos, vp.H) * handlePixels
		lines = append(lines, debugdraw.HandleLines(hs, size, c.hoverHandle, debugdraw.ColorHandle)...)
	}
	lines = append(lines, c.probeLines...)
	lines = append(lines, c.skinLines()...)
	lines = append(lines, c.compoundLines()...)
	lines = append(lines, CompareLines(c.s.Play.Engines.Compare)...) // compare.go
	lines = append(lines, s.CompareLines()...)                       // the Diff tab's tints and ghost
	c.r.SetOverlay(lines)
	c.redraw()
	c.logScreen(vp, hs)
}

// updateProbe redraws the gravity probe when it is switched or moved.
func (c *Controller) updateProbe() {
	o := &c.s.View
	if o.Probe == c.probeOn && o.ProbeAt == c.probeAt {
		return
	}
	c.probeOn, c.probeAt = o.Probe, o.ProbeAt
	c.redraw()
	c.overlayDirty = true
	if !o.Probe {
		c.probeLines = nil
		return
	}
	d := c.s.Doc
	p := mgl64.Vec3{float64(o.ProbeAt[0]), float64(o.ProbeAt[1]), float64(o.ProbeAt[2])}
	gv := d.NetGravity(d.WorldMatrices(), p)
	c.ProbeText = fmt.Sprintf("net gravity %.3g m/s² (%.3g, %.3g, %.3g)", gv.Len(), gv[0], gv[1], gv[2])
	c.probeLines = debugdraw.Probe(d, p, c.sceneSize()*0.01, 0.02, 200)
}

// sceneSize is the diagonal of everything drawn.
func (c *Controller) sceneSize() float64 {
	lo, hi := c.r.Bounds()
	return hi.Sub(lo).Len()
}

// skinLines draws the bones of the skins the Joints view option shows:
// the selected node's skin, or the skins the selected node is a joint of;
// every skin when nothing is selected. They follow the timeline's pose.
func (c *Controller) skinLines() []debugdraw.Line {
	s := c.s
	if !s.View.Joints || len(s.Doc.GLTF.Skins) == 0 {
		return nil
	}
	d := s.Doc
	world := d.WorldMatrices()
	if p := s.Timeline.Pose; s.Timeline.Posed && p != nil && len(p.World) == len(world) {
		world = p.World
	}
	size := c.sceneSize() * 0.01
	var out []debugdraw.Line
	for i, sk := range d.GLTF.Skins {
		show := s.Selected < 0
		if n := s.Selected; n >= 0 {
			if sn := d.GLTF.Nodes[n].Skin; sn != nil && *sn == i {
				show = true
			}
			for _, j := range sk.Joints {
				show = show || j == n
			}
		}
		if show {
			out = append(out, debugdraw.SkinLines(d, sk.Joints, world, size)...)
		}
	}
	return out
}

// compoundLines are the edges of the previewed hulls, in the world.
func (c *Controller) compoundLines() []debugdraw.Line {
	n, hulls := c.s.PreviewHulls()
	if len(hulls) == 0 {
		return nil
	}
	m := c.s.Doc.WorldMatrices()[n]
	var out []debugdraw.Line
	for _, h := range hulls {
		for _, e := range h.Edges() {
			a, b := m.Mul4x1(e[0].Vec4(1)).Vec3(), m.Mul4x1(e[1].Vec4(1)).Vec3()
			out = append(out, debugdraw.Line{A: f32(a), B: f32(b), Color: compoundColor})
		}
	}
	return out
}

func f32(v mgl64.Vec3) [3]float32 { return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])} }
