package render

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/render/imgdec"
	"physview/scene"
)

// previewFile is texturedFile(2) with image 1 a 64x64 JPEG instead of a
// PNG: one image of each kind of preview (the PNG box-filtered as it is
// decoded, the JPEG decoded reduced by libjpeg-turbo).
func previewFile(t *testing.T) string {
	t.Helper()
	src := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for i := range src.Pix {
		src.Pix[i] = byte(i * 5)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, src, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	f := texturedFile(2)
	const png = `"data:image/png;base64,`
	first := strings.Index(f, png)
	second := first + len(png) + strings.Index(f[first+len(png):], png)
	end := second + 1 + strings.IndexByte(f[second+1:], '"')
	return f[:second] + `"data:image/jpeg;base64,` + base64.StdEncoding.EncodeToString(b.Bytes()) + f[end:]
}

// texSide is the width of level 0 of GL texture id.
func texSide(id uint32) int {
	var w int32
	gl.BindTexture(gl.TEXTURE_2D, id)
	gl.GetTexLevelParameteriv(gl.TEXTURE_2D, 0, gl.TEXTURE_WIDTH, &w)
	return int(w)
}

// TestPreviewsThenWhole: with SetPreviewSide(16), Poll reports no image
// pending once each has a 16x16 texture (the PNG and the JPEG decoded
// at a quarter), keeps them until the view is drawn, then
// replaces them with the whole images, byte for byte the textures made
// without previews at every level, and deletes the reduced ones.
func TestPreviewsThenWhole(t *testing.T) {
	headless(t)
	d, err := scene.Decode([]byte(previewFile(t)), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := showing(t, d)
	defer ref.Delete()
	d2, err := scene.Decode([]byte(previewFile(t)), nil)
	if err != nil {
		t.Fatal(err)
	}
	SetPreviewSide(16)
	defer SetPreviewSide(0)
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	r.SetDocument(d2)
	poll := func(done func(pending int) bool, what string) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
			if _, pending := r.Poll(); done(pending) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("no %s after 20 s (refining %d)", what, r.Refining())
			}
		}
	}
	poll(func(p int) bool { return p == 0 }, "texture for every image")
	for i := 0; i < 20; i++ {
		r.Poll()
		time.Sleep(5 * time.Millisecond)
	}
	if r.Refining() != 2 {
		t.Fatalf("refining %d images before the first draw, want 2", r.Refining())
	}
	previews := map[texKey]uint32{}
	for k, id := range r.textures {
		if s := texSide(id); s != 16 {
			t.Errorf("texture %v is %d wide before the first draw, want the 16 of its preview", k, s)
		}
		previews[k] = id
	}
	if len(previews) != 4 {
		t.Fatalf("%d textures, want 4 (colour and normal of 2 images)", len(previews))
	}
	r.Draw(NewCamera(r.Bounds()), 32, 32, DefaultOptions())
	poll(func(p int) bool { return p == 0 && r.Refining() == 0 }, "whole textures")
	for k, id := range ref.textures {
		got := r.textures[k]
		for l, s := range []int{64, 32, 16, 8, 4, 2, 1} {
			if !bytes.Equal(texLevel(got, l, s, s), texLevel(id, l, s, s)) {
				t.Errorf("texture %v level %d differs from the one made without previews", k, l)
			}
		}
	}
	for k, id := range previews {
		if gl.IsTexture(id) {
			t.Errorf("the preview of texture %v (GL %d) was not deleted", k, id)
		}
	}
	if r.Uploads() != 8 {
		t.Errorf("%d GL textures made, want 8 (4 previews, 4 whole)", r.Uploads())
	}
}

