// Package g4mf reads and writes 3D G4MF files (.g4tf JSON text, .g4b
// binary) into and out of the scene model: the node tree with position,
// basis or rotor and scale; physics motion, colliders and triggers; every
// shape type; meshes whose surfaces are triangles (and edges, as lines).
// What either side cannot carry becomes a finding on import and a warning
// on export. Importing the package registers the format with scene, so
// scene.FormatFor opens and saves these files.
package g4mf

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"physview/scene"
)

func init() {
	scene.RegisterFormat(scene.Format{Name: "G4MF", Exts: []string{".g4tf", ".g4b"}, Load: Load, Save: Save})
}

// Load reads a .g4tf or .g4b file; buffers named by relative URIs are read
// next to it.
func Load(path string) (*scene.Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d, err := Decode(data, scene.FolderFS(filepath.Dir(path)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d.Path = path
	return d, nil
}

// importer turns one G4MF file into a glTF document and physics model.
type importer struct {
	f     *file
	r     *reader
	finds []scene.Finding
}

func (im *importer) warn(path, format string, args ...any) {
	im.finds = append(im.finds, scene.Finding{Code: "G4MF_IMPORT", Severity: scene.Warning, Path: "g4mf:" + path, Message: fmt.Sprintf(format, args...)})
}

func (im *importer) info(path, format string, args ...any) {
	im.finds = append(im.finds, scene.Finding{Code: "G4MF_IMPORT", Severity: scene.Info, Path: "g4mf:" + path, Message: fmt.Sprintf(format, args...)})
}

// Decode reads G4MF text or binary data. dir holds external buffers; it may
// be nil when there are none.
func Decode(data []byte, dir fs.FS) (*scene.Document, error) {
	js, chunks, err := splitG4B(data)
	if err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js, &top); err != nil {
		return nil, fmt.Errorf("not a G4MF file: %v", err)
	}
	f := &file{}
	if err := json.Unmarshal(js, f); err != nil {
		return nil, fmt.Errorf("G4MF: %v", err)
	}
	if _, ok := top["asset"]; !ok {
		return nil, errors.New("not a G4MF file: no asset")
	}
	if f.Asset.Dimension != 3 {
		return nil, fmt.Errorf("G4MF dimension %d: only 3D files are read", f.Asset.Dimension)
	}
	im := &importer{f: f, r: &reader{f: f, chunks: chunks, dir: dir, bufs: map[int][]byte{}}}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !knownKeys[k] {
			im.warn("/"+k, "G4MF %q is not read (not carried into the glTF model)", k)
		}
	}

	doc := gltf.NewDocument()
	doc.Asset.Generator = "physview G4MF import"
	if f.Asset.Generator != "" {
		doc.Asset.Generator += " (from " + f.Asset.Generator + ")"
	}
	for i, m := range f.Meshes {
		doc.Meshes = append(doc.Meshes, im.mesh(doc, i, m))
	}
	for i, n := range f.Nodes {
		doc.Nodes = append(doc.Nodes, im.node(i, n))
	}
	doc.Scenes[0].Nodes = nil
	if len(f.Nodes) > 0 {
		doc.Scenes[0].Nodes = []int{0}
	}
	d, err := scene.New(doc)
	if err != nil {
		return nil, err
	}
	for i, s := range f.Shapes {
		d.Shapes = append(d.Shapes, im.shape(i, s))
	}
	for i, n := range f.Nodes {
		if n.Physics != nil {
			d.Nodes[i].Body = im.body(i, n.Physics, len(f.Nodes))
		}
	}
	d.AddFindings(im.finds)
	d.SetFindingMap(findingInFile(len(f.Nodes), len(f.Shapes)))
	return d, nil
}

