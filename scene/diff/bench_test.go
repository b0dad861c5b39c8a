package diff

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"physview/internal/testcorpus"
	"physview/scene"
)

// largestModel is the largest model of the corpus (3.8 MB: five 2048²
// textures, 14,556 vertices).
const largestModel = "gltf-sample-assets/Models/DamagedHelmet/glTF-Binary/DamagedHelmet.glb"

// BenchmarkDiffLargest diffs two versions of the largest corpus model (B:
// the helmet moved up 0.1 m and saved) and reports the time of load A +
// load B + Compare over the time of load A + load B as "ratio" (the goal
// is under 2). Run:
//
//	go test -run '^$' -bench DiffLargest -benchtime 3x ./scene/diff
func BenchmarkDiffLargest(b *testing.B) {
	a := testcorpus.File(b, largestModel)
	d, err := scene.Load(a)
	if err != nil {
		b.Fatal(err)
	}
	tr := d.NodeTransform(0)
	tr.Translation[1] += 0.1
	if _, err := scene.Apply(d, scene.SetNodeTransform{Node: 0, Transform: tr}); err != nil {
		b.Fatal(err)
	}
	bpath := filepath.Join(b.TempDir(), "helmet-moved.glb")
	if err := d.Save(bpath); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(bpath); err != nil {
		b.Fatal(err)
	}
	var load, total time.Duration
	changes := 0
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		da, err := scene.Load(a)
		if err != nil {
			b.Fatal(err)
		}
		db, err := scene.Load(bpath)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		r, err := Compare(da, db)
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		load += t1.Sub(t0)
		total += t2.Sub(t0)
		changes = len(r.Changes)
	}
	if changes != 1 {
		b.Fatalf("%d changes, want the moved node", changes)
	}
	b.ReportMetric(float64(load.Milliseconds())/float64(b.N), "load-ms/op")
	b.ReportMetric(float64((total-load).Milliseconds())/float64(b.N), "diff-ms/op")
	b.ReportMetric(float64(total)/float64(load), "ratio")
}