// TestPreviewGateDropped: the whole images (the PNG's and the JPEG's)
// are held back until the gate opens, and never decoded when the
// document is dropped first (a file opened over one still sharpening):
// the decoding then ends after the previews.
func TestPreviewGateDropped(t *testing.T) {
	d, err := scene.Decode([]byte(previewFile(t)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, drop := range []bool{false, true} {
		SetPreviewSide(16)
		ch := decodeImages(d, "")
		SetPreviewSide(0)
		var got []string
		for len(got) < 2 {
			di := <-ch
			got = append(got, fmt.Sprintf("%d preview=%v refines=%v", di.index, di.preview, di.refines))
			di.free()
		}
		select {
		case di := <-ch:
			t.Fatalf("drop %v: image %d (refines %v) arrived before the gate opened", drop, di.index, di.refines)
		case <-time.After(100 * time.Millisecond):
		}
		if drop {
			takeGate(ch).drop()
		} else {
			takeGate(ch).open()
		}
		for di := range ch {
			got = append(got, fmt.Sprintf("%d preview=%v refines=%v", di.index, di.preview, di.refines))
			di.free()
		}
		want := []string{"0 preview=true refines=false", "1 preview=true refines=false"}
		if !drop {
			want = append(want, "0 preview=false refines=true", "1 preview=false refines=true")
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("drop %v: arrived %q, want %q", drop, got, want)
		}
	}
}

// TestWakerSpacesWakes: ten arrivals at once wake the window twice (at
// once, and once when wakeInterval is over), none is lost, and now wakes
// at once.
func TestWakerSpacesWakes(t *testing.T) {
	var n atomic.Int32
	SetWake(func() { n.Add(1) })
	defer SetWake(nil)
	var w waker
	for i := 0; i < 10; i++ {
		w.soon()
	}
	if got := n.Load(); got != 1 {
		t.Fatalf("%d wakes at once, want 1", got)
	}
	time.Sleep(wakeInterval + 50*time.Millisecond)
	if got := n.Load(); got != 2 {
		t.Fatalf("%d wakes after the interval, want 2 (the trailing one)", got)
	}
	w.now()
	if got := n.Load(); got != 3 {
		t.Fatalf("%d wakes after now, want 3", got)
	}
}

// TestReducedPNGBudget: a PNG's preview is decoded only when the
// document's budget has room for the whole image (its rows are inflated
// whole), and once made holds only the preview's pixels.
func TestReducedPNGBudget(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 256, 128))
	for i := range src.Pix {
		src.Pix[i] = byte(i * 3)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, src); err != nil {
		t.Fatal(err)
	}
	doc := `{"asset":{"version":"2.0"},"images":[{"uri":"data:image/png;base64,` + base64.StdEncoding.EncodeToString(b.Bytes()) + `"}]}`
	d, err := scene.Decode([]byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	whole := int64(256 * 128 * 4 * 4 / 3)
	for _, c := range []struct {
		budget int64
		ok     bool
	}{{whole - 1, false}, {whole, true}} {
		budget := imgdec.NewBudget(c.budget)
		var scratch imgdec.Scratch
		di, ok := decodeReduced(d, "", 0, 64, budget, &scratch)
		scratch.Free()
		if ok != c.ok {
			t.Fatalf("budget %d: ok %v, want %v", c.budget, ok, c.ok)
		}
		if !ok {
			continue
		}
		if di.img.Width != 64 || di.img.Height != 32 {
			t.Errorf("preview %dx%d, want 64x32", di.img.Width, di.img.Height)
		}
		if want := int64(64 * 32 * 4 * 4 / 3); di.reserved != want {
			t.Errorf("the preview holds %d bytes of the budget, want %d", di.reserved, want)
		}
		di.free()
		if err := budget.Reserve(c.budget); err != nil {
			t.Errorf("the budget is not whole again after the preview is freed: %v", err)
		}
	}
}

// TestMaterialsFirst: with previews the images of one material are
// decoded together, material by material, keeping the largest-first
// order within one; an image of no material comes last.
func TestMaterialsFirst(t *testing.T) {
	doc := `{"asset":{"version":"2.0"},
	"images":[{"uri":"a.png"},{"uri":"b.png"},{"uri":"c.png"},{"uri":"d.png"},{"uri":"e.png"}],
	"textures":[{"source":0},{"source":1},{"source":2},{"source":3},{"source":4}],
	"materials":[
		{"pbrMetallicRoughness":{"baseColorTexture":{"index":3}},"normalTexture":{"index":1}},
		{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}},"emissiveTexture":{"index":1},"occlusionTexture":{"index":2}}]}`
	d, err := scene.Decode([]byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		largest, want []int
	}{
		{[]int{0, 1, 2, 3, 4}, []int{1, 3, 0, 2, 4}},
		{[]int{4, 3, 2, 1, 0}, []int{3, 1, 2, 0, 4}},
	} {
		if got := materialsFirst(d, c.largest); !slices.Equal(got, c.want) {
			t.Errorf("largest first %v: %v, want %v", c.largest, got, c.want)
		}
	}
}
