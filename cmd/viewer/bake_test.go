package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/app"
	"physview/internal/khronosval"
	"physview/internal/report"
	"physview/scene"
	"physview/scene/anim"
)

// tumble is a floor, a tilted crate with a ball falling onto it, a crate
// resting on the floor ("sleeper") and a ball spinning down from under a
// turned static parent ("cup"): parent space differs from world space.
const tumble = "testdata/play_tumble.gltf"

type hashOutput struct {
	Bodies []report.BodyState `json:"bodies"`
	Hash   string             `json:"hash"`
	Hashes []report.StepHash  `json:"hashes"`
}

// simulateProc runs `viewer simulate` in a process of its own (this test
// binary as the viewer) and decodes its -json output.
func simulateProc(t *testing.T, args ...string) hashOutput {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"simulate", "-json"}, args...)...)
	cmd.Env = append(os.Environ(), "PHYSVIEW_RUN_MAIN=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("simulate %v: %v", args, err)
	}
	var h hashOutput
	if err := json.Unmarshal(out, &h); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return h
}

// TestSimulateHashAcrossProcesses: two processes print the same final
// hash and the same hash every 60 steps; a mass 1e-6 kg heavier changes
// the hash (and the trajectories).
func TestSimulateHashAcrossProcesses(t *testing.T) {
	a := simulateProc(t, "-t", "1", "-hash-every", "60", tumble)
	b := simulateProc(t, "-t", "1", "-hash-every", "60", tumble)
	if len(a.Hash) != 32 || a.Hash != b.Hash {
		t.Errorf("hashes %q and %q: want the same 32 hex digits", a.Hash, b.Hash)
	}
	if len(a.Hashes) != 4 || a.Hashes[0].Step != 60 || a.Hashes[3].Step != 240 || a.Hashes[3].Hash != a.Hash {
		t.Errorf("hashes every 60 steps: %+v, want steps 60, 120, 180, 240, the last the final hash", a.Hashes)
	}
	for i := range a.Hashes {
		if i < len(b.Hashes) && a.Hashes[i] != b.Hashes[i] {
			t.Errorf("hash %d: %+v and %+v", i, a.Hashes[i], b.Hashes[i])
		}
	}
	src, err := os.ReadFile(tumble)
	if err != nil {
		t.Fatal(err)
	}
	heavier := filepath.Join(t.TempDir(), "heavier.gltf")
	changed := strings.Replace(string(src), `"mass": 2}`, `"mass": 2.000001}`, 1)
	if changed == string(src) {
		t.Fatal("the fixture's ball mass was not found")
	}
	os.WriteFile(heavier, []byte(changed), 0o644)
	c := simulateProc(t, "-t", "1", heavier)
	if c.Hash == a.Hash {
		t.Errorf("a ball 1e-6 kg heavier hashes the same: %s", c.Hash)
	}
}

// TestSimulateRecordCSV: -record writes the header and one row per body
// per step (step 0 included), in world space; the last rows are the
// final poses -json prints.
func TestSimulateRecordCSV(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.csv")
	code, stdout, errOut := runCLI("simulate", "-json", "-t", "0.5", "-record", out, tumble)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var final hashOutput
	if err := json.Unmarshal([]byte(stdout), &final); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var rows [][]string
	for sc.Scan() {
		rows = append(rows, strings.Split(sc.Text(), ","))
	}
	if strings.Join(rows[0], ",") != app.RecordingHeader {
		t.Fatalf("header %q", rows[0])
	}
	// 4 bodies, steps 0 to 120.
	if len(rows) != 1+4*121 {
		t.Fatalf("%d rows, want 1 + 4 bodies x 121 steps", len(rows))
	}
	if got := strings.Join(rows[1], ","); got != "0,1,crate,0,2,0,0,0,0.14943801,0.9887711,0,0,0,0,0,0" {
		t.Errorf("first row %q", got)
	}
	for _, r := range rows[len(rows)-4:] {
		if r[0] != "0.5" && !strings.HasPrefix(r[0], "0.49999") {
			t.Errorf("last rows' time %q, want 0.5", r[0])
		}
		for _, b := range final.Bodies {
			if r[2] != b.Name {
				continue
			}
			for k := 0; k < 3; k++ {
				if r[3+k] != fmtFloat(b.Position[k]) {
					t.Errorf("%s: CSV p%d %s, -json %v", b.Name, k, r[3+k], b.Position[k])
				}
			}
		}
	}
}

