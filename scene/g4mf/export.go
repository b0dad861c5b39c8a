package g4mf

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene"
)

// Save writes the document as .g4tf (JSON with the buffer embedded) or
// .g4b (binary), chosen by the file name, and returns what G4MF could not
// carry.
func Save(d *scene.Document, path string) ([]string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".g4tf" && ext != ".g4b" {
		return nil, fmt.Errorf("%s: a G4MF file name ends in .g4tf or .g4b", path)
	}
	data, warnings, err := Encode(d, ext == ".g4b")
	if err != nil {
		return warnings, fmt.Errorf("%s: %w", path, err)
	}
	if err := scene.WriteFileAtomic(path, data); err != nil {
		return warnings, fmt.Errorf("%s: %w", path, err)
	}
	return warnings, nil
}

type exporter struct {
	d        *scene.Document
	f        *file
	b        *blob
	warnings []string
	warned   map[string]bool
	// node maps a glTF node to its G4MF node.
	node []int
}

func (ex *exporter) warn(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !ex.warned[s] {
		ex.warned[s] = true
		ex.warnings = append(ex.warnings, s)
	}
}

// Encode returns the document as G4MF: binary (.g4b) or JSON text with the
// buffer as a base64 data URI (.g4tf).
func Encode(d *scene.Document, binary bool) (data []byte, warnings []string, err error) {
	ex := &exporter{d: d, f: &file{Asset: asset{Dimension: 3, Generator: "physview"}}, warned: map[string]bool{}}
	ex.b = &blob{f: ex.f}
	doc := d.GLTF
	ex.lostDocumentParts()

	// Node 0 is the G4MF root and has no transform. A single identity root
	// that is glTF node 0 is used as is; otherwise a root is added.
	roots := sceneRoots(d)
	offset := 1
	if len(roots) == 1 && roots[0] == 0 && d.LocalMatrix(0) == mgl64.Ident4() {
		offset = 0
	}
	ex.node = make([]int, len(doc.Nodes))
	for i := range ex.node {
		ex.node[i] = i + offset
	}
	ex.f.Nodes = make([]node, len(doc.Nodes)+offset)
	if offset == 1 {
		ex.f.Nodes[0].Name = "root"
		for _, r := range roots {
			ex.f.Nodes[0].Children = append(ex.f.Nodes[0].Children, ex.node[r])
		}
	}
	meshMap := ex.meshes()
	for i, n := range doc.Nodes {
		ex.writeNode(i, n, meshMap)
	}
	for i := range doc.Nodes {
		if b := d.Nodes[i].Body; b != nil {
			ex.body(i, b)
		}
		if d.Nodes[i].Gravity != nil {
			ex.warn("node %q: gravity fields are not in G4MF; dropped", nodeName(d, i))
		}
		if d.Nodes[i].Joint != nil {
			ex.warn("node %q: joints are not in G4MF; dropped", nodeName(d, i))
		}
	}
	for i, s := range d.Shapes {
		ex.f.Shapes = append(ex.f.Shapes, ex.shape(i, s, meshMap))
	}

	if len(ex.b.data) > 0 {
		buf := buffer{ByteLength: len(ex.b.data)}
		if binary {
			buf.Chunk = new(int)
			*buf.Chunk = 1
		} else {
			buf.URI = "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(ex.b.data)
		}
		ex.f.Buffers = []buffer{buf}
	}
	js, err := marshal(ex.f)
	if err != nil {
		return nil, ex.warnings, err
	}
	if !binary {
		return js, ex.warnings, nil
	}
	var blobData []byte
	if len(ex.b.data) > 0 {
		blobData = ex.b.data
	}
	return g4bContainer(js, blobData), ex.warnings, nil
}

