package render

import (
	"testing"

	"physview/render/imgdec"
)

// TestReducedLevels checks the preview taken from a decoded chain: the
// first level no larger than the side, with the levels below it, and no
// preview (not a panic on the decode worker) from a damaged chain.
func TestReducedLevels(t *testing.T) {
	img := &imgdec.Image{Width: 8, Height: 4, Pix: make([]uint8, 8*4*4)}
	chain := imgdec.Mipmaps(img)
	defer func() {
		for _, l := range chain {
			l.Free()
		}
	}()
	cases := []struct {
		name   string
		di     decodedImage
		side   int
		ok     bool
		w, h   int
		levels int
	}{
		{"from level 1", decodedImage{img: img, levels: chain}, 4, true, 4, 2, 2},
		{"from level 2", decodedImage{img: img, levels: chain}, 2, true, 2, 1, 1},
		{"no larger than the side", decodedImage{img: img, levels: chain}, 8, false, 0, 0, 0},
		{"no chain", decodedImage{img: img}, 4, false, 0, 0, 0},
		{"damaged chain", decodedImage{img: img, levels: []*imgdec.Image{nil}}, 4, false, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, ok := reducedLevels(c.di, c.side)
			defer p.free()
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if !ok {
				if p.img != nil || p.levels != nil {
					t.Fatalf("no preview expected, got %+v", p)
				}
				return
			}
			if p.img.Width != c.w || p.img.Height != c.h || len(p.levels) != c.levels || !p.preview {
				t.Fatalf("preview %dx%d with %d levels (preview %v), want %dx%d with %d", p.img.Width, p.img.Height, len(p.levels), p.preview, c.w, c.h, c.levels)
			}
		})
	}
}
