package imgdec

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/testcorpus"
)

// diff is how far Decode's pixels are from the standard library's.
type diff struct {
	worst     int     // largest difference of one channel value, in levels
	overOne   float64 // share of channel values more than one level off
	differing int     // channel values that differ at all
}

// compare decodes data with libspng or libjpeg-turbo (not falling back to
// Go) and with the standard library, and fails when the sizes differ.
func compare(t *testing.T, name string, data []byte) diff {
	t.Helper()
	c := decodeJPEG
	if strings.HasSuffix(name, ".png") {
		c = decodePNG
	}
	got, err := c(data)
	if err != nil {
		t.Fatalf("%s: the C decoder: %v", name, err)
	}
	defer got.Free()
	want, err := DecodeStd(data)
	if err != nil {
		t.Fatalf("%s: DecodeStd: %v", name, err)
	}
	if got.Width != want.Width || got.Height != want.Height || len(got.Pix) != len(want.Pix) {
		t.Fatalf("%s: %dx%d (%d bytes), standard library %dx%d (%d bytes)", name, got.Width, got.Height, len(got.Pix), want.Width, want.Height, len(want.Pix))
	}
	var r diff
	over := 0
	for i := range got.Pix {
		d := int(got.Pix[i]) - int(want.Pix[i])
		if d < 0 {
			d = -d
		}
		if d > 0 {
			r.differing++
		}
		if d > 1 {
			over++
		}
		r.worst = max(r.worst, d)
	}
	r.overOne = float64(over) / float64(len(got.Pix))
	return r
}

// check applies the tolerance of the format: PNG decodes exactly; JPEG
// within one level except where libjpeg's integer IDCT and colour
// conversion round differently from Go's (at most 4 levels, on under 1% of
// the values).
func check(t *testing.T, name string, d diff) {
	t.Helper()
	if strings.HasSuffix(name, ".png") {
		if d.worst != 0 {
			t.Errorf("%s: %d values differ, by up to %d levels; want identical", name, d.differing, d.worst)
		}
		return
	}
	if d.worst > 4 || d.overOne > 0.01 {
		t.Errorf("%s: up to %d levels off, %.3f%% of values more than one level; want at most 4 and 1%%", name, d.worst, 100*d.overOne)
	}
}

func TestDecodeMatchesStandardLibrary(t *testing.T) {
	for _, tc := range []struct {
		file          string
		width, height int
	}{
		{"rgba8.png", 37, 23},
		{"rgb8.png", 37, 23},
		{"gray8.png", 37, 23},
		{"gray_alpha.png", 37, 23},
		{"gray_palette.png", 37, 23},
		{"palette_trns.png", 37, 23},
		{"rgba16.png", 37, 23},
		{"interlaced.png", 37, 23},
		{"yuv420.jpg", 37, 23},
		{"yuv422.jpg", 37, 23},
		{"yuv444.jpg", 37, 23},
		{"progressive.jpg", 37, 23},
		{"gray.jpg", 37, 23},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			check(t, tc.file, compare(t, tc.file, data))
			m, err := Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Free()
			if m.Width != tc.width || m.Height != tc.height || len(m.Pix) != 4*tc.width*tc.height {
				t.Errorf("%dx%d with %d bytes, want %dx%d", m.Width, m.Height, len(m.Pix), tc.width, tc.height)
			}
		})
	}
}

