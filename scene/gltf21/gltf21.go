package gltf21

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
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

// Core block names (scene/core_members.go): members of core objects, not
// extensions.
const (
	coreShapesBlock  = "/shapes"
	coreBVBlock      = "/boundingVolume"
	coreVersionBlock = "/asset/version"
)

// name keys the package's state on a document (scene.CodecState).
const name = "gltf2.1"

// core21 is what the glTF 2.1 core part keeps on a document.
type core21 struct {
	// read is set when the file's core shapes were read into the model
	// (a 2.1 file in scene.DialectGLTF21); count is how many.
	read  bool
	count int
	// hadBV marks the nodes whose boundingVolume was read.
	hadBV map[int]bool
}

func init() {
	scene.RegisterCodec(scene.Codec{ShapeForm: shapeForm, CodePrefix: func(path string) (string, bool) {
		return "", isCore21Path(path) // the validator's own codes
	}})
}

// isCore21Path reports whether a JSON pointer lies in a 2.1 core shape or
// bounding volume, whose findings carry the validator's core codes.
func isCore21Path(path string) bool {
	return path == coreShapesBlock || strings.HasPrefix(path, coreShapesBlock+"/") ||
		(strings.HasPrefix(path, "/nodes/") && strings.Contains(path, coreBVBlock) && !strings.Contains(path, "/extensions/"))
}

// stateOf returns the state on d; the zero state when the file's core
// shapes were not read.
func stateOf(d *scene.Document) *core21 {
	if st, ok := d.CodecState(name).(*core21); ok {
		return st
	}
	return &core21{}
}

// ShapesBlock is the pointer of the core "shapes" array, the name of its
// block when saving.
const ShapesBlock = coreShapesBlock

// coreTypeNames maps the model's kind names to the 2.1 type names where
// they differ.
var coreTypeNames = map[string]string{"trimesh": "mesh", "convex": "convexMesh"}

// CoreTypeName returns t's name in a glTF 2.1 "shapes" entry: "mesh" for a
// trimesh, "convexMesh" for a convex hull, the model's name otherwise.
func CoreTypeName(t scene.ShapeType) string {
	if n, ok := coreTypeNames[t.String()]; ok {
		return n
	}
	return t.String()
}

// IsGLTF21 reports whether the file says glTF 2.1 or a newer 2.x.
func IsGLTF21(d *scene.Document) bool {
	if d.GLTF == nil {
		return false
	}
	major, minor, ok := corecheck.ParseVersion(d.GLTF.Asset.Version)
	return ok && major == 2 && minor >= 1
}

// ShapesRaw returns the top-level "shapes" array of a 2.1 file.
func ShapesRaw(d *scene.Document) (json.RawMessage, bool) {
	if !IsGLTF21(d) {
		return nil, false
	}
	return d.SourceMember("shapes")
}

