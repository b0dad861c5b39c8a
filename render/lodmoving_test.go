package render

import (
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/internal/testcorpus"
	"physview/render/internal/meshgen"
	"physview/scene"
)

var movingShots = flag.String("movingshots", "", "folder to write TestMovingLevelsLamp's pictures in (full and moving levels, 320x303)")

// drawMoving draws r's view from cam at w x h into a framebuffer of its
// own, as a reduced frame of a moving camera when moving is set (after
// waiting for every moving level), and returns the pixels and the indices
// the draw took (per instance).
func drawMoving(t *testing.T, r *Renderer, cam Camera, w, h int, moving bool) *image.NRGBA {
	t.Helper()
	if moving {
		waitMovingLevels(t, r, cam, w, h, DefaultOptions())
	}
	release := bindBenchTarget(int32(w), int32(h))
	defer release()
	r.movingLOD = moving
	r.waitEnv = true // the lighting environment, not its stand-in
	r.Draw(cam, w, h, DefaultOptions())
	r.movingLOD, r.waitEnv = false, false
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(img.Pix))
	return img
}

// writeShot saves img under -movingshots, when given.
func writeShot(t *testing.T, name string, img *image.NRGBA) {
	if *movingShots == "" {
		return
	}
	f, err := os.Create(filepath.Join(*movingShots, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// TestMovingLevelsLamp: the lamp's reduced frame at 0.4 of the window's
// view (320x303), drawn with the moving levels, takes far fewer indices
// than the full meshes and looks the same but for a few pixels.
func TestMovingLevelsLamp(t *testing.T) {
	r, cam := showingLamp(t)
	defer r.Delete()
	full := drawMoving(t, r, cam, 320, 303, false)
	moving := drawMoving(t, r, cam, 320, 303, true)
	writeShot(t, "lamp-full.png", full)
	writeShot(t, "lamp-moving.png", moving)
	diff, big, most := pixelDiff(full, moving)
	mean, _ := meanDiff(full, moving)
	all, drawn := 0, 0
	for _, it := range r.items {
		it := it
		all += int(it.prim.count)
		r.movingLOD = true
		ps := &meshPass{cam: cam, height: 303, refracting: r.materialOf(it.prim, -1).transmission > 0}
		drawn += r.lodCount(it.prim, r.lodItem(ps, &it))
		r.movingLOD = false
	}
	t.Logf("%d of %d indices; %d pixels differ, %d by more than 8, by up to %d; mean %.3f", drawn, all, diff, big, most, mean)
	// Measured: 35,436 of 105,396 indices; 9,237 of the 96,960 pixels
	// differ, 2,906 by more than 8 (edges of the beads, the rods and the
	// base's relief), the mean difference 0.76 of 255.
	if drawn*10 > all*4 {
		t.Errorf("moving levels draw %d of %d indices, want at most 40%%", drawn, all)
	}
	if mean > 1.5 || big > 320*303/20 {
		t.Errorf("moving levels: mean difference %.2f (at most 1.5), %d pixels off by more than 8 (at most 5%%: %d)", mean, big, 320*303/20)
	}
}

// TestMovingLevelsOnlyWhileReduced: through View, the first full frame
// of the lamp starts building the moving levels on a goroutine, the first
// reduced frame of a moving camera draws them, and the full frame after
// the camera stopped is the very bytes of the full frame before it moved,
// with no moving level drawn.
func TestMovingLevelsOnlyWhileReduced(t *testing.T) {
	r, cam := showingLamp(t)
	defer r.Delete()
	const w, h = 400, 380
	v := &View{Budget: time.Microsecond} // every moving frame reduced
	defer v.Delete()
	read := func() *image.NRGBA {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		gl.BindFramebuffer(gl.READ_FRAMEBUFFER, v.full.fb)
		gl.ReadPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(img.Pix))
		gl.BindFramebuffer(gl.READ_FRAMEBUFFER, 0)
		return img
	}
	drawMoving(t, r, cam, w, h, false) // the lighting environment in
	v.Present(r, cam, w, h, DefaultOptions())
	before := read()
	if r.lod.movingBuilt != 0 || r.lod.movingDrawn != 0 {
		t.Fatalf("full frame: %d meshes given moving levels, %d moving draws; want none", r.lod.movingBuilt, r.lod.movingDrawn)
	}
	// The full frame started building the moving levels, aside.
	asked := 0
	var pending []chan lodResult
	for _, m := range r.lod.meshes {
		if m.moving.checked {
			asked++
		}
		if m.moving.pending != nil {
			pending = append(pending, m.moving.pending)
		}
	}
	if asked != 7 || len(pending) != 7 {
		t.Fatalf("after the full frame: moving levels asked for %d meshes, %d under way; want the 7 of %d indices or more", asked, len(pending), lodMovingMinIndices)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, ch := range pending {
		for len(ch) == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	// The first moving frame draws them.
	v.Moving()
	v.Invalidate()
	v.Present(r, cam, w, h, DefaultOptions())
	if !v.Settling() {
		t.Fatalf("moving frame drawn %s, want reduced", v.Shown())
	}
	if r.lod.movingBuilt != 7 || r.lod.movingDrawn == 0 {
		t.Fatalf("first moving frame: %d meshes given moving levels (want 7), %d moving draws (want some)", r.lod.movingBuilt, r.lod.movingDrawn)
	}
	drawn := r.lod.movingDrawn
	for i := 0; i < 5 && v.Settling(); i++ {
		v.Present(r, cam, w, h, DefaultOptions())
	}
	if v.Settling() || v.Shown() != "400x380" {
		t.Fatalf("after the camera stopped: shown %s, settling %v; want a full redraw", v.Shown(), v.Settling())
	}
	if r.lod.movingDrawn != drawn {
		t.Errorf("the full frame drew %d moving levels", r.lod.movingDrawn-drawn)
	}
	if n, _, _ := pixelDiff(before, read()); n != 0 {
		t.Errorf("the full frame after moving: %d pixels differ from the one before", n)
	}
}

// TestMovingLevelsWeld: a sphere whose every triangle has vertices of its
// own (flat normals, as a mesh split at every hard edge is) gets no still
// level (meshopt_simplify finds every edge a locked border) but moving
// levels (simplified welded by position), and each corner of a simplified
// triangle draws the vertex at its position whose normal faces the
// triangle's way.
func TestMovingLevelsWeld(t *testing.T) {
	pos, _, idx := meshgen.Sphere(2000)
	var vert []float32 // position and normal, every triangle's own
	var split []uint32
	for i := 0; i+2 < len(idx); i += 3 {
		a, b, c := pos[idx[i]], pos[idx[i+1]], pos[idx[i+2]]
		n := faceNormal(a, b, c)
		for _, p := range [][3]float32{a, b, c} {
			split = append(split, uint32(len(vert)/6))
			vert = append(vert, p[0], p[1], p[2], n[0], n[1], n[2])
		}
	}
	if _, still := simplifyLevels(vert, 6, split); len(still) != 0 {
		t.Errorf("still levels of the split sphere: %d, want none", len(still))
	}
	indices, levels := simplifyMoving(vert, 6, 3, -1, split)
	if len(levels) < 3 {
		t.Fatalf("moving levels of the split sphere: %d, want at least 3", len(levels))
	}
	prev, prevErr := len(split), 0.0
	for k, l := range levels {
		if int(l.count) > prev*7/8 || l.err < prevErr || l.count%3 != 0 {
			t.Errorf("level %d: %d indices, error %g after %d, %g: want at most 7/8 as many, an error no smaller", k, l.count, l.err, prev, prevErr)
		}
		prev, prevErr = int(l.count), l.err
	}
	facing := 0
	for i := 0; i+2 < len(indices); i += 3 {
		at := func(v uint32) [3]float32 { return [3]float32{vert[v*6], vert[v*6+1], vert[v*6+2]} }
		f := faceNormal(at(indices[i]), at(indices[i+1]), at(indices[i+2]))
		for k := 0; k < 3; k++ {
			v := indices[i+k]
			if vert[v*6+3]*f[0]+vert[v*6+4]*f[1]+vert[v*6+5]*f[2] > 0 {
				facing++
			}
		}
	}
	if facing*100 < len(indices)*99 {
		t.Errorf("%d of %d corners draw a normal facing their triangle's way, want 99%%", facing, len(indices))
	}
	t.Logf("levels %v; %d of %d corners facing", levels, facing, len(indices))
}

// faceNormal returns the unit normal of triangle abc (counter-clockwise).
func faceNormal(a, b, c [3]float32) [3]float32 {
	u := [3]float32{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
	w := [3]float32{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
	n := [3]float32{u[1]*w[2] - u[2]*w[1], u[2]*w[0] - u[0]*w[2], u[0]*w[1] - u[1]*w[0]}
	l := float32(1)
	if s := n[0]*n[0] + n[1]*n[1] + n[2]*n[2]; s > 0 {
		l = float32(1 / math.Sqrt(float64(s)))
	}
	return [3]float32{n[0] * l, n[1] * l, n[2] * l}
}

// TestMovingLevelsInstanced: spheres drawn as an instanced batch of nodes
// and as EXT_mesh_gpu_instancing instances, small in a reduced frame, draw
// a moving level (one draw for all of them) and look like the full
// meshes but for their silhouettes.
func TestMovingLevelsInstanced(t *testing.T) {
	headless(t)
	for _, kind := range []string{"nodes", "gpuinst"} {
		d, err := scene.Decode(largeFile(kind, 9, 4000), nil)
		if err != nil {
			t.Fatal(err)
		}
		func() {
			r := showing(t, d)
			defer r.Delete()
			lo, hi := r.Bounds()
			cam := NewCamera(lo, hi)
			cam.Distance *= 1.5
			full := drawMoving(t, r, cam, 160, 120, false)
			moving := drawMoving(t, r, cam, 160, 120, true)
			writeShot(t, kind+"-full.png", full)
			writeShot(t, kind+"-moving.png", moving)
			diff, big, _ := pixelDiff(full, moving)
			t.Logf("%s: %d moving draws, %d pixels differ, %d by more than 8", kind, r.lod.movingDrawn, diff, big)
			if r.lod.movingDrawn == 0 || r.lod.movingBuilt != 1 {
				t.Errorf("%s: %d moving draws, %d meshes given moving levels; want some and 1", kind, r.lod.movingDrawn, r.lod.movingBuilt)
			}
			if big > 160*120/50 {
				t.Errorf("%s: %d pixels differ by more than 8, want at most 2%%", kind, big)
			}
		}()
	}
}

// showingLamp shows StainedGlassLamp (the shared corpus; the test skips
// without it) headless, with the camera that frames it.
func showingLamp(t *testing.T) (*Renderer, Camera) {
	t.Helper()
	headless(t)
	d, err := scene.Load(testcorpus.File(t, "gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	r := showing(t, d)
	return r, NewCamera(r.Bounds())
}
