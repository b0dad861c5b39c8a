package jsonsplice

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// longLine returns an array of n objects written on one line (as a
// conversion from XODE or G4MF makes the text it splices into), with every
// element's value v.
func longLine(n, v int) []byte {
	var b bytes.Buffer
	b.WriteString("\n[")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"N%d","v":%d}`, i, v)
	}
	b.WriteString("]\n")
	return b.Bytes()
}

// TestSpliceLongLine: every element of a one-line array changed. The
// values written anew are indented as their line (not at all), and the
// line is found by a search: each one scanned back to the line's start
// before, so 20,000 bodies converted from XODE took over a minute.
func TestSpliceLongLine(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "\n[{\"name\":\"N0\",\"v\":2}]\n"},
		{3, "\n[{\"name\":\"N0\",\"v\":2},{\"name\":\"N1\",\"v\":2},{\"name\":\"N2\",\"v\":2}]\n"},
	} {
		got, err := Splice(longLine(tc.n, 1), longLine(tc.n, 2))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("%d elements: got %q, want %q", tc.n, got, tc.want)
		}
	}
	timeOf := func(n int) time.Duration {
		old, new := longLine(n, 1), longLine(n, 2)
		start := time.Now()
		got, err := Splice(old, new)
		d := time.Since(start)
		if err != nil || !bytes.Equal(got, new) {
			t.Fatalf("%d elements: %v, %d bytes, want the new text's %d", n, err, len(got), len(new))
		}
		if c := strings.Count(string(got), `"v":2`); c != n {
			t.Fatalf("%d elements: %d written anew", n, c)
		}
		return d
	}
	// The least of three runs of each: one run can take a collection or
	// the machine's stall.
	small, large := minOf3(func() time.Duration { return timeOf(2000) }), minOf3(func() time.Duration { return timeOf(40000) })
	t.Logf("2,000 elements %v, 40,000 elements %v: %.1f times", small, large, float64(large)/float64(small))
	// Linear is about 20; quadratic was over 150 here.
	if r := float64(large) / float64(small); r > 80 {
		t.Errorf("20x the elements took %.1f times as long (%v, %v): not linear", r, small, large)
	}
}

// minOf3 is the least of three runs of f.
func minOf3(f func() time.Duration) time.Duration {
	return min(f(), f(), f())
}
