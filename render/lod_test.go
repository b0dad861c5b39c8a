package render

import (
	"image"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// renderLOD draws d at 320x240 from the framing camera moved away by
// factor far, with levels of detail on or off, and returns the image, the
// meshes simplified, the coarsest level drawn and its index count.
func renderLOD(t *testing.T, d *scene.Document, far float64, lod bool) (img *image.NRGBA, built, level, count int) {
	t.Helper()
	defer func(b bool) { lodEnabled = b }(lodEnabled)
	lodEnabled = lod
	r := showing(t, d)
	defer r.Delete()
	lo, hi := r.Bounds()
	cam := NewCamera(lo, hi)
	cam.Distance *= far
	img, err := r.RenderImage(cam, 320, 240, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	level = r.lod.coarsest
	if m := r.lod.meshes[r.prims[0][0].vao]; m != nil && level > 0 {
		count = int(m.levels[level-1].count)
	}
	return img, r.lod.built, level, count
}

// pixelDiff counts the pixels of a and b that differ, those by more than
// 8 in a colour channel, and the largest difference of one channel.
func pixelDiff(a, b *image.NRGBA) (n, big, most int) {
	for i := 0; i+3 < len(a.Pix) && i+3 < len(b.Pix); i += 4 {
		same := true
		for k := 0; k < 4; k++ {
			d := int(a.Pix[i+k]) - int(b.Pix[i+k])
			if d < 0 {
				d = -d
			}
			if d != 0 {
				same = false
			}
			most = max(most, d)
		}
		if !same {
			n++
			for k := 0; k < 3; k++ { // colour channels only
				if d := int(a.Pix[i+k]) - int(b.Pix[i+k]); d > 8 || d < -8 {
					big++
					break
				}
			}
		}
	}
	return n, big, most
}

// TestLODSmall: a sphere of 100,128 vertices (596,748 indices) seen from
// eight times the framing distance, on one node, on four nodes (drawn
// instanced) and as four EXT_mesh_gpu_instancing instances, is drawn with
// a simplified index list of under 1% of the indices (2,325: the sphere is
// about 15 pixels wide); the picture differs from the full mesh's in at
// most 0.25% of the pixels (measured: 154 of 76,800, by 1 to 8 of 255 in a
// channel where the normals interpolate over larger triangles), of which
// at most 32 by more than 8 (measured: 13 to 23 silhouette pixels, whose
// coverage the half-pixel error flips, by up to 49).
func TestLODSmall(t *testing.T) {
	headless(t)
	for _, c := range []struct {
		kind string
		n    int
	}{{"nodes", 1}, {"nodes", 4}, {"gpuinst", 4}} {
		d, err := scene.Decode(largeFile(c.kind, c.n, 100000), nil)
		if err != nil {
			t.Fatal(err)
		}
		full, _, _, _ := renderLOD(t, d, 8, false)
		img, built, level, count := renderLOD(t, d, 8, true)
		diff, big, most := pixelDiff(full, img)
		t.Logf("%s %d: level %d, %d indices, %d pixels differ, %d by more than 8 (most %d)", c.kind, c.n, level, count, diff, big, most)
		if built != 1 || level < 1 || count <= 0 || count > 596748/100 {
			t.Errorf("%s %d: %d meshes simplified, level %d of %d indices; want 1, a level >= 1 of at most 5967", c.kind, c.n, built, level, count)
		}
		if diff > 320*240/400 || big > 32 || most > 64 {
			t.Errorf("%s %d: %d pixels differ (at most %d), %d by more than 8 (at most 32), by up to %d (at most 64)", c.kind, c.n, diff, 320*240/400, big, most)
		}
	}
}

// TestLODCloseUp: the same sphere framed (it fills the view) is drawn with
// all its indices, no level built, and the pixels are the very bytes drawn
// without levels of detail.
func TestLODCloseUp(t *testing.T) {
	headless(t)
	d, err := scene.Decode(largeFile("nodes", 1, 100000), nil)
	if err != nil {
		t.Fatal(err)
	}
	full, _, _, _ := renderLOD(t, d, 1, false)
	img, built, level, _ := renderLOD(t, d, 1, true)
	if built != 0 || level != 0 {
		t.Errorf("close up: %d meshes simplified, level %d drawn; want 0 and 0", built, level)
	}
	if diff, _, _ := pixelDiff(full, img); diff != 0 {
		t.Errorf("close up: %d pixels differ from the drawing without levels", diff)
	}
}

// TestLODWindowBuildsAside: in the window (Draw, not RenderImage) the
// levels are simplified on a goroutine: the first frame draws the full
// mesh, a later frame the level.
func TestLODWindowBuildsAside(t *testing.T) {
	headless(t)
	d, err := scene.Decode(largeFile("nodes", 1, 100000), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := showing(t, d)
	defer r.Delete()
	lo, hi := r.Bounds()
	cam := NewCamera(lo, hi)
	cam.Distance *= 8
	r.Draw(cam, 320, 240, DefaultOptions())
	if r.lod.built != 0 || r.lod.coarsest != 0 {
		t.Fatalf("first frame: %d meshes simplified, level %d drawn; want 0 and 0 (built aside)", r.lod.built, r.lod.coarsest)
	}
	deadline := time.Now().Add(30 * time.Second)
	for r.lod.built == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		r.Draw(cam, 320, 240, DefaultOptions())
	}
	if r.lod.built != 1 || r.lod.coarsest != 4 {
		t.Errorf("later frames: %d meshes simplified, level %d drawn; want 1 and 4", r.lod.built, r.lod.coarsest)
	}
}

// TestLODNeverDeformed: a skinned or morphed primitive is never eligible
// for levels, and an item posed by a skin, morph weights or vertices on
// the CPU draws level 0 (the full list) however small it is; so does a
// primitive of fewer than lodMinVertices vertices.
// No GL call is made: eligibility and the early returns come first.
func TestLODNeverDeformed(t *testing.T) {
	small := &meshPass{cam: Camera{Distance: 1e6, FovY: 0.8}, height: 240}
	for _, c := range []struct {
		name string
		gp   gpuPrimitive
		dyn  *itemDyn
	}{
		{"morphed primitive", gpuPrimitive{indexed: true, mode: 4, count: 600000, vbo: 1, ebo: 1, def: &gpuDeform{}}, nil},
		{"skinned item", gpuPrimitive{indexed: true, mode: 4, count: 600000, vbo: 1, ebo: 1}, &itemDyn{skin: 0, instVBO: 1, instances: 4}},
		{"morph weights", gpuPrimitive{indexed: true, mode: 4, count: 600000, vbo: 1, ebo: 1}, &itemDyn{skin: -1, weightTex: 1, instVBO: 1, instances: 4}},
		{"posed on the CPU", gpuPrimitive{indexed: true, mode: 4, count: 600000, vbo: 1, ebo: 1}, &itemDyn{skin: -1, cpuVBO: 1, instVBO: 1, instances: 4}},
		{"not indexed", gpuPrimitive{mode: 4, count: 600000, vbo: 1}, nil},
	} {
		r := &Renderer{}
		it := drawItem{prim: &c.gp, model: mgl64.Ident4(), dyn: c.dyn}
		if got := r.lodItem(small, &it); got != 0 {
			t.Errorf("%s: level %d, want 0", c.name, got)
		}
		if got := r.lodInstances(small, it, 0, 4); got != 0 {
			t.Errorf("%s: instances at level %d, want 0", c.name, got)
		}
		if m := r.lod.meshes[c.gp.vao]; c.dyn == nil && (m == nil || m.eligible) {
			t.Errorf("%s: eligible for levels", c.name)
		}
	}
}
