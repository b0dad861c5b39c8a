package render

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // glTF core image formats
	_ "image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/qmuntal/gltf"
	_ "golang.org/x/image/webp" // EXT_texture_webp

	"physview/scene"
)

// decodedImage is one glTF image decoded to RGBA, or the reason it could not be.
type decodedImage struct {
	index int
	img   *image.NRGBA
	err   error
}

// decodeImages decodes every image of the document on worker goroutines
// (one per CPU) and sends each result as it is ready; the channel is closed
// when all are done. Nothing here touches GL.
func decodeImages(d *scene.Document, dir string) <-chan decodedImage {
	out := make(chan decodedImage, len(d.GLTF.Images))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.NumCPU())
	for i := range d.GLTF.Images {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			img, err := decodeImage(d, dir, i)
			out <- decodedImage{i, img, err}
		}(i)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

// imageBytes returns the encoded bytes of image i: from a buffer view, a
// data URI or a file next to the document.
func imageBytes(d *scene.Document, dir string, i int) ([]byte, error) {
	im := d.GLTF.Images[i]
	switch {
	case im.BufferView != nil:
		v := *im.BufferView
		if v < 0 || v >= len(d.GLTF.BufferViews) {
			return nil, fmt.Errorf("buffer view %d does not exist", v)
		}
		bv := d.GLTF.BufferViews[v]
		if bv.Buffer < 0 || bv.Buffer >= len(d.GLTF.Buffers) || bv.ByteOffset+bv.ByteLength > len(d.GLTF.Buffers[bv.Buffer].Data) {
			return nil, fmt.Errorf("buffer view %d is out of range", v)
		}
		return d.GLTF.Buffers[bv.Buffer].Data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], nil
	case strings.HasPrefix(im.URI, "data:"):
		comma := strings.IndexByte(im.URI, ',')
		if comma < 0 || !strings.Contains(im.URI[:comma], ";base64") {
			return nil, fmt.Errorf("unsupported data URI")
		}
		return base64.StdEncoding.DecodeString(im.URI[comma+1:])
	case im.URI != "":
		name := filepath.FromSlash(im.URI)
		if !filepath.IsLocal(name) {
			return nil, fmt.Errorf("%s is not inside the document's folder", im.URI)
		}
		return os.ReadFile(filepath.Join(dir, name))
	}
	return nil, fmt.Errorf("has neither a uri nor a buffer view")
}

func decodeImage(d *scene.Document, dir string, i int) (*image.NRGBA, error) {
	data, err := imageBytes(d, dir, i)
	if err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if n, ok := img.(*image.NRGBA); ok && n.Stride == 4*n.Rect.Dx() {
		return n, nil
	}
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Bounds(), img, b.Min, draw.Src)
	return n, nil
}

// glTexture is one uploaded texture; key is (glTF texture index, sRGB).
type texKey struct {
	texture int
	srgb    bool
}

// uploadTexture creates a GL texture from img with the glTF sampler's wrap
// and filter modes, and mipmaps.
func uploadTexture(img *image.NRGBA, sampler *gltf.Sampler, srgb bool) uint32 {
	var id uint32
	gl.GenTextures(1, &id)
	gl.BindTexture(gl.TEXTURE_2D, id)
	internal := int32(gl.RGBA8)
	if srgb {
		internal = gl.SRGB8_ALPHA8
	}
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	// glTF UV (0,0) is the image's top-left: upload rows top-first and the
	// shader's UVs land where the file means them.
	gl.TexImage2D(gl.TEXTURE_2D, 0, internal, int32(img.Rect.Dx()), int32(img.Rect.Dy()), 0, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(img.Pix))
	wrapS, wrapT := int32(gl.REPEAT), int32(gl.REPEAT)
	minF, magF := int32(gl.LINEAR_MIPMAP_LINEAR), int32(gl.LINEAR)
	if sampler != nil {
		wrapS, wrapT = glWrap(sampler.WrapS), glWrap(sampler.WrapT)
		switch sampler.MagFilter {
		case gltf.MagNearest:
			magF = gl.NEAREST
		}
		switch sampler.MinFilter {
		case gltf.MinNearest:
			minF = gl.NEAREST
		case gltf.MinLinear:
			minF = gl.LINEAR
		case gltf.MinNearestMipMapNearest:
			minF = gl.NEAREST_MIPMAP_NEAREST
		case gltf.MinLinearMipMapNearest:
			minF = gl.LINEAR_MIPMAP_NEAREST
		case gltf.MinNearestMipMapLinear:
			minF = gl.NEAREST_MIPMAP_LINEAR
		}
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrapS)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, wrapT)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, minF)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, magF)
	gl.GenerateMipmap(gl.TEXTURE_2D)
	return id
}

func glWrap(w gltf.WrappingMode) int32 {
	switch w {
	case gltf.WrapClampToEdge:
		return gl.CLAMP_TO_EDGE
	case gltf.WrapMirroredRepeat:
		return gl.MIRRORED_REPEAT
	}
	return gl.REPEAT
}

// solidTexture makes a 1x1 texture of one colour: the stand-in while an
// image decodes and for images that cannot be read.
func solidTexture(c [4]uint8) uint32 {
	var id uint32
	gl.GenTextures(1, &id)
	gl.BindTexture(gl.TEXTURE_2D, id)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(c[:]))
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	return id
}
