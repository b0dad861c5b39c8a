package app

import "math"

// plottedJoint gives Play's plot the selected joint node's angle (degrees)
// or position (m) as its first series and the rate of change as its
// second, and names them in Play.Plotted; false when the selection is no
// played joint.
func (s *Session) plottedJoint() ([2]float64, bool) {
	p := &s.Play
	for _, j := range p.Sim.JointStates() {
		if j.Node != s.Selected {
			continue
		}
		if j.Angular {
			p.Plotted = j.Name + ": angle (°) as height, its rate (°/s) as speed"
			return [2]float64{j.Value * 180 / math.Pi, j.Rate * 180 / math.Pi}, true
		}
		p.Plotted = j.Name + ": position (m) as height, its rate (m/s) as speed"
		return [2]float64{j.Value, j.Rate}, true
	}
	return [2]float64{}, false
}
