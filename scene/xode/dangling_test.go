package xode

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/scene"
)

// TestWriteBrokenShapes: what a damaged or unusual glTF file gives the XODE
// writer. A collider naming a shape the file does not have (an
// UNRESOLVED_REFERENCE finding) panicked with an index out of range; a
// convex hull made of points (KHR allows a point cloud) or a trimesh of
// lines was written as a <trimesh> without triangles, which the XODE reader
// refuses, so the converted file did not open. Now the first two are
// written as geoms without a shape, with a warning naming them, the point
// hull as its hull's triangles, and the output reads back.
func TestWriteBrokenShapes(t *testing.T) {
	for _, tc := range []struct {
		file     string
		warnings []string
		counts   map[string]int // substrings of the written XODE and how often
		shapes   []string       // the shapes read back: type and vertex count
	}{
		{"dangling_shape.gltf", []string{
			`node "OwnShape": collider shape 7 does not exist (the file has 1 shapes): its geom is written without a shape`,
			`node "ChildGeom": collider shape 999 does not exist (the file has 1 shapes): its geom is written without a shape`,
		}, map[string]int{
			"<geom>\n": 1, `<geom name="ChildGeom">` + "\n": 1, // empty
			`<sphere radius="0.5"/>`: 1, "<body ": 2,
		}, []string{"sphere"}},
		{"points_mesh.gltf", []string{
			"convex shapes are written as trimeshes: XODE has no convex hull",
			"mesh 1 has no triangles a trimesh can hold: its geom is written without a shape",
		}, map[string]int{
			"<trimesh>": 1, "<v ": 4, "<t ": 4, // the tetrahedron of the 4 points
		}, []string{"trimesh 4"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := scene.Load(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			out, warnings, err := Encode(d)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.warnings {
				if !slices.Contains(warnings, want) {
					t.Errorf("no warning %q in %q", want, warnings)
				}
			}
			for what, count := range tc.counts {
				if n := strings.Count(string(out), what); n != count {
					t.Errorf("%q written %d times, want %d:\n%s", what, n, count, out)
				}
			}
			x, err := Decode(out)
			if err != nil {
				t.Fatalf("written XODE does not read back: %v\n%s", err, out)
			}
			var got []string
			for _, s := range x.Shapes {
				switch s.Type {
				case scene.ShapeTrimesh:
					pos := x.GLTF.Meshes[s.Mesh].Primitives[0].Attributes["POSITION"]
					got = append(got, fmt.Sprintf("trimesh %d", x.GLTF.Accessors[pos].Count))
				default:
					got = append(got, s.Type.String())
				}
			}
			if !slices.Equal(got, tc.shapes) {
				t.Errorf("shapes read back: %q, want %q", got, tc.shapes)
			}
		})
	}
}
