package render

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"physview/scene"
)

// TestLargestFirst checks the order the decode workers take images in:
// largest encoded size first, whether the bytes are in a buffer view, a
// data URI or a file next to the document; ties keep the file's order.
func TestLargestFirst(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int{"big.png": 5000, "small.png": 10} {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	buf := base64.StdEncoding.EncodeToString(make([]byte, 3000))
	data := base64.StdEncoding.EncodeToString(make([]byte, 900))
	doc := fmt.Sprintf(`{"asset":{"version":"2.0"},
		"buffers":[{"byteLength":3000,"uri":"data:application/octet-stream;base64,%s"}],
		"bufferViews":[{"buffer":0,"byteLength":2000},{"buffer":0,"byteOffset":2000,"byteLength":1000}],
		"images":[
			{"uri":"small.png"},
			{"bufferView":1,"mimeType":"image/png"},
			{"uri":"big.png"},
			{"uri":"data:image/png;base64,%s"},
			{"bufferView":0,"mimeType":"image/png"},
			{"uri":"missing.png"}
		]}`, buf, data)
	d, err := scene.Decode([]byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := largestFirst(d, dir)
	// big.png 5000, view 0 2000, view 1 1000, data URI 900, small.png 10, missing 0
	want := []int{2, 4, 1, 3, 0, 5}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestDropPreload checks that a preload given up is forgotten: the next
// decode of the document starts afresh instead of waiting on it.
func TestDropPreload(t *testing.T) {
	png := base64.StdEncoding.EncodeToString(onePixelPNG(t))
	d, err := scene.Decode([]byte(`{"asset":{"version":"2.0"},"images":[{"uri":"data:image/png;base64,`+png+`"}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	Preload(d)
	preloads.Lock()
	ch := preloads.m[d]
	preloads.Unlock()
	if ch == nil {
		t.Fatal("Preload started nothing")
	}
	DropPreload(d)
	preloads.Lock()
	_, kept := preloads.m[d]
	preloads.Unlock()
	if kept {
		t.Fatal("the dropped preload is still waiting for SetDocument")
	}
	again := startDecoding(d, "")
	if again == ch {
		t.Fatal("decoding again took over the dropped preload")
	}
	di := <-again
	if di.err != nil || di.img == nil || di.img.Width != 1 {
		t.Fatalf("decoding again: %+v", di)
	}
	di.free()
	DropPreload(d) // nothing preloaded: no effect
}

func onePixelPNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	img.Pix[0], img.Pix[3] = 200, 255
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
