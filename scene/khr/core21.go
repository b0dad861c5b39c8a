package khr

import (
	"fmt"

	"physview/scene"
)

// The KHR codec's part in a glTF 2.1 save: which model shapes the core
// "shapes" list holds (scene/gltf21 writes them) and what it cannot hold.

// gltf21Index is where each model shape goes in a 2.1 save: its index in
// "shapes", or -1 for a mesh a collider names by geometry.mesh (kept as
// the file had it).
func gltf21Index(d *scene.Document) []int {
	idx := make([]int, len(d.Shapes))
	next := 0
	for i := range d.Shapes {
		if khrOf(d) != nil && (khrOf(d).meshShape[i] || hasKey(khrOf(d).geomNode, i)) {
			idx[i] = -1
			continue
		}
		idx[i] = next
		next++
	}
	return idx
}

func hasKey(m map[int]int, k int) bool {
	_, ok := m[k]
	return ok
}

// gltf21Plan returns one line per thing a glTF 2.1 save cannot hold.
func gltf21Plan(d *scene.Document) []string {
	var warns []string
	for i, s := range d.Shapes {
		switch {
		case s.Type == scene.ShapePlane && s.DoubleSided:
			warns = append(warns, fmt.Sprintf("shape %d: a double-sided plane has no glTF 2.1 form (2.1 planes are one-sided); written one-sided", i))
		case s.Type != 0 && !isKHRShape(s.Type) && !s.Type.UsesMesh():
			warns = append(warns, fmt.Sprintf("shape %d: %s is not a glTF 2.1 shape type; written with type %q, which 2.1 readers do not know", i, s.Type, s.Type))
		}
	}
	return append(warns, khrNodeWarnings(d)...)
}
