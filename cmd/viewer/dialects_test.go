package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/scene"
)

// TestConvertDialects: convert reads and writes G4MF through the format
// registry and switches the glTF physics dialect with -physics, printing
// one warning per thing the target cannot hold.
func TestConvertDialects(t *testing.T) {
	dir := t.TempDir()
	g4 := "../../scene/g4mf/testdata/bodies_mesh.g4tf"
	cases := []struct {
		name     string
		args     []string
		code     int
		out, err string
		check    func(t *testing.T)
	}{
		{"g4tf to glb", []string{"convert", g4, filepath.Join(dir, "a.glb")}, 0, "wrote", "", func(t *testing.T) {
			d, err := scene.Load(filepath.Join(dir, "a.glb"))
			if err != nil || len(d.Shapes) != 5 || d.Shapes[4].Type != scene.ShapeGeneral {
				t.Errorf("%v, shapes %v", err, d.Shapes)
			}
		}},
		{"glb to g4b", []string{"convert", fixtures + "general_shapes.gltf", filepath.Join(dir, "b.g4b")}, 0, "wrote", "", func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "b.g4b"))
			if err != nil || string(data[:4]) != "G4MF" {
				t.Errorf("%v: not a G4B file", err)
			}
		}},
		{"inspect g4tf", []string{"inspect", g4}, 0, "(G4MF)", "", nil},
		{"to KHR", []string{"convert", "-physics", "khr", fixtures + "general_shapes.gltf", filepath.Join(dir, "k.gltf")}, 0,
			`warning: shape 0: general is not a KHR_implicit_shapes type`, "", func(t *testing.T) {
				data, _ := os.ReadFile(filepath.Join(dir, "k.gltf"))
				if !strings.Contains(string(data), `"KHR_physics_rigid_bodies"`) || strings.Contains(string(data), "OMI_physics_body") {
					t.Error("not written as KHR")
				}
			}},
		{"back to OMI", []string{"convert", "-physics", "omi", filepath.Join(dir, "k.gltf"), filepath.Join(dir, "o.gltf")}, 0,
			`warning: shape 3: plane is not an OMI shape`, "", nil},
		{"bad dialect", []string{"convert", "-physics", "bullet", g4, filepath.Join(dir, "x.glb")}, 2, "", `want omi, khr or gltf2.1`, nil},
		{"4D G4MF", []string{"inspect", "../../../shared/corpus/synthesized/g4mf/shapes_4d_spec_snippets.g4tf"}, 2, "", "only 3D", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(strings.Join(c.args, " "), "shared/corpus") {
				if _, err := os.Stat(c.args[len(c.args)-1]); err != nil {
					t.Skip("corpus absent")
				}
			}
			code, out, errOut := runCLI(c.args...)
			if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) {
				t.Fatalf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			if c.check != nil {
				c.check(t)
			}
		})
	}
}
