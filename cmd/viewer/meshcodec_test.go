package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/report"
)

// triangleFile is a glTF with one triangle mesh on node 0 (in scene 0) and
// an empty node 1 (in scene 1), extensions added as %s.
const triangleFile = `{"asset":{"version":"2.0"}%s,
"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
"bufferViews":[{"buffer":0,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"nodes":[{"name":"Tri","mesh":0},{"name":"Empty"}],
"scenes":[{"name":"Main","nodes":[0]},{"name":"Other","nodes":[1]}],"scene":0}`

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRequiredExtensionRefused: a file that requires an extension the
// viewer cannot honour is refused by screenshot and simulate with exit 2
// and one line naming it and what to do; inspect and validate read it; an
// optional one opens.
func TestRequiredExtensionRefused(t *testing.T) {
	req := writeTemp(t, "req.gltf", strings.Replace(triangleFile, "%s", `,"extensionsUsed":["EXT_made_up"],"extensionsRequired":["EXT_made_up"]`, 1))
	opt := writeTemp(t, "opt.gltf", strings.Replace(triangleFile, "%s", `,"extensionsUsed":["EXT_made_up"]`, 1))
	for _, cmd := range [][]string{{"screenshot", "-o", filepath.Join(t.TempDir(), "x.png"), req}, {"simulate", req}} {
		code, _, errOut := runCLI(cmd...)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2", cmd[0], code)
		}
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], req+": requires extension EXT_made_up, which this viewer cannot show") || !strings.Contains(lines[0], "gltf-transform") {
			t.Errorf("%s: stderr %q, want one line naming the file, the extension and gltf-transform", cmd[0], errOut)
		}
	}
	for _, file := range []string{req, opt} {
		if code, _, errOut := runCLI("inspect", file); code != 0 {
			t.Errorf("inspect %s: exit %d: %s", file, code, errOut)
		}
	}
	// validate reads it and reports the required extension as an error of
	// our own (the file will not display right): exit 1, not 2.
	if code, out, _ := runCLI("validate", req); code != 1 || !strings.Contains(out, "UNSUPPORTED_REQUIRED_EXTENSION") {
		t.Errorf("validate: exit %d, want 1 with UNSUPPORTED_REQUIRED_EXTENSION:\n%s", code, out)
	}
	if code, _, errOut := runCLI("screenshot", "-size", "64x48", "-o", filepath.Join(t.TempDir(), "x.png"), opt); code != 0 {
		t.Errorf("screenshot of the optional one: exit %d: %s", code, errOut)
	}
}

// TestSceneFlag: -scene N chooses the scene inspect reports and screenshot
// shows; a scene that does not exist is exit 2; a scene without meshes
// writes its empty picture, says why nothing is drawn and exits 1.
func TestSceneFlag(t *testing.T) {
	file := writeTemp(t, "two.gltf", strings.Replace(triangleFile, "%s", "", 1))
	for _, tc := range []struct {
		scene       string
		index       int
		name        string
		nodes, mesh int
	}{{"-1", 0, "Main", 1, 1}, {"0", 0, "Main", 1, 1}, {"1", 1, "Other", 1, 0}} {
		code, out, errOut := runCLI("inspect", "-json", "-scene", tc.scene, file)
		if code != 0 {
			t.Fatalf("inspect -scene %s: exit %d: %s", tc.scene, code, errOut)
		}
		var r report.Inspection
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if s := r.Scene; s == nil || s.Index != tc.index || s.Name != tc.name || s.Nodes != tc.nodes || s.MeshNodes != tc.mesh {
			t.Errorf("inspect -scene %s: scene %+v, want %d %s with %d nodes, %d with meshes", tc.scene, r.Scene, tc.index, tc.name, tc.nodes, tc.mesh)
		}
	}
	for _, cmd := range [][]string{{"inspect", "-scene", "2", file}, {"screenshot", "-scene", "2", "-o", filepath.Join(t.TempDir(), "x.png"), file}} {
		code, _, errOut := runCLI(cmd...)
		if code != 2 || !strings.Contains(errOut, "-scene: scene 2 does not exist (the file has 2)") {
			t.Errorf("%s -scene 2: exit %d, %q", cmd[0], code, errOut)
		}
	}
	png := filepath.Join(t.TempDir(), "x.png")
	if code, _, errOut := runCLI("screenshot", "-size", "64x48", "-scene", "1", "-o", png, file); code != 1 || !strings.Contains(errOut, "the picture is incomplete: nothing is drawn: the file has 1 mesh but no node of scene 1 uses one") {
		t.Errorf("screenshot -scene 1: exit %d, %q; want 1 saying why nothing is drawn", code, errOut)
	}
	if _, err := os.Stat(png); err != nil {
		t.Error(err)
	}
}

