package scene

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"physview/internal/testcorpus"
)

// khrSamples are the KHR physics sample files of the corpus.
func khrSamples(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join(testcorpus.Dir(t), "eoineoineoin-gltf-physics", "samples", "*", "*.gltf"))
	if len(files) == 0 {
		t.Skip("no KHR samples in the corpus")
	}
	return files
}

// encodeAs encodes d as if saved next to where it was loaded, with the
// same container, and decodes the result.
func encodeAs(t *testing.T, d *Document, dir string) *Document {
	t.Helper()
	ext := ".gltf"
	if d.IsGLB() {
		ext = ".glb"
	}
	out, err := d.Encode(filepath.Join(dir, "roundtrip"+ext))
	if err != nil {
		t.Fatal(err)
	}
	return reload(t, out[0].Data, dir)
}

// semantic is the physics of a document with shape indices replaced by the
// shapes themselves, so two documents whose shape lists are ordered
// differently compare equal when every body has the same shapes.
func semantic(d *Document) map[string]any {
	enc := func(i int) string {
		if i < 0 || i >= len(d.Shapes) {
			return itoa(i)
		}
		var b bytes.Buffer
		_ = json.Compact(&b, d.Shapes[i].encode())
		return b.String()
	}
	shapes := map[string]bool{}
	for i := range d.Shapes {
		shapes[enc(i)] = true
	}
	type body struct {
		Motion                       *Motion
		Collider, Trigger            string
		Material, Filter, TrigFilter int
		TrigNodes                    []int
		Joint                        *NodeJoint
	}
	nodes := map[int]body{}
	for n, ne := range d.Nodes {
		var b body
		if ne.Body != nil {
			b.Motion = ne.Body.Motion
			if c := ne.Body.Collider; c != nil {
				b.Collider, b.Material, b.Filter = enc(c.Shape), c.PhysicsMaterial, c.CollisionFilter
			}
			if tr := ne.Body.Trigger; tr != nil {
				b.Trigger, b.TrigNodes, b.TrigFilter = enc(tr.Shape), tr.Nodes, tr.CollisionFilter
			}
		}
		b.Joint = ne.Joint
		if ne.Body != nil || ne.Joint != nil {
			nodes[n] = b
		}
	}
	return map[string]any{"shapes": shapes, "nodes": nodes, "materials": d.PhysicsMaterials,
		// A limit on linear and angular axes both is two limits in KHR:
		// the same joint.
		"filters": d.CollisionFilters, "joints": khrJointSettings(d.Joints)}
}

func TestKHRSamplesLoadAndSaveAsKHR(t *testing.T) {
	for _, f := range khrSamples(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			d := mustLoad(t, f)
			if d.PhysicsDialect() != DialectKHR {
				t.Fatal("not read as KHR")
			}
			if HasErrors(d.Findings()) || len(d.Shapes) == 0 {
				t.Fatalf("%d shapes, findings %v", len(d.Shapes), d.Findings())
			}
			bodies := 0
			for _, ne := range d.Nodes {
				if ne.Body != nil {
					bodies++
				}
			}
			if bodies == 0 {
				t.Fatal("no bodies")
			}
			d2 := encodeAs(t, d, filepath.Dir(f))
			if diff := cmp.Diff(modelOf(d), modelOf(d2), cmpModel); diff != "" {
				t.Errorf("KHR -> KHR changed the model:\n%s", diff)
			}
			if d2.PhysicsDialect() != DialectKHR || strings.Contains(string(d2.source.json), "OMI_physics") {
				t.Error("saved file is not KHR only")
			}
			// Everything the model does not own is as it was.
			if diff := cmp.Diff(stripOwned(t, d.source.json), stripOwned(t, d2.source.json)); diff != "" {
				t.Errorf("JSON the model does not own changed:\n%s", diff)
			}
		})
	}
}

