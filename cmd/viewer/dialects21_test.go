package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/internal/khronosval"
)

const dialectFixtures = fixtures + "dialects/"

// TestCapsuleRestsByDefaults: a capsule with no sizes falls onto a ground
// box and rests with its centre at its half height: 1.0 under the glTF 2.1
// and OMI defaults (mid height 1, radii 0.5), 0.5 under the
// KHR_implicit_shapes release candidate's (0.5, 0.25).
func TestCapsuleRestsByDefaults(t *testing.T) {
	cases := []struct {
		file string
		y    float64
	}{
		{"scene_gltf21.gltf", 1.0},
		{"scene_khr.gltf", 0.5},
		{"scene_omi.gltf", 1.0},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			code, out, errOut := runCLI("simulate", "-t", "3", "-json", dialectFixtures+c.file)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var r struct {
				Bodies []struct {
					Name     string
					Position [3]float64
				}
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			for _, b := range r.Bodies {
				if b.Name == "Capsule" {
					if math.Abs(b.Position[1]-c.y) > 0.02 {
						t.Errorf("capsule rests at y = %.4f, want %.2f within 2 cm", b.Position[1], c.y)
					}
					return
				}
			}
			t.Fatal("no capsule in the result")
		})
	}
}

// TestInspectShapeValues: inspect -json gives each shape's effective
// parameters in the file's object form and where it lives.
func TestInspectShapeValues(t *testing.T) {
	cases := []struct {
		file, want string
	}{
		{"scene_gltf21.gltf", `{"index":1,"type":"capsule","params":"mid height 1, radius top 0.5, bottom 0.5 (full height 2)","capsule":{"height":1,"radiusBottom":0.5,"radiusTop":0.5},"source":"gltf2.1"}`},
		{"scene_gltf21.gltf", `{"index":8,"type":"convexMesh","params":"mesh 0","convexMesh":{"mesh":0},"source":"gltf2.1"}`},
		{"scene_gltf21.gltf", `"plane":{"sizeX":2,"sizeZ":3},"source":"gltf2.1"`},
		{"scene_khr.gltf", `{"index":1,"type":"capsule","params":"mid height 0.5, radius top 0.25, bottom 0.25 (full height 1)","capsule":{"height":0.5,"radiusBottom":0.25,"radiusTop":0.25},"source":"khr"}`},
		{"scene_omi.gltf", `"cylinder":{"height":2,"radiusBottom":0.5,"radiusTop":0.5},"source":"omi"`},
	}
	for _, c := range cases {
		code, out, errOut := runCLI("inspect", "-json", dialectFixtures+c.file)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.file, code, errOut)
		}
		var r struct{ Shapes []json.RawMessage }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		var all []string
		for _, s := range r.Shapes {
			var b bytes.Buffer
			if err := json.Compact(&b, s); err != nil {
				t.Fatal(err)
			}
			all = append(all, b.String())
		}
		if !strings.Contains(strings.Join(all, "\n"), c.want) {
			t.Errorf("%s: no %s in\n%s", c.file, c.want, strings.Join(all, "\n"))
		}
	}
}

