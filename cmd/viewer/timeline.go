package main

import "physview/scene/anim"

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
