package scene

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene/corecheck"
	"physview/scene/internal/jsonobj"
)

// glTF 2.1 core shapes (KhronosGroup/glTF draft-2.1 schemas:
// shape.schema.json and shape.*.schema.json, boundingVolume.schema.json,
// node.schema.json). A 2.1 file keeps its shapes in the top-level "shapes"
// array with types box, sphere, capsule, cylinder, plane, mesh and
// convexMesh; KHR_physics_rigid_bodies colliders and triggers in such a
// file name those shapes (geometry.shape). The 2.1 defaults equal OMI's
// (capsule height 1 and radii 0.5, cylinder height 2 and radii 0.5, box 1
// m, sphere 0.5), not the KHR_implicit_shapes release candidate's. The
// plane is one-sided with optional sizeX and sizeZ. A node may carry a
// boundingVolume {shape, rotation, scale, translation} naming a box or a
// sphere of the list.
//
// The core members are patched into the JSON as blocks whose names begin
// with "/" ("/shapes" at the root, "/boundingVolume" on a node, and
// "/asset/version"), which patchCoreMembers writes (save.go calls it) and
// recordBaseline records under their own pointers, so an unedited save
// keeps the file's bytes.

// core21 is what the glTF 2.1 core part keeps on a document.
type core21 struct {
	// read is set when the file's core shapes were read into the model
	// (a 2.1 file in DialectGLTF21); count is how many.
	read  bool
	count int
	// hadBV marks the nodes whose boundingVolume was read.
	hadBV map[int]bool
}

// coreTypeNames maps the model's kind names to the 2.1 type names where
// they differ.
var coreTypeNames = map[string]string{"trimesh": "mesh", "convex": "convexMesh"}

// CoreTypeName returns t's name in a glTF 2.1 "shapes" entry: "mesh" for a
// trimesh, "convexMesh" for a convex hull, the model's name otherwise.
func CoreTypeName(t ShapeType) string {
	if n, ok := coreTypeNames[t.String()]; ok {
		return n
	}
	return t.String()
}

// isGLTF21 reports whether the file says glTF 2.1 or a newer 2.x.
func (d *Document) isGLTF21() bool {
	if d.GLTF == nil {
		return false
	}
	major, minor, ok := corecheck.ParseVersion(d.GLTF.Asset.Version)
	return ok && major == 2 && minor >= 1
}

// GLTFVersion returns the file's asset.version ("2.0", "2.1").
func (d *Document) GLTFVersion() string { return d.GLTF.Asset.Version }

// coreShapesRaw returns the top-level "shapes" array of a 2.1 file.
func (d *Document) coreShapesRaw() (json.RawMessage, bool) {
	if !d.isGLTF21() {
		return nil, false
	}
	root, err := jsonobj.Parse(d.source.json)
	if err != nil {
		return nil, false
	}
	return root.Get("shapes")
}

// decodeCoreShapes reads the 2.1 core shapes (raw, when has) and the
// nodes' bounding volumes.
func (d *Document) decodeCoreShapes(raw json.RawMessage, has bool, fs *findings) {
	st := &khrOf(d).core
	st.read = true
	if has {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			fs.errorf("TYPE_MISMATCH", coreShapesBlock, "shapes must be an array of objects (%v)", err)
		} else if len(list) == 0 {
			fs.errorf("EMPTY_ENTITY", coreShapesBlock, "shapes is an empty array; leave it out")
		}
		for i, e := range list {
			d.Shapes = append(d.Shapes, decodeCoreShape(e, fmt.Sprintf("%s/%d", coreShapesBlock, i), fs))
		}
	}
	st.count = len(d.Shapes)
	root, err := jsonobj.Parse(d.source.json)
	if err != nil {
		return
	}
	nodesRaw, ok := root.Get("nodes")
	if !ok {
		return
	}
	var nodes []json.RawMessage
	if json.Unmarshal(nodesRaw, &nodes) != nil {
		return
	}
	for i, n := range nodes {
		if i >= len(d.Nodes) {
			break
		}
		obj, err := jsonobj.Parse(n)
		if err != nil {
			continue
		}
		bv, ok := obj.Get("boundingVolume")
		if !ok {
			continue
		}
		if st.hadBV == nil {
			st.hadBV = map[int]bool{}
		}
		st.hadBV[i] = true
		d.Nodes[i].BoundingVolume = decodeBoundingVolume(bv, fmt.Sprintf("/nodes/%d%s", i, coreBVBlock), fs)
	}
}

