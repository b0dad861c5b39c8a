package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSimulateSaysDefaultsPlayed: a physics value of the wrong type
// (TYPE_MISMATCH in validate) plays as its default; simulate says so on
// stderr, naming the file, the place and the value and what is used
// instead, prints the run and exits 1, as screenshot does for a picture
// short of what the file asks. A file without one exits 0 and says nothing
// of the kind.
func TestSimulateSaysDefaultsPlayed(t *testing.T) {
	const dir = "../../internal/app/testdata/mismatch/"
	for _, tc := range []struct {
		name string
		args []string
		code int
		// lines are the stderr lines about defaults, in order; the last
		// is the exit message.
		lines []string
		// pose is a line of stdout: the run is printed all the same.
		pose string
	}{
		{"khr", []string{dir + "khr.gltf"}, 1, []string{
			`viewer: ` + dir + `khr.gltf: extensions.KHR_implicit_shapes.shapes[1].sphere.radius must be a number, found "big"; 0.5 is used instead`,
			`viewer: ` + dir + `khr.gltf: played defaults for values of the wrong type: extensions.KHR_implicit_shapes.shapes[1].sphere.radius must be a number, found "big"; 0.5 is used instead`,
		}, `node 1 "Ball": position (0.0000, 0.4990, 0.0000)`},
		{"omi", []string{dir + "omi.gltf"}, 1, []string{
			`viewer: ` + dir + `omi.gltf: nodes[1].extensions.OMI_physics_body.motion.mass must be a number, found "heavy"; 1 is used instead`,
			`viewer: ` + dir + `omi.gltf: nodes[1].extensions.OMI_physics_body.motion.linearVelocity must be an array of numbers, found [0, "up", 0]; [0, 0, 0] is used instead`,
			`viewer: ` + dir + `omi.gltf: played defaults for values of the wrong type: nodes[1].extensions.OMI_physics_body.motion.mass must be a number, found "heavy"; 1 is used instead; nodes[1].extensions.OMI_physics_body.motion.linearVelocity must be an array of numbers, found [0, "up", 0]; [0, 0, 0] is used instead`,
		}, `node 1 "ball": position (0.0000, 0.4990, 0.0000)`},
		{"gltf2.1 core shapes", []string{dir + "core21.gltf"}, 1, []string{
			`viewer: ` + dir + `core21.gltf: shapes[1].capsule.height must be a number, found "tall"; 1 is used instead`,
			`viewer: ` + dir + `core21.gltf: played defaults for values of the wrong type: shapes[1].capsule.height must be a number, found "tall"; 1 is used instead`,
		}, `node 1 "Pill": position (0.0000, 0.7490, 0.0000)`},
		{"compare", []string{"-compare", "-t", "0.5", dir + "khr.gltf"}, 1, []string{
			`viewer: ` + dir + `khr.gltf: extensions.KHR_implicit_shapes.shapes[1].sphere.radius must be a number, found "big"; 0.5 is used instead`,
			`viewer: ` + dir + `khr.gltf: played defaults for values of the wrong type: extensions.KHR_implicit_shapes.shapes[1].sphere.radius must be a number, found "big"; 0.5 is used instead`,
		}, ""},
		// The run is written all the same (OUT: a file in a new folder).
		{"bake", []string{"-t", "0.2", "-bake", "-o", "OUT", dir + "khr.gltf"}, 1, []string{
			`viewer: ` + dir + `khr.gltf: extensions.KHR_implicit_shapes.shapes[1].sphere.radius must be a number, found "big"; 0.5 is used instead`,
			`viewer: ` + dir + `khr.gltf: played defaults for values of the wrong type: extensions.KHR_implicit_shapes.shapes[1].sphere.radius must be a number, found "big"; 0.5 is used instead`,
		}, `node 1 "Ball"`},
		{"clean", []string{"testdata/sim_fall.gltf"}, 0, nil, `node 0 "ball"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := slices.Clone(tc.args)
			written := ""
			if i := slices.Index(args, "OUT"); i >= 0 {
				written = filepath.Join(t.TempDir(), "out.gltf")
				args[i] = written
			}
			code, out, errOut := runCLI(append([]string{"simulate"}, args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			var got []string
			for _, l := range strings.Split(errOut, "\n") {
				if strings.Contains(l, "wrong type") || strings.Contains(l, "is used instead") {
					got = append(got, l)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.lines, "\n") {
				t.Errorf("stderr lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.lines, "\n"))
			}
			if !strings.Contains(out, tc.pose) {
				t.Errorf("stdout lacks %q:\n%s", tc.pose, out)
			}
			if written != "" {
				if data, err := os.ReadFile(written); err != nil || !strings.Contains(string(data), `"Simulation"`) {
					t.Errorf("the baked file: %v (%d bytes)", err, len(data))
				}
			}
		})
	}
}
