package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestHugeCountEverywhere: issue 24 item 1. Each file under testdata/huge
// holds an accessor without a bufferView whose count is 3,999,999,999 (48
// GB as float32 VEC3), in a different role: positions (drawn as triangles,
// lines, points and a strip), indices, other attributes, a morph target,
// joints and weights, inverse bind matrices, animation input and output,
// instancing, and the mesh of a KHR and an OMI physics collider. Every
// command reads each of them without reserving memory by that count: it
// draws, reports or refuses with a message, and never exits 2 ("cannot
// read the file") or dies out of memory.
func TestHugeCountEverywhere(t *testing.T) {
	files, err := filepath.Glob("testdata/huge/*.gltf")
	if err != nil || len(files) < 12 {
		t.Fatalf("found %d fixtures (%v)", len(files), err)
	}
	out := t.TempDir()
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".gltf")
		for _, args := range [][]string{
			{"inspect", f},
			{"validate", f},
			{"simulate", "-t", "0.1", f},
			{"screenshot", "-size", "64x48", "-o", filepath.Join(out, name+".png"), f},
			{"convert", f, filepath.Join(out, name+".glb")},
			{"convert", f, filepath.Join(out, name+".gltf")},
		} {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			code, stdout, stderr := runCLI(args...)
			runtime.ReadMemStats(&after)
			what := name + " " + args[0]
			if code == 2 || code > 3 {
				t.Errorf("%s: exit %d: %s%s", what, code, stdout, stderr)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
				t.Errorf("%s: crashed: %s", what, stderr)
			}
			// 1 GB would be a fiftieth of what the count asks for; the
			// commands need a few tens of MB for these files.
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<30 {
				t.Errorf("%s: allocated %d MB", what, grew>>20)
			}
		}
		// Conversions carry the accessor over as it is (a count, no data).
		for _, ext := range []string{".glb", ".gltf"} {
			st, err := os.Stat(filepath.Join(out, name+ext))
			if err != nil || st.Size() > 64<<10 {
				t.Errorf("%s%s: %v (size %v)", name, ext, err, st)
			}
		}
	}
	// Where the count cannot be skipped it is refused with the budget named.
	for _, tc := range []struct {
		file string
		args []string
		want string
	}{
		{"morph", []string{"screenshot", "-size", "64x48", "-o", filepath.Join(out, "m.png")}, "accessor 1: count 3999999999 without a bufferView is over the budget of 16777216 elements"},
		{"anim", []string{"screenshot", "-size", "64x48", "-o", filepath.Join(out, "a.png")}, "accessor 1: count 3999999999 without a bufferView is over the budget of 16777216 elements"},
		{"position", []string{"screenshot", "-size", "64x48", "-o", filepath.Join(out, "p.png")}, "all 3999999999 positions are (0, 0, 0), nothing to draw"},
		{"physmesh", []string{"simulate"}, "all 3999999999 positions are (0, 0, 0)"},
		{"omimesh", []string{"simulate"}, "all 3999999999 positions are (0, 0, 0)"},
	} {
		_, stdout, stderr := runCLI(append(tc.args, filepath.Join("testdata/huge", tc.file+".gltf"))...)
		if !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("%s %s: %q does not say %q", tc.file, tc.args[0], stdout+stderr, tc.want)
		}
	}
}
