package scene

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"physview/scene/corecheck"
)

// nodeChain returns a file of a chain of n nodes, each the child of the
// one before, the first in the scene.
func nodeChain(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if i < n-1 {
			fmt.Fprintf(&b, `{"children":[%d]}`, i+1)
		} else {
			b.WriteString(`{}`)
		}
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// nodeCost returns what decoding (Decode: load, checks, the typed
// document kept) a chain of n nodes allocates per node, and the same for
// encoding/json's Unmarshal of the same text into a gltf.Document alone
// (the floor: any reader of the typed document pays it).
func nodeCost(t testing.TB, n int) (perNode, floor float64) {
	src := nodeChain(n)
	var err error
	got := allocated(func() { _, err = Decode(src, nil) })
	if err != nil {
		t.Fatal(err)
	}
	base := allocated(func() {
		var doc gltf.Document
		err = json.Unmarshal(src, &doc)
	})
	if err != nil {
		t.Fatal(err)
	}
	return float64(got) / float64(n), float64(base) / float64(n)
}

// TestNodeCost: what a node costs to read and check, in bytes allocated
// (not time): at most 2 KB, and at most 2.4 times what encoding/json
// alone allocates for it (docs/robustness.md).
func TestNodeCost(t *testing.T) {
	per, floor := nodeCost(t, 20000)
	t.Logf("%.0f bytes a node, %.0f for encoding/json alone: %.2f times", per, floor, per/floor)
	if per > 2048 || per/floor > 2.4 {
		t.Errorf("a node costs %.0f bytes (%.2f times encoding/json's %.0f), want at most 2048 and 2.4 times", per, per/floor, floor)
	}
}

// TestTooManyNodes: past corecheck.MaxNodes a file is refused before its
// nodes are decoded, with the count and the bound.
func TestTooManyNodes(t *testing.T) {
	src := []byte(`{"asset":{"version":"2.0"},"nodes":[` + strings.Repeat("{},", corecheck.MaxNodes) + `{}]}`)
	var err error
	grew := allocated(func() { _, err = Decode(src, nil) })
	want := fmt.Sprintf("%d nodes: more than the %d physview reads", corecheck.MaxNodes+1, corecheck.MaxNodes)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
	if grew > 400<<20 {
		t.Errorf("refusing it allocated %d MB", grew>>20)
	}
}

// BenchmarkNodeChain reports the bytes a node of a 20,000-node chain
// allocates when read and checked, and the ratio to encoding/json's
// Unmarshal of the same file into a gltf.Document:
//
//	go test -run '^$' -bench NodeChain -benchtime 1x ./scene
func BenchmarkNodeChain(b *testing.B) {
	b.ReportAllocs()
	var per, floor float64
	for b.Loop() {
		per, floor = nodeCost(b, 20000)
	}
	b.ReportMetric(per, "B/node")
	b.ReportMetric(floor, "json-B/node")
	b.ReportMetric(per/floor, "ratio")
}
