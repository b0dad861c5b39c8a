package app

import (
	"math"
	"testing"

	"physview/scene"
)

// TestJointSettingsUnits: a limit of angular axes shows degrees (45° for
// the file's π/4, and back), one of linear axes metres, one of both the
// file's own units; a drive says its units and what it does on its axis.
func TestJointSettingsUnits(t *testing.T) {
	for _, tc := range []struct {
		limit scene.JointLimit
		label string
		file  float64
		shown float64
	}{
		{scene.JointLimit{AngularAxes: []int{0}}, "°", math.Pi / 4, 45},
		{scene.JointLimit{AngularAxes: []int{0, 2}}, "°", -math.Pi / 2, -90},
		{scene.JointLimit{LinearAxes: []int{1}}, "m", 0.25, 0.25},
		{scene.JointLimit{LinearAxes: []int{1}, AngularAxes: []int{1}}, "m; rad", 0.5, 0.5},
	} {
		u := LimitUnits(tc.limit)
		if u.Label != tc.label || math.Abs(u.Shown(tc.file)-tc.shown) > 1e-12 || math.Abs(u.File(tc.shown)-tc.file) > 1e-12 {
			t.Errorf("%+v: %q, %g shown as %g and back %g; want %q, %g", tc.limit, u.Label, tc.file, u.Shown(tc.file), u.File(tc.shown), tc.label, tc.shown)
		}
	}
	for _, tc := range []struct {
		drive scene.JointDrive
		want  DriveUnits
	}{
		{scene.JointDrive{Type: "angular", Axis: 2}, DriveUnits{Position: LimitUnit{"°", 180 / math.Pi}, Velocity: "rad/s", Force: "N·m", Axis: "turns about z"}},
		{scene.JointDrive{Type: "linear", Axis: 1}, DriveUnits{Position: LimitUnit{"m", 1}, Velocity: "m/s", Force: "N", Axis: "moves along y"}},
	} {
		if got := DriveUnitsOf(tc.drive); got != tc.want {
			t.Errorf("%+v: %+v, want %+v", tc.drive, got, tc.want)
		}
	}
}
