package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const pipelineFixture = "testdata/edit/pipeline.gltf"

// decodeJSON decodes a glTF's JSON keeping every number as written.
func decodeJSON(t *testing.T, data []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// at walks a decoded JSON value along keys (strings) and indices (ints).
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q", path, k)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("%v: no element %d", path, k)
			}
			v = a[k]
		}
	}
	return v
}

// withoutPhysics drops what `viewer edit` owns (the OMI physics blocks,
// extensionsUsed and the node names the test renames), so that the rest
// can be compared number by number as written.
func withoutPhysics(m map[string]any, nodes int) map[string]any {
	if ext, ok := m["extensions"].(map[string]any); ok {
		for k := range ext {
			if strings.HasPrefix(k, "OMI_physics_") {
				delete(ext, k)
			}
		}
	}
	delete(m, "extensionsUsed")
	ns, _ := m["nodes"].([]any)
	if len(ns) > nodes {
		m["nodes"] = ns[:nodes]
	}
	for _, n := range ns[:min(nodes, len(ns))] {
		nm := n.(map[string]any)
		delete(nm, "name")
		if ext, ok := nm["extensions"].(map[string]any); ok {
			for k := range ext {
				if strings.HasPrefix(k, "OMI_physics_") {
					delete(ext, k)
				}
			}
			if len(ext) == 0 {
				delete(nm, "extensions")
			}
		}
	}
	return m
}

