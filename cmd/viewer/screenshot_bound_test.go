package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIncompleteMessageBounded: a file whose 25 meshes each lose their own
// missing .bin exits 1 naming the first maxNotDrawn of them and how many
// more, not every one (the Buggy sample without its .bin made a 12 KB
// line).
func TestIncompleteMessageBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("draws with GL")
	}
	const n = 25
	var buffers, views, accessors, meshes, nodes []any
	var roots []int
	for i := 0; i < n; i++ {
		buffers = append(buffers, map[string]any{"byteLength": 36, "uri": fmt.Sprintf("part%d.bin", i)})
		views = append(views, map[string]any{"buffer": i, "byteLength": 36})
		accessors = append(accessors, map[string]any{"bufferView": i, "componentType": 5126, "count": 3, "type": "VEC3",
			"min": []float64{0, 0, 0}, "max": []float64{1, 1, 0}})
		meshes = append(meshes, map[string]any{"name": fmt.Sprintf("part%d", i),
			"primitives": []any{map[string]any{"attributes": map[string]int{"POSITION": i}}}})
		nodes = append(nodes, map[string]any{"mesh": i, "translation": []float64{float64(i), 0, 0}})
		roots = append(roots, i)
	}
	doc := map[string]any{"asset": map[string]any{"version": "2.0"}, "scene": 0,
		"scenes": []any{map[string]any{"nodes": roots}}, "nodes": nodes, "meshes": meshes,
		"accessors": accessors, "bufferViews": views, "buffers": buffers}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "parts.gltf")
	os.WriteFile(file, data, 0o644)
	code, _, errOut := runCLI("screenshot", "-size", "64x48", "-o", filepath.Join(dir, "x.png"), file)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errOut)
	}
	var line string
	for _, l := range strings.Split(errOut, "\n") {
		if strings.Contains(l, "the picture is incomplete") {
			line = l
		}
	}
	if got := strings.Count(line, "was not found"); got != maxNotDrawn {
		t.Errorf("the message names %d missing files, want %d: %s", got, maxNotDrawn, line)
	}
	if want := fmt.Sprintf("and %d more not drawn", n-maxNotDrawn); !strings.Contains(line, want) {
		t.Errorf("the message lacks %q: %s", want, line)
	}
}
