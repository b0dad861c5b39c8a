package scene

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"physview/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// modelOf is the part of a document the model owns.
func modelOf(d *Document) map[string]any {
	return map[string]any{
		"shapes": d.Shapes, "materials": d.PhysicsMaterials, "filters": d.CollisionFilters,
		"world": d.WorldGravity, "joints": d.Joints, "variants": d.Variants,
		"nodes": d.Nodes, "primitives": d.Primitives, "rootExtra": d.rootExtra,
	}
}

// cmpModel compares models; raw JSON is compared after compacting, because a
// saved file is indented differently from the one it was read from.
var cmpModel = cmp.Options{
	cmpopts.IgnoreUnexported(Trigger{}),
	cmpopts.EquateEmpty(),
	cmp.Transformer("compactJSON", func(r json.RawMessage) string {
		var b bytes.Buffer
		if err := json.Compact(&b, r); err != nil {
			return "invalid: " + string(r)
		}
		return b.String()
	}),
}

// reload decodes saved bytes as if they had been written next to the original.
func reload(t *testing.T, data []byte, dir string) *Document {
	t.Helper()
	d, err := Decode(data, os.DirFS(dir))
	if err != nil {
		t.Fatalf("reloading the saved file: %v", err)
	}
	d.source.dir = dir
	return d
}

// stripOwned decodes glTF JSON and removes everything the model owns, so
// what is left must be equal before and after a save. Numbers are kept as
// their literal text.
func stripOwned(t *testing.T, js []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	stripExt := func(o map[string]any) {
		ext, ok := o["extensions"].(map[string]any)
		if !ok {
			return
		}
		for _, name := range ownedExtensions {
			delete(ext, name)
		}
		if len(ext) == 0 {
			delete(o, "extensions")
		}
	}
	stripExt(v)
	for _, key := range []string{"extensionsUsed", "extensionsRequired"} {
		if list, ok := v[key].([]any); ok {
			var keep []any
			for _, n := range list {
				if !slices.Contains(ownedExtensions, n.(string)) {
					keep = append(keep, n)
				}
			}
			if len(keep) == 0 {
				delete(v, key)
			} else {
				v[key] = keep
			}
		}
	}
	nodes, _ := v["nodes"].([]any)
	for _, n := range nodes {
		stripExt(n.(map[string]any))
	}
	meshes, _ := v["meshes"].([]any)
	for _, m := range meshes {
		prims, _ := m.(map[string]any)["primitives"].([]any)
		for _, p := range prims {
			stripExt(p.(map[string]any))
		}
	}
	return v
}

// legacyNote matches findings that only a legacy or non-canonical form causes;
// none may remain after a save.
var legacyNote = regexp.MustCompile(`legacy|draft|archived|before 20|pre-20|no type|neither shape nor nodes|sub-object: the defaults`)

// checkRoundTrip loads path, saves it in place (in memory) and checks that
// the model survives, a second save is byte-identical, and every JSON subtree
// the model does not own is unchanged.
func checkRoundTrip(t *testing.T, path string) {
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Encode(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 {
		t.Fatalf("saving in place wants only the main file, got %d files", len(out))
	}
	dir := filepath.Dir(path)
	d2 := reload(t, out[0].Data, dir)
	if diff := cmp.Diff(modelOf(d), modelOf(d2), cmpModel); diff != "" {
		t.Errorf("model changed by load -> save -> load (-first +second):\n%s", diff)
	}
	out2, err := d2.Encode(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out[0].Data, out2[0].Data) {
		t.Errorf("second save differs from the first (%d vs %d bytes)", len(out[0].Data), len(out2[0].Data))
	}
	if !reflect.DeepEqual(stripOwned(t, d.source.json), stripOwned(t, d2.source.json)) {
		t.Errorf("JSON the model does not own changed:\n%s", cmp.Diff(stripOwned(t, d.source.json), stripOwned(t, d2.source.json)))
	}
	for _, f := range d2.Findings() {
		if legacyNote.MatchString(f.Message) {
			t.Errorf("saved file still has a legacy form: %s", f)
		}
	}
	if d2.IsGLB() != d.IsGLB() {
		t.Errorf("container changed: glb %v -> %v", d.IsGLB(), d2.IsGLB())
	}
	for i, b := range d.GLTF.Buffers {
		if !bytes.Equal(b.Data, d2.GLTF.Buffers[i].Data) {
			t.Errorf("buffer %d changed", i)
		}
	}
}

func TestRoundTripCorpus(t *testing.T) {
	files := testcorpus.Models(t, ".gltf", ".glb")
	if len(files) < 50 {
		t.Fatalf("found only %d corpus models", len(files))
	}
	dir := testcorpus.Dir(t)
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			if strings.HasPrefix(rel, "khronos-gltf-validator/") {
				// The Khronos validator's test files are broken on purpose;
				// those that do not load, or load with errors, are judged
				// by TestKhronosAgreement instead.
				if d, err := Load(filepath.Join(dir, rel)); err != nil || HasErrors(d.Findings()) {
					t.Skip("invalid by design")
				}
			}
			checkRoundTrip(t, filepath.Join(dir, rel))
		})
	}
}