// findingInFile says a finding of the physics checks in the G4MF file's
// terms: a shape at its index in the file's shapes, a body's value under
// its node's "physics"; a note that a general shape is unknown to OMI
// readers concerns an OMI file, not this one, and is dropped. The file had
// nodes nodes and shapes shapes: what was added in the window after them
// is in no file and keeps its glTF path.
func findingInFile(nodes, shapes int) func(scene.Finding) (scene.Finding, bool) {
	inFile := func(i string, n int) bool {
		k, err := strconv.Atoi(i)
		return err == nil && k >= 0 && k < n
	}
	return func(f scene.Finding) (scene.Finding, bool) {
		if f.Code == "OMI_G4MF_SHAPE" {
			return f, false
		}
		p := f.Path
		if rest, ok := strings.CutPrefix(p, "/extensions/"+scene.ExtShape+"/shapes/"); ok {
			if i, _, _ := strings.Cut(rest, "/"); inFile(i, shapes) {
				f.Path = "g4mf:/shapes/" + i
			}
			return f, true
		}
		if rest, ok := strings.CutPrefix(p, "/nodes/"); ok {
			i, sub, _ := strings.Cut(rest, "/")
			if !inFile(i, nodes) {
				return f, true
			}
			f.Path = "g4mf:/nodes/" + i
			if after, ok := strings.CutPrefix(sub, "extensions/"+scene.ExtBody); ok {
				f.Path += "/physics" + after
			}
		}
		return f, true
	}
}

func vec3(v []float64, def [3]float64) [3]float64 {
	if len(v) != 3 {
		return def
	}
	return [3]float64{v[0], v[1], v[2]}
}

func (im *importer) mesh(doc *gltf.Document, i int, m mesh) *gltf.Mesh {
	path := fmt.Sprintf("/meshes/%d", i)
	out := &gltf.Mesh{Name: m.Name}
	verts, vs, err := im.r.accessor(m.Vertices)
	if err != nil || vs != 3 {
		if err == nil {
			err = fmt.Errorf("vertices have %d components, want 3", vs)
		}
		im.warn(path+"/vertices", "mesh %d is left empty: %v", i, err)
		return out
	}
	pos := make([][3]float32, len(verts)/3)
	for k := range pos {
		pos[k] = [3]float32{float32(verts[3*k]), float32(verts[3*k+1]), float32(verts[3*k+2])}
	}
	posAcc := modeler.WritePosition(doc, pos)
	for si, s := range m.Surfaces {
		sp := fmt.Sprintf("%s/surfaces/%d", path, si)
		if s.Material != nil {
			im.warn(sp+"/material", "G4MF materials are not read: the surface uses the default material")
		}
		add := func(acc int, per int, mode gltf.PrimitiveMode) {
			idx, ivs, err := im.r.accessor(acc)
			if err == nil && ivs != per {
				err = fmt.Errorf("%d indices per element, want %d", ivs, per)
			}
			if err != nil {
				im.warn(sp, "surface skipped: %v", err)
				return
			}
			u := make([]uint32, len(idx))
			for k, x := range idx {
				if x < 0 || int(x) >= len(pos) || x != math.Trunc(x) {
					im.warn(sp, "surface skipped: index %g is not a vertex (the mesh has %d)", x, len(pos))
					return
				}
				u[k] = uint32(x)
			}
			out.Primitives = append(out.Primitives, &gltf.Primitive{
				Attributes: gltf.PrimitiveAttributes{gltf.POSITION: posAcc},
				Indices:    gltf.Index(modeler.WriteIndices(doc, u)),
				Mode:       mode,
			})
		}
		switch {
		case s.Simplexes != nil:
			add(*s.Simplexes, 3, gltf.PrimitiveTriangles)
		case s.Edges != nil:
			add(*s.Edges, 2, gltf.PrimitiveLines)
		default:
			im.warn(sp, "surface has neither simplexes nor edges; skipped")
		}
	}
	return out
}

