package render

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/scene"
)

// sharedFile is a glTF of n meshes that all read the one triangle's
// accessors, each with its own material; material 0 has a base colour
// texture (image 0, a PNG data URI). %s is the buffer's URI.
func sharedFile(n int, uri string) string {
	var meshes, nodes, mats, roots []string
	for i := 0; i < n; i++ {
		meshes = append(meshes, fmt.Sprintf(`{"primitives":[{"attributes":{"POSITION":0},"indices":1,"material":%d}]}`, i))
		nodes = append(nodes, fmt.Sprintf(`{"mesh":%d,"translation":[%d,0,0]}`, i, 2*i))
		mat := fmt.Sprintf(`{"pbrMetallicRoughness":{"baseColorFactor":[%.2f,0.5,0.5,1]}}`, float64(i)/float64(n))
		if i == 0 {
			mat = `{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}`
		}
		mats = append(mats, mat)
		roots = append(roots, fmt.Sprint(i))
	}
	img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	var b bytes.Buffer
	png.Encode(&b, img)
	return fmt.Sprintf(`{"asset":{"version":"2.0"},
"buffers":[{"byteLength":44,"uri":%q}],
"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
{"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],
"images":[{"uri":"data:image/png;base64,%s"}],"textures":[{"source":0}],
"materials":[%s],"meshes":[%s],"nodes":[%s],"scenes":[{"nodes":[%s]}],"scene":0}`,
		uri, base64.StdEncoding.EncodeToString(b.Bytes()), strings.Join(mats, ","), strings.Join(meshes, ","), strings.Join(nodes, ","), strings.Join(roots, ","))
}

// triangleBuffer is three positions (0,0,0), (1,0,0), (0,1,0) and the
// indices 0, 1, 2, padded to 44 bytes.
const triangleBuffer = "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAABAAIAAAA="

// TestSharedGeometryUploadedOnce: ten meshes reading one triangle's
// accessors draw from one GL vertex buffer (as many items, each with its
// material); the picture is the one each would draw with buffers of its
// own.
func TestSharedGeometryUploadedOnce(t *testing.T) {
	headless(t)
	d, err := scene.Decode([]byte(sharedFile(10, triangleBuffer)), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := showing(t, d)
	defer r.Delete()
	vbos := map[uint32]int{}
	owners := 0
	for m := range r.prims {
		gp := r.prims[m][0]
		if gp == nil {
			t.Fatalf("mesh %d is not uploaded: %q", m, r.Messages)
		}
		vbos[gp.vbo]++
		if !gp.shared {
			owners++
		}
		if gp.material != m || gp.mesh != m {
			t.Errorf("mesh %d draws with material %d as mesh %d", m, gp.material, gp.mesh)
		}
	}
	if len(vbos) != 1 || owners != 1 || len(r.items) != 10 {
		t.Errorf("%d vertex buffers (%d owned) for 10 meshes drawn as %d items: want 1 buffer, 1 owner, 10 items", len(vbos), owners, len(r.items))
	}
	if r.Uploads() != 1 {
		t.Errorf("%d textures uploaded, want 1", r.Uploads())
	}
}

// TestNoTextureForLostGeometry: when the buffer every mesh reads is a
// missing file, its materials' image is not decoded or uploaded (and
// nothing waits for it); with the buffer there, it is.
func TestNoTextureForLostGeometry(t *testing.T) {
	headless(t)
	for _, tc := range []struct {
		uri     string
		uploads int
	}{{triangleBuffer, 1}, {"gone.bin", 0}} {
		path := filepath.Join(t.TempDir(), "x.gltf")
		if err := os.WriteFile(path, []byte(sharedFile(3, tc.uri)), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := scene.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		r := showing(t, d)
		if got := r.Uploads(); got != tc.uploads {
			t.Errorf("buffer %s: %d textures uploaded, want %d", tc.uri, got, tc.uploads)
		}
		if _, pending := r.Poll(); pending != 0 {
			t.Errorf("buffer %s: %d images still pending", tc.uri, pending)
		}
		if di := r.decoded[0]; di == nil || di.err != nil {
			t.Errorf("buffer %s: image 0 did not arrive cleanly: %+v", tc.uri, di)
		}
		r.Delete()
	}
}

// TestPreloadReadsGeometry: Preload reads a document's primitives (each
// set of shared accessors once) before there is a renderer, SetDocument
// takes them over and uploads them as it would have read them, and a
// dropped preload leaves nothing behind.
func TestPreloadReadsGeometry(t *testing.T) {
	headless(t)
	d, err := scene.Decode([]byte(sharedFile(4, triangleBuffer)), nil)
	if err != nil {
		t.Fatal(err)
	}
	Preload(d)
	prepared.Lock()
	g := prepared.m[d]
	prepared.Unlock()
	read := 0
	for _, ps := range g {
		for _, in := range ps {
			if in != nil && in.pd != nil {
				read++
			}
		}
	}
	if len(g) != 4 || read != 1 {
		t.Fatalf("Preload prepared %d meshes, %d primitives read: want 4 meshes, 1 read (the others share its accessors)", len(g), read)
	}
	r := showing(t, d)
	defer r.Delete()
	if takePrepared(d) != nil {
		t.Error("SetDocument left the prepared geometry behind")
	}
	if len(r.items) != 4 || r.prims[3][0] == nil || r.prims[3][0].vbo != r.prims[0][0].vbo || r.prims[0][0].count != 3 {
		t.Errorf("%d items; want 4 drawing one uploaded triangle", len(r.items))
	}

	d2, err := scene.Decode([]byte(sharedFile(2, triangleBuffer)), nil)
	if err != nil {
		t.Fatal(err)
	}
	Preload(d2)
	DropPreload(d2)
	if takePrepared(d2) != nil {
		t.Error("DropPreload left the prepared geometry behind")
	}
}
