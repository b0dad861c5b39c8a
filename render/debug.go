package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
)

// debugGroup is one debugdraw.Group on the GPU: a buffer per category.
type debugGroup struct {
	version uint64
	bufs    [debugdraw.NumCategories]*lineBuffer
}

// SetDebug uploads the debug line groups whose version changed since the
// last call; unchanged groups cost nothing.
func (r *Renderer) SetDebug(groups []debugdraw.Group) {
	for len(r.debug) > len(groups) {
		last := r.debug[len(r.debug)-1]
		for _, b := range last.bufs {
			b.delete()
		}
		r.debug = r.debug[:len(r.debug)-1]
	}
	for len(r.debug) < len(groups) {
		r.debug = append(r.debug, debugGroup{})
	}
	for i, g := range groups {
		dg := &r.debug[i]
		if dg.version == g.Version && g.Version != 0 {
			continue
		}
		for k := range dg.bufs {
			dg.bufs[k].delete()
			dg.bufs[k] = nil
			if len(g.Lines[k]) > 0 {
				dg.bufs[k] = newLineBuffer(g.Lines[k])
			}
		}
		dg.version = g.Version
	}
	if r.doc != nil {
		size := r.max.Sub(r.min).Len() * 0.12
		origin := mgl64.Vec3{r.min[0], r.max[1] + size*0.3, r.min[2]}
		r.world.delete()
		r.world = newLineBuffer(debugdraw.WorldGravity(r.doc, origin, size))
	}
}

// onTop lists the categories drawn over everything: joint frames and
// centre-of-mass markers sit inside bodies, where a depth test would hide them.
var onTop = [debugdraw.NumCategories]bool{debugdraw.Joints: true, debugdraw.Motion: true}

// drawDebug draws the enabled categories: with x-ray, first the parts
// hidden behind meshes, dimmer, then the visible parts; markers on top.
func (r *Renderer) drawDebug(vp mgl32.Mat4, opt Options) {
	draw := func(alpha float32, top bool) {
		for _, g := range r.debug {
			for k, b := range g.bufs {
				if opt.Debug[k] && b != nil && onTop[k] == top {
					r.drawLines(b, vp, alpha)
				}
			}
		}
		if opt.Debug[debugdraw.Gravity] && !top {
			r.drawLines(r.world, vp, alpha)
		}
	}
	if opt.XRay {
		gl.DepthFunc(gl.GREATER)
		gl.DepthMask(false)
		draw(0.3, false)
		gl.DepthMask(true)
		gl.DepthFunc(gl.LEQUAL)
	}
	draw(1, false)
	gl.Disable(gl.DEPTH_TEST)
	draw(1, true)
	r.drawLines(r.overlay, vp, 1)
	gl.Enable(gl.DEPTH_TEST)
}

// SetOverlay replaces the lines drawn on top of everything (the gravity probe).
func (r *Renderer) SetOverlay(lines []debugdraw.Line) {
	r.overlay.delete()
	r.overlay = nil
	if len(lines) > 0 {
		r.overlay = newLineBuffer(lines)
	}
}
