package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"physview/internal/khronosval"
	"physview/internal/testcorpus"
)

// BenchmarkValidateVsKhronos times, side by side in one run and as whole
// processes, `viewer validate -json` (the real binary, built once) and the
// Khronos glTF-Validator under node (the npm package gltf-validator, see
// internal/khronosval) on StainedGlassLamp and on all 257 files of the
// Khronos validator's test suite. Each iteration runs both; the metrics are
// the mean wall time of each and their ratio (goal: under 0.1).
func BenchmarkValidateVsKhronos(b *testing.B) {
	corpus := testcorpus.Dir(b)
	kdir := khronosval.Dir(b, testcorpus.Root(b))
	tmp := b.TempDir()
	viewer := filepath.Join(tmp, "viewer")
	if out, err := exec.Command("go", "build", "-o", viewer, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	var suite []string
	filepath.WalkDir(filepath.Join(corpus, "khronos-gltf-validator", "test"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".gltf") || strings.HasSuffix(p, ".glb")) {
			suite = append(suite, p)
		}
		return nil
	})
	sort.Strings(suite)
	sets := []struct {
		name  string
		files []string
	}{
		{"StainedGlassLamp", []string{testcorpus.File(b, "gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp.gltf")}},
		{"suite", suite},
	}
	for _, set := range sets {
		b.Run(set.name, func(b *testing.B) {
			var ours, theirs time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				cmd := exec.Command(viewer, append([]string{"validate", "-json"}, set.files...)...)
				if err := cmd.Run(); err != nil {
					if _, ok := err.(*exec.ExitError); !ok {
						b.Fatal(err)
					}
				}
				ours += time.Since(start)
				kc, err := khronosval.Command(kdir, tmp, set.files)
				if err != nil {
					b.Fatal(err)
				}
				start = time.Now()
				if err := kc.Run(); err != nil {
					b.Fatal(err)
				}
				theirs += time.Since(start)
			}
			n := float64(b.N)
			b.ReportMetric(float64(ours.Milliseconds())/n, "physview-ms")
			b.ReportMetric(float64(theirs.Milliseconds())/n, "khronos-ms")
			b.ReportMetric(float64(ours)/float64(theirs), "ratio")
		})
	}
}