func TestKHRToOMIToKHR(t *testing.T) {
	for _, f := range khrSamples(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			d := mustLoad(t, f)
			infinite := 0
			for i := range d.Nodes {
				if b := d.Nodes[i].Body; b != nil && b.Motion != nil && b.Motion.InertiaInfinite {
					infinite++
				}
			}
			dir := filepath.Dir(f)
			warns := d.SetPhysicsDialect(DialectOMI)
			if got := strings.Count(strings.Join(warns, "\n"), "which OMI cannot say"); got != infinite {
				t.Errorf("%d warnings about an infinite inertia, want %d: %q", got, infinite, warns)
			}
			// OMI has no infinite inertia: it is lost on the way, and said.
			for i := range d.Nodes {
				if b := d.Nodes[i].Body; b != nil && b.Motion != nil {
					b.Motion.InertiaInfinite = false
				}
			}
			want := semantic(d)
			omi := encodeAs(t, d, dir)
			if omi.PhysicsDialect() != DialectOMI || strings.Contains(string(omi.source.json), `"KHR_physics_rigid_bodies"`) {
				t.Fatal("converted file is not OMI")
			}
			if diff := cmp.Diff(want, semantic(omi), cmpModel); diff != "" {
				t.Errorf("KHR -> OMI changed the physics:\n%s", diff)
			}
			omi.SetPhysicsDialect(DialectKHR)
			back := encodeAs(t, omi, dir)
			if diff := cmp.Diff(want, semantic(back), cmpModel); diff != "" {
				t.Errorf("KHR -> OMI -> KHR changed the physics:\n%s", diff)
			}
		})
	}
}

// omiExamples are the corpus files with OMI physics.
func omiExamples(t *testing.T) []string {
	dir := testcorpus.Dir(t)
	var out []string
	for _, rel := range testcorpus.Models(t, ".gltf", ".glb") {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err == nil && bytes.Contains(data, []byte(`"OMI_physics_`)) && !strings.Contains(rel, "xode") {
			out = append(out, filepath.Join(dir, rel))
		}
	}
	return out
}

func TestOMIToKHRToOMI(t *testing.T) {
	files := omiExamples(t)
	if len(files) < 10 {
		t.Fatalf("only %d OMI examples", len(files))
	}
	for _, f := range files {
		rel, _ := filepath.Rel(testcorpus.Dir(t), f)
		t.Run(rel, func(t *testing.T) {
			d, err := Load(f)
			if err != nil {
				t.Skipf("does not load: %v", err)
			}
			want := semantic(d)
			dir := filepath.Dir(f)
			d.SetPhysicsDialect(DialectKHR)
			khr := encodeAs(t, d, dir)
			if slices.Contains(khr.GLTF.ExtensionsUsed, ExtBody) || slices.Contains(khr.GLTF.ExtensionsUsed, ExtShape) {
				t.Fatalf("KHR file still uses OMI: %v", khr.GLTF.ExtensionsUsed)
			}
			khr.SetPhysicsDialect(DialectOMI)
			back := encodeAs(t, khr, dir)
			if diff := cmp.Diff(want, semantic(back), cmpModel); diff != "" {
				t.Errorf("OMI -> KHR -> OMI changed the physics:\n%s", diff)
			}
		})
	}
}