func fixtures(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "*.gltf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return files
}

func TestRoundTripFixtures(t *testing.T) {
	for _, f := range fixtures(t) {
		t.Run(filepath.Base(f), func(t *testing.T) { checkRoundTrip(t, f) })
	}
}

// TestGolden keeps each fixture's saved form and findings under
// testdata/golden; run with -update after a deliberate change.
func TestGolden(t *testing.T) {
	for _, f := range fixtures(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".gltf")
		t.Run(name, func(t *testing.T) {
			d, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			out, err := d.Encode(f)
			if err != nil {
				t.Fatal(err)
			}
			var findings strings.Builder
			for _, fd := range d.Findings() {
				findings.WriteString(fd.String() + "\n")
			}
			golden(t, filepath.Join("testdata", "golden", name+".saved.gltf"), out[0].Data)
			golden(t, filepath.Join("testdata", "golden", name+".findings.txt"), []byte(findings.String()))
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./scene -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n%s", path, cmp.Diff(string(want), string(got)))
	}
}

// TestCurrentFormIsFixedPoint: a file already written in the current forms
// with every value explicit comes back with the same JSON values.
func TestCurrentFormIsFixedPoint(t *testing.T) {
	const path = "testdata/current.gltf"
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Encode(path)
	if err != nil {
		t.Fatal(err)
	}
	var before, after any
	if err := json.Unmarshal(d.source.json, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out[0].Data, &after); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("saving a current-form file changed it (-in +out):\n%s", diff)
	}
}

func TestCapsuleEncodingsAgree(t *testing.T) {
	upstream := testcorpus.File(t, "omigroup-gltf-extensions/extensions/2.0/OMI_physics_shape/examples/capsule_collider.gltf")
	godot := testcorpus.File(t, "omigroup-omi-godot/examples/omi_physics_shape/capsule_collider.gltf")
	a, err := Load(upstream)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(godot)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Shapes) != 1 || len(b.Shapes) != 1 {
		t.Fatalf("want one shape each, got %d and %d", len(a.Shapes), len(b.Shapes))
	}
	sa, sb := a.Shapes[0], b.Shapes[0]
	want := Shape{Type: ShapeCapsule, Height: 1, RadiusTop: 0.5, RadiusBottom: 0.5, Mesh: -1}
	for name, s := range map[string]Shape{"upstream": sa, "omi-godot": sb} {
		got := Shape{Type: s.Type, Height: s.Height, RadiusTop: s.RadiusTop, RadiusBottom: s.RadiusBottom, Mesh: s.Mesh}
		if !cmp.Equal(got, want) {
			t.Errorf("%s capsule = %+v, want %+v", name, got, want)
		}
		if s.FullHeight() != 2 {
			t.Errorf("%s capsule full height = %g, want 2", name, s.FullHeight())
		}
	}
}

