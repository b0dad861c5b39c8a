package scene

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/khronosval"
)

// The concave fixtures (go generate ./internal/concave): node 0 the ground,
// node 1 a dynamic body whose node has the concave mesh 0.
const concaveDir = "../internal/concave/testdata"

// copyFixture copies a fixture (and its .bin) into a new folder.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{name, strings.TrimSuffix(name, filepath.Ext(name)) + ".bin"} {
		b, err := os.ReadFile(filepath.Join(concaveDir, f))
		if err != nil {
			if f != name {
				continue
			}
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, name)
}

// readAll returns the main file and every .bin in its folder.
func readAll(t *testing.T, path string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(path), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func TestFitCompoundSaveUndo(t *testing.T) {
	for _, tc := range []struct {
		file string
		// newBin is the .bin a .gltf without one gains.
		newBin string
		khr    bool
	}{
		{"u.glb", "", false},
		{"l.gltf", "", false},
		{"torus.gltf", "torus_colliders.bin", false},
		{"cup.glb", "", true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := copyFixture(t, tc.file)
			orig := readAll(t, path)
			d, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			hulls := decomposeHulls(t, d, 8)
			e, err := d.FitCompoundEdit(1, hulls)
			if err != nil {
				t.Fatal(err)
			}
			var h History
			if _, err := h.Do(d, e); err != nil {
				t.Fatal(err)
			}
			parts := d.CompoundParts(1)
			if len(parts) != len(hulls) || len(hulls) < 2 || len(hulls) > 8 {
				t.Fatalf("%d hulls, %d part nodes", len(hulls), len(parts))
			}
			// The parts' meshes read back as the hulls.
			for i, c := range parts {
				s := d.Shapes[d.Nodes[c].Body.Collider.Shape]
				pos, tris, err := d.MeshTriangles(s.Mesh)
				if err != nil {
					t.Fatal(err)
				}
				acc := d.GLTF.Accessors[d.GLTF.Meshes[s.Mesh].Primitives[0].Attributes["POSITION"]]
				if acc.Count != len(hulls[i].Points) || len(tris) != len(hulls[i].Faces) || acc.Count > 32 {
					t.Errorf("part %d: mesh of %d (%d) points and %d triangles, hull of %d and %d", i, len(pos), acc.Count, len(tris), len(hulls[i].Points), len(hulls[i].Faces))
				}
			}
			if err := d.Save(path); err != nil {
				t.Fatal(err)
			}
			saved := readAll(t, path)
			if tc.newBin != "" && saved[tc.newBin] == nil {
				t.Errorf("no %s beside the .gltf", tc.newBin)
			}
			js := string(saved[filepath.Base(path)])
			if tc.khr && !strings.Contains(js, `"convexHull":true`) {
				t.Error("the KHR file has no convexHull mesh geometry")
			}
			if !tc.khr && !strings.Contains(js, `"convex":`) {
				t.Error("the OMI file has no convex shape")
			}
			// Reloaded: clean, the same parts, and a second save changes nothing.
			d2, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range d2.Findings() {
				if f.Severity >= Warning {
					t.Errorf("saved file: %s %s %s", f.Code, f.Path, f.Message)
				}
			}
			if got := len(d2.CompoundParts(1)); got != len(hulls) {
				t.Errorf("reloaded: %d parts, want %d", got, len(hulls))
			}
			if err := d2.Save(path); err != nil {
				t.Fatal(err)
			}
			if again := readAll(t, path); !sameFiles(again, saved) {
				t.Error("load and save of the saved file changed it")
			}
			// Undone, the first document saves as the file was.
			if _, ok := h.Undo(d); !ok {
				t.Fatal("undo failed")
			}
			if len(d.CompoundParts(1)) != 0 {
				t.Error("undo left parts")
			}
			if tc.newBin != "" {
				os.Remove(filepath.Join(filepath.Dir(path), tc.newBin))
			}
			if err := d.Save(path); err != nil {
				t.Fatal(err)
			}
			if after := readAll(t, path); !sameFiles(after, orig) {
				for k, v := range after {
					if !bytes.Equal(v, orig[k]) {
						t.Logf("%s: %d bytes, was %d\n%s", k, len(v), len(orig[k]), v[:min(len(v), 1500)])
					}
				}
				t.Error("save after undo differs from the original file")
			}
			// Redo and remove: removing the compound takes everything.
			if _, ok := h.Redo(d); !ok {
				t.Fatal("redo failed")
			}
			re, err := d.RemoveCompoundEdit(1)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := h.Do(d, re); err != nil {
				t.Fatal(err)
			}
			if err := d.Save(path); err != nil {
				t.Fatal(err)
			}
			if after := readAll(t, path); !sameFiles(after, orig) {
				t.Error("save after removing the compound differs from the original file")
			}
			// The reloaded file's compound can be removed too (its colliders).
			if _, ok := h.Undo(d); !ok {
				t.Fatal("undo of the removal failed")
			}
			if len(d.CompoundParts(1)) != len(hulls) {
				t.Error("undoing the removal did not bring the parts back")
			}
			// Fitting again replaces the compound: as many parts, one step.
			re3, err := d.FitCompoundEdit(1, hulls[:len(hulls)-1])
			if err != nil {
				t.Fatal(err)
			}
			nodes := len(d.GLTF.Nodes)
			if _, err := h.Do(d, re3); err != nil {
				t.Fatal(err)
			}
			if got := len(d.CompoundParts(1)); got != len(hulls)-1 || len(d.GLTF.Nodes) != nodes-1 {
				t.Errorf("re-fit: %d parts and %d nodes, want %d and %d", got, len(d.GLTF.Nodes), len(hulls)-1, nodes-1)
			}
			if _, ok := h.Undo(d); !ok || len(d.CompoundParts(1)) != len(hulls) {
				t.Error("undoing the re-fit did not bring the first compound back")
			}
			re2, err := d2.RemoveCompoundEdit(1)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Apply(d2, re2); err != nil {
				t.Fatal(err)
			}
			if len(d2.CompoundParts(1)) != 0 {
				t.Error("removing a saved compound left parts")
			}
		})
	}
}

