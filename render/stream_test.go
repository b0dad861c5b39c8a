package render

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/render/imgdec"
	"physview/scene"
)

// texLevel reads level l of GL texture id back as RGBA bytes.
func texLevel(id uint32, l, w, h int) []byte {
	out := make([]byte, w*h*4)
	gl.BindTexture(gl.TEXTURE_2D, id)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.GetTexImage(gl.TEXTURE_2D, int32(l), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(out))
	return out
}

// patternImage is a w x h image whose every byte tells its place.
func patternImage(w, h int) *imgdec.Image {
	m := &imgdec.Image{Width: w, Height: h, Pix: make([]byte, w*h*4)}
	for i := range m.Pix {
		m.Pix[i] = byte(i*7 + i/(w*4)*13)
	}
	return m
}

// TestBandUpload: a texture uploaded a few rows at a time, over many steps,
// holds every level byte for byte as the image and its mipmaps, as one
// uploaded at once does.
func TestBandUpload(t *testing.T) {
	headless(t)
	img := patternImage(301, 77) // odd sizes: rows that are not 4-aligned
	levels := imgdec.Mipmaps(img)
	whole := uploadTexture(img, levels, nil, false)
	tu := beginTexture(img, levels, nil, false)
	steps := 1
	for !tu.step(4000) { // three rows of level 0 a step
		steps++
	}
	all := append([]*imgdec.Image{img}, levels...)
	if want := 77/3 + len(levels); steps < want {
		t.Errorf("%d steps for %d levels, want at least %d (rows in bands)", steps, len(all), want)
	}
	for l, m := range all {
		for name, id := range map[string]uint32{"at once": whole, "in bands": tu.id} {
			if got := texLevel(id, l, m.Width, m.Height); !bytes.Equal(got, m.Pix) {
				t.Errorf("%s: level %d (%dx%d) differs from the image", name, l, m.Width, m.Height)
			}
		}
	}
	gl.DeleteTextures(1, &whole)
	gl.DeleteTextures(1, &tu.id)
}

// texturedFile is a document of n triangles, each with a material showing
// its own 64x64 PNG (embedded), colour and normal map: 2n GL textures.
func texturedFile(n int) string {
	var images, textures, mats, meshes, nodes, roots []string
	for i := 0; i < n; i++ {
		img := image.NewNRGBA(image.Rect(0, 0, 64, 64))
		for p := range img.Pix {
			img.Pix[p] = byte(p*3 + i*50)
		}
		img.SetNRGBA(0, 0, color.NRGBA{byte(i), 0, 0, 255})
		var b bytes.Buffer
		png.Encode(&b, img)
		images = append(images, fmt.Sprintf(`{"uri":"data:image/png;base64,%s"}`, base64.StdEncoding.EncodeToString(b.Bytes())))
		textures = append(textures, fmt.Sprintf(`{"source":%d}`, i))
		mats = append(mats, fmt.Sprintf(`{"pbrMetallicRoughness":{"baseColorTexture":{"index":%d}},"normalTexture":{"index":%d}}`, i, i))
		meshes = append(meshes, fmt.Sprintf(`{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":2},"indices":1,"material":%d}]}`, i))
		nodes = append(nodes, fmt.Sprintf(`{"mesh":%d,"translation":[%d,0,0]}`, i, 2*i))
		roots = append(roots, fmt.Sprint(i))
	}
	// Positions (36 bytes), indices (6 + 2 padding), UVs (24 bytes).
	buf := make([]byte, 0, 68)
	for _, f := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		buf = appendF32(buf, f)
	}
	buf = append(buf, 0, 0, 1, 0, 2, 0, 0, 0)
	for _, f := range []float32{0, 0, 1, 0, 0, 1} {
		buf = appendF32(buf, f)
	}
	return fmt.Sprintf(`{"asset":{"version":"2.0"},
"buffers":[{"byteLength":%d,"uri":"data:application/octet-stream;base64,%s"}],
"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6},{"buffer":0,"byteOffset":44,"byteLength":24}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
{"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"},
{"bufferView":2,"componentType":5126,"count":3,"type":"VEC2"}],
"images":[%s],"textures":[%s],"materials":[%s],"meshes":[%s],"nodes":[%s],"scenes":[{"nodes":[%s]}],"scene":0}`,
		len(buf), base64.StdEncoding.EncodeToString(buf), strings.Join(images, ","), strings.Join(textures, ","),
		strings.Join(mats, ","), strings.Join(meshes, ","), strings.Join(nodes, ","), strings.Join(roots, ","))
}