// decodeCoreShape reads one 2.1 shape: the model's layout under the 2.1
// type names, with the 2.1 defaults (the model's own).
func decodeCoreShape(raw json.RawMessage, path string, fs *findings) Shape {
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		fs.errorf("TYPE_MISMATCH", path, "a shape must be a JSON object (%v)", err)
		return Shape{Mesh: -1}
	}
	var typ string
	if t, ok := obj.Get("type"); ok {
		_ = json.Unmarshal(t, &typ)
	}
	model := typ
	for m, c := range coreTypeNames {
		if c == typ {
			model = m
		}
	}
	if _, _, known := ParseShapeType(model); typ == "trimesh" || typ == "convex" || typ == "hull" || (!known && typ != "") {
		// Any string is a valid type in the schema; one 2.1 does not
		// define is the validator's VALUE_NOT_IN_LIST warning, and the
		// shape is kept as it is.
		fs.warnf("VALUE_NOT_IN_LIST", path+"/type", "shape type %q is not one of box, capsule, convexMesh, cylinder, mesh, plane, sphere", typ)
		if !known {
			return Shape{Mesh: -1, Extra: membersOf(obj)}
		}
	}
	if model != typ {
		obj.Set("type", mustJSON(model))
		if sub, ok := obj.Get(typ); ok {
			obj.Delete(typ)
			obj.Set(model, sub)
		}
		raw, _ = obj.MarshalJSON()
	}
	var sub findings
	s := decodeShape(raw, path, &sub, false)
	for _, f := range sub {
		f.Code = core21Code(f.Code)
		if model != typ {
			f.Path = strings.Replace(f.Path, path+"/"+model, path+"/"+typ, 1)
		}
		*fs = append(*fs, f)
	}
	if s.Type == ShapePlane && s.DoubleSided {
		fs.warnf("UNEXPECTED_PROPERTY", path+"/plane/doubleSided", "a glTF 2.1 plane is one-sided; doubleSided is not read")
		s.DoubleSided = false
	}
	return s
}

// core21Code is the code of a model shape check in a 2.1 core shape: the
// validator's core code where the rule is one of its own
// (VALUE_NOT_IN_RANGE), else the KHR_ form of physview's rule.
func core21Code(code string) string {
	rest := strings.TrimPrefix(code, "OMI_")
	if corecheck.IsKhronosCode(rest) {
		return rest
	}
	if strings.HasPrefix(rest, "KHR_") {
		return rest
	}
	return "KHR_" + rest
}

// membersOf returns obj's members.
func membersOf(obj *jsonobj.Object) Members {
	var out Members
	for _, k := range obj.Keys() {
		v, _ := obj.Get(k)
		out = append(out, Member{Key: k, Value: v})
	}
	return out
}

// encodeCoreShape writes s as a 2.1 "shapes" entry, every value explicit.
func encodeCoreShape(s Shape) json.RawMessage {
	raw := s.encode()
	name, ok := coreTypeNames[s.Type.String()]
	if !ok && !(s.Type == ShapePlane && s.DoubleSided) {
		return raw
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return raw
	}
	if s.Type == ShapePlane {
		if sub, ok := obj.Get("plane"); ok {
			if p, err := jsonobj.Parse(sub); err == nil {
				p.Delete("doubleSided")
				b, _ := p.MarshalJSON()
				obj.Set("plane", b)
			}
		}
	} else {
		obj.Set("type", mustJSON(name))
		if sub, ok := obj.Get(s.Type.String()); ok {
			obj.Delete(s.Type.String())
			obj.Set(name, sub)
		}
	}
	b, err := obj.MarshalJSON()
	if err != nil {
		return raw
	}
	return b
}

func decodeBoundingVolume(raw json.RawMessage, path string, fs *findings) *BoundingVolume {
	r := newReader(raw, path, fs)
	if r == nil {
		return nil
	}
	b := &BoundingVolume{Shape: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}
	if !r.has("shape") {
		fs.errorf("UNDEFINED_PROPERTY", path, "property \"shape\" must be defined")
	}
	b.Shape = r.index("shape", -1)
	b.Rotation = r.vec4("rotation", b.Rotation)
	b.Scale = r.vec3("scale", b.Scale)
	b.Translation = r.vec3("translation", b.Translation)
	b.Extra = r.rest()
	return b
}