// fitCompound loads a fixture copy, fits a compound to node 1 and saves.
func fitCompound(t *testing.T, file string) string {
	t.Helper()
	path := copyFixture(t, file)
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	applyCompound(t, d, 8)
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// decomposeHulls decomposes node 1 of d into at most maxHulls hulls of at
// most 32 vertices each.
func decomposeHulls(t *testing.T, d *Document, maxHulls int) []*Hull {
	t.Helper()
	res, err := d.DecomposeNode(context.Background(), 1, CompoundOptions{MaxHulls: maxHulls, MaxVertices: 32})
	if err != nil {
		t.Fatal(err)
	}
	var hulls []*Hull
	for _, p := range res.Parts {
		hulls = append(hulls, (*Hull)(p.Hull))
	}
	return hulls
}

// applyCompound fits a compound of at most maxHulls hulls (32 vertices
// each) to node 1 of d, as one edit, and returns the hulls.
func applyCompound(t *testing.T, d *Document, maxHulls int) []*Hull {
	t.Helper()
	hulls := decomposeHulls(t, d, maxHulls)
	e, err := d.FitCompoundEdit(1, hulls)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(d, e); err != nil {
		t.Fatal(err)
	}
	return hulls
}

func TestFitCompoundKhronos(t *testing.T) {
	var files []string
	for _, f := range []string{"u.glb", "l.gltf", "torus.gltf", "cup.glb"} {
		files = append(files, fitCompound(t, f))
	}
	dir := khronosval.Dir(t, "..")
	reps, err := khronosval.Run(dir, t.TempDir(), files)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		r, ok := reps[f]
		if !ok || r.Err != "" {
			t.Errorf("%s: no report (%s)", f, r.Err)
			continue
		}
		for _, m := range r.Messages {
			if m.Severity <= 1 {
				t.Errorf("%s: Khronos validator: %s at %s (severity %d)", filepath.Base(f), m.Code, m.Pointer, m.Severity)
			}
		}
	}
}