// Decode reads the 2.1 core shapes (raw, when has) into the model's
// shapes, and the nodes' bounding volumes; the KHR codec calls it for a
// 2.1 file before it reads the colliders that name them.
func Decode(d *scene.Document, raw json.RawMessage, has bool, fs *scene.Findings) {
	st := &core21{}
	d.SetCodecState(name, st)
	st.read = true
	if has {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			fs.Errorf("TYPE_MISMATCH", coreShapesBlock, "shapes must be an array of objects (%v)", err)
		} else if len(list) == 0 {
			fs.Errorf("EMPTY_ENTITY", coreShapesBlock, "shapes is an empty array; leave it out")
		}
		for i, e := range list {
			d.Shapes = append(d.Shapes, decodeCoreShape(e, fmt.Sprintf("%s/%d", coreShapesBlock, i), fs))
		}
	}
	st.count = len(d.Shapes)
	nodesRaw, ok := d.SourceMember("nodes")
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
func decodeCoreShape(raw json.RawMessage, path string, fs *scene.Findings) scene.Shape {
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		fs.Errorf("TYPE_MISMATCH", path, "a shape must be a JSON object (%v)", err)
		return scene.Shape{Mesh: -1}
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
	if _, _, known := scene.ParseShapeType(model); typ == "trimesh" || typ == "convex" || typ == "hull" || (!known && typ != "") {
		// Any string is a valid type in the schema; one 2.1 does not
		// define is the validator's VALUE_NOT_IN_LIST warning, and the
		// shape is kept as it is.
		fs.Warnf("VALUE_NOT_IN_LIST", path+"/type", "shape type %q is not one of box, capsule, convexMesh, cylinder, mesh, plane, sphere", typ)
		if !known {
			return scene.Shape{Mesh: -1, Extra: membersOf(obj)}
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
	var sub scene.Findings
	s := scene.DecodeShape(raw, path, &sub, false)
	for _, f := range sub {
		f.Code = core21Code(f.Code)
		if model != typ {
			f.Path = strings.Replace(f.Path, path+"/"+model, path+"/"+typ, 1)
		}
		*fs = append(*fs, f)
	}
	if s.Type == scene.ShapePlane && s.DoubleSided {
		fs.Warnf("UNEXPECTED_PROPERTY", path+"/plane/doubleSided", "a glTF 2.1 plane is one-sided; doubleSided is not read")
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
func membersOf(obj *jsonobj.Object) scene.Members {
	var out scene.Members
	for _, k := range obj.Keys() {
		v, _ := obj.Get(k)
		out = append(out, scene.Member{Key: k, Value: v})
	}
	return out
}

// EncodeShape writes s as a 2.1 "shapes" entry, every value explicit.
func EncodeShape(s scene.Shape) json.RawMessage {
	raw := scene.EncodeShape(s)
	name, ok := coreTypeNames[s.Type.String()]
	if !ok && !(s.Type == scene.ShapePlane && s.DoubleSided) {
		return raw
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return raw
	}
	if s.Type == scene.ShapePlane {
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

func decodeBoundingVolume(raw json.RawMessage, path string, fs *scene.Findings) *scene.BoundingVolume {
	r := scene.NewReader(raw, path, fs)
	if r == nil {
		return nil
	}
	b := &scene.BoundingVolume{Shape: -1, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}
	if !r.Has("shape") {
		fs.Errorf("UNDEFINED_PROPERTY", path, "property \"shape\" must be defined")
	}
	b.Shape = r.Index("shape", -1)
	b.Rotation = r.Vec4("rotation", b.Rotation)
	b.Scale = r.Vec3("scale", b.Scale)
	b.Translation = r.Vec3("translation", b.Translation)
	b.Extra = r.Rest()
	return b
}

func encodeBoundingVolume(b *scene.BoundingVolume) json.RawMessage {
	var w scene.Writer
	w.Set("shape", b.Shape)
	if b.Rotation != [4]float64{0, 0, 0, 1} {
		w.Set("rotation", b.Rotation)
	}
	if b.Scale != [3]float64{1, 1, 1} {
		w.Set("scale", b.Scale)
	}
	if b.Translation != [3]float64{} {
		w.Set("translation", b.Translation)
	}
	w.Rest(b.Extra)
	return w.Bytes()
}

// Warnings names what a save in dialect p drops of the 2.1 core.
func Warnings(d *scene.Document, p scene.PhysicsDialect) []string {
	if p == scene.DialectGLTF21 {
		return nil
	}
	var warns []string
	for n, ne := range d.Nodes {
		if ne.BoundingVolume != nil {
			warns = append(warns, fmt.Sprintf("node %s: boundingVolume is glTF 2.1 core, which a %s file (glTF 2.0) has no place for: dropped", nodeLabel(d, n), p))
		}
	}
	if stateOf(d).read {
		warns = append(warns, fmt.Sprintf("asset.version %s is written as 2.0: %s is a glTF 2.0 extension", d.GLTF.Asset.Version, map[scene.PhysicsDialect]string{scene.DialectOMI: "OMI physics", scene.DialectKHR: "KHR_implicit_shapes"}[p]))
	}
	return warns
}

// Patch sets the core blocks of the root (node -1) or of node n; index
// gives where each model shape goes in "shapes" (-1: not listed).
func Patch(d *scene.Document, node int, blocks map[string]json.RawMessage, index func() []int) {
	st := stateOf(d)
	to21 := d.PhysicsDialect() == scene.DialectGLTF21
	if !to21 && !st.read {
		return
	}
	if node < 0 {
		if !to21 {
			blocks[coreShapesBlock] = nil
			blocks[coreVersionBlock] = mustJSON("2.0")
			return
		}
		idx := index()
		var shapes []json.RawMessage
		for i, s := range d.Shapes {
			if idx[i] >= 0 {
				shapes = append(shapes, EncodeShape(s))
			}
		}
		if len(shapes) > 0 {
			blocks[coreShapesBlock] = mustJSON(shapes)
		} else if st.read {
			blocks[coreShapesBlock] = nil
		}
		if !IsGLTF21(d) {
			blocks[coreVersionBlock] = mustJSON("2.1")
		}
		return
	}
	if node >= len(d.Nodes) {
		return
	}
	if bv := d.Nodes[node].BoundingVolume; bv != nil && to21 {
		blocks[coreBVBlock] = encodeBoundingVolume(bv)
	} else if st.hadBV[node] {
		blocks[coreBVBlock] = nil
	}
}

// Validate checks the 2.1 core shapes and bounding volumes; drop takes
// out the shape findings other rules make (the KHR fork's).
func Validate(d *scene.Document, fs *scene.Findings, drop func(scene.Findings) scene.Findings) {
	var sub scene.Findings
	d.ValidateShapes(&sub, scene.DialectGLTF21)
	for _, f := range drop(sub) {
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
			validateBoundingVolume(d, n, *ne.BoundingVolume, fs)
		}
	}
}

// validateBoundingVolume checks node n's bounding volume: it names a box
// or a sphere of the shapes, its rotation is a unit quaternion, and the
// node's own mesh lies inside it.
func validateBoundingVolume(d *scene.Document, n int, b scene.BoundingVolume, fs *scene.Findings) {
	p := fmt.Sprintf("/nodes/%d%s", n, coreBVBlock)
	if b.Shape < 0 || b.Shape >= len(d.Shapes) {
		if b.Shape >= 0 {
			fs.Errorf("UNRESOLVED_REFERENCE", p+"/shape", "unresolved reference: shape %d (the file has %d shapes)", b.Shape, len(d.Shapes))
		}
		return
	}
	s := d.Shapes[b.Shape]
	if s.Type != scene.ShapeBox && s.Type != scene.ShapeSphere {
		fs.Errorf("BOUNDING_VOLUME_SHAPE_TYPE", p+"/shape", "a bounding volume must be a box or a sphere; shape %d is a %s", b.Shape, CoreTypeName(s.Type))
		return
	}
	q := b.Rotation
	if l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]); math.Abs(l-1) > 0.00005 {
		fs.Errorf("ROTATION_NON_UNIT", p+"/rotation", "rotation %v is not a unit quaternion (length %.6g)", q, l)
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
		if s.Type == scene.ShapeBox {
			for k := 0; k < 3; k++ {
				out = math.Max(out, math.Abs(local[k])-s.Size[k]/2)
			}
		} else {
			out = local.Len() - s.Radius
		}
		worst = math.Max(worst, out)
	}
	if worst > tol {
		fs.Warnf("BOUNDING_VOLUME_TOO_SMALL", p, "the node's mesh reaches %.4g m (in the volume's space) outside its bounding volume (%s %d)", worst, s.Type, b.Shape)
	}
}

func cornerOf(bit int, a, b float64) float64 {
	if bit != 0 {
		return b
	}
	return a
}

// shapeForm is the ShapeForm hook: in a glTF 2.1 document a shape is a
// "shapes" entry under its 2.1 type name.
func shapeForm(d *scene.Document, s scene.Shape) (typ string, raw json.RawMessage, ok bool) {
	if d.PhysicsDialect() != scene.DialectGLTF21 {
		return "", nil, false
	}
	return CoreTypeName(s.Type), EncodeShape(s), true
}

// mustJSON is the JSON of v, which cannot fail for the values given.
func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// nodeLabel names node n in a message: its index and name.
func nodeLabel(d *scene.Document, n int) string {
	if n >= 0 && n < len(d.GLTF.Nodes) && d.GLTF.Nodes[n].Name != "" {
		return fmt.Sprintf("%d %q", n, d.GLTF.Nodes[n].Name)
	}
	return strconv.Itoa(n)
}