// TestVersionRefused: a file whose minVersion is newer than 2.1 is refused
// with exit 2 naming the version; a newer version with a readable
// minVersion opens with a note naming it.
func TestVersionRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, asset string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(`{"asset": `+asset+`, "nodes": [{}], "scenes": [{"nodes": [0]}]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	code, _, errOut := runCLI("inspect", write("min22.gltf", `{"version": "2.2", "minVersion": "2.2"}`))
	if code != 2 || !strings.Contains(errOut, "glTF 2.2") {
		t.Errorf("minVersion 2.2: exit %d, %q", code, errOut)
	}
	code, out, errOut := runCLI("validate", write("v210.gltf", `{"version": "2.10", "minVersion": "2.1"}`))
	if code != 0 || !strings.Contains(out, "info    UNKNOWN_ASSET_MINOR_VERSION /asset/version: glTF 2.10 is newer than 2.1") {
		t.Errorf("version 2.10: exit %d\n%s%s", code, out, errOut)
	}
}

// TestVisibilityScreenshots: a hidden node is not drawn, nor is it when
// an animation pointer hides it from 1 s on: the pictures differ only on
// the right half, where that node is, and -time 0.5 shows it.
func TestVisibilityScreenshots(t *testing.T) {
	dir := t.TempDir()
	shot := func(file string, extra ...string) []byte {
		out := filepath.Join(dir, strings.ReplaceAll(file+strings.Join(extra, ""), "/", "_")+".png")
		args := append([]string{"screenshot", "-size", "160x100", "-o", out}, extra...)
		if code, _, errOut := runCLI(append(args, dialectFixtures+file)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		var pix []byte
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				pix = append(pix, byte(r>>8), byte(g>>8), byte(bl>>8))
			}
		}
		return pix
	}
	// diff counts the differing pixels left and right of the middle.
	diff := func(a, b []byte) (left, right int) {
		for i := 0; i < len(a); i += 3 {
			if a[i] != b[i] || a[i+1] != b[i+1] || a[i+2] != b[i+2] {
				if (i/3)%160 < 80 {
					left++
				} else {
					right++
				}
			}
		}
		return left, right
	}
	shown, hidden := shot("visibility_shown.gltf"), shot("visibility_hidden.gltf")
	if l, r := diff(shown, hidden); l != 0 || r < 200 {
		t.Errorf("shown vs hidden: %d pixels differ on the left, %d on the right; want 0 and the cube (>= 200)", l, r)
	}
	before, after := shot("visibility_anim.gltf", "-time", "0.5"), shot("visibility_anim.gltf", "-time", "1.5")
	if l, r := diff(before, shown); l+r != 0 {
		t.Errorf("animated at 0.5 s differs from shown in %d pixels", l+r)
	}
	if l, r := diff(after, hidden); l+r != 0 {
		t.Errorf("animated at 1.5 s differs from hidden in %d pixels", l+r)
	}
}

// TestKHRForkReports: validate -json gives each test file of the KHR fork
// of the Khronos validator (../shared/corpus/khr-physics-validator) the
// codes, severities and pointers of its report, but where physview keeps
// a rule of its own (listed here with why).
func TestKHRForkReports(t *testing.T) {
	base := "../../../shared/corpus/khr-physics-validator/"
	reports, _ := filepath.Glob(base + "*/data/*/*.gltf.report.json")
	if len(reports) == 0 {
		t.Skip("the shared corpus (khr-physics-validator) is absent")
	}
	type msg struct {
		Code     string `json:"code"`
		Severity int    `json:"severity"`
		Pointer  string `json:"pointer"`
	}
	// Where physview differs from the fork, on purpose.
	known := map[string][]string{
		// The members of a compound trigger must be its descendants (the
		// KHR README); the fork does not check it. Node 1 is used by
		// node 0's trigger, which the fork does not count as a use.
		"trigger_compound_of_compounds.gltf": {"+KHR_COMPOUND_TRIGGER 0 /nodes/1/extensions/KHR_physics_rigid_bodies/trigger/nodes/0", "-UNUSED_OBJECT 2 /nodes/1"},
		// The fork points into geometry.node as if it were an array (the
		// 2024 form; the 2026 revision names a mesh).
		"unresolved_node_index.gltf": {"+UNRESOLVED_REFERENCE 0 /nodes/0/extensions/KHR_physics_rigid_bodies/collider/geometry/node", "-UNRESOLVED_REFERENCE 0 /nodes/0/extensions/KHR_physics_rigid_bodies/collider/geometry/node/0"},
	}
	for _, rep := range reports {
		file := strings.TrimSuffix(rep, ".report.json")
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(rep)
			if err != nil {
				t.Fatal(err)
			}
			var want, got struct {
				Issues struct{ Messages []msg } `json:"issues"`
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			_, out, _ := runCLI("validate", "-json", file)
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			set := func(ms []msg) map[string]bool {
				s := map[string]bool{}
				for _, m := range ms {
					s[fmt.Sprintf("%s %d %s", m.Code, m.Severity, m.Pointer)] = true
				}
				return s
			}
			// Rules the fork does not have keep codes of our own
			// (KHR_JOINT_*: an unbounded limit, a drive without a target);
			// they are not differences from it.
			var mine []msg
			for _, m := range got.Issues.Messages {
				if !strings.HasPrefix(m.Code, "KHR_JOINT_") {
					mine = append(mine, m)
				}
			}
			w, g := set(want.Issues.Messages), set(mine)
			var diff []string
			for k := range w {
				if !g[k] {
					diff = append(diff, "-"+k)
				}
			}
			for k := range g {
				if !w[k] {
					diff = append(diff, "+"+k)
				}
			}
			slices.Sort(diff)
			exp := slices.Clone(known[filepath.Base(file)])
			slices.Sort(exp)
			if !slices.Equal(diff, exp) {
				t.Errorf("differences from the fork's report (- missing, + extra):\n%s", strings.Join(diff, "\n"))
			}
		})
	}
}

// TestConvertRoundTripValid: convert omi -> gltf2.1 -> khr -> omi prints
// one warning line per thing the target cannot hold, keeps every shape,
// body, trigger, filter, material and joint (inspect -json, shapes
// compared by their values), and every output has no error, ours and (the
// glTF 2.0 ones) the Khronos validator's.
func TestConvertRoundTripValid(t *testing.T) {
	dir := t.TempDir()
	type summary struct {
		Shapes []map[string]any
		Bodies []map[string]any
		Joints []map[string]any
		Counts map[string]int
	}
	inspect := func(file string) summary {
		code, out, errOut := runCLI("inspect", "-json", file)
		if code != 0 {
			t.Fatalf("inspect %s: exit %d: %s", file, code, errOut)
		}
		var s summary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// The physics by value: shapes as their parameters (a KHR file lists
	// mesh shapes after the others), bodies with their shapes' values.
	norm := func(s summary) string {
		shapeOf := map[int]string{}
		var shapes []string
		for _, sh := range s.Shapes {
			v, _ := json.Marshal(sh[sh["type"].(string)])
			key := fmt.Sprint(sh["params"]) + string(v)
			shapeOf[int(sh["index"].(float64))] = key
			shapes = append(shapes, key)
		}
		slices.Sort(shapes)
		var bodies []string
		for _, b := range s.Bodies {
			c := ""
			if i, ok := b["colliderShape"].(float64); ok {
				c = shapeOf[int(i)]
			}
			bodies = append(bodies, fmt.Sprint(b["node"], b["name"], b["motion"], b["mass"], c, b["trigger"] != nil))
		}
		j, _ := json.Marshal(s.Joints)
		return fmt.Sprintf("%s\n%s\n%s\nmaterials %d filters %d joints %d", strings.Join(shapes, "\n"), strings.Join(bodies, "\n"), j,
			s.Counts["physicsMaterials"], s.Counts["collisionFilters"], s.Counts["physicsJoints"])
	}
	in := dialectFixtures + "scene_omi.gltf"
	want := norm(inspect(in))
	steps := []struct {
		to, out string
		warns   int
	}{
		{"gltf2.1", "a21.gltf", 6},
		{"khr", "b.gltf", 7},
		{"omi", "c.gltf", 0},
	}
	var twoOh []string
	for _, st := range steps {
		out := filepath.Join(dir, st.out)
		code, stdout, errOut := runCLI("convert", "-physics", st.to, in, out)
		if code != 0 {
			t.Fatalf("to %s: exit %d: %s", st.to, code, errOut)
		}
		if n := strings.Count(stdout, "warning: "); n != st.warns {
			t.Errorf("to %s: %d warning lines, want %d:\n%s", st.to, n, st.warns, stdout)
		}
		if code, vout, _ := runCLI("validate", out); code != 0 || !strings.Contains(vout, "0 errors") {
			t.Errorf("to %s: validate exit %d:\n%s", st.to, code, vout)
		}
		if got := norm(inspect(out)); got != want {
			t.Errorf("to %s changed the physics:\n got %s\nwant %s", st.to, got, want)
		}
		if st.to != "gltf2.1" {
			twoOh = append(twoOh, out)
		}
		in = out
	}
	kdir := khronosval.Dir(t, "../..")
	reps, err := khronosval.Run(kdir, t.TempDir(), twoOh)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range twoOh {
		if r := reps[f]; r.Err != "" || r.NumErrors != 0 {
			t.Errorf("Khronos validator on %s: %d errors %s %v", f, r.NumErrors, r.Err, r.Messages)
		}
	}
}