// TestImplicitTriggersMatchExplicit: the upstream examples still use the old
// "trigger": {}; the omi-godot copies list the nodes. Both must give the same
// compound triggers.
func TestImplicitTriggersMatchExplicit(t *testing.T) {
	for _, name := range []string{"indirect_children.gltf", "two_boxes.gltf"} {
		t.Run(name, func(t *testing.T) {
			old, err := Load(testcorpus.File(t, "omigroup-gltf-extensions/extensions/2.0/OMI_physics_body/examples/complex/"+name))
			if err != nil {
				t.Fatal(err)
			}
			explicit, err := Load(testcorpus.File(t, "omigroup-omi-godot/examples/omi_physics_body/gltf/"+name))
			if err != nil {
				t.Fatal(err)
			}
			compounds := func(d *Document) map[int][]int {
				m := map[int][]int{}
				for i, ne := range d.Nodes {
					if ne.Body != nil && ne.Body.Trigger != nil && ne.Body.Trigger.Nodes != nil {
						m[i] = ne.Body.Trigger.Nodes
					}
				}
				return m
			}
			got, want := compounds(old), compounds(explicit)
			if len(want) == 0 {
				t.Fatal("the explicit file has no compound trigger")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("compound triggers differ (-explicit +implicit):\n%s", diff)
			}
		})
	}
}

// TestKnownCorpusFindings names the findings MANIFEST.tsv leads us to expect
// in the known-bad or legacy corpus files.
func TestKnownCorpusFindings(t *testing.T) {
	const omi = "omigroup-gltf-extensions/extensions/2.0/"
	type want struct {
		sev  Severity
		path string
		msg  string
	}
	cases := []struct {
		file string
		want []want
	}{
		{omi + "OMI_physics_shape/examples/default_box.gltf", []want{{Warning, "/extensions/OMI_physics_shape/shapes/0", `no "box" sub-object`}}},
		{omi + "OMI_physics_body/examples/triggers/triggers.gltf", []want{{Warning, "/nodes/4/extensions/OMI_physics_body/motion/type", "no type"}}},
		{omi + "OMI_physics_body/examples/complex/indirect_children.gltf", []want{
			{Warning, "/nodes/3/extensions/OMI_physics_body/trigger", "neither shape nor nodes"},
			{Warning, "/nodes/8/extensions/OMI_physics_body/trigger", "neither shape nor nodes"}}},
		{omi + "OMI_physics_body/examples/complex/two_boxes.gltf", []want{{Warning, "/extensions/OMI_physics_body/trigger", "neither shape nor nodes"}}},
		{omi + "OMI_physics_joint/examples/weld_joint.gltf", []want{{Info, "/extensions/OMI_physics_shape/shapes/", "pre-2025 capsule"}}},
		{omi + "OMI_physics_joint/examples/hanging_rope.gltf", []want{{Info, "/extensions/OMI_physics_shape/shapes/", "pre-2025 capsule"}}},
		{omi + "OMI_vehicle_thruster/examples/rocket_ship.gltf", []want{{Info, "/extensions/OMI_physics_shape/shapes/0", "full height 1.5"}}},
		{omi + "OMI_physics_gravity/examples/moon_petavius_crater/moon_petavius_crater.gltf", []want{{Warning, "/extensions/OMI_physics_gravity", `no "directional" sub-object`}}},
		{omi + "Archived/OMI_collider/examples/hull/convex_hull.gltf", []want{{Info, "/extensions/OMI_collider/colliders/0/type", `"hull" read as "convex"`}}},
		{omi + "Archived/OMI_collider/examples/trigger_box.gltf", []want{{Info, "/extensions/OMI_collider", "archived"}}},
		{"omigroup-omi-godot/examples/omi_physics_shape/cylinder_collider.gltf", []want{{Info, "/radius", "legacy single radius"}}},
		{"khronos-gltf/extensions/2.0/Khronos/KHR_materials_variants/examples/chair/chairs.glb", []want{{Warning, "/meshes/0/primitives/0/extensions/KHR_materials_variants/mapping", "pre-ratification draft"}}},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			d, err := Load(testcorpus.File(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range d.Findings() {
				// A texture missing from the corpus copy is an error
				// (IO_ERROR, as Khronos has it); the file still opens.
				if f.Severity == Error && f.Code != "IO_ERROR" {
					t.Errorf("unexpected error: %v", f)
				}
			}
			for _, w := range c.want {
				found := false
				for _, f := range d.Findings() {
					if f.Severity == w.sev && strings.Contains(f.Path, w.path) && strings.Contains(f.Message, w.msg) {
						found = true
					}
				}
				if !found {
					t.Errorf("no %s at %s containing %q; findings:\n%v", w.sev, w.path, w.msg, d.Findings())
				}
			}
		})
	}
}