func (im *importer) node(i int, n node) *gltf.Node {
	path := fmt.Sprintf("/nodes/%d", i)
	out := &gltf.Node{Name: n.Name, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}
	for _, c := range n.Children {
		if c <= 0 || c >= len(im.f.Nodes) {
			im.warn(path+"/children", "child %d does not exist or is the root; dropped", c)
			continue
		}
		out.Children = append(out.Children, c)
	}
	if i == 0 && (n.Position != nil || n.Basis != nil || n.Rotor != nil || n.Scale != nil) {
		im.warn(path, "node 0 must not have a transform (G4MF); it is applied anyway")
	}
	out.Translation = vec3(n.Position, [3]float64{})
	if n.Position != nil && len(n.Position) != 3 {
		im.warn(path+"/position", "position has %d numbers, want 3; ignored", len(n.Position))
	}
	switch {
	case n.Basis != nil:
		if len(n.Basis) != 9 {
			im.warn(path+"/basis", "basis has %d numbers, want 9; ignored", len(n.Basis))
			break
		}
		rot, sc, sheared := basisToTRS(n.Basis)
		// A basis of zeros (a node collapsed) is kept as a matrix too: a
		// glTF scale of [0, 0, 0] would be read back as the default 1.
		if collapsed := sc == [3]float64{}; sheared || collapsed {
			if sheared {
				im.warn(path+"/basis", "the basis shears; glTF keeps it as a matrix")
			}
			var m [16]float64
			for c := 0; c < 3; c++ {
				for r := 0; r < 3; r++ {
					m[4*c+r] = n.Basis[3*c+r]
				}
			}
			m[12], m[13], m[14], m[15] = out.Translation[0], out.Translation[1], out.Translation[2], 1
			out.Matrix, out.Translation = m, [3]float64{}
			break
		}
		out.Rotation, out.Scale = rot, sc
	default:
		if n.Rotor != nil {
			if len(n.Rotor) != 4 {
				im.warn(path+"/rotor", "rotor has %d numbers, want 4 [s, xy, xz, yz]; ignored", len(n.Rotor))
			} else if [4]float64(n.Rotor) == [4]float64{} {
				im.warn(path+"/rotor", "rotor is zero, which is no rotation; ignored")
			} else {
				out.Rotation = RotorToQuat([4]float64(n.Rotor))
			}
		}
		switch len(n.Scale) {
		case 0:
		case 1:
			out.Scale = [3]float64{n.Scale[0], n.Scale[0], n.Scale[0]}
		case 3:
			out.Scale = [3]float64(n.Scale)
		default:
			im.warn(path+"/scale", "scale has %d numbers, want 1 or 3; ignored", len(n.Scale))
		}
	}
	if n.MeshInstance != nil {
		if m := n.MeshInstance.Mesh; m >= 0 && m < len(im.f.Meshes) {
			out.Mesh = gltf.Index(m)
		} else {
			im.warn(path+"/meshInstance/mesh", "mesh %d does not exist", m)
		}
		if len(n.MeshInstance.Materials) > 0 {
			im.warn(path+"/meshInstance/materials", "material overrides are not read")
		}
	}
	for key, v := range map[string]json.RawMessage{"camera": n.Camera, "light": n.Light, "skeleton": n.Skeleton, "bone": n.Bone, "modelInstance": n.Model} {
		if v != nil {
			im.warn(path+"/"+key, "G4MF %s is not read", key)
		}
	}
	if len(n.Extras) > 0 {
		var x any
		if json.Unmarshal(n.Extras, &x) == nil {
			out.Extras = x
		}
	}
	return out
}