func appendF32(b []byte, f float32) []byte {
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
}

// TestPollWithinBudget: with a budget too small for one texture, each Poll
// uploads one band and the images complete over many Polls (pending
// counts down), ending with the same textures, byte for byte, as
// WaitTextures makes at once.
func TestPollWithinBudget(t *testing.T) {
	headless(t)
	const n = 4
	d, err := scene.Decode([]byte(texturedFile(n)), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := showing(t, d)
	defer ref.Delete()
	d2, err := scene.Decode([]byte(texturedFile(n)), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	r.UploadBudget = time.Nanosecond
	r.SetDocument(d2)
	polls, uploading, last := 0, 0, n
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, pending := r.Poll()
		polls++
		if r.Uploading() {
			uploading++
		}
		if pending > last {
			t.Fatalf("pending went up from %d to %d", last, pending)
		}
		last = pending
		if pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d images still pending after %d polls", pending, polls)
		}
		if !r.Uploading() {
			time.Sleep(time.Millisecond) // decoding
		}
	}
	// Each 64x64 image makes two textures (sRGB colour, linear normal)
	// of 7 levels: 14 bands at least.
	if uploading < n*14-1 {
		t.Errorf("uploads spread over %d polls, want at least %d (one band a poll)", uploading, n*14-1)
	}
	if r.Uploads() != ref.Uploads() || r.Uploads() != 2*n {
		t.Errorf("%d textures uploaded in bands, %d at once; want %d", r.Uploads(), ref.Uploads(), 2*n)
	}
	for k, id := range ref.textures {
		got, ok := r.textures[k]
		if !ok {
			t.Errorf("texture %v missing after the Polls", k)
			continue
		}
		for l, s := range []int{64, 32, 16, 8, 4, 2, 1} {
			if !bytes.Equal(texLevel(got, l, s, s), texLevel(id, l, s, s)) {
				t.Errorf("texture %v level %d differs from the one uploaded at once", k, l)
			}
		}
	}
}

// TestPollDeferred checks that a Poll with an UploadBudget below 0 takes
// in the decoded images but uploads none of them (the window's frame that
// had no time left), and that the next Poll with a budget goes on.
func TestPollDeferred(t *testing.T) {
	headless(t)
	const n = 3
	d, err := scene.Decode([]byte(texturedFile(n)), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	r.SetDocument(d)
	r.UploadBudget = -1
	deadline := time.Now().Add(20 * time.Second)
	for {
		arrived, pending := r.Poll()
		if arrived != 0 || r.Uploads() != 0 {
			t.Fatalf("deferred Poll completed %d images, made %d textures; want none", arrived, r.Uploads())
		}
		if pending != n {
			t.Fatalf("deferred Poll: %d pending, want %d", pending, n)
		}
		if r.pending == nil && len(r.queue) == n {
			break // every image decoded and waiting
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d images decoded after 20 s", len(r.queue), n)
		}
		time.Sleep(time.Millisecond)
	}
	if !r.Uploading() {
		t.Errorf("Uploading false with %d decoded images waiting", len(r.queue))
	}
	r.UploadBudget = time.Second
	if arrived, pending := r.Poll(); arrived != n || pending != 0 || r.Uploads() != 2*n {
		t.Errorf("Poll with a budget after the deferred ones: %d arrived, %d pending, %d textures; want %d, 0, %d", arrived, pending, r.Uploads(), n, 2*n)
	}
}
