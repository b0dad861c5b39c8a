package viewport

import (
	"fmt"
	"math"

	"physview/sim"
)

// logJoints tells a test driving the window (PHYSVIEW_LOG_SCREEN=1) where
// each played joint is, whenever it has moved by a degree or a centimetre
// since it last said: "joint N angle DEG" or "joint N position M".
func (c *Controller) logJoints(s *sim.Sim) {
	if c.Screen == nil {
		return
	}
	if c.play.joints == nil {
		c.play.joints = map[int]float64{}
	}
	for _, j := range s.JointStates() {
		v, unit, step := j.Value, "position", 0.01
		if j.Angular {
			v, unit, step = v*180/math.Pi, "angle", 1
		}
		if last, ok := c.play.joints[j.Node]; ok && math.Abs(v-last) < step {
			continue
		}
		c.play.joints[j.Node] = v
		c.Screen(fmt.Sprintf("joint %d %s %.2f", j.Node, unit, v))
	}
}
