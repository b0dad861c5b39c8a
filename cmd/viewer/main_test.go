package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/assets"
	"physview/internal/report"
	"physview/internal/testcorpus"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

const fixtures = "../../scene/testdata/"

func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	notGLTF := filepath.Join(dir, "notes.gltf")
	os.WriteFile(notGLTF, []byte("just some text\n"), 0o644)
	broken := filepath.Join(dir, "broken.gltf")
	os.WriteFile(broken, []byte(`{"asset": {"version": "2.0"}, "nodes": [`), 0o644)
	truncated := filepath.Join(dir, "cut.glb")
	if code, _, errOut := runCLI("convert", fixtures+"current.gltf", truncated); code != 0 {
		t.Fatalf("convert: %d %s", code, errOut)
	}
	data, _ := os.ReadFile(truncated)
	// Cut inside the JSON chunk: nothing to read. Cut inside the BIN
	// chunk: the document is read, with the cut as an error finding.
	os.WriteFile(truncated, data[:40], 0o644)
	cutBIN := filepath.Join(dir, "cutbin.glb")
	os.WriteFile(cutBIN, data[:len(data)-40], 0o644)
	missingBin := filepath.Join(dir, "nobin.gltf")
	os.WriteFile(missingBin, []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "nobin.bin"}]}`), 0o644)
	badDataURI := filepath.Join(dir, "baduri.gltf")
	os.WriteFile(badDataURI, []byte(`{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "data:application/octet-stream;base64,AA!A"}]}`), 0o644)

	cases := []struct {
		name string
		args []string
		code int
		err  string // in stderr
	}{
		{"help", []string{"-h"}, 0, ""},
		{"unknown command", []string{"explode"}, 2, `unknown command "explode"`},
		{"inspect without file", []string{"inspect"}, 2, "needs one FILE"},
		{"validate clean", []string{"validate", fixtures + "current.gltf"}, 0, ""},
		{"validate errors", []string{"validate", fixtures + "bad_physics.gltf"}, 1, "has errors"},
		{"validate warnings only", []string{"validate", fixtures + "legacy_collider.gltf"}, 0, ""},
		{"not glTF", []string{"inspect", notGLTF}, 2, notGLTF + ": broken JSON at line 1"},
		{"broken JSON", []string{"validate", broken}, 2, broken + ": broken JSON"},
		{"truncated GLB", []string{"inspect", truncated}, 2, truncated + ": truncated GLB"},
		{"truncated BIN chunk", []string{"validate", cutBIN}, 1, "has errors"},
		{"missing bin", []string{"convert", missingBin, filepath.Join(dir, "x.glb")}, 2, missingBin + ": buffer 0 has no data: its file nobin.bin was not found"},
		{"data URI of bad base64", []string{"convert", badDataURI, filepath.Join(dir, "x.glb")}, 2, badDataURI + ": buffer 0 has no data: its data URI does not decode: bad base64: illegal base64 data at input byte 2"},
		{"data URI of bad base64, validate", []string{"validate", badDataURI}, 1, "has errors"},
		{"missing file", []string{"inspect", filepath.Join(dir, "nope.gltf")}, 2, "nope.gltf: no such file"},
		{"bad target", []string{"convert", fixtures + "current.gltf", filepath.Join(dir, "x.fbx")}, 2, ".gltf or .glb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := runCLI(c.args...)
			if code != c.code {
				t.Errorf("exit status %d, want %d (stderr %q)", code, c.code, errOut)
			}
			if !strings.Contains(errOut, c.err) {
				t.Errorf("stderr %q does not contain %q", errOut, c.err)
			}
			// Bad input files get exactly one line naming the file.
			if c.code == 2 && len(c.args) > 1 && !strings.Contains(errOut, "usage:") {
				if lines := strings.Count(strings.TrimSpace(errOut), "\n") + 1; lines != 1 {
					t.Errorf("bad input should give one line, got %d: %q", lines, errOut)
				}
			}
		})
	}
}

func TestInspectJSON(t *testing.T) {
	code, out, errOut := runCLI("inspect", "-json", fixtures+"current.gltf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r report.Inspection
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Counts["shapes"] != 7 || r.Counts["nodes"] != 8 || r.Counts["physicsJoints"] != 1 {
		t.Errorf("counts = %v", r.Counts)
	}
	if len(r.Gravity) != 1 || r.Gravity[0].Type != "point" || r.Gravity[0].Priority != 2 || !r.Gravity[0].Replace {
		t.Errorf("gravity = %+v", r.Gravity)
	}
	if r.World == nil || r.World.Gravity != 9.8 {
		t.Errorf("world gravity = %+v", r.World)
	}
	if len(r.Joints) != 1 || r.Joints[0].Limits != 2 || r.Joints[0].Drives != 1 || r.Joints[0].Connected != 1 {
		t.Errorf("joints = %+v", r.Joints)
	}
	if r.Shapes[2].Type != "capsule" || !strings.Contains(r.Shapes[2].Params, "full height 2.25") {
		t.Errorf("capsule = %+v", r.Shapes[2])
	}
}

func TestInspectText(t *testing.T) {
	code, out, _ := runCLI("inspect", fixtures+"variants.gltf")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"variants (4):", "0  Red", "2  variant 2", "findings: 2 errors, 3 warnings", "4 vertices or indices do not fit drawing mode TRIANGLES", "material 7 does not exist"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestCorpusCommands runs inspect and validate over the whole corpus: every
// file loads (exit status 0 or 1, never 2) and nothing panics.
func TestCorpusCommands(t *testing.T) {
	dir := testcorpus.Dir(t)
	for _, rel := range testcorpus.Models(t, ".gltf", ".glb") {
		p := filepath.Join(dir, rel)
		if strings.HasPrefix(rel, "khronos-gltf-validator/") && khronosHasErrors(p) {
			// Broken on purpose: exit 2 is right where the input cannot
			// be read (scene.TestKhronosAgreement judges these).
			continue
		}
		if code, _, errOut := runCLI("inspect", "-json", p); code != 0 {
			t.Errorf("inspect %s: exit %d: %s", rel, code, errOut)
		}
		if code, _, errOut := runCLI("validate", p); code == 2 {
			t.Errorf("validate %s: exit 2: %s", rel, errOut)
		}
	}
}

// khronosHasErrors reports whether the Khronos validator's report beside a
// file of its test set counts errors.
func khronosHasErrors(path string) bool {
	raw, err := os.ReadFile(path + ".report.json")
	if err != nil {
		return false
	}
	var rep struct {
		Issues struct {
			NumErrors int `json:"numErrors"`
		} `json:"issues"`
	}
	return json.Unmarshal(raw, &rep) == nil && rep.Issues.NumErrors > 0
}

func TestConvertRoundTrip(t *testing.T) {
	dir := t.TempDir()
	glb := filepath.Join(dir, "legacy.glb")
	if code, out, errOut := runCLI("convert", fixtures+"legacy_body.gltf", glb); code != 0 || !strings.Contains(out, "wrote "+glb) {
		t.Fatalf("convert: %d %q %q", code, out, errOut)
	}
	back := filepath.Join(dir, "legacy.gltf")
	if code, _, errOut := runCLI("convert", glb, back); code != 0 {
		t.Fatalf("convert back: %d %s", code, errOut)
	}
	code, out, _ := runCLI("validate", back)
	// Clean and current: no errors or warnings, no legacy form left (the
	// notes are the Khronos ones of the fixture: an unknown extension, an
	// unused material).
	if code != 0 || !strings.Contains(out, "findings: 0 errors, 0 warnings,") || strings.Contains(out, "LEGACY") {
		t.Errorf("converted legacy file should be clean and current, got %d:\n%s", code, out)
	}
}

func TestScreenshotCommand(t *testing.T) {
	dir := t.TempDir()
	demo := filepath.Join(dir, "demo.glb")
	if err := os.WriteFile(demo, assets.Demo, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gold.png")
	code, stdout, errOut := runCLI("screenshot", "-o", out, "-size", "320x200", "-variant", "Gold", demo)
	if code != 0 || !strings.Contains(stdout, "wrote "+out) {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	if img := readPNG(t, out); img.Bounds().Dx() != 320 || img.Bounds().Dy() != 200 {
		t.Fatalf("png size %v, want 320x200", img.Bounds())
	}
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"screenshot", "-variant", "Purple", demo}, `no variant "Purple" (the file has: Day, Night, Gold, Iridescent)`},
		{[]string{"screenshot", "-size", "big", demo}, "WIDTHxHEIGHT"},
		{[]string{"screenshot", "-camera", "3", demo}, "camera 3 does not exist"},
	}
	for _, c := range cases {
		if code, _, errOut := runCLI(c.args...); code != 2 || !strings.Contains(errOut, c.err) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.err)
		}
	}
}

// TestScreenshotFileCamera views the Duck through the camera the file has.
func TestScreenshotFileCamera(t *testing.T) {
	duck := testcorpus.File(t, "gltf-sample-assets/Models/Duck/glTF/Duck.gltf")
	out := filepath.Join(t.TempDir(), "duck.png")
	if code, _, errOut := runCLI("screenshot", "-o", out, "-size", "160x120", "-camera", "0", duck); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	img := readPNG(t, out)
	// The duck's camera looks straight at it: the centre is yellow.
	r, g, b, _ := img.At(80, 60).RGBA()
	if r>>8 < 150 || g>>8 < 120 || b>>8 > 100 {
		t.Errorf("centre pixel (%d, %d, %d) is not the yellow duck", r>>8, g>>8, b>>8)
	}
}

func TestConvertXODE(t *testing.T) {
	src := testcorpus.File(t, "pybrain/pybrain/rl/environments/ode/models/acrobot.xode")
	out := filepath.Join(t.TempDir(), "acrobot.glb")
	if code, _, errOut := runCLI("convert", src, out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, stdout, _ := runCLI("inspect", out)
	if code != 0 || !strings.Contains(stdout, "joints (") || !strings.Contains(stdout, "motion dynamic") {
		t.Errorf("converted acrobot: exit %d\n%s", code, stdout)
	}
	// And a glTF file with gravity and variants to XODE: written, with warnings.
	x := filepath.Join(t.TempDir(), "demo.xode")
	code, stdout, errOut := runCLI("convert", fixtures+"current.gltf", x)
	if code != 0 || !strings.Contains(stdout, "warning: gravity fields are not written") || !strings.Contains(stdout, "warning: triggers are not written") {
		t.Errorf("convert to .xode: exit %d\n%s%s", code, stdout, errOut)
	}
	if code, stdout, _ := runCLI("inspect", x); code != 0 || !strings.Contains(stdout, "joints (1)") {
		t.Errorf("the written XODE does not read back with its joint: exit %d\n%s", code, stdout)
	}
}
