package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditSharedShape: `viewer edit shape` on a shape several nodes share
// says which other nodes it changed; make-single gives the node a copy of
// its own first, so the edit changes that node only. The save is lossless:
// the file is byte for byte the input but for the shape list's new element
// and the node's shape index (and an edited shape's value), in each
// dialect (OMI, the Khronos drafts, glTF 2.1 core shapes).
func TestEditSharedShape(t *testing.T) {
	for _, tc := range []struct {
		file string
		cmds []string
		// stdout is the whole output but its last line ("saved ...").
		stdout []string
		// replace turns the input into the expected output: old, new pairs.
		replace []string
	}{
		{"omi.gltf", []string{"shape", "red", "radius=0.3"}, []string{
			"shape red radius=0.3: Edit sphere of red",
			"note: shape 1 is shared by 3 nodes: edits change all of them (also green, blue); `make-single red` first gives red a copy of its own",
		}, []string{`{"radius": 0.25}`, `{"radius": 0.3}`}},
		{"omi.gltf", []string{"make-single", "green", ";", "shape", "green", "radius=0.4"}, []string{
			"make-single green: Make shape single for green",
			"shape green radius=0.4: Edit sphere of green",
		}, []string{
			`{"type": "sphere", "sphere": {"radius": 0.25}}`,
			`{"type": "sphere", "sphere": {"radius": 0.25}},
      {
        "type": "sphere",
        "sphere": {
          "radius": 0.4
        }
      }`,
			`"translation": [0, 2, 0],
     "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 1}}}`,
			`"translation": [0, 2, 0],
     "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 2}}}`,
		}},
		{"khr.gltf", []string{"make-single", "Zone", "trigger"}, []string{
			"make-single Zone trigger: Make shape single for Zone",
		}, []string{
			`{"type": "box", "box": {"size": [0.5, 0.5, 0.5]}}`,
			`{"type": "box", "box": {"size": [0.5, 0.5, 0.5]}},
      {
        "type": "box",
        "box": {
          "size": [
            0.5,
            0.5,
            0.5
          ]
        }
      }`,
			`{"trigger": {"geometry": {"shape": 1}}}`, `{"trigger": {"geometry": {"shape": 2}}}`,
		}},
		{"core21.gltf", []string{"make-single", "PillB", ";", "shape", "PillB", "height=1.5"}, []string{
			"make-single PillB: Make shape single for PillB",
			"shape PillB height=1.5: Edit capsule of PillB",
		}, []string{
			`{"type": "capsule", "capsule": {"height": 1, "radiusTop": 0.25, "radiusBottom": 0.25}}`,
			`{"type": "capsule", "capsule": {"height": 1, "radiusTop": 0.25, "radiusBottom": 0.25}},
    {
      "type": "capsule",
      "capsule": {
        "height": 1.5,
        "radiusBottom": 0.25,
        "radiusTop": 0.25
      }
    }`,
			`"translation": [1, 3, 0],
     "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 1}}}}`,
			`"translation": [1, 3, 0],
     "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 2}}}}`,
		}},
	} {
		t.Run(tc.file+" "+strings.Join(tc.cmds, " "), func(t *testing.T) {
			in := filepath.Join("testdata", "shared", tc.file)
			out := filepath.Join(t.TempDir(), tc.file)
			code, stdout, stderr := runCLI(append([]string{"edit", "-o", out, in}, tc.cmds...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			edits := strings.Count(strings.Join(tc.cmds, " "), ";") + 1
			want := strings.Join(append(tc.stdout, fmt.Sprintf("saved %s (%d edits)", out, edits)), "\n") + "\n"
			if stdout != want {
				t.Errorf("stdout\n%s\nwant\n%s", stdout, want)
			}
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			exp := string(src)
			for i := 0; i < len(tc.replace); i += 2 {
				if !strings.Contains(exp, tc.replace[i]) {
					t.Fatalf("the fixture lacks %q", tc.replace[i])
				}
				exp = strings.Replace(exp, tc.replace[i], tc.replace[i+1], 1)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != exp {
				t.Errorf("saved\n%s\nwant\n%s", got, exp)
			}
		})
	}
}

// TestEditMakeSingleRefused: make-single on a node whose shape is its own,
// or that has no shape of that kind, exits 2 naming it and writes nothing.
func TestEditMakeSingleRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"make-single", "floor"}, `"make-single floor": node floor's collider shape (shape 0) is not shared: it is its own already (nothing written)`},
		{[]string{"make-single", "red", "trigger"}, `"make-single red trigger": node red has no trigger shape (nothing written)`},
	} {
		out := filepath.Join(t.TempDir(), "out.gltf")
		code, _, stderr := runCLI(append([]string{"edit", "-o", out, "testdata/shared/omi.gltf"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s was written", tc.args, out)
		}
	}
}
