package render

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
)

// TestCompactVertices: a vertex buffer holds only the attributes its
// primitive has (positions, and the normals made for them: 24 bytes a
// vertex, not 80), and the
// picture is byte for byte the one the full layout draws, for a plain
// primitive without normals, UVs or colours, and for a skinned one (one
// set of joints, no second set stored) posed on the GPU and on the CPU.
func TestCompactVertices(t *testing.T) {
	headless(t)
	type doc struct {
		name string
		load func() (*scene.Document, error)
		// floats per vertex of mesh 0's primitive, compact
		floats int
	}
	docs := []doc{{"positions only", func() (*scene.Document, error) {
		return scene.Decode([]byte(sharedFile(3, triangleBuffer)), nil)
	}, 6}}
	skin := filepath.Join("..", "..", "shared", "corpus", "gltf-sample-assets", "Models", "SimpleSkin", "glTF", "SimpleSkin.gltf")
	if _, err := os.Stat(skin); err == nil {
		docs = append(docs, doc{"SimpleSkin", func() (*scene.Document, error) { return scene.Load(skin) }, 6})
	} else {
		t.Logf("skinned case skipped: %v (the shared corpus is absent)", err)
	}
	draw := func(d *scene.Document, cpu bool) ([]byte, *gpuPrimitive) {
		if cpu {
			t.Setenv("PHYSVIEW_SKINNING", "cpu")
		} else {
			t.Setenv("PHYSVIEW_SKINNING", "")
		}
		r := showing(t, d)
		defer r.Delete()
		if a := r.Animation(); len(a.Animations) > 0 {
			r.SetPose(a.Pose(-1, 0.7))
		}
		lo, hi := r.Bounds()
		img, err := r.RenderImage(NewCamera(lo, hi), 96, 72, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return img.Pix, r.prims[0][0]
	}
	for _, dc := range docs {
		for _, cpu := range []bool{false, true} {
			d, err := dc.load()
			if err != nil {
				t.Fatal(err)
			}
			compact, gp := draw(d, cpu)
			if gp == nil || gp.layout.floats != dc.floats {
				t.Errorf("%s: mesh 0 stored %+v, want %d floats a vertex", dc.name, gp, dc.floats)
			}
			compactVertices = false
			full, gpFull := draw(d, cpu)
			compactVertices = true
			if gpFull == nil || gpFull.layout.floats != vertexFloats {
				t.Errorf("%s: the full layout stored %+v, want %d floats", dc.name, gpFull, vertexFloats)
			}
			if !bytes.Equal(compact, full) {
				t.Errorf("%s (CPU skinning %v): the compact buffers draw other pixels than the full layout", dc.name, cpu)
			}
		}
	}
}