// TestDecodeCorpus compares the two decoders on the textures of the models
// the start-up benchmark opens.
func TestDecodeCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus images take seconds to decode twice")
	}
	for _, rel := range []string{
		"gltf-sample-assets/Models/DamagedHelmet/glTF/Default_albedo.jpg",
		"gltf-sample-assets/Models/DamagedHelmet/glTF/Default_metalRoughness.jpg",
		"gltf-sample-assets/Models/DamagedHelmet/glTF/Default_normal.jpg",
		"gltf-sample-assets/Models/DamagedHelmet/glTF/Default_AO.jpg",
		"gltf-sample-assets/Models/DamagedHelmet/glTF/Default_emissive.jpg",
		"gltf-sample-assets/Models/GlamVelvetSofa/glTF/GlamVelvetSofa_normal.png",
		"gltf-sample-assets/Models/GlamVelvetSofa/glTF/GlamVelvetSofa_occlusion.png",
		"gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp_glass_basecolor-alpha.png",
		"gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp_bulbs_occlusion-rough-metal.png",
	} {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			data, err := os.ReadFile(testcorpus.File(t, rel))
			if err != nil {
				t.Fatal(err)
			}
			d := compare(t, rel, data)
			check(t, rel, d)
			t.Logf("%d values differ, by up to %d levels; %.3f%% by more than one", d.differing, d.worst, 100*d.overOne)
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	png, err := os.ReadFile("testdata/rgba8.png")
	if err != nil {
		t.Fatal(err)
	}
	jpg, err := os.ReadFile("testdata/yuv420.jpg")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"not an image", []byte("hello, world")},
		{"png signature only", png[:8]},
		{"truncated png", png[:len(png)/2]},
		{"jpeg marker only", jpg[:2]},
		{"truncated jpeg header", jpg[:40]},
		{"truncated jpeg scan", jpg[:len(jpg)-80]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode(tc.data)
			if err == nil {
				m.Free()
				t.Fatalf("no error for %d bytes", len(tc.data))
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
		})
	}
}

func TestFreeTwice(t *testing.T) {
	data, err := os.ReadFile("testdata/rgb8.png")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	m.Free()
	m.Free()
	if m.Pix != nil {
		t.Fatalf("Pix has %d bytes after Free", len(m.Pix))
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, rel := range []string{
		"gltf-sample-assets/Models/DamagedHelmet/glTF/Default_albedo.jpg",
		"gltf-sample-assets/Models/GlamVelvetSofa/glTF/GlamVelvetSofa_normal.png",
	} {
		data, err := os.ReadFile(testcorpus.File(b, rel))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("cgo/"+filepath.Base(rel), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m, err := Decode(data)
				if err != nil {
					b.Fatal(err)
				}
				m.Free()
			}
		})
		b.Run("std/"+filepath.Base(rel), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := DecodeStd(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// mipRef is the reference box filter in Go: each pixel the rounded average
// of the 2x2 block above it, the last row or column repeated.
func mipRef(pix []byte, w, h int) ([]byte, int, int) {
	hw, hh := max(w/2, 1), max(h/2, 1)
	out := make([]byte, 4*hw*hh)
	for y := 0; y < hh; y++ {
		y0, y1 := min(2*y, h-1), min(2*y+1, h-1)
		for x := 0; x < hw; x++ {
			x0, x1 := min(2*x, w-1), min(2*x+1, w-1)
			for k := 0; k < 4; k++ {
				s := int(pix[(y0*w+x0)*4+k]) + int(pix[(y0*w+x1)*4+k]) + int(pix[(y1*w+x0)*4+k]) + int(pix[(y1*w+x1)*4+k])
				out[(y*hw+x)*4+k] = byte((s + 2) / 4)
			}
		}
	}
	return out, hw, hh
}

func TestMipmaps(t *testing.T) {
	for _, tc := range []struct {
		file   string
		levels [][2]int
	}{
		{"rgba8.png", [][2]int{{18, 11}, {9, 5}, {4, 2}, {2, 1}, {1, 1}}},
		{"yuv420.jpg", [][2]int{{18, 11}, {9, 5}, {4, 2}, {2, 1}, {1, 1}}},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		levels := Mipmaps(m)
		if len(levels) != len(tc.levels) {
			t.Fatalf("%s: %d levels, want %d", tc.file, len(levels), len(tc.levels))
		}
		pix, w, h := append([]byte(nil), m.Pix...), m.Width, m.Height
		for i, l := range levels {
			pix, w, h = mipRef(pix, w, h)
			if l.Width != tc.levels[i][0] || l.Height != tc.levels[i][1] || w != l.Width || h != l.Height {
				t.Errorf("%s level %d: %dx%d, want %v", tc.file, i+1, l.Width, l.Height, tc.levels[i])
				continue
			}
			if string(l.Pix) != string(pix) {
				t.Errorf("%s level %d: pixels differ from the Go reference", tc.file, i+1)
			}
			l.Free()
		}
		m.Free()
	}
}

// FuzzDecode feeds damaged PNGs and JPEGs to the C decoders: any input
// gives an image of the size it claims or an error, never a crash. A PNG
// is decoded a second time with its chunk CRCs made right, so that
// mutations get past the CRC check into the fast path's decoding.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"rgba8.png", "palette_trns.png", "rgba16.png", "interlaced.png", "yuv420.jpg", "progressive.jpg", "gray.jpg",
		"gen_rgb8.png", "gen_rgb8_split.png", "gen_gray4_trns.png", "gen_palette2_trns.png", "gen_gray_alpha8.png", "rgb8_420.avif"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(data []byte) {
			m, err := Decode(data)
			if err != nil {
				return
			}
			defer m.Free()
			if m.Width <= 0 || m.Height <= 0 || m.Width > MaxSide || m.Height > MaxSide || len(m.Pix) != 4*m.Width*m.Height {
				t.Fatalf("%dx%d with %d bytes", m.Width, m.Height, len(m.Pix))
			}
			for _, l := range Mipmaps(m) {
				l.Free()
			}
		}
		check(data)
		if fixed := fixCRCs(data); fixed != nil {
			check(fixed)
		}
		// The reduced decoders (previews) on the same hostile bytes.
		for _, d := range [][]byte{data, fixCRCs(data)} {
			if d == nil {
				continue
			}
			if m, err := DecodeReduced(d, 3); err == nil {
				// A JPEG is reduced an eighth at most, so only a PNG's
				// preview is bound to the side.
				png := bytes.HasPrefix(d, pngMagic)
				if m.Width <= 0 || m.Height <= 0 || png && (m.Width > 3 || m.Height > 3) || len(m.Pix) != 4*m.Width*m.Height {
					t.Fatalf("reduced to %dx%d with %d bytes", m.Width, m.Height, len(m.Pix))
				}
				m.Free()
			}
		}
	})
}

