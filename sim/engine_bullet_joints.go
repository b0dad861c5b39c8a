package sim

import (
	"physview/sim/bullet"
	"physview/sim/ode"
)

// NewAMotor gives Bullet the angular motor the sim limits a ball joint's
// swing and twist with (angularMotorEngine): bullet.AMotor plays ODE's
// user-mode motor's stops.
func (w bulletWorld) NewAMotor(b1, b2 engineBody, n int) (angularMotor, error) {
	o1, _ := b1.(*bullet.Body)
	o2, _ := b2.(*bullet.Body)
	m, err := w.World.NewAMotor(o1, o2, n)
	if err != nil {
		return nil, err
	}
	return bulletAMotor{m}, nil
}

// bulletAMotor takes ODE's parameter numbers (ParamGroup2 and ParamGroup3
// added for the second and third axes).
type bulletAMotor struct{ *bullet.AMotor }

func (m bulletAMotor) SetParam(p int, v float64) {
	axis := p / ode.ParamGroup2
	var bp int
	switch p % ode.ParamGroup2 {
	case ode.ParamLoStop:
		bp = bullet.ParamLoStop
	case ode.ParamHiStop:
		bp = bullet.ParamHiStop
	case ode.ParamStopERP:
		bp = bullet.ParamStopERP
	case ode.ParamStopCFM:
		bp = bullet.ParamStopCFM
	default:
		return // the motor's speed and force are not played: the sim uses its stops only
	}
	m.AMotor.SetParam(axis, bp, v)
}

// State returns axis group's angle as last set, and no rate.
func (m bulletAMotor) State(group int) (x, v float64) { return m.AMotor.Angle(group), 0 }

// Angle returns the first axis's angle as last set.
func (m bulletAMotor) Angle() float64 { return m.AMotor.Angle(0) }

func (m bulletAMotor) SetAMotorAxis(i int, axis [3]float64, angle float64) {
	m.AMotor.SetAxis(i, axis, angle)
}
