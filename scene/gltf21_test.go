package scene

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"physview/scene/corecheck"
)

const dialectFixtures = "testdata/dialects/"

// TestVersionRules: asset.version and minVersion as glTF 2.1 specifies
// them: two numeric parts ("2.10" is newer than "2.1"), a minVersion newer
// than 2.1 or a major version other than 2 refused naming the version, a
// newer 2.x with a readable minVersion opened with a note.
func TestVersionRules(t *testing.T) {
	cases := []struct {
		name, asset string
		errCode     string // the load error's code, "" when the file opens
		errText     string
		finding     string // a finding code the file must have ("" none)
		sev         Severity
	}{
		{"2.0", `{"version": "2.0"}`, "", "", "", 0},
		{"2.1", `{"version": "2.1"}`, "", "", "", 0},
		{"2.1 min 2.1", `{"version": "2.1", "minVersion": "2.1"}`, "", "", "", 0},
		{"2.10 min 2.0 opens with a note", `{"version": "2.10", "minVersion": "2.0"}`, "", "", "UNKNOWN_ASSET_MINOR_VERSION", Info},
		{"2.2 opens with a note", `{"version": "2.2"}`, "", "", "UNKNOWN_ASSET_MINOR_VERSION", Info},
		{"min 2.2 refused", `{"version": "2.2", "minVersion": "2.2"}`, "UNSUPPORTED_MIN_VERSION", "glTF 2.2", "", 0},
		{"min 2.10 refused (newer than 2.1)", `{"version": "2.10", "minVersion": "2.10"}`, "UNSUPPORTED_MIN_VERSION", "glTF 2.10", "", 0},
		{"major 3 refused", `{"version": "3.0"}`, "UNKNOWN_ASSET_MAJOR_VERSION", `"3.0"`, "", 0},
		{"min 3.0 refused", `{"version": "2.1", "minVersion": "3.0"}`, "UNSUPPORTED_MIN_VERSION", "glTF 3.0", "", 0},
		{"leading zero", `{"version": "2.01"}`, "", "", "PATTERN_MISMATCH", Error},
		{"ten digits", `{"version": "2.0123456789"}`, "", "", "PATTERN_MISMATCH", Error},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Decode([]byte(`{"asset": `+c.asset+`}`), nil)
			if c.errCode != "" {
				if err == nil || ErrorCode(err) != c.errCode || !strings.Contains(err.Error(), c.errText) {
					t.Fatalf("error %v (code %q), want code %s naming %s", err, ErrorCode(err), c.errCode, c.errText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range d.Findings() {
				got = append(got, f.Code)
				if f.Code == c.finding && f.Severity != c.sev {
					t.Errorf("%s is %v, want %v", f.Code, f.Severity, c.sev)
				}
			}
			if (c.finding == "") != (len(got) == 0) || (c.finding != "" && !strings.Contains(strings.Join(got, " "), c.finding)) {
				t.Errorf("findings %v, want %q", got, c.finding)
			}
		})
	}
}

// TestDefaultsBySource: the same scene with every size left out reads the
// 2.1 defaults from core shapes, the release candidate's from
// KHR_implicit_shapes and OMI's from OMI_physics_shape.
func TestDefaultsBySource(t *testing.T) {
	type sizes struct{ Height, Top, Bottom float64 }
	cases := []struct {
		file              string
		dialect           PhysicsDialect
		capsule, cylinder sizes
		shapes            int
	}{
		{"scene_gltf21.gltf", DialectGLTF21, sizes{1, 0.5, 0.5}, sizes{2, 0.5, 0.5}, 9},
		{"scene_khr.gltf", DialectKHR, sizes{0.5, 0.25, 0.25}, sizes{0.5, 0.25, 0.25}, 9},
		{"scene_omi.gltf", DialectOMI, sizes{1, 0.5, 0.5}, sizes{2, 0.5, 0.5}, 7},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			d := mustLoad(t, dialectFixtures+c.file)
			if d.PhysicsDialect() != c.dialect || len(d.Shapes) != c.shapes {
				t.Fatalf("dialect %v with %d shapes, want %v with %d", d.PhysicsDialect(), len(d.Shapes), c.dialect, c.shapes)
			}
			if fs := d.Findings(); CountBySeverity(fs)[Error]+CountBySeverity(fs)[Warning] > 0 {
				t.Errorf("findings on a valid file: %v", fs)
			}
			got := map[ShapeType]sizes{}
			for _, s := range d.Shapes {
				got[s.Type] = sizes{s.Height, s.RadiusTop, s.RadiusBottom}
				switch s.Type {
				case ShapeBox:
					if s.Size != [3]float64{20, 1, 20} && s.Size != [3]float64{1, 1, 1} {
						t.Errorf("box size %v", s.Size)
					}
				case ShapeSphere:
					if s.Radius != 0.5 {
						t.Errorf("sphere radius %g, want 0.5", s.Radius)
					}
				}
			}
			if got[ShapeCapsule] != c.capsule || got[ShapeCylinder] != c.cylinder {
				t.Errorf("capsule %v cylinder %v, want %v %v", got[ShapeCapsule], got[ShapeCylinder], c.capsule, c.cylinder)
			}
		})
	}
}

