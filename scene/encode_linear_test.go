package scene

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// longNameList returns a file whose extensionsUsed lists n distinct
// names of 40 bytes (100,000 of them: a 4 MB file).
func longNameList(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"asset":{"version":"2.0"},"extensionsUsed":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"EXT_%s%08d"`, strings.Repeat("x", 28), i)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// encodeTime returns the shortest of three encodings of d as .gltf.
func encodeTime(t testing.TB, d *Document) time.Duration {
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		if _, err := d.Encode(filepath.Join(t.TempDir(), "out.gltf")); err != nil {
			t.Fatal(err)
		}
		best = min(best, time.Since(start))
	}
	return best
}

// encodeRatio decodes files of n and 10n names and returns the times of
// their encodings and the ratio.
func encodeRatio(t testing.TB, n int) (small, large time.Duration) {
	ds, err := Decode(longNameList(n), nil)
	if err != nil {
		t.Fatal(err)
	}
	dl, err := Decode(longNameList(10*n), nil)
	if err != nil {
		t.Fatal(err)
	}
	return encodeTime(t, ds), encodeTime(t, dl)
}

// TestEncodeLongNameListLinear: saving a file that lists 50,000 names in
// extensionsUsed takes about 10 times what 5,000 take (each name looked
// up in the others made it quadratic: 100 times). The bound is loose
// (40) so that a loaded machine does not fail it; the benchmark below
// gives the ratio.
func TestEncodeLongNameListLinear(t *testing.T) {
	small, large := encodeRatio(t, 5000)
	t.Logf("5,000 names %v, 50,000 names %v: %.1f times", small, large, float64(large)/float64(small))
	if r := float64(large) / float64(small); r > 40 {
		t.Errorf("10x the names took %.1f times as long (%v, %v): not linear", r, small, large)
	}
}

// BenchmarkEncodeLongNameList encodes files of 10,000 and 100,000 names
// in extensionsUsed (0.4 and 4 MB) and reports the ratio of the times
// (10x the input: at most 12x the time when linear):
//
//	go test -run '^$' -bench EncodeLongNameList -benchtime 1x ./scene
func BenchmarkEncodeLongNameList(b *testing.B) {
	var small, large time.Duration
	for b.Loop() {
		s, l := encodeRatio(b, 10000)
		small += s
		large += l
	}
	b.ReportMetric(float64(small.Microseconds())/float64(b.N)/1000, "ms/10k-names")
	b.ReportMetric(float64(large.Microseconds())/float64(b.N)/1000, "ms/100k-names")
	b.ReportMetric(float64(large)/float64(small), "ratio")
}
