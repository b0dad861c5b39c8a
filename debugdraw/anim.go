package debugdraw

import (
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

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

// SetVisibility draws the colliders of the nodes that the pose with
// animated values props (anim.Pose.Props; nil for the rest pose) hides
// through KHR_animation_pointer grey, as those of a node hidden in the file
// (ColorHidden). The nodes whose hidden state changes are drawn again.
func (c *Cache) SetVisibility(props map[string][]float64) {
	before := c.doc.HiddenNodes(c.props)
	// A copy of the visible flags: the animation reuses its pose's maps.
	var own map[string][]float64
	if props != nil {
		own = map[string][]float64{}
		for p, v := range props {
			if strings.HasSuffix(p, "/extensions/"+scene.ExtNodeVisibility+"/visible") {
				own[p] = slices.Clone(v)
			}
		}
	}
	after := c.doc.HiddenNodes(own)
	c.props = own
	for n := range c.nodes {
		if (n < len(before) && before[n]) != (n < len(after) && after[n]) {
			c.dirty[n] = true
		}
	}
}
