package main

import (
	"physview/debugdraw"
	"physview/scene/anim"
)

// PoseChanged shows the timeline's pose (app.PoseView): meshes, skins and
// morph weights in the renderer, the physics lines and picking in the
// debug cache (nil: the rest pose).
func (a *windowApp) PoseChanged(p *anim.Pose) {
	if a.renderer == nil {
		return
	}
	a.renderer.SetPose(p)
	if a.debug != nil {
		if p != nil {
			// Only the nodes the animations move are drawn again.
			a.debug.SetPose(p.World, movedNodes(a.s.Timeline.Model))
		} else {
			a.debug.SetPose(nil, nil)
		}
	}
	a.overlayDirty = true
	a.view.Invalidate()
}

// movedNodes lists the nodes any of m's animations moves.
func movedNodes(m *anim.Model) []int {
	out := []int{}
	if m == nil {
		return out
	}
	for n, moved := range m.Moves(-1) {
		if moved {
			out = append(out, n)
		}
	}
	return out
}

// skinLines draws the bones of the skins the Joints view option shows:
// the selected node's skin, or the skins the selected node is a joint of;
// every skin when nothing is selected. They follow the timeline's pose.
func (a *windowApp) skinLines() []debugdraw.Line {
	s := a.s
	if !s.View.Joints || s.Doc == nil || len(s.Doc.GLTF.Skins) == 0 || a.renderer == nil {
		return nil
	}
	d := s.Doc
	world := d.WorldMatrices()
	if p := s.Timeline.Pose; s.Timeline.Posed && p != nil && len(p.World) == len(world) {
		world = p.World
	}
	lo, hi := a.renderer.Bounds()
	size := hi.Sub(lo).Len() * 0.01
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
