package xode

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"
)

// genXODE writes an XODE document of about n elements: a world and a space
// holding units of two nested groups around a body with a transform, a
// position, a geom and a box (7 elements a unit), the way a large
// generated scene nests.
func genXODE(n int) []byte {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<xode version=\"1.0r23\" name=\"gen\">\n<world>\n<space>\n")
	for i := 0; i*7 < n; i++ {
		fmt.Fprintf(&b, "<group name=\"g%d\">\n <group>\n  <body name=\"b%d\">\n   <transform>\n    <position x=\"%d\" y=\"0\" z=\"%d\"/>\n   </transform>\n", i, i, i%100, i/100)
		b.WriteString("   <geom>\n    <box sizex=\"0.5\" sizey=\"0.5\" sizez=\"0.5\"/>\n   </geom>\n  </body>\n </group>\n</group>\n")
	}
	b.WriteString("</space>\n</world>\n</xode>\n")
	return []byte(b.String())
}

// cpuTime is the CPU time this process has used (user and system): other
// processes on a loaded machine do not count in it, as they do in wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ratio runs f on the small and the large input in turn, five times each
// after a collection (so one run's garbage is not charged to the next), and
// returns the best CPU time of each and their ratio.
func ratio(t *testing.T, small, large []byte, f func([]byte) error) (ts, tl time.Duration, r float64) {
	t.Helper()
	ts, tl = time.Duration(1<<62), time.Duration(1<<62)
	// No collection during a run: its cost grows with the live heap, which
	// would charge the larger input more than its size. Collecting between
	// runs keeps the memory at one run's garbage.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for range 5 {
		for _, c := range []struct {
			data []byte
			best *time.Duration
		}{{small, &ts}, {large, &tl}} {
			runtime.GC()
			start := cpuTime()
			if err := f(c.data); err != nil {
				t.Fatal(err)
			}
			*c.best = min(*c.best, cpuTime()-start)
		}
	}
	return ts, tl, float64(tl) / float64(ts)
}

// maxRatio bounds the time of ten times the input against the time of
// one: linear work gives 10, and the larger heap's cache misses and page
// faults (no collection runs inside a run) up to half as much again on a
// loaded machine (15.6 was seen with two other builds running); quadratic
// work gives 100.
const maxRatio = 30

// TestParseLinear: ten times the elements take about ten times as long to
// read, not a hundred (line numbers used to be counted from the start of
// the file for every element). The bound is a ratio measured in the same
// run, in CPU time, so a slow or loaded machine does not fail it.
func TestParseLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 100,000-element file")
	}
	small, large := genXODE(10_000), genXODE(100_000)
	// The line of the last body is right: counted incrementally, not lost.
	root, err := parse(large)
	if err != nil {
		t.Fatal(err)
	}
	sp := root.child("world").child("space")
	last := sp.Children[len(sp.Children)-1].child("group").child("body")
	if want := strings.Count(string(large), "\n") - 12; last.Line != want {
		t.Errorf("last body on line %d, want %d", last.Line, want)
	}
	ts, tl, r := ratio(t, small, large, func(b []byte) error { _, err := parse(b); return err })
	t.Logf("10k elements %v, 100k elements %v: %.1fx", ts, tl, r)
	if r > maxRatio {
		t.Errorf("100,000 elements take %.1fx the time of 10,000 (%v vs %v): reading is not linear", r, tl, ts)
	}
}

// TestDecodeLinear: the whole import (tree, nodes, shapes, the glTF read
// back) stays linear too.
func TestDecodeLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("imports a 100,000-element file")
	}
	small, large := genXODE(10_000), genXODE(100_000)
	ts, tl, r := ratio(t, small, large, func(b []byte) error {
		d, err := Decode(b)
		if err == nil && len(d.Shapes) == 0 {
			err = fmt.Errorf("no shapes")
		}
		return err
	})
	t.Logf("import: 10k elements %v, 100k elements %v: %.1fx", ts, tl, r)
	if r > maxRatio {
		t.Errorf("importing 100,000 elements takes %.1fx the time of 10,000 (%v vs %v): not linear", r, tl, ts)
	}
}

// BenchmarkDecode imports generated files of 1k, 10k and 100k elements;
// compare ns/op across sizes (docs/formats.md, "XODE load time").
func BenchmarkDecode(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		data := genXODE(n)
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