// TestGLTF21Fixture: the 2.1 file's core shapes (with the 2.1 type
// names), its one-sided planes, its bounding volume, and an unedited save
// that keeps every byte.
func TestGLTF21Fixture(t *testing.T) {
	d := mustLoad(t, dialectFixtures+"scene_gltf21.gltf")
	var types []string
	for i := range d.Shapes {
		_, typ, _ := d.ShapeForm(i)
		types = append(types, typ)
	}
	if want := "box capsule box sphere cylinder plane plane mesh convexMesh"; strings.Join(types, " ") != want {
		t.Errorf("types %q, want %q", strings.Join(types, " "), want)
	}
	if p := d.Shapes[6]; p.Size != [3]float64{2, 0, 3} || p.DoubleSided || d.Shapes[5].Size != [3]float64{} {
		t.Errorf("planes %+v %+v", d.Shapes[5], p)
	}
	bv := d.Nodes[7].BoundingVolume
	if bv == nil || bv.Shape != 2 || bv.Scale != [3]float64{1.25, 1.25, 1.25} || bv.Rotation != [4]float64{0, 0, 0, 1} {
		t.Fatalf("bounding volume %+v", bv)
	}
	if c := d.Nodes[1].Body.Collider; c == nil || c.Shape != 1 {
		t.Errorf("capsule collider %+v", c)
	}
	orig, err := os.ReadFile(dialectFixtures + "scene_gltf21.gltf")
	if err != nil {
		t.Fatal(err)
	}
	out, err := d.Encode(filepath.Join(t.TempDir(), "same.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out[0].Data, orig) {
		t.Error("an unedited save changed the 2.1 file")
	}
}

// TestBoundingVolumeRules: a bounding volume must name a box or sphere of
// the shapes, be a unit rotation, and hold the node's mesh.
func TestBoundingVolumeRules(t *testing.T) {
	cases := []struct {
		name, bv, code string
		sev            Severity
	}{
		{"fits", `{"shape": 2, "scale": [1.25, 1.25, 1.25]}`, "", 0},
		{"sphere fits", `{"shape": 3, "scale": [1.8, 1.8, 1.8]}`, "", 0},
		{"capsule", `{"shape": 1}`, "BOUNDING_VOLUME_SHAPE_TYPE", Error},
		{"missing shape", `{"shape": 99}`, "UNRESOLVED_REFERENCE", Error},
		{"too small", `{"shape": 2, "scale": [0.5, 1, 1]}`, "BOUNDING_VOLUME_TOO_SMALL", Warning},
		{"sphere too small", `{"shape": 3}`, "BOUNDING_VOLUME_TOO_SMALL", Warning},
		{"moved off", `{"shape": 2, "translation": [0, 2, 0]}`, "BOUNDING_VOLUME_TOO_SMALL", Warning},
		{"non-unit", `{"shape": 2, "rotation": [0, 0, 0, 0.5], "scale": [2, 2, 2]}`, "ROTATION_NON_UNIT", Error},
	}
	orig, err := os.ReadFile(dialectFixtures + "scene_gltf21.gltf")
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := json.Unmarshal(orig, &tree); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var bv any
			if err := json.Unmarshal([]byte(c.bv), &bv); err != nil {
				t.Fatal(err)
			}
			tree["nodes"].([]any)[7].(map[string]any)["boundingVolume"] = bv
			data, _ := json.Marshal(tree)
			d, err := Decode(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []Finding
			for _, f := range d.Findings() {
				if strings.HasPrefix(f.Path, "/nodes/7/boundingVolume") {
					got = append(got, f)
				}
			}
			if c.code == "" {
				if len(got) > 0 {
					t.Errorf("findings %v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Code != c.code || got[0].Severity != c.sev {
				t.Errorf("findings %v, want one %v %s", got, c.sev, c.code)
			}
		})
	}
}

// TestCoreMembersOnlyIn21: a glTF 2.0 file's top-level "shapes" and node
// "boundingVolume" are unexpected properties, read as nothing.
func TestCoreMembersOnlyIn21(t *testing.T) {
	data, err := os.ReadFile(dialectFixtures + "scene_gltf21.gltf")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"version": "2.1"`), []byte(`"version": "2.0"`), 1)
	d, err := Decode(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var unexpected []string
	for _, f := range d.Findings() {
		if f.Code == "UNEXPECTED_PROPERTY" {
			unexpected = append(unexpected, f.Path)
		}
	}
	if want := []string{"/nodes/7/boundingVolume", "/shapes"}; !cmp.Equal(unexpected, want) {
		t.Errorf("unexpected properties %v, want %v", unexpected, want)
	}
	if d.PhysicsDialect() != DialectKHR || d.Nodes[7].BoundingVolume != nil {
		t.Errorf("a 2.0 file read as %v", d.PhysicsDialect())
	}
}

// TestDialectRoundTrip: OMI -> glTF 2.1 -> KHR -> OMI keeps every shape,
// body, trigger, filter, material and joint, each step valid; the 2.1
// step writes version 2.1 and core shapes, the KHR step version 2.0.
func TestDialectRoundTrip(t *testing.T) {
	dir, err := filepath.Abs(dialectFixtures)
	if err != nil {
		t.Fatal(err)
	}
	d := mustLoad(t, dialectFixtures+"scene_omi.gltf")
	want := semantic(d)
	wantDoc := map[string]any{"materials": d.PhysicsMaterials, "filters": d.CollisionFilters, "joints": d.Joints}
	steps := []struct {
		to      PhysicsDialect
		version string
		has     []string
		warns   int
	}{
		{DialectGLTF21, "2.1", []string{`"shapes": [`, `"type": "convexMesh"`, `"KHR_physics_rigid_bodies"`}, 6},
		{DialectKHR, "2.0", []string{`"KHR_implicit_shapes"`, `"convexHull": true`}, 7},
		{DialectOMI, "2.0", []string{`"OMI_physics_shape"`, `"type": "convex"`}, 0},
	}
	for _, st := range steps {
		warns := d.SetPhysicsDialect(st.to)
		if len(warns) != st.warns {
			t.Errorf("to %v: %d warnings, want %d: %q", st.to, len(warns), st.warns, warns)
		}
		next := encodeAs(t, d, dir)
		if next.PhysicsDialect() != st.to || next.GLTFVersion() != st.version {
			t.Fatalf("to %v: read back as %v, version %s", st.to, next.PhysicsDialect(), next.GLTFVersion())
		}
		for _, h := range st.has {
			if !bytes.Contains(next.source.json, []byte(h)) {
				t.Errorf("to %v: no %s in the file", st.to, h)
			}
		}
		if n := CountBySeverity(next.Findings())[Error]; n > 0 {
			t.Errorf("to %v: %d errors: %v", st.to, n, next.Findings())
		}
		if diff := cmp.Diff(want, semantic(next), cmpModel); diff != "" {
			t.Errorf("to %v changed the physics:\n%s", st.to, diff)
		}
		gotDoc := map[string]any{"materials": next.PhysicsMaterials, "filters": next.CollisionFilters, "joints": next.Joints}
		if diff := cmp.Diff(wantDoc, gotDoc, cmpModel); diff != "" {
			t.Errorf("to %v changed materials, filters or joints:\n%s", st.to, diff)
		}
		d = next
	}
}

// TestKHRTo21ExplicitDefaults: a KHR capsule left at the release
// candidate's defaults is written with its sizes into 2.1, whose defaults
// differ; a 2.1 capsule at 2.1's defaults is written explicitly into KHR.
func TestKHRTo21ExplicitDefaults(t *testing.T) {
	dir, _ := filepath.Abs(dialectFixtures)
	for _, c := range []struct {
		from string
		to   PhysicsDialect
		want string
	}{
		{"scene_khr.gltf", DialectGLTF21, `{"type":"capsule","capsule":{"height":0.5,"radiusBottom":0.25,"radiusTop":0.25}}`},
		{"scene_gltf21.gltf", DialectKHR, `{"type":"capsule","capsule":{"height":1,"radiusBottom":0.5,"radiusTop":0.5}}`},
	} {
		d := mustLoad(t, dialectFixtures+c.from)
		d.SetPhysicsDialect(c.to)
		out := encodeAs(t, d, dir)
		var b bytes.Buffer
		_ = json.Compact(&b, out.source.json)
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("%s -> %v: no %s", c.from, c.to, c.want)
		}
		if s := out.Shapes[1]; s.Height != d.Shapes[1].Height || s.RadiusTop != d.Shapes[1].RadiusTop {
			t.Errorf("%s -> %v: capsule %+v, want %+v", c.from, c.to, s, d.Shapes[1])
		}
	}
}

// TestMeshUsedByShapeOnly: a mesh only a 2.1 mesh shape uses is not an
// unused object.
func TestMeshUsedByShapeOnly(t *testing.T) {
	data, err := os.ReadFile(dialectFixtures + "scene_gltf21.gltf")
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := json.Unmarshal(data, &tree); err != nil {
		t.Fatal(err)
	}
	for _, n := range tree["nodes"].([]any) {
		delete(n.(map[string]any), "mesh")
	}
	data, _ = json.Marshal(tree)
	d, err := Decode(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range d.Findings() {
		if f.Code == "UNUSED_OBJECT" {
			t.Errorf("%v", f)
		}
	}
}

// TestCore21ShapeFindings: a 2.1 core shape's faults carry the validator's
// core codes at the member, physview's own rules their KHR_ codes, and
// every code is listed.
func TestCore21ShapeFindings(t *testing.T) {
	cases := []struct {
		name, shape, code, path string
		sev                     Severity
	}{
		{"negative radius", `{"type":"capsule","capsule":{"radiusTop":-1}}`, "VALUE_NOT_IN_RANGE", "/shapes/0/capsule/radiusTop", Error},
		{"zero box", `{"type":"box","box":{"size":[1,0,1]}}`, "KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", "/shapes/0/box/size/1", Info},
		{"unknown type", `{"type":"torus","torus":{"r":1}}`, "VALUE_NOT_IN_LIST", "/shapes/0/type", Warning},
		{"no type", `{"box":{}}`, "UNDEFINED_PROPERTY", "/shapes/0", Error},
		{"plane size 0", `{"type":"plane","plane":{"sizeX":0}}`, "VALUE_NOT_IN_RANGE", "/shapes/0/plane/sizeX", Error},
		{"double-sided plane", `{"type":"plane","plane":{"doubleSided":true}}`, "UNEXPECTED_PROPERTY", "/shapes/0/plane/doubleSided", Warning},
		{"mesh missing", `{"type":"mesh","mesh":{"mesh":3}}`, "UNRESOLVED_REFERENCE", "/shapes/0/mesh/mesh", Error},
		{"extra key", `{"type":"sphere","sphere":{"radius":1,"r":2}}`, "UNEXPECTED_PROPERTY", "/shapes/0/sphere/r", Warning},
	}
	known := map[string]bool{}
	for _, r := range PhysicsRules {
		known[r.Code] = true
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := `{"asset":{"version":"2.1"},"extensionsUsed":["KHR_physics_rigid_bodies"],"shapes":[` + c.shape + `],` +
				`"nodes":[{"extensions":{"KHR_physics_rigid_bodies":{"collider":{"geometry":{"shape":0}}}}}],"scenes":[{"nodes":[0]}],"scene":0}`
			d, err := Decode([]byte(doc), nil)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range d.Findings() {
				if !known[f.Code] && !corecheck.IsKhronosCode(f.Code) {
					t.Errorf("unlisted code %s: %v", f.Code, f)
				}
				found = found || (f.Code == c.code && f.Path == c.path && f.Severity == c.sev)
			}
			if !found {
				t.Errorf("no %v %s at %s in %v", c.sev, c.code, c.path, d.Findings())
			}
		})
	}
}