func fmtFloat(x float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// TestSimulateRecordJSON: -record OUT.json holds the bodies and the same
// samples, with contacts and sleeping.
func TestSimulateRecordJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.json")
	if code, _, errOut := runCLI("simulate", "-t", "2", "-record", out, tumble); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Step    float64              `json:"step"`
		Every   int                  `json:"every"`
		Bodies  []app.RecordedBody   `json:"bodies"`
		Samples []app.RecordedSample `json:"samples"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Bodies) != 4 || rec.Every != 1 || len(rec.Samples) != 4*481 {
		t.Fatalf("%d bodies, every %d, %d samples; want 4, 1, 4 x 481", len(rec.Bodies), rec.Every, len(rec.Samples))
	}
	last := rec.Samples[len(rec.Samples)-4:]
	for _, s := range last {
		if s.Name == "sleeper" && (!s.Asleep || s.Contacts == 0) {
			t.Errorf("sleeper at 2 s: asleep %v, %d contacts; want asleep on the floor", s.Asleep, s.Contacts)
		}
	}
}

// bakeRun bakes tumble for seconds into dir and returns the output path.
func bakeRun(t *testing.T, dir string, seconds string, extra ...string) string {
	t.Helper()
	out := filepath.Join(dir, "baked.gltf")
	args := append(append([]string{"simulate", "-t", seconds, "-bake"}, extra...), "-o", out, tumble)
	code, _, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "baked 4 bodies over 2 s") {
		t.Errorf("stderr lacks the bake note: %s", errOut)
	}
	return out
}

// TestBakeMatchesSimulate: the baked animation, sampled at t, puts every
// body where `simulate -t t` does, within the tolerance (1 mm, 0.1°, and
// float32 rounding); the resting crate keeps 2 keys a channel; the bodies
// turned kinematic; the rest of the file is as it was; the Khronos
// validator finds no error.
func TestBakeMatchesSimulate(t *testing.T) {
	dir := t.TempDir()
	out := bakeRun(t, dir, "2")
	d, err := scene.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.GLTF.Animations) != 1 || d.GLTF.Animations[0].Name != "Simulation" || len(d.GLTF.Animations[0].Channels) != 8 {
		t.Fatalf("animations %+v: want one \"Simulation\" with 8 channels", d.GLTF.Animations)
	}
	m := anim.NewModel(d)
	for _, tm := range []string{"0.25", "0.5", "1", "1.5", "2"} {
		want := simulateProc(t, "-t", tm, tumble)
		var sec float64
		json.Unmarshal([]byte(tm), &sec)
		pose := m.Pose(0, sec)
		for _, b := range want.Bodies {
			w := pose.World[b.Node]
			pos := w.Col(3).Vec3()
			if dist := pos.Sub(mgl64.Vec3(b.Position)).Len(); dist > 0.001+1e-5 {
				t.Errorf("t = %s, %s: baked at %v, simulated at %v (%.3g m apart)", tm, b.Name, pos, b.Position, dist)
			}
			q := mgl64.Mat4ToQuat(w.Mat3().Mat4()).Normalize()
			wq := mgl64.Quat{W: b.Rotation[3], V: mgl64.Vec3{b.Rotation[0], b.Rotation[1], b.Rotation[2]}}
			if ang := 2 * math.Acos(math.Min(1, math.Abs(q.Dot(wq)))) * 180 / math.Pi; ang > 0.1+0.01 {
				t.Errorf("t = %s, %s: baked rotation %.3g° from the simulated one", tm, b.Name, ang)
			}
		}
	}
	// The sleeper (node 3) keeps 2 keys in each channel.
	a := d.GLTF.Animations[0]
	for _, c := range a.Channels {
		if *c.Target.Node != 3 {
			continue
		}
		if n := d.GLTF.Accessors[a.Samplers[c.Sampler].Input].Count; n != 2 {
			t.Errorf("the resting crate's %v channel has %d keys, want 2", c.Target.Path, n)
		}
	}
	for _, n := range []int{1, 2, 3, 5} {
		if mo := d.Nodes[n].Body.Motion; mo == nil || mo.Type != scene.MotionKinematic || mo.AngularVelocity != [3]float64{} {
			t.Errorf("node %d's motion %+v: want kinematic with no start velocity", n, mo)
		}
	}
	// Untouched parts are written as read.
	src, _ := os.ReadFile(tumble)
	got, _ := os.ReadFile(out)
	for _, keep := range []string{
		`{"name": "floor", "translation": [0, -0.5, 0],` + "\n" + `     "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},`,
		`"asset": {"version": "2.0", "generator": "physview test fixture (issue 32)"},`,
		`{"name": "shelf", "translation": [-4, 1, 0], "rotation": [0, 0.7071068, 0, 0.7071068], "children": [5]},`,
		`"extras": {"note": "kept as written"}`,
	} {
		if !strings.Contains(string(src), keep) || !strings.Contains(string(got), keep) {
			t.Errorf("the baked file lost %q", keep)
		}
	}
	validateClean(t, out)
}