// sceneRoots returns the root nodes of the document's scene (the first
// scene when none is chosen; every parentless node when there is none).
func sceneRoots(d *scene.Document) []int {
	doc := d.GLTF
	sc := 0
	if doc.Scene != nil {
		sc = *doc.Scene
	}
	if sc >= 0 && sc < len(doc.Scenes) {
		// A damaged file can list a node it does not have (a finding of
		// validate): it is left out, with any listed twice.
		var out []int
		seen := map[int]bool{}
		for _, n := range doc.Scenes[sc].Nodes {
			if n >= 0 && n < len(doc.Nodes) && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
		return out
	}
	var out []int
	for i := range doc.Nodes {
		if d.Parent(i) < 0 {
			out = append(out, i)
		}
	}
	return out
}

// clean turns -0 into 0, so written files read as a person would write them.
func clean(v []float64) []float64 {
	for i := range v {
		if v[i] == 0 {
			v[i] = 0
		}
	}
	return v
}

func nodeName(d *scene.Document, i int) string {
	if n := d.GLTF.Nodes[i].Name; n != "" {
		return n
	}
	return fmt.Sprintf("#%d", i)
}

func (ex *exporter) lostDocumentParts() {
	d, doc := ex.d, ex.d.GLTF
	lost := []struct {
		n    int
		what string
	}{
		{len(d.PhysicsMaterials), "physics materials (friction, restitution)"},
		{len(d.CollisionFilters), "collision filters"},
		{len(d.Joints), "joint settings"},
		{len(d.Variants), "material variants"},
		{len(doc.Materials), "materials"},
		{len(doc.Textures), "textures"},
		{len(doc.Cameras), "cameras"},
		{len(doc.Animations), "animations"},
		{len(doc.Skins), "skins"},
	}
	for _, l := range lost {
		if l.n > 0 {
			ex.warn("%d %s: not written (this G4MF writer carries geometry and physics bodies only)", l.n, l.what)
		}
	}
	if d.WorldGravity != nil {
		ex.warn("world gravity: not in G4MF; dropped")
	}
}

// meshes writes each glTF mesh whose primitives are triangles or lines and
// returns the G4MF index of each glTF mesh (-1 when not written).
func (ex *exporter) meshes() []int {
	doc := ex.d.GLTF
	out := make([]int, len(doc.Meshes))
	for mi, m := range doc.Meshes {
		out[mi] = -1
		var pos []float64
		var tris, edges []uint32
		for pi, p := range m.Primitives {
			pa, ok := p.Attributes[gltf.POSITION]
			if !ok || pa < 0 || pa >= len(doc.Accessors) {
				ex.warn("mesh %d primitive %d has no positions; skipped", mi, pi)
				continue
			}
			// The document's readers: quantized, Draco and meshopt data,
			// and counts checked against a budget before memory is reserved.
			flat, comps, err := ex.d.AccessorFloats(pa, true)
			if err == nil && comps != 3 {
				err = fmt.Errorf("POSITION has %d components", comps)
			}
			if err != nil {
				ex.warn("mesh %d primitive %d: %v; skipped", mi, pi, err)
				continue
			}
			ps := make([][3]float32, len(flat)/3)
			for k := range ps {
				ps[k] = [3]float32{flat[3*k], flat[3*k+1], flat[3*k+2]}
			}
			var idx []uint32
			if p.Indices != nil && *p.Indices >= 0 && *p.Indices < len(doc.Accessors) {
				idx, err = ex.d.AccessorIndices(*p.Indices)
				if err != nil {
					ex.warn("mesh %d primitive %d: %v; skipped", mi, pi, err)
					continue
				}
			} else {
				idx = make([]uint32, len(ps))
				for k := range idx {
					idx[k] = uint32(k)
				}
			}
			base := uint32(len(pos) / 3)
			shift := func(ix []uint32) []uint32 {
				o := make([]uint32, len(ix))
				for k, v := range ix {
					o[k] = v + base
				}
				return o
			}
			switch p.Mode {
			case gltf.PrimitiveTriangles:
				tris = append(tris, shift(idx[:len(idx)/3*3])...)
			case gltf.PrimitiveLines:
				edges = append(edges, shift(idx[:len(idx)/2*2])...)
			default:
				ex.warn("mesh %d primitive %d: draw mode %d is not written (only triangles and lines)", mi, pi, p.Mode)
				continue
			}
			for _, v := range ps {
				pos = append(pos, float64(v[0]), float64(v[1]), float64(v[2]))
			}
		}
		if len(pos) == 0 {
			ex.warn("mesh %d (%s): nothing to write", mi, m.Name)
			continue
		}
		gm := mesh{Name: m.Name, Vertices: ex.b.floats(3, pos)}
		if len(tris) > 0 {
			gm.Surfaces = append(gm.Surfaces, surface{Simplexes: ptr(ex.b.uints(3, tris))})
		}
		if len(edges) > 0 {
			gm.Surfaces = append(gm.Surfaces, surface{Edges: ptr(ex.b.uints(2, edges))})
		}
		ex.f.Meshes = append(ex.f.Meshes, gm)
		out[mi] = len(ex.f.Meshes) - 1
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func (ex *exporter) writeNode(i int, n *gltf.Node, meshMap []int) {
	out := &ex.f.Nodes[ex.node[i]]
	out.Name = n.Name
	for _, c := range ex.d.Children(i) {
		out.Children = append(out.Children, ex.node[c])
	}
	if n.Matrix != [16]float64{} && n.Matrix != gltf.DefaultMatrix {
		m := n.Matrix
		out.Position = []float64{m[12], m[13], m[14]}
		out.Basis = []float64{m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]}
	} else {
		t, r, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.Scale // a written 0 is 0 (scene.Document.LocalMatrix)
		if t != [3]float64{} {
			out.Position = t[:]
		}
		if s[0] <= 0 || s[1] <= 0 || s[2] <= 0 {
			// G4MF scales are positive; a flip is a basis.
			m := mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}.Mat4().Mul4(mgl64.Scale3D(s[0], s[1], s[2]))
			out.Basis = []float64{m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]}
		} else {
			if r != [4]float64{0, 0, 0, 1} {
				rot := QuatToRotor(r)
				out.Rotor = clean(rot[:])
			}
			switch {
			case s == [3]float64{1, 1, 1}:
			case s[0] == s[1] && s[1] == s[2]:
				out.Scale = []float64{s[0]}
			default:
				out.Scale = s[:]
				if b := ex.d.Nodes[i].Body; b != nil && (b.Collider != nil || b.Trigger != nil) {
					ex.warn("node %q: non-uniform scale %v on a shape node; G4MF requires conformal (uniformly scaled) shape transforms", nodeName(ex.d, i), s)
				}
			}
		}
	}
	if ex.node[i] == 0 && (out.Position != nil || out.Basis != nil || out.Rotor != nil || out.Scale != nil) {
		// Cannot happen: node 0 is only reused when it is the identity.
		out.Position, out.Basis, out.Rotor, out.Scale = nil, nil, nil, nil
	}
	if n.Mesh != nil && *n.Mesh >= 0 && *n.Mesh < len(meshMap) && meshMap[*n.Mesh] >= 0 {
		out.MeshInstance = &meshInstance{Mesh: meshMap[*n.Mesh]}
	}
	if n.Extras != nil {
		if b, err := json.Marshal(n.Extras); err == nil {
			out.Extras = b
		}
	}
	if n.Camera != nil || n.Skin != nil {
		ex.warn("node %q: cameras and skins are not written", nodeName(ex.d, i))
	}
}