// TestKHRFixture reads our own KHR file: defaults, plane, mesh geometry on
// another node, a static body kept in extras.
func TestKHRFixture(t *testing.T) {
	d := mustLoad(t, "testdata/khr_physics.gltf")
	if HasErrors(d.Findings()) {
		t.Fatalf("findings %v", d.Findings())
	}
	want := []Shape{
		{Type: ShapeCapsule, Mesh: -1, Height: 0.5, RadiusTop: 0.25, RadiusBottom: 0.25},
		{Type: ShapeCylinder, Mesh: -1, Height: 1, RadiusTop: 0, RadiusBottom: 0.25},
		{Type: ShapePlane, Mesh: -1, Size: [3]float64{4, 0, 2}, DoubleSided: true},
		{Type: ShapeConvex, Mesh: 0},
	}
	if diff := cmp.Diff(want, d.Shapes, cmpModel); diff != "" {
		t.Errorf("shapes (-want +got):\n%s", diff)
	}
	b := d.Nodes[1].Body
	if b.Motion == nil || b.Motion.Type != MotionKinematic || b.Collider.Shape != 3 || b.Collider.PhysicsMaterial != 0 {
		t.Errorf("body 1: %+v %+v", b.Motion, b.Collider)
	}
	if m := d.Nodes[2].Body.Motion; m == nil || m.Type != MotionStatic || m.Mass != 7 {
		t.Errorf("static motion from extras: %+v", m)
	}
	if x := d.Nodes[2].Body.Extra; len(x) != 1 || !strings.Contains(string(x[0].Value), "keep") {
		t.Errorf("other extras not kept: %v", x)
	}
	if j := d.Nodes[3].Joint; j == nil || j.ConnectedNode != 1 || !j.EnableCollision {
		t.Errorf("joint %+v", j)
	}
	d2 := encodeAs(t, d, "testdata")
	if diff := cmp.Diff(modelOf(d), modelOf(d2), cmpModel); diff != "" {
		t.Errorf("save changed the model:\n%s", diff)
	}
	// The convex hull still names node 0's mesh through node 0.
	var compact bytes.Buffer
	_ = json.Compact(&compact, d2.source.json)
	if !bytes.Contains(compact.Bytes(), []byte(`"geometry":{"node":0,"convexHull":true}`)) {
		t.Errorf("geometry node lost:\n%s", d2.source.json)
	}
}

