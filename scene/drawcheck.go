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

// MissingData lists, one sentence a mesh, the meshes of the shown scene
// that are not drawn because a buffer they read has no data: its file
// (buffers[N].uri) was not found when the document was read, or the GLB's
// BIN chunk is cut off. It is nil
// when every mesh has its data. A picture of such a scene is incomplete,
// whatever else it shows.
func (d *Document) MissingData() []string {
	g := d.GLTF
	if g == nil || len(d.missingBuffers) == 0 {
		return nil
	}
	var out []string
	seen := map[int]bool{}
	for _, n := range d.SceneNodes() {
		node := g.Nodes[n]
		if node == nil || node.Mesh == nil || *node.Mesh < 0 || *node.Mesh >= len(g.Meshes) || seen[*node.Mesh] {
			continue
		}
		m := *node.Mesh
		seen[m] = true
		for p, prim := range g.Meshes[m].Primitives {
			if prim == nil {
				continue
			}
			if r, ok := d.primitiveMissingData(prim); ok {
				name := ""
				if g.Meshes[m].Name != "" {
					name = fmt.Sprintf(" %q", g.Meshes[m].Name)
				}
				// The file first: a status line shows the start.
				out = append(out, fmt.Sprintf("mesh %d%s is not drawn: %s (buffer %d, %s accessor %d of primitive %d)", m, name, r.why, r.buffer, r.what, r.accessor, p))
				break
			}
		}
	}
	return out
}

// PrimitiveLost says why primitive p of mesh m cannot be drawn, when that
// is known without reading its data: it has no POSITION, or its POSITION
// or indices accessor reads a buffer without data (a missing file, a cut
// GLB), data that did not decode (Draco, meshopt), bytes past its buffer,
// or no data at all (all zeros). It is "" otherwise (reading it may still
// fail). The renderer decodes no texture for materials only such
// primitives use.
func (d *Document) PrimitiveLost(m, p int) string {
	g := d.GLTF
	if g == nil || m < 0 || m >= len(g.Meshes) || g.Meshes[m] == nil || p < 0 || p >= len(g.Meshes[m].Primitives) || g.Meshes[m].Primitives[p] == nil {
		return "the primitive does not exist"
	}
	prim := g.Meshes[m].Primitives[p]
	pi, ok := prim.Attributes["POSITION"]
	if !ok {
		return "it has no POSITION"
	}
	check := func(what string, i int) string {
		if _, _, _, err := d.accessorBytes(i); err != nil {
			if err == errZeroFilled {
				return fmt.Sprintf("its %s accessor %d has no data", what, i)
			}
			return fmt.Sprintf("%s: %v", what, err)
		}
		return ""
	}
	if why := check("POSITION", pi); why != "" {
		return why
	}
	if prim.Indices != nil {
		return check("indices", *prim.Indices)
	}
	return ""
}
