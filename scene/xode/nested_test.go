package xode

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// nestedBodies is an XODE file of n bodies, each inside the one before.
func nestedBodies(n int) []byte {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<xode><world><space>\n")
	for i := range n {
		fmt.Fprintf(&b, `<body name="b%d"><transform><position x="0" y="1" z="0"/></transform><mass><mass_struct><mass value="1"/></mass_struct></mass><geom><box sizex="1" sizey="1" sizez="1"/></geom>`+"\n", i)
	}
	b.WriteString(strings.Repeat("</body>", n))
	b.WriteString("\n</space></world></xode>")
	return []byte(b.String())
}

// TestNestedBodiesLinear: issue 31. Reading n nested bodies and writing
// them back grow with n: 4 times the depth writes about 4 times the bytes
// (indentation stops at maxIndent; it was n squared) and takes at most 8
// times as long (the best of five, the two sizes taken in turn so that a
// busy spell of the machine slows both; it was 16 times, quadratic, from a
// world transform per body walked up the tree).
func TestNestedBodiesLinear(t *testing.T) {
	once := func(data []byte, n int) (time.Duration, int) {
		runtime.GC() // the last run's garbage is not this one's to collect
		start := time.Now()
		d, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.GLTF.Nodes) < n {
			t.Fatalf("%d nodes from %d bodies", len(d.GLTF.Nodes), n)
		}
		out, _, err := Encode(d)
		if err != nil {
			t.Fatal(err)
		}
		return time.Since(start), len(out)
	}
	small, large := nestedBodies(400), nestedBodies(1600)
	ts, tl := time.Duration(1<<62), time.Duration(1<<62)
	var ss, sl int
	for range 5 {
		var d time.Duration
		d, ss = once(small, 400)
		ts = min(ts, d)
		d, sl = once(large, 1600)
		tl = min(tl, d)
	}
	if r := float64(sl) / float64(ss); r > 4.5 {
		t.Errorf("4x the depth wrote %.1fx the bytes (%d, %d), want about 4", r, ss, sl)
	}
	if r := float64(tl) / float64(ts); r > 8 {
		t.Errorf("4x the depth took %.1fx the time (%v, %v), want at most 8", r, ts, tl)
	}
	t.Logf("400 bodies %v %d bytes, 1600 bodies %v %d bytes", ts, ss, tl, sl)
}