func (im *importer) shape(i int, s shape) scene.Shape {
	path := fmt.Sprintf("/shapes/%d", i)
	var out scene.Shape
	switch s.Type {
	case "", "general":
		out = scene.Shape{Type: scene.ShapeGeneral, Mesh: -1, Size: vec3(s.Size, [3]float64{})}
		if s.Curves != nil {
			cs, fs := scene.DecodeCurves(s.Curves, "g4mf:"+path+"/curves")
			out.Curves = cs
			im.finds = append(im.finds, fs...)
		}
		if c, ok := out.Classify(); ok {
			out = c
		}
	case "convex", "concave":
		t := scene.ShapeConvex
		if s.Type == "concave" {
			t = scene.ShapeTrimesh
		}
		out = scene.DefaultShape(t)
		if s.Mesh != nil {
			out.Mesh = *s.Mesh
		}
	case "plane":
		out = scene.DefaultShape(scene.ShapePlane)
	case "ray":
		out = scene.DefaultShape(scene.ShapeRay)
		if s.Length != nil {
			out.Length = *s.Length
		}
	case "heightmap":
		out = scene.Shape{Type: scene.ShapeHeightmap, Mesh: -1, Size: vec3(s.Size, [3]float64{})}
		if s.Heights == nil {
			im.warn(path+"/heights", "heightmap without heights")
			break
		}
		hs, _, err := im.r.accessor(*s.Heights)
		if err != nil {
			im.warn(path+"/heights", "heights not read: %v", err)
			break
		}
		out.Heights = hs
	default:
		im.warn(path+"/type", "unknown shape type %q read as a general shape (as G4MF says)", s.Type)
		out = scene.Shape{Type: scene.ShapeGeneral, Mesh: -1, Size: vec3(s.Size, [3]float64{})}
	}
	if s.Size != nil && len(s.Size) != 3 {
		im.warn(path+"/size", "size has %d numbers, want 3", len(s.Size))
	}
	out.Name = s.Name
	return out
}

func (im *importer) body(i int, p *physics, nodes int) *scene.Body {
	path := fmt.Sprintf("/nodes/%d/physics", i)
	b := &scene.Body{}
	count := 0
	if m := p.Motion; m != nil {
		count++
		t, ok := scene.ParseMotionType(m.Type)
		if !ok {
			im.warn(path+"/motion/type", "motion type %q unknown; read as dynamic", m.Type)
			t = scene.MotionDynamic
		}
		mo := scene.DefaultMotion(t)
		if m.Mass != nil {
			mo.Mass = *m.Mass
		}
		if m.GravityFactor != nil {
			mo.GravityFactor = *m.GravityFactor
		}
		mo.LinearVelocity = vec3(m.LinearVelocity, mo.LinearVelocity)
		mo.AngularVelocity = BivectorToVector(vec3(m.AngularVelocity, [3]float64{}))
		mo.InertiaDiagonal = InertiaFromBivector(vec3(m.InertiaDiagonal, [3]float64{}))
		if len(m.InertiaOrientation) == 4 {
			mo.InertiaOrientation = RotorToQuat([4]float64(m.InertiaOrientation))
		}
		b.Motion = &mo
	}
	if c := p.Collider; c != nil {
		count++
		if c.Shape == nil || *c.Shape == -1 {
			im.warn(path+"/collider", "collider without a shape (G4MF requires one); read as a compound collider")
			b.Collider = &scene.Collider{Shape: -1, PhysicsMaterial: -1, CollisionFilter: -1}
		} else {
			b.Collider = &scene.Collider{Shape: *c.Shape, PhysicsMaterial: -1, CollisionFilter: -1}
		}
	}
	if t := p.Trigger; t != nil {
		count++
		tr := &scene.Trigger{Shape: -1, CollisionFilter: -1}
		if t.Shape != nil {
			tr.Shape = *t.Shape
		} else {
			tr.Nodes = []int{}
			for _, n := range t.Nodes {
				if n >= 0 && n < nodes {
					tr.Nodes = append(tr.Nodes, n)
				} else {
					im.warn(path+"/trigger/nodes", "node %d does not exist; dropped", n)
				}
			}
		}
		b.Trigger = tr
	}
	if count > 1 {
		im.info(path, "motion, collider and trigger should be on separate nodes in G4MF; kept together (OMI allows it)")
	}
	return b
}
