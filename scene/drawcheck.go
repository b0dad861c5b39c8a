package scene

import "fmt"

// EmptyPictureReason says, in one sentence, why the shown scene draws no
// mesh although the file has meshes: no node of the scene uses one, or no
// primitive can be read (with the first reason). It is "" when something
// draws or the file has no meshes. It reads primitives until one draws, so
// call it when the picture is empty.
func (d *Document) EmptyPictureReason() string {
	g := d.GLTF
	if g == nil || len(g.Meshes) == 0 {
		return ""
	}
	scene := "the scene"
	if s := d.ShownScene(); s >= 0 {
		scene = fmt.Sprintf("scene %d", s)
	}
	var first error
	failed, tried := 0, 0
	seen := map[int]bool{}
	for _, n := range d.SceneNodes() {
		node := g.Nodes[n]
		if node == nil || node.Mesh == nil || *node.Mesh < 0 || *node.Mesh >= len(g.Meshes) || seen[*node.Mesh] {
			continue
		}
		m := *node.Mesh
		seen[m] = true
		for p := range g.Meshes[m].Primitives {
			tried++
			pd, err := d.ReadPrimitive(m, p)
			if err == nil && pd.draws() {
				return ""
			}
			if err == nil {
				err = fmt.Errorf("mesh %d primitive %d has no complete triangle, line or point", m, p)
			}
			if first == nil {
				first = err
			}
			failed++
		}
	}
	if tried == 0 {
		meshes := "1 mesh"
		if len(g.Meshes) != 1 {
			meshes = fmt.Sprintf("%d meshes", len(g.Meshes))
		}
		return fmt.Sprintf("nothing is drawn: the file has %s but no node of %s uses one", meshes, scene)
	}
	more := ""
	if failed > 1 {
		more = fmt.Sprintf(" (and %d more primitives)", failed-1)
	}
	return fmt.Sprintf("nothing is drawn: no primitive of %s can be drawn: %v%s", scene, first, more)
}

// draws reports whether the primitive has at least one triangle, line or
// point to draw.
func (pd *PrimitiveData) draws() bool {
	n := len(pd.Positions)
	if pd.Indices != nil {
		n = len(pd.Indices)
	}
	switch pd.Mode {
	case DrawTriangles:
		return n >= 3
	case DrawLines, DrawLineStrip, DrawLineLoop:
		return n >= 2
	}
	return n >= 1
}
