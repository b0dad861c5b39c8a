package app

import (
	"math"

	"physview/scene"
)

// The Inspector's joint settings rows show each value in plain units: a
// limit or drive on linear axes in metres (m/s, N), one on angular axes in
// degrees (rad/s for velocities, N·m), as the main limit row and the
// joint commands do. The file keeps metres and radians.

// LimitUnit is how a joint limit's range is shown: Label names the unit
// ("m", "°", or "m; rad" for a limit of linear and angular axes at once,
// shown as the file has it) and Scale converts the file's value to the
// shown one (shown = file × Scale).
type LimitUnit struct {
	Label string
	Scale float64
}

// Shown converts a value of the file to the shown unit.
func (u LimitUnit) Shown(v float64) float64 { return v * u.Scale }

// File converts a shown value back to the file's unit.
func (u LimitUnit) File(v float64) float64 { return v / u.Scale }

// LimitUnits is the unit limit l's range is shown in.
func LimitUnits(l scene.JointLimit) LimitUnit {
	switch {
	case len(l.AngularAxes) > 0 && len(l.LinearAxes) > 0:
		return LimitUnit{Label: "m; rad", Scale: 1}
	case len(l.AngularAxes) > 0:
		return LimitUnit{Label: "°", Scale: 180 / math.Pi}
	}
	return LimitUnit{Label: "m", Scale: 1}
}

// DriveUnits are the units a drive's values are shown in.
type DriveUnits struct {
	// Position is the position target's unit (shown with Position.Scale).
	Position LimitUnit
	// Velocity and Force name the velocity target's and the max force's
	// units (shown as the file has them).
	Velocity, Force string
	// Axis says what the drive does along its axis: "moves along y",
	// "turns about z".
	Axis string
}

// DriveUnitsOf returns the units of drive dr.
func DriveUnitsOf(dr scene.JointDrive) DriveUnits {
	axis := "?"
	if dr.Axis >= 0 && dr.Axis < 3 {
		axis = [3]string{"x", "y", "z"}[dr.Axis]
	}
	if dr.Type == "angular" {
		return DriveUnits{Position: LimitUnit{Label: "°", Scale: 180 / math.Pi}, Velocity: "rad/s", Force: "N·m", Axis: "turns about " + axis}
	}
	return DriveUnits{Position: LimitUnit{Label: "m", Scale: 1}, Velocity: "m/s", Force: "N", Axis: "moves along " + axis}
}