// TestBakeStripPhysics: -strip-physics writes the animation and no body.
func TestBakeStripPhysics(t *testing.T) {
	out := bakeRun(t, t.TempDir(), "2", "-strip-physics", "-rate", "30")
	d, err := scene.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	for n, ne := range d.Nodes {
		if ne.Body != nil {
			t.Errorf("node %d still has a body", n)
		}
	}
	if len(d.GLTF.Animations) != 1 {
		t.Fatalf("%d animations, want 1", len(d.GLTF.Animations))
	}
	in := d.GLTF.Accessors[d.GLTF.Animations[0].Samplers[0].Input]
	if in.Max[0] != 2 {
		t.Errorf("the keys end at %v s, want 2", in.Max)
	}
	validateClean(t, out)
}

// TestBakeFlags: bad flag values are refused with status 2.
func TestBakeFlags(t *testing.T) {
	for _, args := range [][]string{
		{"simulate", "-bake", tumble},
		{"simulate", "-bake", "-rate", "0", "-o", "x.gltf", tumble},
		{"simulate", "-bake", "-tolerance", "-1", "-o", "x.gltf", tumble},
		{"simulate", "-strip-physics", "-o", "x.gltf", tumble},
		{"simulate", "-record", "x.txt", tumble},
		{"simulate", "-hash-every", "-2", tumble},
	} {
		if code, _, errOut := runCLI(args...); code != 2 || !strings.Contains(errOut, "simulate") {
			t.Errorf("%v: exit %d %q, want 2 and a message", args, code, errOut)
		}
	}
}

// validateClean runs the Khronos validator on path (skips without it) and
// wants no error.
func validateClean(t *testing.T, path string) {
	t.Helper()
	dir := khronosval.Dir(t, "../..")
	reps, err := khronosval.Run(dir, t.TempDir(), []string{path})
	if err != nil {
		t.Fatal(err)
	}
	r := reps[path]
	if r.Err != "" || r.NumErrors != 0 {
		t.Errorf("Khronos validator: %d errors %s: %+v", r.NumErrors, r.Err, r.Messages)
	}
}

// TestBakeGLB: baking a .glb appends the animation to its BIN chunk (no
// new file beside it) and the result validates clean.
func TestBakeGLB(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "tumble.glb")
	if code, _, errOut := runCLI("convert", tumble, src); code != 0 {
		t.Fatalf("convert: %d %s", code, errOut)
	}
	out := filepath.Join(dir, "baked.glb")
	if code, _, errOut := runCLI("simulate", "-t", "1", "-bake", "-o", out, src); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	d, err := scene.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.GLTF.Buffers) != 1 || d.GLTF.Buffers[0].URI != "" || len(d.GLTF.Animations) != 1 {
		t.Errorf("%d buffers (uri %q), %d animations; want the BIN chunk only and 1 animation", len(d.GLTF.Buffers), d.GLTF.Buffers[0].URI, len(d.GLTF.Animations))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d files in the folder, want the two .glb files", len(entries))
	}
	validateClean(t, out)
}