// fixCRCs returns a copy of a PNG with the CRC of every whole chunk
// recomputed, or nil when data is not a PNG.
func fixCRCs(data []byte) []byte {
	if !bytes.HasPrefix(data, pngMagic) {
		return nil
	}
	out := bytes.Clone(data)
	for p := 8; p+12 <= len(out); {
		n := int(binary.BigEndian.Uint32(out[p:]))
		if n < 0 || n > len(out)-p-12 {
			break
		}
		binary.BigEndian.PutUint32(out[p+8+n:], crc32.ChecksumIEEE(out[p+4:p+8+n]))
		p += 12 + n
	}
	return out
}

// FuzzFastPNG builds valid PNGs around fuzzed header fields, palette,
// tRNS and image data (with its filter bytes), so that every input
// reaches the unfiltering and expansion of the fast path, and checks that
// it decodes to the same bytes as libspng, or fails where libspng does.
func FuzzFastPNG(f *testing.F) {
	f.Add(uint16(5), uint16(4), byte(8), byte(2), []byte{}, []byte{}, []byte("\x04\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Add(uint16(3), uint16(3), byte(8), byte(6), []byte{}, []byte{}, []byte("\x03\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10"))
	f.Add(uint16(7), uint16(2), byte(2), byte(3), []byte("\x10\x20\x30\x40\x50\x60\x70\x80\x90"), []byte{1, 200}, []byte("\x01\x1b\xe4\x02\x04\xff\x00"))
	f.Add(uint16(9), uint16(2), byte(1), byte(0), []byte{}, []byte{0, 1}, []byte("\x00\xa5\x80\x04\x5a\x00"))
	f.Fuzz(func(t *testing.T, w, h uint16, depth, ctype byte, plte, trns, filtered []byte) {
		if w == 0 || h == 0 || int(w)*int(h) > 1<<14 || depth > 16 {
			return
		}
		file := append([]byte(nil), pngMagic...)
		file = append(file, ihdr(uint32(w), uint32(h), depth, ctype, 0)...)
		if len(plte) > 0 {
			file = append(file, chunk("PLTE", plte)...)
		}
		if len(trns) > 0 {
			file = append(file, chunk("tRNS", trns)...)
		}
		// The rows as given, repeated to the size the header asks for:
		// most inputs then decode, which is where the work is.
		if bits := int(depth) * channels[ctype]; bits > 0 && len(filtered) > 0 {
			want := int(h) * (1 + (int(w)*bits+7)/8)
			for len(filtered) < want {
				filtered = append(filtered, filtered...)
			}
			filtered = filtered[:want]
		}
		file = append(file, chunk("IDAT", deflate(filtered))...)
		file = append(file, chunk("IEND", nil)...)
		got, gerr := decodePNGFast(file)
		want, werr := decodeSPNG(file)
		defer got.Free()
		defer want.Free()
		// The preview made as the rows come: never a crash, and where the
		// whole image decodes, its block averages.
		var s Scratch
		defer s.Free()
		for _, side := range []int{1, 3, 7} {
			m, err := s.DecodeReduced(file, side)
			if gerr != nil || err != nil {
				m.Free()
				continue
			}
			f := 1 << ReducedShift(got.Width, got.Height, side)
			if !bytes.Equal(m.Pix, blockAverages(got, f)) {
				t.Fatalf("%dx%d reduced to side %d: not the block averages", got.Width, got.Height, side)
			}
			m.Free()
		}
		if gerr != nil {
			return // an error or left to libspng: libspng may accept more
		}
		if werr != nil {
			t.Fatalf("fast path decoded what libspng refuses (%v)", werr)
		}
		if got.Width != want.Width || got.Height != want.Height || !bytes.Equal(got.Pix, want.Pix) {
			t.Fatalf("%dx%d, libspng %dx%d; pixels equal: %v", got.Width, got.Height, want.Width, want.Height, bytes.Equal(got.Pix, want.Pix))
		}
	})
}

func BenchmarkMipmaps(b *testing.B) {
	data, err := os.ReadFile(testcorpus.File(b, "gltf-sample-assets/Models/DamagedHelmet/glTF/Default_albedo.jpg"))
	if err != nil {
		b.Fatal(err)
	}
	m, err := Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	defer m.Free()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, l := range Mipmaps(m) {
			l.Free()
		}
	}
}

// TestDecodeReduced decodes a smooth JPEG reduced and compares it with the
// full decode averaged over the same blocks: libjpeg-turbo's scaled
// inverse DCT gives the block averages within a few levels.
func TestDecodeReduced(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 200, 120))
	for y := 0; y < 120; y++ {
		for x := 0; x < 200; x++ {
			src.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(2 * y), uint8(x + y), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, src, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	full, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	defer full.Free()
	for _, c := range []struct {
		side, w, h, denom int
	}{
		{150, 100, 60, 2},
		{64, 50, 30, 4},
		{10, 25, 15, 8}, // an eighth is the least
	} {
		m, err := DecodeReduced(buf.Bytes(), c.side)
		if err != nil {
			t.Fatalf("side %d: %v", c.side, err)
		}
		if m.Width != c.w || m.Height != c.h {
			t.Errorf("side %d: %dx%d, want %dx%d", c.side, m.Width, m.Height, c.w, c.h)
			m.Free()
			continue
		}
		worst := 0
		for y := 0; y < c.h; y++ {
			for x := 0; x < c.w; x++ {
				for k := 0; k < 3; k++ {
					sum := 0
					for dy := 0; dy < c.denom; dy++ {
						for dx := 0; dx < c.denom; dx++ {
							sum += int(full.Pix[((y*c.denom+dy)*200+x*c.denom+dx)*4+k])
						}
					}
					avg := sum / (c.denom * c.denom)
					worst = max(worst, abs(avg-int(m.Pix[(y*c.w+x)*4+k])))
				}
				if a := m.Pix[(y*c.w+x)*4+3]; a != 255 {
					t.Fatalf("side %d: alpha %d at %d,%d", c.side, a, x, y)
				}
			}
		}
		if worst > 6 {
			t.Errorf("side %d: a pixel differs from its block's average by %d levels", c.side, worst)
		}
		m.Free()
	}
	avif, err := os.ReadFile("testdata/rgb8_420.avif")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		data []byte
		side int
	}{"avif": {avif, 1}, "small enough": {buf.Bytes(), 200}, "no side": {buf.Bytes(), 0}} {
		if m, err := DecodeReduced(c.data, c.side); err != ErrNotReduced {
			t.Errorf("%s: %v, %v; want ErrNotReduced", name, m, err)
		}
	}
}
