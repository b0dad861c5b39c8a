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

// decodedImage is one glTF image decoded to RGBA with its mipmap chain
// (level 0 first), or the reason it could not be decoded.
type decodedImage struct {
	index  int
	levels []*image.NRGBA
	err    error
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
			var levels []*image.NRGBA
			if err == nil {
				// Mipmaps are made here, on the workers, rather than by
				// glGenerateMipmap on the one GL thread (slow on llvmpipe).
				levels = mipChain(img)
			}
			out <- decodedImage{i, levels, err}
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
	switch m := img.(type) {
	case *image.NRGBA:
		if m.Stride == 4*m.Rect.Dx() && m.Rect.Min == (image.Point{}) {
			return m, nil
		}
	case *image.RGBA:
		// PNGs without alpha decode to opaque RGBA, whose bytes are the
		// same as non-premultiplied NRGBA: no conversion needed.
		if m.Stride == 4*m.Rect.Dx() && m.Rect.Min == (image.Point{}) && opaque(m.Pix) {
			return &image.NRGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}, nil
		}
	}
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Bounds(), img, b.Min, draw.Src)
	return n, nil
}

func opaque(pix []uint8) bool {
	for i := 3; i < len(pix); i += 4 {
		if pix[i] != 255 {
			return false
		}
	}
	return true
}

// mipChain returns img and its successively halved versions down to 1x1,
// each pixel the average of the 2x2 block above it.
func mipChain(img *image.NRGBA) []*image.NRGBA {
	levels := []*image.NRGBA{img}
	for cur := img; cur.Rect.Dx() > 1 || cur.Rect.Dy() > 1; {
		w, h := max(cur.Rect.Dx()/2, 1), max(cur.Rect.Dy()/2, 1)
		next := image.NewNRGBA(image.Rect(0, 0, w, h))
		cw, ch := cur.Rect.Dx(), cur.Rect.Dy()
		for y := 0; y < h; y++ {
			y0, y1 := min(2*y, ch-1), min(2*y+1, ch-1)
			for x := 0; x < w; x++ {
				x0, x1 := min(2*x, cw-1), min(2*x+1, cw-1)
				a, b := cur.Pix[y0*cur.Stride+4*x0:], cur.Pix[y0*cur.Stride+4*x1:]
				c, d := cur.Pix[y1*cur.Stride+4*x0:], cur.Pix[y1*cur.Stride+4*x1:]
				o := next.Pix[y*next.Stride+4*x:]
				for k := 0; k < 4; k++ {
					o[k] = uint8((uint32(a[k]) + uint32(b[k]) + uint32(c[k]) + uint32(d[k]) + 2) / 4)
				}
			}
		}
		levels = append(levels, next)
		cur = next
	}
	return levels
}

// glTexture is one uploaded texture; key is (glTF texture index, sRGB).
type texKey struct {
	texture int
	srgb    bool
}

// uploadTexture creates a GL texture from a mip chain with the glTF
// sampler's wrap and filter modes.
func uploadTexture(levels []*image.NRGBA, sampler *gltf.Sampler, srgb bool) uint32 {
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
	for l, img := range levels {
		gl.TexImage2D(gl.TEXTURE_2D, int32(l), internal, int32(img.Rect.Dx()), int32(img.Rect.Dy()), 0, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(img.Pix))
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, int32(len(levels)-1))
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