// body writes node i's physics; G4MF wants motion, collider and trigger on
// separate nodes, so extra ones go on new child nodes with no transform.
func (ex *exporter) body(i int, b *scene.Body) {
	name := nodeName(ex.d, i)
	gi := ex.node[i]
	type part struct {
		kind string
		set  func(p *physics)
	}
	var parts []part
	if m := b.Motion; m != nil {
		parts = append(parts, part{"motion", func(p *physics) { p.Motion = ex.motion(name, m) }})
	}
	if c := b.Collider; c != nil {
		if c.Shape < 0 {
			ex.warn("node %q: G4MF has no compound collider node; its descendants' colliders are kept", name)
		} else {
			if c.PhysicsMaterial >= 0 || c.CollisionFilter >= 0 {
				ex.warn("node %q: the collider's physics material and collision filter are not in G4MF; dropped", name)
			}
			parts = append(parts, part{"collider", func(p *physics) { p.Collider = &shaped{Shape: ptr(c.Shape)} }})
		}
	}
	if t := b.Trigger; t != nil {
		if t.CollisionFilter >= 0 {
			ex.warn("node %q: the trigger's collision filter is not in G4MF; dropped", name)
		}
		tr := &shaped{}
		if t.Nodes != nil {
			tr.Nodes = []int{}
			for _, n := range t.Nodes {
				if n >= 0 && n < len(ex.node) {
					tr.Nodes = append(tr.Nodes, ex.node[n])
				}
			}
		} else if t.Shape >= 0 {
			tr.Shape = ptr(t.Shape)
		}
		parts = append(parts, part{"trigger", func(p *physics) { p.Trigger = tr }})
	}
	if len(b.Extra) > 0 {
		ex.warn("node %q: unknown OMI_physics_body keys are dropped", name)
	}
	for k, pt := range parts {
		target := gi
		if k > 0 {
			ex.f.Nodes = append(ex.f.Nodes, node{Name: ex.f.Nodes[gi].Name + " " + pt.kind})
			target = len(ex.f.Nodes) - 1
			ex.f.Nodes[gi].Children = append(ex.f.Nodes[gi].Children, target)
			ex.warn("node %q: its %s moved to a child node (G4MF puts motion, collider and trigger on separate nodes)", name, pt.kind)
		}
		p := &physics{}
		pt.set(p)
		ex.f.Nodes[target].Physics = p
	}
}

