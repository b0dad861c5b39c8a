package scene

import (
	"math"
	"reflect"
	"testing"
)

func TestParseJointAxis(t *testing.T) {
	cases := []struct {
		in   string
		want JointAxis
		ok   bool
	}{
		{"angular-y", JointAxis{Angular: true, Axis: 1}, true},
		{"ax", JointAxis{Angular: true, Axis: 0}, true},
		{"linear-z", JointAxis{Axis: 2}, true},
		{"TX", JointAxis{Axis: 0}, true},
		{"swing", JointAxis{Angular: true, Axis: 1, Swing: true}, true},
		{"", JointAxis{}, false},
		{"x", JointAxis{}, false},
		{"angular-w", JointAxis{}, false},
		{"sideways", JointAxis{}, false},
	}
	for _, c := range cases {
		got, ok := ParseJointAxis(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseJointAxis(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestWithLimit: a limit set on one axis takes the axis out of the limits
// that named it with others (they keep theirs), replaces a limit on that
// axis alone in place, and refuses what the drafts forbid.
func TestWithLimit(t *testing.T) {
	inf := math.Inf(1)
	weld := JointSettings{Limits: []JointLimit{{LinearAxes: []int{0, 1, 2}, AngularAxes: []int{0, 1, 2}, Stiffness: inf}}}
	got, err := weld.WithLimit(JointAxis{Angular: true, Axis: 1}, -1, 1, inf, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []JointLimit{
		{LinearAxes: []int{0, 1, 2}, AngularAxes: []int{0, 2}, Stiffness: inf},
		{AngularAxes: []int{1}, Min: -1, Max: 1, Stiffness: inf},
	}
	if !reflect.DeepEqual(got.Limits, want) {
		t.Errorf("weld with angular Y freed to [-1, 1]:\n%+v\nwant\n%+v", got.Limits, want)
	}
	again, err := got.WithLimit(JointAxis{Angular: true, Axis: 1}, 0, 2, 50, 3)
	if err != nil || len(again.Limits) != 2 || again.Limits[1].Min != 0 || again.Limits[1].Max != 2 || again.Limits[1].Stiffness != 50 || again.Limits[1].Damping != 3 {
		t.Errorf("limit replaced in place: %+v, %v", again.Limits, err)
	}
	for _, c := range []struct{ lo, hi, k, d float64 }{{1, 0, inf, 0}, {0, 1, -1, 0}, {0, 1, inf, -1}, {math.NaN(), 1, inf, 0}} {
		if _, err := got.WithLimit(JointAxis{Angular: true, Axis: 1}, c.lo, c.hi, c.k, c.d); err == nil {
			t.Errorf("limit %v accepted", c)
		}
	}
	if free := got.WithoutLimit(JointAxis{Angular: true, Axis: 1}); len(free.Limits) != 1 {
		t.Errorf("freed: %+v", free.Limits)
	}
	if ax, err := got.MainAxis(); err != nil || ax != (JointAxis{Angular: true, Axis: 1}) {
		t.Errorf("main axis of a hinge: %+v, %v", ax, err)
	}
}
