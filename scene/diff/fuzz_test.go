package diff

import (
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
)

// FuzzCompare compares fuzzed documents with the fixture both ways: the
// comparison must never fail (a recovered panic is its only error) nor
// hang on what the loader accepts.
func FuzzCompare(f *testing.F) {
	base, err := os.ReadFile(filepath.Join("testdata", "base.gltf"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(base)
	for _, p := range []string{"../testdata/current.gltf", "../testdata/khr_physics.gltf", "../testdata/variants.gltf", "../testdata/meshcodec/draco.glb"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	dir := scene.FolderFS("testdata")
	b, err := scene.Decode(base, dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := scene.Decode(data, dir)
		if err != nil {
			return
		}
		if _, err := Compare(a, b); err != nil {
			t.Fatal(err)
		}
		if _, err := Compare(b, a); err != nil {
			t.Fatal(err)
		}
		if err := WriteSummary(nopWriter{}, a); err != nil {
			t.Fatal(err)
		}
	})
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