func (ex *exporter) motion(name string, m *scene.Motion) *motion {
	out := &motion{Type: m.Type.String(), Mass: ptr(m.Mass), GravityFactor: ptr(m.GravityFactor)}
	if m.LinearVelocity != [3]float64{} {
		out.LinearVelocity = m.LinearVelocity[:]
	}
	if m.AngularVelocity != [3]float64{} {
		b := VectorToBivector(m.AngularVelocity)
		out.AngularVelocity = clean(b[:])
	}
	if m.InertiaDiagonal != [3]float64{} {
		b := InertiaToBivector(m.InertiaDiagonal)
		out.InertiaDiagonal = b[:]
	}
	if q := m.InertiaOrientation; q != [4]float64{0, 0, 0, 1} && q != [4]float64{} {
		r := QuatToRotor(q)
		out.InertiaOrientation = clean(r[:])
	}
	if m.CenterOfMass != [3]float64{} {
		ex.warn("node %q: centre of mass %v dropped (G4MF puts it at the body origin)", name, m.CenterOfMass)
	}
	if len(m.Extra) > 0 {
		ex.warn("node %q: unknown motion keys are dropped", name)
	}
	return out
}

func (ex *exporter) shape(i int, s scene.Shape, meshMap []int) shape {
	out := shape{Name: s.Name}
	mapMesh := func() *int {
		if s.Mesh >= 0 && s.Mesh < len(meshMap) && meshMap[s.Mesh] >= 0 {
			return ptr(meshMap[s.Mesh])
		}
		ex.warn("shape %d: mesh %d was not written; the shape has none", i, s.Mesh)
		return nil
	}
	switch s.Type {
	case scene.ShapeBox, scene.ShapeSphere, scene.ShapeCapsule, scene.ShapeCylinder, scene.ShapeGeneral:
		g, _ := s.General()
		out.Size = g.Size[:]
		if len(g.Curves) > 0 {
			out.Curves = scene.EncodeCurves(g.Curves)
		}
		if s.Type == scene.ShapeCapsule && s.RadiusTop != s.RadiusBottom || s.Type == scene.ShapeCylinder && s.RadiusTop != s.RadiusBottom {
			ex.warn("shape %d: tapered %s written with a taper, which G4MF readers may not support (the plain radius is the average)", i, s.Type)
		}
	case scene.ShapeConvex:
		out.Type, out.Mesh = "convex", mapMesh()
	case scene.ShapeTrimesh:
		out.Type, out.Mesh = "concave", mapMesh()
	case scene.ShapePlane:
		out.Type = "plane"
	case scene.ShapeRay:
		out.Type, out.Length = "ray", ptr(s.Length)
	case scene.ShapeHeightmap:
		out.Type, out.Size = "heightmap", s.Size[:]
		raw := make([]byte, 0, 8*len(s.Heights))
		for _, h := range s.Heights {
			raw = appendFloat64(raw, h)
		}
		out.Heights = ptr(ex.b.add("float64", 1, raw))
	default:
		ex.warn("shape %d has no known type; written as an empty general shape", i)
	}
	if len(s.Extra) > 0 || len(s.SubExtra) > 0 {
		ex.warn("shape %d: keys the model does not interpret are dropped", i)
	}
	return out
}

func appendFloat64(b []byte, f float64) []byte {
	u := math.Float64bits(f)
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24), byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56))
}