func TestFitCompoundErrors(t *testing.T) {
	d, err := Load(copyFixture(t, "u.glb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		node int
		o    CompoundOptions
		want string
	}{
		{0, CompoundOptions{}, "no mesh"},
		{7, CompoundOptions{}, "does not exist"},
		{1, CompoundOptions{MaxVertices: 300}, "max vertices 300"},
		{1, CompoundOptions{MaxHulls: -2}, "max hulls"},
	} {
		_, err := d.DecomposeNode(context.Background(), tc.node, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("node %d %+v: %v, want %q", tc.node, tc.o, err, tc.want)
		}
	}
	if _, err := d.RemoveCompoundEdit(1); err == nil {
		t.Error("removed a compound that is not there")
	}
}

// TestSaveAsLeavesSourceBuffer: saving a document whose .bin a fit grew
// under another name in the same folder (Save as, `viewer edit -o`) writes
// the grown buffer to a .bin named after the new file and leaves every file
// of the loaded document byte for byte as it was.
func TestSaveAsLeavesSourceBuffer(t *testing.T) {
	path := copyFixture(t, "l.gltf")
	orig := readAll(t, path)
	if _, ok := orig["l.bin"]; !ok {
		t.Fatalf("fixture without l.bin: %v", orig)
	}
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	hulls := applyCompound(t, d, 4)
	other := filepath.Join(filepath.Dir(path), "copy.gltf")
	for round := 0; round < 2; round++ { // a second save to the same new name too
		if err := d.Save(other); err != nil {
			t.Fatal(err)
		}
		d.Path = other // as the session does after Save as
	}
	after := readAll(t, path)
	for name, b := range orig {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed (%d bytes, was %d): Save as must leave the input's files alone", name, len(after[name]), len(b))
		}
	}
	js := string(after["copy.gltf"])
	if !strings.Contains(js, `"uri": "copy.bin"`) || strings.Contains(js, `"uri": "l.bin"`) {
		t.Errorf("copy.gltf does not refer to copy.bin:\n%s", js)
	}
	saved, err := Load(other)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(saved.CompoundParts(1)); got != len(hulls) {
		t.Errorf("copy.gltf has %d compound parts, want %d", got, len(hulls))
	}
	for _, f := range saved.Findings() {
		if f.Severity == Error {
			t.Errorf("copy.gltf: %v", f)
		}
	}
}

// TestSaveAsKeepsEveryInputFile: Save as in the input's folder never writes
// over a file of the input: a .glb whose buffer is an external .bin, and a
// buffer an edit added and an earlier save wrote (reviewed cases).
func TestSaveAsKeepsEveryInputFile(t *testing.T) {
	t.Run("glb with an external bin", func(t *testing.T) {
		gltfPath := copyFixture(t, "l.gltf")
		js, err := os.ReadFile(gltfPath)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(filepath.Dir(gltfPath), "ext.glb")
		if err := os.WriteFile(path, glbContainer(js, nil, nil), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(gltfPath)
		orig := readAll(t, path)
		d, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		applyCompound(t, d, 4)
		if err := d.Save(filepath.Join(filepath.Dir(path), "other.glb")); err != nil {
			t.Fatal(err)
		}
		after := readAll(t, path)
		for name, b := range orig {
			if !bytes.Equal(after[name], b) {
				t.Errorf("%s changed by Save as other.glb", name)
			}
		}
		o, err := Load(filepath.Join(filepath.Dir(path), "other.glb"))
		if err != nil {
			t.Fatal(err)
		}
		if len(o.CompoundParts(1)) == 0 {
			t.Error("other.glb has no compound")
		}
	})
	t.Run("a buffer an edit added", func(t *testing.T) {
		path := copyFixture(t, "torus.gltf")
		d, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		// A file of that name already beside the model is not taken over.
		stray := filepath.Join(filepath.Dir(path), "torus_colliders.bin")
		if err := os.WriteFile(stray, []byte("someone else's"), 0o644); err != nil {
			t.Fatal(err)
		}
		applyCompound(t, d, 4)
		if err := d.Save(path); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(stray); string(b) != "someone else's" {
			t.Errorf("the fit wrote over an existing torus_colliders.bin")
		}
		saved := readAll(t, path)
		applyCompound(t, d, 6) // a second fit replaces the compound
		if err := d.Save(filepath.Join(filepath.Dir(path), "other.gltf")); err != nil {
			t.Fatal(err)
		}
		after := readAll(t, path)
		for name, b := range saved {
			if !bytes.Equal(after[name], b) {
				t.Errorf("%s changed by Save as other.gltf", name)
			}
		}
		if _, err := Load(path); err != nil {
			t.Errorf("the saved torus.gltf no longer loads: %v", err)
		}
	})
}