func TestEditCommands(t *testing.T) {
	orig, err := os.ReadFile(pipelineFixture)
	if err != nil {
		t.Fatal(err)
	}
	shapeOf := func(m map[string]any, node int) any {
		i := at(t, m, "nodes", node, "extensions", "OMI_physics_body", "collider", "shape").(json.Number)
		k, _ := i.Int64()
		return at(t, m, "extensions", "OMI_physics_shape", "shapes", int(k))
	}
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, m map[string]any)
	}{
		{"fit", []string{"fit", "Statue", "box"}, func(t *testing.T, m map[string]any) {
			s := shapeOf(m, 2)
			if got := at(t, s, "type"); got != "box" || !reflect.DeepEqual(at(t, s, "box", "size"), []any{json.Number("1"), json.Number("1"), json.Number("1")}) {
				t.Errorf("Statue's fitted shape %v", s)
			}
		}},
		{"fit by index", []string{"fit", "2", "sphere"}, func(t *testing.T, m map[string]any) {
			if s := shapeOf(m, 2); at(t, s, "type") != "sphere" || at(t, s, "sphere", "radius") == nil {
				t.Errorf("Statue's fitted sphere %v", s)
			}
		}},
		{"shape radius as typed", []string{"shape", "Ball", "radius=0.35"}, func(t *testing.T, m map[string]any) {
			if got := at(t, shapeOf(m, 1), "sphere", "radius"); got != json.Number("0.35") {
				t.Errorf("Ball radius written as %v, want 0.35", got)
			}
		}},
		{"shape size", []string{"shape", "Crate", "size=1,2,1"}, func(t *testing.T, m map[string]any) {
			if got := at(t, shapeOf(m, 0), "box", "size"); !reflect.DeepEqual(got, []any{json.Number("1"), json.Number("2"), json.Number("1")}) {
				t.Errorf("Crate size %v", got)
			}
		}},
		{"motion", []string{"motion", "Crate", "kinematic", "mass=3.75"}, func(t *testing.T, m map[string]any) {
			mo := at(t, m, "nodes", 0, "extensions", "OMI_physics_body", "motion")
			if at(t, mo, "type") != "kinematic" || at(t, mo, "mass") != json.Number("3.75") {
				t.Errorf("Crate motion %v", mo)
			}
		}},
		{"motion on a static collider", []string{"motion", "Floor", "static"}, func(t *testing.T, m map[string]any) {
			if got := at(t, m, "nodes", 3, "extensions", "OMI_physics_body", "motion", "type"); got != "static" {
				t.Errorf("Floor motion type %v", got)
			}
		}},
		{"rename", []string{"rename", "Lamp", "Sun & Moon"}, func(t *testing.T, m map[string]any) {
			if got := at(t, m, "nodes", 4, "name"); got != "Sun & Moon" {
				t.Errorf("renamed to %v", got)
			}
		}},
		{"gravity", []string{"gravity", "0,-9.81,0"}, func(t *testing.T, m map[string]any) {
			g := at(t, m, "extensions", "OMI_physics_gravity")
			if at(t, g, "gravity") != json.Number("9.81") || !reflect.DeepEqual(at(t, g, "direction"), []any{json.Number("0"), json.Number("-1"), json.Number("0")}) {
				t.Errorf("world gravity %v", g)
			}
		}},
		{"remove-collider", []string{"remove-collider", "Floor"}, func(t *testing.T, m map[string]any) {
			if b, ok := at(t, m, "nodes", 3).(map[string]any)["extensions"]; ok {
				t.Errorf("Floor keeps %v", b)
			}
			if n := len(at(t, m, "extensions", "OMI_physics_shape", "shapes").([]any)); n != 2 {
				t.Errorf("%d shapes left, want 2 (the floor's went with it)", n)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.gltf")
			os.WriteFile(in, orig, 0o644)
			var stdout, stderr bytes.Buffer
			if code := run(append([]string{"edit", in}, tc.args...), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			saved, _ := os.ReadFile(in)
			m := decodeJSON(t, saved)
			tc.check(t, m)
			if !strings.Contains(stdout.String(), "saved "+in+" (1 edits)") {
				t.Errorf("stdout %q", stdout.String())
			}
			// Every byte outside the physics blocks and the renamed name
			// is as it was (numbers as written, "<&>" unescaped).
			if !bytes.Contains(saved, []byte(`"<&>"`)) || !bytes.Contains(saved, []byte(`1.50`)) || !bytes.Contains(saved, []byte(`"a < b & c"`)) {
				t.Error("the unknown extension or the extras were rewritten")
			}
			if a, b := withoutPhysics(decodeJSON(t, orig), 5), withoutPhysics(m, 5); !reflect.DeepEqual(a, b) {
				t.Errorf("something outside the physics changed:\n%v\n%v", a, b)
			}
		})
	}
}

// TestEditScript runs several commands in one call to -o OUT: each is one
// step, the input stays as it was, and ";" separates commands too.
func TestEditScript(t *testing.T) {
	dir := t.TempDir()
	orig, _ := os.ReadFile(pipelineFixture)
	in, out := filepath.Join(dir, "in.gltf"), filepath.Join(dir, "out.glb")
	os.WriteFile(in, orig, 0o644)
	var stdout, stderr bytes.Buffer
	args := []string{"edit", "-o", out, in, "shape", "Ball", "radius=0.35;", "rename", "Ball", "Marble", ";", "motion", "Marble", "dynamic", "mass=0.25", "gravity", "0,0,-3.5"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got, _ := os.ReadFile(in); !bytes.Equal(got, orig) {
		t.Error("-o wrote the input file")
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 5 || lines[4] != "saved "+out+" (4 edits)" {
		t.Fatalf("stdout:\n%s", stdout.String())
	}
	d, err := openDocument(out)
	if err != nil {
		t.Fatal(err)
	}
	b := d.Nodes[1].Body
	if d.GLTF.Nodes[1].Name != "Marble" || d.Shapes[b.Collider.Shape].Radius != 0.35 || b.Motion.Mass != 0.25 {
		t.Errorf("Marble: %q radius %v mass %v", d.GLTF.Nodes[1].Name, d.Shapes[b.Collider.Shape].Radius, b.Motion.Mass)
	}
	if g := d.WorldGravity; g == nil || g.Gravity != 3.5 || g.Direction != [3]float64{0, 0, -1} {
		t.Errorf("world gravity %+v", g)
	}
}

// TestEditRefuses: a bad command or value exits 2 naming it and the file
// and writes nothing, even when earlier commands were fine.
func TestEditRefuses(t *testing.T) {
	orig, _ := os.ReadFile(pipelineFixture)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"explode", "Crate"}, `unknown command "explode"`},
		{[]string{"rename", "Crate", "Box", "fit", "Nobody", "box"}, `no node is called "Nobody"`},
		{[]string{"fit", "Statue", "blob"}, `unknown shape type "blob"`},
		{[]string{"fit", "Lamp", "box"}, `fit Lamp box`},
		{[]string{"shape", "Ball", "radius=-1"}, `shape Ball radius=-1`},
		{[]string{"shape", "Ball", "radius=abc"}, `radius=abc: not a finite number`},
		{[]string{"shape", "Ball", "colour=red"}, `unknown key "colour"`},
		{[]string{"shape", "Lamp", "radius=1"}, `node Lamp has no collider`},
		{[]string{"shape", "Crate", "radius=2"}, `a box has no radius (its parameters: size)`},
		{[]string{"shape", "Ball", "size=1,1,1"}, `a sphere has no size (its parameters: radius)`},
		{[]string{"shape", "Crate", "size=1,2"}, `want three numbers`},
		{[]string{"shape", "Crate", "size=2,,1"}, `size=2,,1: number 2 ("") is not a finite number`},
		{[]string{"gravity", "0,-9.81,x"}, `gravity=0,-9.81,x: number 3 ("x") is not a finite number`},
		{[]string{"motion", "Crate", "floating"}, `unknown motion type "floating"`},
		{[]string{"motion", "Crate", "dynamic", "mass=-2"}, `cannot be negative`},
		{[]string{"motion", "Crate", "dynamic", "mass=0"}, `mass=0: a dynamic body needs a mass above 0`},
		{[]string{"shape", "Crate", "size=1,2,1", "size=3,3,3"}, `size is given twice`},
		{[]string{"gravity", "0,NaN,0"}, `not a finite number`},
		{[]string{"remove-collider", "Lamp"}, `node Lamp has no collider`},
		{[]string{"rename", "9", "X"}, `node 9 does not exist`},
		{[]string{"rename", "Crate"}, `usage: rename NODE NEW`},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			in, out := filepath.Join(dir, "in.gltf"), filepath.Join(dir, "out.gltf")
			os.WriteFile(in, orig, 0o644)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"edit", "-o", out, in}, tc.args...), &stdout, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 naming %q", code, stderr.String(), tc.want)
			}
			if !strings.Contains(stderr.String(), "edit "+in+": ") {
				t.Errorf("stderr %q does not name the file %s", stderr.String(), in)
			}
			if got, _ := os.ReadFile(in); !bytes.Equal(got, orig) {
				t.Error("the input changed")
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output was written")
			}
		})
	}
}
