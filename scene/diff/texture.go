package diff

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // the decoders StdDecode knows
	_ "image/png"
	"math"
	"net/http"

	_ "golang.org/x/image/webp"

	"physview/scene"
)

// Textures: images are matched by the hash of their bytes, so an
// unchanged image costs nothing; a matched pair with other bytes is
// decoded (Options.DecodeImage) and compared pixel by pixel, which tells a
// re-encode (equal pixels, or a small mean difference for a lossy one)
// from a repaint.

// ImageDecoder decodes an encoded image to 8-bit non-premultiplied RGBA.
type ImageDecoder func(data []byte) (*image.NRGBA, error)

// StdDecode is the default ImageDecoder: Go's PNG, JPEG and WebP decoders.
// The viewer's command line passes render/imgdec's instead, which also
// reads KTX 2.0 and AVIF (this package stays free of cgo image libraries
// so the window's session can use it).
func StdDecode(data []byte) (*image.NRGBA, error) {
	m, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if n, ok := m.(*image.NRGBA); ok {
		return n, nil
	}
	n := image.NewNRGBA(m.Bounds())
	draw.Draw(n, n.Rect, m, m.Bounds().Min, draw.Src)
	return n, nil
}

// mimeOf names an image's encoding: its mimeType, else what its bytes are.
func mimeOf(d *scene.Document, i int, data []byte) string {
	if m := d.GLTF.Images[i].MimeType; m != "" {
		return m
	}
	if len(data) == 0 {
		return "unknown"
	}
	return http.DetectContentType(data)
}

func imageName(d *scene.Document, i int) string {
	im := d.GLTF.Images[i]
	switch {
	case im.Name != "":
		return fmt.Sprintf("%q", im.Name)
	case im.URI != "" && len(im.URI) < 80 && im.URI[:min(5, len(im.URI))] != "data:":
		return im.URI
	}
	return fmt.Sprint(i)
}

// lossyMax is the largest difference of any channel (of 255) a change of
// image format may make and still count as a re-encode, not a repaint: a
// lossy encoder spreads small errors (a JPEG at quality 90 stays within
// about 20, chroma subsampling included), a repaint changes some pixels a
// lot.
const lossyMax = 48

// pixelDiff is the mean and largest difference of two images' channels, in
// 8-bit steps (0-255).
func pixelDiff(a, b *image.NRGBA) (mean, max float64) {
	var sum float64
	w, h := a.Rect.Dx(), a.Rect.Dy()
	for y := range h {
		ra := a.Pix[y*a.Stride : y*a.Stride+4*w]
		rb := b.Pix[y*b.Stride : y*b.Stride+4*w]
		for k := range ra {
			d := math.Abs(float64(ra[k]) - float64(rb[k]))
			sum += d
			max = math.Max(max, d)
		}
	}
	if n := 4 * w * h; n > 0 {
		mean = sum / float64(n)
	}
	return mean, max
}

func (c *comparer) compareImages() {
	a, b := c.a.d, c.b.d
	for i := range a.GLTF.Images {
		j, ok := c.imgAB[i]
		if !ok {
			c.addDoc(Texture, Removed, ptr("images", i), "", "image %s removed", imageName(a, i))
			continue
		}
		c.compareImage(i, j)
	}
	for j := range b.GLTF.Images {
		if _, ok := c.imgBA[j]; !ok {
			c.addDoc(Texture, Added, "", ptr("images", j), "image %s added", imageName(b, j))
		}
	}
}

func (c *comparer) compareImage(i, j int) {
	a, b := c.a.d, c.b.d
	pa, pb := ptr("images", i), ptr("images", j)
	name := "image " + imageName(b, j)
	if (i == j && c.sameImage[i]) || (c.a.imageHash(i) != "" && c.a.imageHash(i) == c.b.imageHash(j)) {
		return
	}
	da, errA := imageBytes(a, i)
	db, errB := imageBytes(b, j)
	if errA != nil || errB != nil {
		if (errA == nil) != (errB == nil) {
			c.addDoc(Texture, Changed, pa, pb, "%s: cannot be read (A: %s, B: %s)", name, errText(errA), errText(errB))
		}
		return
	}
	ma, mb := mimeOf(a, i, da), mimeOf(b, j, db)
	encoding := fmt.Sprintf("%s, %d bytes → %s, %d bytes", ma, len(da), mb, len(db))
	decode := c.opt.DecodeImage
	if decode == nil {
		decode = StdDecode
	}
	ia, errA := decode(da)
	ib, errB := decode(db)
	switch {
	case errA != nil || errB != nil:
		c.addDoc(Texture, Changed, pa, pb, "%s: bytes changed (%s); cannot decode (A: %s, B: %s)", name, encoding, errText(errA), errText(errB))
	case ia.Rect.Size() != ib.Rect.Size():
		c.addDoc(Texture, Changed, pa, pb, "%s: resized %d×%d → %d×%d (%s)", name, ia.Rect.Dx(), ia.Rect.Dy(), ib.Rect.Dx(), ib.Rect.Dy(), encoding)
	default:
		mean, max := pixelDiff(ia, ib)
		if max == 0 {
			c.addDoc(Texture, Encoding, pa, pb, "%s: encoding changed (%s), pixels equal (%d×%d)", name, encoding, ib.Rect.Dx(), ib.Rect.Dy())
			return
		}
		if ma != mb && max <= lossyMax {
			c.addDoc(Texture, Encoding, pa, pb, "%s: encoding changed (%s), lossy: mean difference %s, max %s of 255 (%d×%d)", name, encoding, num(mean), num(max), ib.Rect.Dx(), ib.Rect.Dy())
			return
		}
		c.addDoc(Texture, Changed, pa, pb, "%s: pixels changed, mean difference %s, max %s of 255 (%d×%d, %s)", name, num(mean), num(max), ib.Rect.Dx(), ib.Rect.Dy(), encoding)
	}
}
