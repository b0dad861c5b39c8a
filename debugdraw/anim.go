package debugdraw

import "github.com/go-gl/mathgl/mgl64"

// SetPose draws the nodes at world (an animation pose's world matrices,
// anim.Pose.World) instead of the document's transforms, so colliders on
// animated nodes and joints follow the pose. moved lists the nodes whose
// matrices changed since the last call; nil marks every node. A nil world
// goes back to the document's transforms. The next Change that moves a node
// also goes back to them.
func (c *Cache) SetPose(world []mgl64.Mat4, moved []int) {
	if world != nil && len(world) != len(c.nodes) {
		return
	}
	if moved == nil {
		c.InvalidateAll()
		c.world = world
		return
	}
	c.world = world
	for _, n := range moved {
		c.invalidate(n)
	}
}
