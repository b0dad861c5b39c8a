package scene_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/scene"
)

// TestScriptedEditSession is a user's session as edits: fit a capsule to a
// mesh, drag its radius with the handle, turn a box into a sphere, add a
// gravity field, author a variant, rename a node, save. The saved JSON is
// checked field by field, and every byte outside those changes is equal.
func TestScriptedEditSession(t *testing.T) {
	const fixture = "testdata/edit/editor.gltf"
	d, err := scene.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "edited.gltf")
	// The fixture embeds its buffer, so a save elsewhere writes one file.
	before := encode(t, d, out)
	var h scene.History
	do := func(e scene.Edit) {
		t.Helper()
		if _, err := h.Do(d, e); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		h.Seal()
	}

	// 1. Fit a capsule to the statue's mesh: its bounds (x 0..2, y -2..2,
	// z -3..3) are centred at x = 1 and longest along Z, so the capsule
	// sits on a new child turned to lay it along Z.
	statue := 6
	fit, err := d.FitColliderEdit(statue, scene.ShapeCapsule, false)
	if err != nil {
		t.Fatal(err)
	}
	do(fit)
	child := len(d.GLTF.Nodes) - 1
	capsule := d.Nodes[child].Body.Collider.Shape
	if s := d.Shapes[capsule]; s.Type != scene.ShapeCapsule || s.RadiusTop != 2 || s.RadiusBottom != 2 || s.Height != 2 {
		t.Fatalf("fitted capsule %+v, want radius 2 (half the 4 m height), mid height 2 (6 m long)", s)
	}

	// 2. Drag the top cap's radius handle out to 2.5 m in three steps: one
	// undo step.
	world := d.WorldMatrices()[child]
	var top debugdraw.Handle
	for _, hd := range debugdraw.ShapeHandles(d.Shapes[capsule], world) {
		if hd.Param == debugdraw.CapsuleRadiusTop {
			top = hd
		}
	}
	if top.Param == 0 {
		t.Fatal("the capsule has no top radius handle")
	}
	eye := mgl64.Vec3{1, 10, 40}
	for _, r := range []float64{2.2, 2.4, 2.5} {
		target := top.Pos.Add(top.Axis.Mul(r - 2))
		s := debugdraw.DragHandle(d.Shapes[capsule], world, top, eye, target.Sub(eye))
		s.RadiusTop = scene.RoundSig(s.RadiusTop, 4) // as the window's drags round
		if _, err := h.Do(d, scene.SetShape{Index: capsule, Shape: s, Label: "Drag " + top.Param.String()}); err != nil {
			t.Fatal(err)
		}
	}
	h.Seal()
	if got := d.Shapes[capsule].RadiusTop; math.Abs(got-2.5) > 1e-9 {
		t.Fatalf("dragged radius %g, want 2.5", got)
	}
	if h.UndoName() != "Drag capsule top radius" {
		t.Fatalf("undo would %q", h.UndoName())
	}

	// 3. The crate's box becomes a sphere of the same extent.
	crateShape := d.Nodes[1].Body.Collider.Shape
	do(scene.SetShape{Index: crateShape, Shape: d.Shapes[crateShape].WithType(scene.ShapeSphere, -1)})
	// 4. A directional gravity field on the ball, with a 3 m box trigger.
	do(d.AddGravityEdit(2, scene.GravityDirectional, 3))
	// 5. A variant in which the box mesh is blue.
	do(scene.AddVariantEdit("Dusk"))
	do(scene.SetVariantMaterialEdit(scene.PrimitiveRef{Mesh: 0, Primitive: 0}, 2, 1))
	// 6. Rename the crate.
	do(scene.SetNodeName{Node: 1, To: "crate <sphere> & co"})
	if h.Len() != 7 {
		t.Errorf("%d undo steps, want 7", h.Len())
	}

	// 7. Save, and read the file back.
	if err := d.Save(out); err != nil {
		t.Fatal(err)
	}
	h.MarkSaved()
	saved, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var js struct {
		Extensions struct {
			Shape struct {
				Shapes []map[string]json.RawMessage `json:"shapes"`
			} `json:"OMI_physics_shape"`
			Variants struct {
				Variants []struct{ Name string } `json:"variants"`
			} `json:"KHR_materials_variants"`
		} `json:"extensions"`
		Nodes  []map[string]json.RawMessage `json:"nodes"`
		Meshes []struct {
			Primitives []struct {
				Extensions struct {
					Variants struct {
						Mappings []struct {
							Material int
							Variants []int
						} `json:"mappings"`
					} `json:"KHR_materials_variants"`
				} `json:"extensions"`
			} `json:"primitives"`
		} `json:"meshes"`
	}
	if err := json.Unmarshal(saved, &js); err != nil {
		t.Fatal(err)
	}
	field := func(raw json.RawMessage, want string) {
		t.Helper()
		var a, b bytes.Buffer
		_ = json.Compact(&a, raw)
		_ = json.Compact(&b, []byte(want))
		if a.String() != b.String() {
			t.Errorf("saved %s, want %s", a.String(), b.String())
		}
	}
	shapes := js.Extensions.Shape.Shapes
	if len(shapes) != 6 {
		t.Fatalf("%d shapes saved, want 6 (4 + capsule + gravity trigger box)", len(shapes))
	}
	field(shapes[4]["type"], `"capsule"`)
	field(shapes[4]["capsule"], `{"height":2,"radiusBottom":2,"radiusTop":2.5}`)
	field(shapes[crateShape]["type"], `"sphere"`)
	field(shapes[crateShape]["sphere"], `{"radius":0.5}`)
	field(shapes[5]["box"], `{"size":[3,3,3]}`)
	field(js.Nodes[statue]["children"], `[7]`)
	field(js.Nodes[child]["name"], `"statue collider"`)
	field(js.Nodes[child]["translation"], `[1,0,0]`)
	field(js.Nodes[child]["rotation"], `[0.7071067811865476,0,0,0.7071067811865476]`)
	field(js.Nodes[child]["extensions"], `{"OMI_physics_body":{"collider":{"shape":4}}}`)
	field(js.Nodes[1]["name"], `"crate <sphere> & co"`)
	// The motion nobody edited keeps the file's own form (no defaults added).
	field(js.Nodes[2]["extensions"], `{"OMI_physics_body":{"motion":{"type":"dynamic"},"collider":{"shape":2},"trigger":{"shape":5}},"OMI_physics_gravity":{"type":"directional","gravity":9.8,"priority":0,"replace":false,"stop":false,"directional":{"direction":[0,-1,0]}}}`)
	if v := js.Extensions.Variants.Variants; len(v) != 3 || v[2].Name != "Dusk" {
		t.Errorf("variants %+v, want Day, Night, Dusk", v)
	}
	maps := js.Meshes[0].Primitives[0].Extensions.Variants.Mappings
	if len(maps) != 1 || maps[0].Material != 1 || len(maps[0].Variants) != 2 || maps[0].Variants[1] != 2 {
		t.Errorf("mappings %+v, want material 1 for variants 1 and 2", maps)
	}

	// Every byte outside what was edited is as it was.
	allowed := []string{
		"/extensions/OMI_physics_shape/shapes/1", "/extensions/OMI_physics_shape/shapes",
		"/extensions/KHR_materials_variants/variants",
		"/meshes/0/primitives/0/extensions/KHR_materials_variants/mappings/0/variants",
		"/nodes", // the new child node: the array grew
	}
	for _, p := range scene.RawDiff(before, saved) {
		ok := false
		for _, a := range allowed {
			ok = ok || p == a || strings.HasPrefix(p, a+"/")
		}
		if !ok {
			t.Errorf("unexpected change at %s", p)
		}
	}
	// The untouched nodes are byte for byte the same: compare them one by one.
	var b0, b1 struct{ Nodes []json.RawMessage }
	_ = json.Unmarshal(before, &b0)
	_ = json.Unmarshal(saved, &b1)
	for i := range b0.Nodes {
		if i == 1 || i == 2 || i == statue {
			continue
		}
		if !bytes.Equal(b0.Nodes[i], b1.Nodes[i]) {
			t.Errorf("node %d changed:\n%s\n%s", i, b0.Nodes[i], b1.Nodes[i])
		}
	}

	// Loading the saved file gives the same document, and undoing all seven
	// steps gives the original bytes.
	back, err := scene.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := encode(t, back, out); !bytes.Equal(got, saved) {
		t.Errorf("the saved file loads back differently: %v", scene.RawDiff(saved, got))
	}
	for h.Len() > 0 {
		h.Undo(d)
	}
	if got := encode(t, d, out); !bytes.Equal(got, before) {
		t.Errorf("undoing every step does not give the original: %v", scene.RawDiff(before, got))
	}
}

func encode(t *testing.T, d *scene.Document, path string) []byte {
	t.Helper()
	files, err := d.Encode(path)
	if err != nil {
		t.Fatal(err)
	}
	return files[0].Data
}
