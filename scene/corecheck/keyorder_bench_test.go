package corecheck

import (
	"os"
	"testing"
	"time"

	"physview/internal/testcorpus"
)

// BenchmarkAttrKeyOrders measures reading the attributes' key order again
// (what a file pays when two of a primitive's accessors share a buffer
// view) against the whole Decode of the same file, in the same run:
// IridescenceDielectricSpheres, the corpus' largest glTF JSON (134 meshes).
// It reports keyorder/decode.
func BenchmarkAttrKeyOrders(b *testing.B) {
	path := testcorpus.File(b, "gltf-sample-assets/Models/IridescenceDielectricSpheres/glTF/IridescenceDielectricSpheres.gltf")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	dir := os.DirFS(path[:len(path)-len("/IridescenceDielectricSpheres.gltf")])
	var orders, decode time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if len(attrKeyOrders(data)) == 0 {
			b.Fatal("no attributes read")
		}
		t1 := time.Now()
		if _, err := Decode(data, dir, Options{}); err != nil {
			b.Fatal(err)
		}
		orders += t1.Sub(t0)
		decode += time.Since(t1)
	}
	b.ReportMetric(float64(orders)/float64(decode), "keyorder/decode")
}
