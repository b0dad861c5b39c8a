package viewport

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
)

// logScreen tells a test driving the window where things are on screen
// (the window sets Screen under PHYSVIEW_LOG_SCREEN=1), since it cannot
// see them otherwise: once per document a point on each node's collider
// or trigger lines and on each mesh, then each handle with the screen
// direction it drags along.
func (c *Controller) logScreen(vp Rect, hs []debugdraw.Handle) {
	if c.Screen == nil {
		return
	}
	vpm := vp.Proj.Mul4(vp.View)
	at := func(p mgl64.Vec3) (float64, float64, bool) {
		x, y, ok := debugdraw.ScreenPoint(vpm, p, vp.W, vp.H)
		return x + vp.X, y + vp.Y, ok && x >= 0 && y >= 0 && x < vp.W && y < vp.H
	}
	if !c.loggedNodes {
		c.loggedNodes = true
		c.logNodes(at)
	}
	for i, h := range hs {
		x, y, ok := at(h.Pos)
		x2, y2, ok2 := at(h.Pos.Add(h.Axis.Mul(debugdraw.PixelSize(vp.View, vp.Proj, h.Pos, vp.H) * 10)))
		if ok && ok2 {
			dx, dy := x2-x, y2-y
			l := math.Hypot(dx, dy)
			c.Screen(fmt.Sprintf("handle %d %s at %.0f %.0f dir %.3f %.3f", i, h.Param, x, y, dx/l, dy/l))
		}
	}
}

// logNodes reports a point on each node's lines, and a point on each mesh
// node near the bottom middle of its bounds (the base of a U, where its
// middle is the gap).
func (c *Controller) logNodes(at func(mgl64.Vec3) (float64, float64, bool)) {
	for n := range c.s.Doc.Nodes {
		if ls := c.debug.PickLines(n); len(ls) > 0 {
			l := ls[len(ls)/3]
			mid := mgl64.Vec3{float64(l.A[0]+l.B[0]) / 2, float64(l.A[1]+l.B[1]) / 2, float64(l.A[2]+l.B[2]) / 2}
			if x, y, ok := at(mid); ok {
				c.Screen(fmt.Sprintf("node %d lines at %.0f %.0f", n, x, y))
			}
		}
	}
	for n, node := range c.s.Doc.GLTF.Nodes {
		if node.Mesh == nil {
			continue
		}
		lo, hi, ok := c.r.NodeBounds(n)
		if !ok {
			continue
		}
		p := lo.Add(hi).Mul(0.5)
		p[1] = lo[1] + 0.1*(hi[1]-lo[1])
		if x, y, ok := at(p); ok {
			c.Screen(fmt.Sprintf("node %d mesh base at %.0f %.0f", n, x, y))
		}
	}
}
