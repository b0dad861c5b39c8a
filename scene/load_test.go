package scene

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"physview/internal/testcorpus"
)

func mustLoad(t *testing.T, path string) *Document {
	t.Helper()
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	glb, err := mustLoad(t, "testdata/current.gltf").Encode(filepath.Join(dir, "x.glb"))
	if err != nil {
		t.Fatal(err)
	}
	good := glb[0].Data
	wrongVersion := bytes.Clone(good)
	binary.LittleEndian.PutUint32(wrongVersion[4:], 1)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty.gltf", nil, "broken JSON"},
		{"text.gltf", []byte("hello, this is not glTF\n"), "broken JSON at line 1"},
		{"broken.gltf", []byte("{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [\n"), "broken JSON"},
		{"syntax.gltf", []byte("{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [}\n"), "line 3"},
		{"array.gltf", []byte("[1, 2, 3]"), "not an object"},
		{"noasset.gltf", []byte(`{"nodes": []}`), "no asset.version"},
		{"v1.gltf", []byte(`{"asset": {"version": "1.0"}}`), `version "1.0"`},
		{"escape.gltf", []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 8, "uri": "../../etc/passwd"}]}`), "buffer.uri"},
		{"truncated.glb", good[:len(good)/2], "truncated GLB"},
		{"header.glb", good[:16], "truncated GLB"},
		{"version.glb", wrongVersion, "GLB version 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name)
			if err := os.WriteFile(p, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := Load(p)
			if err == nil {
				t.Fatalf("loaded %s without error (%d findings)", c.name, len(d.Findings()))
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, p+": ") || !strings.Contains(msg, c.want) {
				t.Errorf("error %q: want it to start with the file name and contain %q", msg, c.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans several lines: %q", msg)
			}
		})
	}
	if _, err := Load(filepath.Join(dir, "does-not-exist.gltf")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
}

func TestLegacyBodyValues(t *testing.T) {
	d := mustLoad(t, "testdata/legacy_body.gltf")
	ball := d.Nodes[0].Body.Motion
	if ball == nil || ball.Type != MotionDynamic || ball.Mass != 2 || ball.InertiaDiagonal != [3]float64{1, 2, 3} || ball.LinearVelocity != [3]float64{1, 0, 0} {
		t.Errorf("rigid body = %+v", ball)
	}
	if c := d.Nodes[1].Body.Collider; c == nil || c.Shape != 0 {
		t.Errorf("ball shape node collider = %+v", c)
	}
	if tr := d.Nodes[2].Body.Trigger; tr == nil || !cmp.Equal(tr.Nodes, []int{3}) {
		t.Errorf("legacy trigger body = %+v, want compound of node 3", tr)
	}
	if tr := d.Nodes[3].Body.Trigger; tr == nil || tr.Shape != 1 {
		t.Errorf("trigger shape node = %+v", tr)
	}
	floor := d.Nodes[4].Body
	if floor.Motion == nil || floor.Motion.Type != MotionStatic || floor.Collider == nil || floor.Collider.Shape != 2 {
		t.Errorf("static floor = %+v", floor)
	}
	caps := d.Shapes[1]
	if caps.Type != ShapeCapsule || caps.Height != 2 || caps.RadiusTop != 0.5 || caps.RadiusBottom != 0.5 {
		t.Errorf("flat legacy capsule (full 3, r 0.5) = %+v, want mid height 2", caps)
	}
	if d.Shapes[2].Size != [3]float64{4, 0.5, 4} {
		t.Errorf("flat box size = %v", d.Shapes[2].Size)
	}
}

// TestLegacyShapeWithoutIndex: a node-level OMI_physics_shape that names
// no shape gives the node nothing and is not written back, so the load
// says so as an error at its "shape" (found by FuzzConvert: the saved file
// had an empty node the input did not).
func TestLegacyShapeWithoutIndex(t *testing.T) {
	src, err := os.ReadFile("testdata/legacy_body.gltf")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), `"shape": 0`, `"shap": 0`, 1)
	d, err := Decode([]byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := d.Nodes[1].Body; b != nil && (b.Collider != nil || b.Trigger != nil) {
		t.Errorf("node 1 got %+v from a block without a shape", b)
	}
	var got []string
	for _, f := range d.Findings() {
		if f.Severity == Error {
			got = append(got, f.Code+" "+f.Path)
		}
	}
	if want := []string{"UNDEFINED_PROPERTY /nodes/1/extensions/OMI_physics_shape/shape"}; !cmp.Equal(got, want) {
		t.Errorf("errors %q, want %q", got, want)
	}
}

func TestLegacyColliderValues(t *testing.T) {
	d := mustLoad(t, "testdata/legacy_collider.gltf")
	want := []Shape{
		{Type: ShapeConvex, Mesh: 0},
		{Type: ShapeCapsule, Height: 0, RadiusTop: 0.5, RadiusBottom: 0.5, Mesh: -1},
		{Type: ShapeBox, Size: [3]float64{1, 2, 3}, Mesh: -1},
	}
	if diff := cmp.Diff(want, d.Shapes, cmpModel); diff != "" {
		t.Errorf("shapes (-want +got):\n%s", diff)
	}
	if tr := d.Nodes[1].Body.Trigger; tr == nil || tr.Shape != 1 {
		t.Errorf("isTrigger collider should be a trigger: %+v", d.Nodes[1].Body)
	}
	if c := d.Nodes[2].Body.Collider; c == nil || c.Shape != 2 {
		t.Errorf("box collider: %+v", d.Nodes[2].Body)
	}
}

func TestVariantMaterials(t *testing.T) {
	d := mustLoad(t, "testdata/variants.gltf")
	p0 := d.Primitives[PrimitiveRef{0, 0}]
	cases := []struct{ variant, want int }{{-1, 0}, {0, 1}, {1, 2}, {2, 0}, {3, 1}}
	for _, c := range cases {
		if got := p0.MaterialFor(c.variant, 0); got != c.want {
			t.Errorf("variant %d: material %d, want %d", c.variant, got, c.want)
		}
	}
	if got := d.VariantLabel(2); got != "variant 2" {
		t.Errorf("label of unnamed variant = %q", got)
	}
	if got := d.Variants[1].Extra; len(got) != 1 || got[0].Key != "extras" {
		t.Errorf("variant extras not kept: %v", got)
	}
}

func TestDraftVariantsUpgrade(t *testing.T) {
	d := mustLoad(t, testcorpus.File(t, "khronos-gltf/extensions/2.0/Khronos/KHR_materials_variants/examples/chair/chairs.glb"))
	var names []string
	for i := range d.Variants {
		names = append(names, d.VariantLabel(i))
	}
	want := []string{"white_fabric_oak_legs", "white_fabric_walnut_legs", "red_fabric_walnut_legs", "red_fabric_oak_legs"}
	if !cmp.Equal(names, want) {
		t.Errorf("variants %v, want %v", names, want)
	}
	// Every variant resolves to a real material on every primitive it maps.
	for ref, pv := range d.Primitives {
		for v := range d.Variants {
			m := pv.MaterialFor(v, -1)
			if m >= len(d.GLTF.Materials) {
				t.Errorf("%v variant %d -> material %d out of range", ref, v, m)
			}
		}
	}
	out, err := d.Encode("x.glb")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out[0].Data, []byte(`"mapping"`)) {
		t.Error("saved file still has the draft \"mapping\" key")
	}
}

func TestConvertGLTFAndGLB(t *testing.T) {
	dir := t.TempDir()
	src := mustLoad(t, "testdata/current.gltf")
	glbPath := filepath.Join(dir, "a.glb")
	if err := src.Save(glbPath); err != nil {
		t.Fatal(err)
	}
	g := mustLoad(t, glbPath)
	if !g.IsGLB() || len(g.GLTF.Buffers) != 1 || g.GLTF.Buffers[0].URI != "" {
		t.Fatalf("GLB: glb=%v buffers=%+v", g.IsGLB(), g.GLTF.Buffers)
	}
	if !bytes.Equal(g.GLTF.Buffers[0].Data[:len(src.GLTF.Buffers[0].Data)], src.GLTF.Buffers[0].Data) {
		t.Error("buffer data changed in the GLB")
	}
	back := filepath.Join(dir, "sub", "b.gltf")
	if err := g.Save(back); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "b.bin")); err != nil {
		t.Errorf("the GLB's binary chunk was not written as b.bin: %v", err)
	}
	b := mustLoad(t, back)
	for name, d := range map[string]*Document{"glb": g, "gltf": b} {
		if diff := cmp.Diff(modelOf(src), modelOf(d), cmpModel); diff != "" {
			t.Errorf("%s: model changed (-src +got):\n%s", name, diff)
		}
	}
}

func TestConvertCorpusImages(t *testing.T) {
	dir := t.TempDir()
	src := testcorpus.File(t, "gltf-sample-assets/Models/BoxTextured/glTF/BoxTextured.gltf")
	d := mustLoad(t, src)
	out := filepath.Join(dir, "box.glb")
	if err := d.Save(out); err != nil {
		t.Fatal(err)
	}
	g := mustLoad(t, out)
	img := g.GLTF.Images[0]
	if img.URI != "" || img.BufferView == nil || img.MimeType != "image/png" {
		t.Fatalf("image not embedded: %+v", img)
	}
	want, err := os.ReadFile(filepath.Join(filepath.Dir(src), "CesiumLogoFlat.png"))
	if err != nil {
		t.Fatal(err)
	}
	bv := g.GLTF.BufferViews[*img.BufferView]
	got := g.GLTF.Buffers[0].Data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]
	if !bytes.Equal(got, want) {
		t.Error("embedded image bytes differ from the PNG file")
	}
	// And to a .gltf in another folder: the image and buffer go along.
	other := filepath.Join(dir, "copy", "BoxTextured.gltf")
	if err := d.Save(other); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"BoxTextured0.bin", "CesiumLogoFlat.png"} {
		if _, err := os.Stat(filepath.Join(dir, "copy", f)); err != nil {
			t.Errorf("%s not copied beside the new .gltf: %v", f, err)
		}
	}
	mustLoad(t, other)
}

func TestFailedSaveKeepsOriginal(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.gltf")
	// An image that cannot be read (a folder) makes packing a GLB fail.
	if err := os.Mkdir(filepath.Join(dir, "gone.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	doc := `{"asset": {"version": "2.0"}, "images": [{"uri": "gone.png"}], "extensionsUsed": ["OMI_physics_shape"],
		"extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}}}`
	if err := os.WriteFile(src, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	d := mustLoad(t, src)
	target := filepath.Join(dir, "out.glb")
	old := []byte("the old file")
	if err := os.WriteFile(target, old, 0o644); err != nil {
		t.Fatal(err)
	}
	err := d.Save(target)
	if err == nil || !strings.Contains(err.Error(), "gone.png") || !strings.Contains(err.Error(), target) {
		t.Fatalf("save with an unreadable image: err = %v, want one naming the target and gone.png", err)
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, old) {
		t.Errorf("failed save changed the target: %q", got)
	}
	// A target that is a folder fails too, and leaves no temporary files.
	if err := os.Mkdir(filepath.Join(dir, "dir.gltf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(filepath.Join(dir, "dir.gltf")); err == nil {
		t.Error("saving over a folder succeeded")
	}
	if err := d.Save(filepath.Join(dir, "x.obj")); err == nil || !strings.Contains(err.Error(), ".gltf or .glb") {
		t.Errorf("saving as .obj: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	// The source itself is saved in place atomically and stays loadable.
	d.Shapes[0].Radius = 2
	if err := d.Save(src); err != nil {
		t.Fatal(err)
	}
	if r := mustLoad(t, src).Shapes[0].Radius; r != 2 {
		t.Errorf("edited radius after save = %g", r)
	}
}

// TestNoGraphicsImports keeps scene/ free of GL and giu so it tests anywhere.
func TestNoGraphicsImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "go-gl/gl") || strings.Contains(dep, "giu") || strings.Contains(dep, "cimgui") || strings.Contains(dep, "glfw") {
			t.Errorf("scene depends on %s", dep)
		}
	}
}

func TestMissingImageStillConverts(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.gltf")
	if err := os.WriteFile(src, []byte(`{"asset": {"version": "2.0"}, "images": [{"uri": "nothere.png"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	d := mustLoad(t, src)
	out := filepath.Join(dir, "out.glb")
	if err := d.Save(out); err != nil {
		t.Fatalf("a missing image must not stop a conversion: %v", err)
	}
	if w := d.SaveWarnings(); len(w) != 1 || !strings.Contains(w[0], "nothere.png") {
		t.Errorf("warnings = %q, want one naming nothere.png", w)
	}
	if uri := mustLoad(t, out).GLTF.Images[0].URI; uri != "nothere.png" {
		t.Errorf("image uri after conversion = %q", uri)
	}
}

// TestNonFiniteEditIsAnError: a NaN that reaches the model through an edit
// makes saving fail with an error, not a panic, and writes nothing.
func TestNonFiniteEditIsAnError(t *testing.T) {
	d := mustLoad(t, "testdata/current.gltf")
	d.Shapes[1].Radius = math.NaN()
	out := filepath.Join(t.TempDir(), "x.gltf")
	if err := d.Save(out); err == nil || !strings.Contains(err.Error(), "cannot encode") {
		t.Errorf("save with a NaN radius: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed save wrote the file")
	}
}

// TestVariantAuthoring adds a variant to a file that has none, maps a
// primitive's material for it, saves, and reads it back.
func TestVariantAuthoring(t *testing.T) {
	d := mustLoad(t, testcorpus.File(t, "gltf-sample-assets/Models/Box/glTF/Box.gltf"))
	if len(d.Variants) != 0 {
		t.Fatal("Box has variants already")
	}
	// Box has one material; add a second by hand through the glTF document
	// would change what the model does not own, so map to the existing one
	// for "Same" and back to the ordinary material for "Plain".
	same := d.addVariant("Same")
	plain := d.addVariant("Plain")
	ref := PrimitiveRef{0, 0}
	if err := d.setVariantMaterial(ref, same, 0); err != nil {
		t.Fatal(err)
	}
	if err := d.setVariantMaterial(ref, plain, 0); err != nil {
		t.Fatal(err)
	}
	if got := d.Primitives[ref].Mappings; len(got) != 1 || !cmp.Equal(got[0].Variants, []int{same, plain}) {
		t.Errorf("both variants share one mapping: %+v", got)
	}
	if err := d.setVariantMaterial(ref, plain, -1); err != nil {
		t.Fatal(err)
	}
	if err := d.setVariantMaterial(ref, 5, 0); err == nil {
		t.Error("variant 5 does not exist")
	}
	if err := d.setVariantMaterial(ref, same, 3); err == nil {
		t.Error("material 3 does not exist")
	}
	out := filepath.Join(t.TempDir(), "box.gltf")
	if err := d.Save(out); err != nil {
		t.Fatal(err)
	}
	back := mustLoad(t, out)
	if back.VariantLabel(0) != "Same" || back.VariantLabel(1) != "Plain" {
		t.Errorf("variants read back: %v", back.Variants)
	}
	pv := back.Primitives[ref]
	if pv.MaterialFor(same, -1) != 0 || pv.MaterialFor(plain, -1) != -1 {
		t.Errorf("mappings read back: %+v", pv.Mappings)
	}
	if HasErrors(back.Findings()) {
		t.Errorf("findings: %v", back.Findings())
	}
	// Removing the first variant renumbers the mappings.
	if err := back.removeVariant(same); err != nil {
		t.Fatal(err)
	}
	if len(back.Variants) != 1 || back.Primitives[ref] != nil {
		t.Errorf("after removing: variants %v, mappings %+v", back.Variants, back.Primitives[ref])
	}
}

func TestRemoveVariantRenumbers(t *testing.T) {
	d := mustLoad(t, testcorpus.File(t, "gltf-sample-assets/Models/MaterialsVariantsShoe/glTF/MaterialsVariantsShoe.gltf"))
	ref := PrimitiveRef{0, 0}
	beach, street := d.Primitives[ref].MaterialFor(1, -1), d.Primitives[ref].MaterialFor(2, -1)
	if err := d.removeVariant(0); err != nil {
		t.Fatal(err)
	}
	if d.VariantLabel(0) != "beach" || d.Primitives[ref].MaterialFor(0, -1) != beach || d.Primitives[ref].MaterialFor(1, -1) != street {
		t.Errorf("after removing midnight: %v, mappings %+v", d.Variants, d.Primitives[ref].Mappings)
	}
	if HasErrors(d.Validate()) {
		t.Errorf("findings: %v", d.Findings())
	}
}

// TestCaseVariantKeys: a key that differs from a glTF property only in
// case ("Nodes") is an unexpected property, as the schema and the Khronos
// validator read it, not the property (Go's JSON decoding ignores case):
// the document has no node, and a save writes no "nodes" of its own
// (FuzzConvert's 95d51a04a547d262: "bUffers" was saved anew as "buffers"
// and an empty file written for it).
func TestCaseVariantKeys(t *testing.T) {
	text := `{"asset": {"version": "2.0"}, "Nodes": [{"name": "x"}]}`
	d, err := Decode([]byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.GLTF.Nodes) != 0 {
		t.Errorf("%d nodes read from \"Nodes\"", len(d.GLTF.Nodes))
	}
	unexpected := false
	for _, f := range d.Findings() {
		unexpected = unexpected || f.Code == "UNEXPECTED_PROPERTY" && f.Path == "/Nodes"
	}
	if !unexpected {
		t.Errorf("no UNEXPECTED_PROPERTY at /Nodes: %v", d.Findings())
	}
	out := filepath.Join(t.TempDir(), "out.gltf")
	if err := d.Save(out); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); string(got) != text {
		t.Errorf("saved %s, want the file as it was", got)
	}
	// Deeper in: a node's "Name" is not its name.
	d, err = Decode([]byte(`{"asset": {"version": "2.0"}, "nodes": [{"Name": "x"}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.GLTF.Nodes) != 1 || d.GLTF.Nodes[0].Name != "" {
		t.Errorf("nodes %+v: \"Name\" was read as the name", d.GLTF.Nodes)
	}
}
