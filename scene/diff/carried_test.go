package diff

import (
	"path/filepath"
	"strings"
	"testing"

	"physview/scene"
)

// TestDequantizationCarried: glTF-Transform's quantize puts a mesh's
// dequantization into its node's scale and offset (quantized.glb's "Box"
// node is scaled by 0.5). That change is the mesh's new encoding when the
// node holds only the mesh; when it also holds a collider (or a trigger,
// or children) the new scale scales them too, so the diff reports the
// node's transform as a physics change, saying why, beside the encoding.
func TestDequantizationCarried(t *testing.T) {
	meshcodec := filepath.Join("..", "testdata", "meshcodec")
	box := scene.Shape{Type: scene.ShapeBox, Size: [3]float64{1, 1, 1}, Mesh: -1}
	tests := []struct {
		name string
		body *scene.Body
		want string // "" for no change of node Box
	}{
		{"mesh only", nil, ""},
		{"collider", &scene.Body{Collider: &scene.Collider{Shape: 0, PhysicsMaterial: -1, CollisionFilter: -1}},
			"collider moved: scale [1, 1, 1] → [0.5, 0.5, 0.5] (it takes the mesh's dequantization: the node's collider, children or camera move with it)"},
		{"trigger", &scene.Body{Trigger: &scene.Trigger{Shape: 0, CollisionFilter: -1}},
			"trigger moved: scale [1, 1, 1] → [0.5, 0.5, 0.5] (it takes the mesh's dequantization"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var docs [2]*scene.Document
			for k, file := range []string{"source.glb", "quantized.glb"} {
				d := load(t, filepath.Join(meshcodec, file))
				if tc.body != nil {
					n := nodeNamed(t, d, "Box")
					for _, e := range []scene.Edit{scene.AddShape{Shape: box}, scene.SetBody{Node: n, Body: tc.body}} {
						if _, err := scene.Apply(d, e); err != nil {
							t.Fatal(err)
						}
					}
				}
				docs[k] = d
			}
			r, err := Compare(docs[0], docs[1])
			if err != nil {
				t.Fatal(err)
			}
			var got []Change
			encoded := false
			for _, c := range r.Changes {
				if c.Node == "Box" {
					got = append(got, c)
				}
				encoded = encoded || strings.Contains(c.Summary, `mesh "box" primitive 0: encoding changed plain → quantized SHORT (node "Box"'s transform takes the dequantization)`)
			}
			if !encoded {
				t.Errorf("no encoding change of mesh box in %+v", r.Changes)
			}
			if tc.want == "" {
				if len(got) != 0 {
					t.Errorf("changes of node Box %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Category != Physics || got[0].Kind != Moved || got[0].PointerA != "/nodes/1/scale" || !strings.HasPrefix(got[0].Summary, tc.want) {
				t.Errorf("changes of node Box %+v, want one physics move %q at /nodes/1/scale", got, tc.want)
			}
		})
	}
}

func nodeNamed(t *testing.T, d *scene.Document, name string) int {
	t.Helper()
	for i, n := range d.GLTF.Nodes {
		if n.Name == name {
			return i
		}
	}
	t.Fatalf("no node %q", name)
	return -1
}