func (b *BoundingVolume) encode() json.RawMessage {
	var w writer
	w.set("shape", b.Shape)
	if b.Rotation != [4]float64{0, 0, 0, 1} {
		w.set("rotation", b.Rotation)
	}
	if b.Scale != [3]float64{1, 1, 1} {
		w.set("scale", b.Scale)
	}
	if b.Translation != [3]float64{} {
		w.set("translation", b.Translation)
	}
	w.rest(b.Extra)
	return w.bytes()
}

// gltf21Index is where each model shape goes in a 2.1 save: its index in
// "shapes", or -1 for a mesh a collider names by geometry.mesh (kept as
// the file had it).
func (d *Document) gltf21Index() []int {
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
func (d *Document) gltf21Plan() []string {
	var warns []string
	for i, s := range d.Shapes {
		switch {
		case s.Type == ShapePlane && s.DoubleSided:
			warns = append(warns, fmt.Sprintf("shape %d: a double-sided plane has no glTF 2.1 form (2.1 planes are one-sided); written one-sided", i))
		case s.Type != 0 && !isKHRShape(s.Type) && !s.Type.UsesMesh():
			warns = append(warns, fmt.Sprintf("shape %d: %s is not a glTF 2.1 shape type; written with type %q, which 2.1 readers do not know", i, s.Type, s.Type))
		}
	}
	return append(warns, d.khrNodeWarnings()...)
}

// core21Warnings names what a save in dialect p drops of the 2.1 core.
func (d *Document) core21Warnings(p PhysicsDialect) []string {
	if p == DialectGLTF21 {
		return nil
	}
	var warns []string
	for n, ne := range d.Nodes {
		if ne.BoundingVolume != nil {
			warns = append(warns, fmt.Sprintf("node %s: boundingVolume is glTF 2.1 core, which a %s file (glTF 2.0) has no place for: dropped", d.nodeLabel(n), p))
		}
	}
	if khrOf(d) != nil && khrOf(d).core.read {
		warns = append(warns, fmt.Sprintf("asset.version %s is written as 2.0: %s is a glTF 2.0 extension", d.GLTF.Asset.Version, map[PhysicsDialect]string{DialectOMI: "OMI physics", DialectKHR: "KHR_implicit_shapes"}[p]))
	}
	return warns
}

// patchCore21 sets the core blocks of the root (node -1) or of node n.
func (d *Document) patchCore21(node int, blocks map[string]json.RawMessage) {
	st := khrOf(d)
	to21 := d.PhysicsDialect() == DialectGLTF21
	if !to21 && !st.core.read {
		return
	}
	if node < 0 {
		if !to21 {
			blocks[coreShapesBlock] = nil
			blocks[coreVersionBlock] = mustJSON("2.0")
			return
		}
		idx := d.gltf21Index()
		var shapes []json.RawMessage
		for i, s := range d.Shapes {
			if idx[i] >= 0 {
				shapes = append(shapes, encodeCoreShape(s))
			}
		}
		if len(shapes) > 0 {
			blocks[coreShapesBlock] = mustJSON(shapes)
		} else if st.core.read {
			blocks[coreShapesBlock] = nil
		}
		if !d.isGLTF21() {
			blocks[coreVersionBlock] = mustJSON("2.1")
		}
		return
	}
	if node >= len(d.Nodes) {
		return
	}
	if bv := d.Nodes[node].BoundingVolume; bv != nil && to21 {
		blocks[coreBVBlock] = bv.encode()
	} else if st.core.hadBV[node] {
		blocks[coreBVBlock] = nil
	}
}

// gltf21Paths are the 2.1 paths: core shapes (the validator's core codes,
// no prefix), bodies in KHR_physics_rigid_bodies.
var gltf21ShapePaths = func() physicsPaths {
	p := khrPaths
	p.prefix = ""
	p.shapes = coreShapesBlock
	return p
}()

// validateGLTF21 checks the 2.1 core shapes and bounding volumes.
func (d *Document) validateGLTF21(fs *findings) {
	var sub findings
	d.validateShapesIn(&sub, gltf21ShapePaths)
	for _, f := range d.withoutImplicitShapeFindings(sub, coreShapesBlock) {
		// The kinds name their sub-objects in the model's words.
		for m, c := range coreTypeNames {
			if rest, ok := strings.CutPrefix(f.Path, coreShapesBlock+"/"); ok {
				i, tail, _ := strings.Cut(rest, "/")
				if tail == m || strings.HasPrefix(tail, m+"/") {
					f.Path = coreShapesBlock + "/" + i + "/" + c + strings.TrimPrefix(tail, m)
				}
			}
		}
		f.Code = core21Code(f.Code)
		*fs = append(*fs, f)
	}
	for n, ne := range d.Nodes {
		if ne.BoundingVolume != nil {
			d.validateBoundingVolume(n, *ne.BoundingVolume, fs)
		}
	}
}

// validateBoundingVolume checks node n's bounding volume: it names a box
// or a sphere of the shapes, its rotation is a unit quaternion, and the
// node's own mesh lies inside it.
func (d *Document) validateBoundingVolume(n int, b BoundingVolume, fs *findings) {
	p := fmt.Sprintf("/nodes/%d%s", n, coreBVBlock)
	if b.Shape < 0 || b.Shape >= len(d.Shapes) {
		if b.Shape >= 0 {
			fs.errorf("UNRESOLVED_REFERENCE", p+"/shape", "unresolved reference: shape %d (the file has %d shapes)", b.Shape, len(d.Shapes))
		}
		return
	}
	s := d.Shapes[b.Shape]
	if s.Type != ShapeBox && s.Type != ShapeSphere {
		fs.errorf("BOUNDING_VOLUME_SHAPE_TYPE", p+"/shape", "a bounding volume must be a box or a sphere; shape %d is a %s", b.Shape, CoreTypeName(s.Type))
		return
	}
	q := b.Rotation
	if l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]); math.Abs(l-1) > 0.00005 {
		fs.errorf("ROTATION_NON_UNIT", p+"/rotation", "rotation %v is not a unit quaternion (length %.6g)", q, l)
	}
	mesh := d.GLTF.Nodes[n].Mesh
	if mesh == nil || *mesh < 0 || *mesh >= len(d.GLTF.Meshes) {
		return
	}
	lo, hi := d.MeshBounds(*mesh)
	if lo[0] > hi[0] {
		return
	}
	inv := b.Matrix().Inv()
	const tol = 1e-4
	worst := 0.0
	for c := 0; c < 8; c++ {
		corner := mgl64.Vec3{cornerOf(c&1, lo[0], hi[0]), cornerOf(c&2, lo[1], hi[1]), cornerOf(c&4, lo[2], hi[2])}
		local := mgl64.TransformCoordinate(corner, inv)
		var out float64
		if s.Type == ShapeBox {
			for k := 0; k < 3; k++ {
				out = math.Max(out, math.Abs(local[k])-s.Size[k]/2)
			}
		} else {
			out = local.Len() - s.Radius
		}
		worst = math.Max(worst, out)
	}
	if worst > tol {
		fs.warnf("BOUNDING_VOLUME_TOO_SMALL", p, "the node's mesh reaches %.4g m (in the volume's space) outside its bounding volume (%s %d)", worst, s.Type, b.Shape)
	}
}

func cornerOf(bit int, a, b float64) float64 {
	if bit != 0 {
		return b
	}
	return a
}

// ShapeForm returns shape i as its dialect writes it: where it lives
// ("omi", "khr" or "gltf2.1"), the type name and the parameters object
// with every value explicit (the effective values, defaults filled in).
func (d *Document) ShapeForm(i int) (source, typ string, params json.RawMessage) {
	s := d.Shapes[i]
	dialect := d.PhysicsDialect()
	source = dialect.String()
	raw := s.encode()
	typ = s.Type.String()
	if dialect == DialectGLTF21 {
		raw = encodeCoreShape(s)
		typ = CoreTypeName(s.Type)
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return source, typ, json.RawMessage("{}")
	}
	params, ok := obj.Get(typ)
	if !ok {
		params = json.RawMessage("{}")
	}
	return source, typ, params
}