// TestKHRInertiaZeros: in KHR_physics_rigid_bodies a zero moment of
// inertia is infinite. A written [0, 0, 0] is kept apart from an absent
// inertia (computed) as InertiaInfinite, and any zero gets a note; in OMI
// the same [0, 0, 0] is the default (computed), with no note.
func TestKHRInertiaZeros(t *testing.T) {
	khr := func(motion string) string {
		return `{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
			"extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}},
			"nodes": [{"extensions": {"KHR_physics_rigid_bodies": {"motion": ` + motion + `, "collider": {"geometry": {"shape": 0}}}}}]}`
	}
	omi := `{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
		"extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}},
		"nodes": [{"extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "inertiaDiagonal": [0, 0, 0]}, "collider": {"shape": 0}}}}]}`
	for _, c := range []struct {
		name     string
		text     string
		infinite bool
		note     bool
	}{
		{"KHR [0, 0, 0]", khr(`{"mass": 1, "inertiaDiagonal": [0, 0, 0]}`), true, true},
		{"KHR [0, 1, 0]", khr(`{"mass": 1, "inertiaDiagonal": [0, 1, 0]}`), false, true},
		{"KHR [1, 1, 1]", khr(`{"mass": 1, "inertiaDiagonal": [1, 1, 1]}`), false, false},
		{"KHR absent", khr(`{"mass": 1}`), false, false},
		{"OMI [0, 0, 0]", omi, false, false},
	} {
		d, err := Decode([]byte(c.text), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		mo := d.Nodes[0].Body.Motion
		note := false
		for _, f := range d.Findings() {
			if f.Code == "KHR_INERTIA_ZERO" {
				note = f.Severity == Info && f.Path == "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/inertiaDiagonal"
			}
		}
		if mo.InertiaInfinite != c.infinite || note != c.note {
			t.Errorf("%s: InertiaInfinite %v, note %v; want %v, %v", c.name, mo.InertiaInfinite, note, c.infinite, c.note)
		}
	}
}

// TestMassFindings: a negative mass is an error in both dialects; a
// dynamic body of mass 0 is a warning in OMI (nothing can move it, Play
// refuses it) and a note in KHR (where 0 is infinite); a kinematic body's
// mass is not looked at.
func TestMassFindings(t *testing.T) {
	omi := func(typ string, mass float64) string {
		return fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
			"extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}},
			"nodes": [{"extensions": {"OMI_physics_body": {"motion": {"type": %q, "mass": %g}, "collider": {"shape": 0}}}}]}`, typ, mass)
	}
	khr := `{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
		"extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}},
		"nodes": [{"extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 0}, "collider": {"geometry": {"shape": 0}}}}}]}`
	for _, c := range []struct {
		name, text string
		want       []string // severity code path
	}{
		{"OMI dynamic -2", omi("dynamic", -2), []string{"error VALUE_NOT_IN_RANGE /nodes/0/extensions/OMI_physics_body/motion/mass"}},
		{"OMI dynamic 0", omi("dynamic", 0), []string{"warning OMI_VALUE_NOT_IN_RANGE /nodes/0/extensions/OMI_physics_body/motion/mass"}},
		{"OMI kinematic 0", omi("kinematic", 0), nil},
		{"OMI dynamic 2", omi("dynamic", 2), nil},
		{"KHR 0", khr, []string{"info KHR_MASS_ZERO /nodes/0/extensions/KHR_physics_rigid_bodies/motion/mass"}},
	} {
		d, err := Decode([]byte(c.text), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, f := range d.Findings() {
			if strings.HasSuffix(f.Path, "/mass") {
				got = append(got, fmt.Sprintf("%v %s %s", f.Severity, f.Code, f.Path))
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestInertiaWarningAfterEdit: a KHR inertia [0, 0, 0] (infinite) that the
// Inspector then set to given moments is no longer infinite: a switch to
// OMI does not say it is written as [0, 0, 0].
func TestInertiaWarningAfterEdit(t *testing.T) {
	khr := `{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
		"extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}},
		"nodes": [{"extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 2, "inertiaDiagonal": [0, 0, 0]}, "collider": {"geometry": {"shape": 0}}}}}]}`
	for _, c := range []struct {
		set  [3]float64
		want int // warnings that OMI cannot say it
	}{{[3]float64{}, 1}, {[3]float64{4, 5, 6}, 0}} {
		d, err := Decode([]byte(khr), nil)
		if err != nil {
			t.Fatal(err)
		}
		m := *d.Nodes[0].Body.Motion
		m.InertiaDiagonal = c.set
		if _, err := Apply(d, d.SetMotionEdit(0, &m, "Set inertia")); err != nil {
			t.Fatal(err)
		}
		warns := d.SetPhysicsDialect(DialectOMI)
		if got := strings.Count(strings.Join(warns, "\n"), "which OMI cannot say"); got != c.want {
			t.Errorf("inertia %v: %d warnings about an infinite inertia, want %d: %q", c.set, got, c.want, warns)
		}
	}
}

// TestKHROrientationWithoutDiagonal: an edit of a KHR body's mass keeps an
// inertiaOrientation the file gives without an inertiaDiagonal (a save
// keeps the bytes nobody edited); an identity one the file does not give
// is not added.
func TestKHROrientationWithoutDiagonal(t *testing.T) {
	for _, c := range []struct {
		motion, want string
	}{
		{`{"mass": 2, "inertiaOrientation": [0, 0.6, 0, 0.8]}`, `"inertiaOrientation": [0, 0.6, 0, 0.8]`},
		{`{"mass": 2}`, ``},
	} {
		khr := `{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
		"extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 1}}]}},
		"nodes": [{"extensions": {"KHR_physics_rigid_bodies": {"motion": ` + c.motion + `, "collider": {"geometry": {"shape": 0}}}}}]}`
		d, err := Decode([]byte(khr), nil)
		if err != nil {
			t.Fatal(err)
		}
		m := *d.Nodes[0].Body.Motion
		m.Mass = 3
		if _, err := Apply(d, d.SetMotionEdit(0, &m, "Set mass")); err != nil {
			t.Fatal(err)
		}
		files, err := d.Encode(filepath.Join(t.TempDir(), "x.gltf"))
		if err != nil {
			t.Fatal(err)
		}
		out := string(files[0].Data)
		if !strings.Contains(out, `"mass": 3`) {
			t.Fatalf("%s: the mass edit is not saved: %s", c.motion, out)
		}
		if got := strings.Contains(out, "inertiaOrientation"); got != (c.want != "") || !strings.Contains(out, c.want) {
			t.Errorf("%s: saved %s, want %q", c.motion, out, c.want)
		}
	}
}
