package render

import (
	"bytes"
	"image"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene"
)

// TestOffScreen checks culling against a camera at (0, 0, 5) looking down
// -Z with a 90 degree field of view: a unit cube is culled only when it is
// wholly outside the view, behind the camera or past the far plane.
func TestOffScreen(t *testing.T) {
	var box gpuPrimitive
	for c := range box.corners {
		pick := func(k int) float64 {
			if c&(1<<k) != 0 {
				return 0.5
			}
			return -0.5
		}
		box.corners[c] = mgl64.Vec3{pick(0), pick(1), pick(2)}
	}
	view := mgl64.LookAtV(mgl64.Vec3{0, 0, 5}, mgl64.Vec3{}, mgl64.Vec3{0, 1, 0})
	vp := mat32(mgl64.Perspective(math.Pi/2, 1, 0.1, 100).Mul4(view))
	for _, c := range []struct {
		name string
		at   mgl64.Vec3
		dyn  bool
		want bool
	}{
		{"centre", mgl64.Vec3{}, false, false},
		// The view's half width is 4.5 at the cube's near face (z 0.5)
		// and 5.5 at its far one.
		{"straddling the left edge", mgl64.Vec3{-5, 0, 0}, false, false},
		{"out at the near face, in at the far one", mgl64.Vec3{-5.6, 0, 0}, false, false},
		{"just past the left edge", mgl64.Vec3{-6.1, 0, 0}, false, true},
		{"just past the top", mgl64.Vec3{0, 6.1, 0}, false, true},
		{"behind the camera", mgl64.Vec3{0, 0, 7}, false, true},
		{"around the camera", mgl64.Vec3{0, 0, 5}, false, false},
		{"past the far plane (by more than the margin)", mgl64.Vec3{0, 0, -300}, false, true},
		{"past the edge, but posed (skin, morph, instances)", mgl64.Vec3{-20, 0, 0}, true, false},
	} {
		it := drawItem{prim: &box, model: mgl64.Translate3D(c.at[0], c.at[1], c.at[2])}
		if c.dyn {
			it.dyn = &itemDyn{}
		}
		if got := offScreen(&it, vp); got != c.want {
			t.Errorf("%s: offScreen %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCullingChangesNoPixel draws a quad filling the view beside a copy of
// it far to the side: the copy is culled, and the picture is byte for byte
// the one of the quad alone.
func TestCullingChangesNoPixel(t *testing.T) {
	headless(t)
	mat := map[string]any{"pbrMetallicRoughness": map[string]any{"baseColorFactor": []float64{0.8, 0.3, 0.2, 1}, "roughnessFactor": 0.4}}
	opt := DefaultOptions()
	opt.Grid, opt.Axes = false, false
	draw := func(d *scene.Document) (*image.NRGBA, int) {
		r := showing(t, d)
		defer r.Delete()
		vp := mat32(screenQuadCamera.Projection(4.0 / 3).Mul4(screenQuadCamera.View()))
		culled := 0
		for _, it := range r.items {
			if offScreen(&it, vp) {
				culled++
			}
		}
		img, err := r.RenderImage(screenQuadCamera, 160, 120, opt)
		if err != nil {
			t.Fatal(err)
		}
		return img, culled
	}
	alone, culled := draw(screenQuad(t, mat))
	if culled != 0 {
		t.Fatalf("%d items culled of the quad alone, want 0", culled)
	}
	d := screenQuad(t, mat)
	d.GLTF.Nodes = append(d.GLTF.Nodes, &gltf.Node{Mesh: gltf.Index(0), Translation: [3]float64{50, 0, 0}})
	d.GLTF.Scenes[0].Nodes = append(d.GLTF.Scenes[0].Nodes, len(d.GLTF.Nodes)-1)
	beside, culled := draw(d)
	if culled != 1 {
		t.Fatalf("%d items culled with the copy far to the side, want 1", culled)
	}
	if !bytes.Equal(alone.Pix, beside.Pix) {
		t.Error("the picture with a culled copy beside differs from the quad's alone")
	}
	if c := alone.NRGBAAt(80, 60); c.R < c.G+30 {
		t.Errorf("centre pixel %v: want the quad's red", c)
	}
}
