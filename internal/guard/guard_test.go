package guard

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

// TestEach: every index runs once, also after a panic in another; the
// first panic comes back on the caller's goroutine with the worker's stack.
func TestEach(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		workers int
		panicAt int // -1: none
	}{
		{"no panic", 100, 4, -1},
		{"panic in the middle", 100, 4, 50},
		{"one worker panics first", 10, 1, 0},
		{"more workers than work", 3, 16, 2},
		{"nothing to do", 0, 4, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ran atomic.Int64
			var got any
			func() {
				defer func() { got = recover() }()
				Each(tc.n, tc.workers, func(i int) {
					ran.Add(1)
					if i == tc.panicAt {
						var m map[string]int
						m["x"] = 1 // a nil map write: a runtime panic
					}
				})
			}()
			if ran.Load() != int64(tc.n) {
				t.Errorf("%d calls, want %d", ran.Load(), tc.n)
			}
			if tc.panicAt < 0 {
				if got != nil {
					t.Fatalf("panic %v, want none", got)
				}
				return
			}
			p, ok := got.(*Panic)
			if !ok {
				t.Fatalf("recovered %T %v, want *Panic", got, got)
			}
			if !strings.Contains(p.Error(), "nil map") {
				t.Errorf("message %q, want the original", p.Error())
			}
			if !strings.Contains(string(p.Stack), "guard_test.go") {
				t.Errorf("stack does not show the worker's frame:\n%s", p.Stack)
			}
		})
	}
}

// TestCatch: a panic becomes the error; no panic leaves the error alone.
func TestCatch(t *testing.T) {
	sentinel := errors.New("kept")
	for _, tc := range []struct {
		name  string
		panic any
		want  string
	}{
		{"panic with a string", "boom", "boom"},
		{"panic with an error", errors.New("bad"), "bad"},
		{"no panic", nil, "kept"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error)
			go func() {
				err := sentinel
				func() {
					defer Catch(&err)
					if tc.panic != nil {
						panic(tc.panic)
					}
				}()
				done <- err
			}()
			if err := <-done; err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}