// TestHugeZeroFilledAccessorCommands: the file of issue 24 (a valid
// zero-filled POSITION accessor of 3,999,999,999 elements) no longer kills
// screenshot and simulate: screenshot draws the empty picture and exits 1
// (an empty picture never passes), simulate says there is nothing to play
// (exit 1), validate passes it.
func TestHugeZeroFilledAccessorCommands(t *testing.T) {
	file := writeTemp(t, "huge.gltf", `{"asset":{"version":"2.0"},
"accessors":[{"componentType":5126,"count":3999999999,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"screenshot", "-size", "64x48", "-o", filepath.Join(t.TempDir(), "x.png"), file}, 1},
		{[]string{"simulate", file}, 1},
		{[]string{"validate", file}, 0},
	} {
		if code, _, errOut := runCLI(tc.args...); code != tc.code {
			t.Errorf("%s: exit %d, want %d: %s", tc.args[0], code, tc.code, errOut)
		}
	}
}

// TestScreenshotIncompleteExit: screenshot writes its picture and exits 1
// naming what is not drawn when a primitive the scene uses cannot be
// decoded (a Draco stream whose magic is overwritten: the picture lacks
// the sphere, the box still draws), or when nothing at all is drawn; a
// Draco primitive whose POSITION is outside the stream draws whole, exit 0.
func TestScreenshotIncompleteExit(t *testing.T) {
	data, err := os.ReadFile(fixtures + "meshcodec/draco.glb")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), "DRACO")
	if i < 0 {
		t.Fatal("no Draco stream in draco.glb")
	}
	copy(data[i:], "XXXXX")
	bad := filepath.Join(t.TempDir(), "bad.glb")
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := writeTemp(t, "empty.gltf", `{"asset":{"version":"2.0"},
"accessors":[{"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`)
	for _, tc := range []struct {
		file   string
		code   int
		errOut string
	}{
		{bad, 1, "the picture is incomplete: not drawn: mesh 0 primitive 0: POSITION: accessor 3: Draco data does not decode: draco: Not a Draco file."},
		{empty, 1, "the picture is incomplete: nothing is drawn: no primitive of scene 0 can be drawn: mesh 0 primitive 0: POSITION accessor 0 has no bufferView"},
		{fixtures + "meshcodec/draco_sparse.glb", 0, ""},
	} {
		png := filepath.Join(t.TempDir(), "x.png")
		code, out, errOut := runCLI("screenshot", "-size", "64x48", "-o", png, tc.file)
		if code != tc.code || !strings.Contains(errOut, tc.errOut) || !strings.Contains(out, "wrote "+png) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d, the picture written, stderr with %q", filepath.Base(tc.file), code, out, errOut, tc.code, tc.errOut)
		}
		if tc.code == 0 && errOut != "" {
			t.Errorf("%s: stderr %q, want nothing", filepath.Base(tc.file), errOut)
		}
		if _, err := os.Stat(png); err != nil {
			t.Errorf("%s: %v", filepath.Base(tc.file), err)
		}
	}
}
