package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"physview/scene"
)

// aliasedFile writes a model of n accessors of count VEC3 floats on one
// buffer view of zeros, each drawn by a primitive of one mesh; accessor k
// starts at byte k*shift of the view (shift 0: all alike). It returns the
// file's path and the bytes of its buffer.
func aliasedFile(t testing.TB, n, count, shift int) (string, int) {
	t.Helper()
	dir := t.TempDir()
	size := count*12 + (n-1)*shift
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	var accs, prims strings.Builder
	for k := range n {
		if k > 0 {
			accs.WriteByte(',')
			prims.WriteByte(',')
		}
		fmt.Fprintf(&accs, `{"bufferView":0,"byteOffset":%d,"componentType":5126,"count":%d,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}`, k*shift, count)
		fmt.Fprintf(&prims, `{"attributes":{"POSITION":%d},"mode":0}`, k)
	}
	src := fmt.Sprintf(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":%d,"uri":"big.bin"}],
"bufferViews":[{"buffer":0,"byteLength":%d,"byteStride":12}],"accessors":[%s],
"meshes":[{"primitives":[%s]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`, size, size, accs.String(), prims.String())
	path := filepath.Join(dir, "aliased.gltf")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, size
}

// TestAliasedViewsReadOnce: accessors that alias one buffer view are
// budgeted by what is really read. 1,000 accessors alike on one 1.2 MB
// view (each under its own 1 GB budget) asked inspect for 1.2 GB: the
// bounds check scans the bytes once, the drawn positions are read once
// and held once. Accessors that differ (shifted by 4 bytes) are read
// until the document's read budget, and the rest refused with the reason.
func TestAliasedViewsReadOnce(t *testing.T) {
	for _, tc := range []struct {
		name              string
		n, count, shift   int
		maxScan, maxRead  int64
		maxAlloc          uint64
		wantNotChecked    bool
		wantBoundsReadAll bool
	}{
		// One read of 100,000 vertices: 1.2 MB scanned, 1.2 MB as floats.
		{"1,000 alike", 1000, 100000, 0, 1200000, 1200000, 64 << 20, false, true},
		// 30 distinct reads of 12 MB from a 12 MB buffer: 21 fit the
		// 256 MB floors of both budgets, 9 are not checked, not read.
		{"30 shifted", 30, 1000000, 4, scene.ReadBudgetFloor, scene.ReadBudgetFloor, 640 << 20, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, size := aliasedFile(t, tc.n, tc.count, tc.shift)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			d, err := scene.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			r := Inspect(d)
			b, err := PosedBounds(d, 0, math.NaN())
			if err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			if got := d.ScannedBytes(); got > tc.maxScan || got < int64(tc.count)*12 {
				t.Errorf("the bounds check read %d bytes, want %d..%d", got, tc.count*12, tc.maxScan)
			}
			if got := d.AccessorBytesRead(); got > tc.maxRead || got < int64(tc.count)*12 {
				t.Errorf("inspect materialized %d bytes, want %d..%d", got, tc.count*12, tc.maxRead)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > tc.maxAlloc {
				t.Errorf("validate and inspect allocated %d MB, want at most %d MB (buffer %d bytes)", grew>>20, tc.maxAlloc>>20, size)
			}
			if b == nil || b.Min != [3]float64{} || b.Max != [3]float64{} || (tc.wantBoundsReadAll && b.LeftOut != 0) {
				t.Errorf("bounds %+v, want the origin", b)
			}
			notChecked := 0
			for _, f := range r.Findings {
				if f.Code == "ACCESSOR_DATA_NOT_CHECKED" {
					notChecked++
					if want := fmt.Sprintf("the data of %d accessors", tc.n-int(tc.maxScan/int64(tc.count*12))); !strings.Contains(f.Message, want) {
						t.Errorf("%s: %q lacks %q", f.Code, f.Message, want)
					}
				}
			}
			if got := notChecked > 0; got != tc.wantNotChecked {
				t.Errorf("ACCESSOR_DATA_NOT_CHECKED findings: %d, want some: %v", notChecked, tc.wantNotChecked)
			}
			if !tc.wantBoundsReadAll {
				// The accessors past the budget are refused, with the
				// reason, by every reader.
				if b.LeftOut != tc.n-int(scene.ReadBudgetFloor/int64(tc.count*12)) || !strings.Contains(b.Why, "budget of 256.0 MB") {
					t.Errorf("bounds leave out %d primitives (%q), want the %d past the budget", b.LeftOut, b.Why, tc.n-int(scene.ReadBudgetFloor/int64(tc.count*12)))
				}
				last := tc.n - 1
				_, _, err := d.AccessorFloats(last, true)
				if err == nil || !strings.Contains(err.Error(), "budget of 256.0 MB") {
					t.Errorf("accessor %d read past the budget: %v", last, err)
				}
			}
		})
	}
}
