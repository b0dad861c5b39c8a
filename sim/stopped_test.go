package sim

import (
	"errors"
	"fmt"
	"testing"
)

// TestStopped: only a body leaving what ODE plays (NaN, out of range),
// wrapped or not, leaves states worth reporting.
func TestStopped(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{&NaNError{Node: 2, Name: "a", Time: 0.5}, true},
		{&RangeError{Node: 1, Name: "b", Time: 2, What: "moves at 2e+04 m/s"}, true},
		{fmt.Errorf("run: %w", &RangeError{Node: 1}), true},
		{ErrNoBodies, false},
		{errors.New("ode: out of memory"), false},
	} {
		if got := Stopped(c.err); got != c.want {
			t.Errorf("Stopped(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
