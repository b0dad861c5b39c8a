package ktx2

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"physview/internal/testcorpus"
)

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readPNG returns a testdata PNG as RGBA bytes.
func readPNG(t testing.TB, name string) *image.NRGBA {
	t.Helper()
	m, err := png.Decode(bytes.NewReader(readFile(t, name)))
	if err != nil {
		t.Fatal(err)
	}
	n := image.NewNRGBA(m.Bounds())
	draw.Draw(n, n.Bounds(), m, m.Bounds().Min, draw.Src)
	return n
}

// psnr compares the channels chans (0..3) of two RGBA pixel arrays.
func psnr(a, b []byte, chans ...int) float64 {
	var se float64
	n := 0
	for i := 0; i < len(a); i += 4 {
		for _, c := range chans {
			d := float64(a[i+c]) - float64(b[i+c])
			se += d * d
			n++
		}
	}
	if se == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(se/float64(n)))
}

// TestHeaders checks the container fields of each fixture against how
// testdata/gen.go made it.
func TestHeaders(t *testing.T) {
	cases := []struct {
		file                 string
		format               string
		w, h, levels, scheme int
		model, transfer      uint8
		channels             []uint8
		srgb                 bool
	}{
		// UASTC channel ids: RGB 0, RGBA 3; ETC1S: RGB 0, AAA 15.
		{"uastc_rgba.ktx2", "UASTC", 32, 32, 1, SchemeNone, ModelUASTC, 2, []uint8{3}, true},
		{"uastc_zstd_mips.ktx2", "UASTC", 32, 32, 6, SchemeZstd, ModelUASTC, 2, []uint8{3}, true},
		{"uastc_zstd_rgb.ktx2", "UASTC", 30, 20, 1, SchemeZstd, ModelUASTC, 1, []uint8{0}, false},
		{"etc1s_rgba.ktx2", "ETC1S", 32, 32, 1, SchemeBasisLZ, ModelETC1S, 2, []uint8{0, 15}, true},
		{"etc1s_mips.ktx2", "ETC1S", 30, 20, 5, SchemeBasisLZ, ModelETC1S, 2, []uint8{0}, true},
		{"etc1s_gray.ktx2", "ETC1S", 32, 32, 1, SchemeBasisLZ, ModelETC1S, 2, []uint8{0}, true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			f, err := Parse(readFile(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			h := f.Header
			got := []int{int(h.VkFormat), int(h.PixelWidth), int(h.PixelHeight), int(h.PixelDepth), int(h.LayerCount), int(h.FaceCount), len(f.Levels), int(h.SupercompressionScheme)}
			want := []int{0, c.w, c.h, 0, 0, 1, c.levels, c.scheme}
			if !equal(got, want) {
				t.Errorf("vkFormat, size, depth, layers, faces, levels, scheme = %v, want %v", got, want)
			}
			if f.Format() != c.format || f.DFD.ColorModel != c.model || f.DFD.TransferFunction != c.transfer || !bytes.Equal(f.DFD.Channels, c.channels) || f.SRGB() != c.srgb {
				t.Errorf("format %s model %d transfer %d channels %v srgb %v, want %s %d %d %v %v",
					f.Format(), f.DFD.ColorModel, f.DFD.TransferFunction, f.DFD.Channels, f.SRGB(), c.format, c.model, c.transfer, c.channels, c.srgb)
			}
			if f.DFD.TexelBlockDimension != [4]uint8{3, 3, 0, 0} {
				t.Errorf("block dimension %v, want 4x4 (3, 3, 0, 0)", f.DFD.TexelBlockDimension)
			}
			if w := string(f.KeyValues["KTXwriter"]); !strings.HasPrefix(w, "Basis Universal") {
				t.Errorf("KTXwriter %q", w)
			}
			for l := range f.Levels {
				w, h := f.LevelSize(l)
				if w != max(c.w>>l, 1) || h != max(c.h>>l, 1) {
					t.Errorf("level %d is %dx%d", l, w, h)
				}
			}
		})
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDecodeAgainstSource: the base level is the source PNG within the
// error each codec is known for: UASTC (ASTC 4x4 at 8 bits a texel) is
// above 44 dB on smooth opaque content, lower with alpha, where its RGBA
// modes have 2-bit weights on two planes; ETC1S (one base colour and four
// grey offsets a block) is 25-30 dB on these hard-edged, colourful tests.
func TestDecodeAgainstSource(t *testing.T) {
	cases := []struct {
		file, src    string
		minRGB, minA float64
	}{
		{"uastc_rgba.ktx2", "rgba.png", 36, 33},
		{"uastc_zstd_mips.ktx2", "rgba.png", 36, 33},
		{"uastc_zstd_rgb.ktx2", "rgb.png", 45, math.Inf(1)},
		{"etc1s_rgba.ktx2", "rgba.png", 28, 33},
		{"etc1s_mips.ktx2", "rgb.png", 24, math.Inf(1)},
		{"etc1s_gray.ktx2", "gray.png", 27, math.Inf(1)},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			tex, err := Decode(readFile(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			src := readPNG(t, c.src)
			l := tex.Levels[0]
			if l.Width != src.Rect.Dx() || l.Height != src.Rect.Dy() || len(l.Pix) != len(src.Pix) {
				t.Fatalf("decoded %dx%d (%d bytes), source %v", l.Width, l.Height, len(l.Pix), src.Rect)
			}
			rgb, a := psnr(l.Pix, src.Pix, 0, 1, 2), psnr(l.Pix, src.Pix, 3)
			t.Logf("PSNR RGB %.2f dB, alpha %.2f dB", rgb, a)
			if rgb < c.minRGB || a < c.minA {
				t.Errorf("PSNR RGB %.2f dB, alpha %.2f dB; want at least %g and %g", rgb, a, c.minRGB, c.minA)
			}
		})
	}
}

// TestETC1SExact: every level's colours equal the Basis Universal
// encoder's own ETC1 unpacking of the same file, byte for byte (colour and
// grey endpoint codebooks, an alpha slice, mip levels).
func TestETC1SExact(t *testing.T) {
	for _, name := range []string{"etc1s_rgba", "etc1s_mips", "etc1s_gray"} {
		tex, err := Decode(readFile(t, name+".ktx2"))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range tex.Levels {
			ref := readPNG(t, name+"_etc1_"+string(rune('0'+i))+".png")
			if l.Width != ref.Rect.Dx() || l.Height != ref.Rect.Dy() {
				t.Fatalf("%s level %d: %dx%d, reference %v", name, i, l.Width, l.Height, ref.Rect)
			}
			if p := psnr(l.Pix, ref.Pix, 0, 1, 2); !math.IsInf(p, 1) {
				t.Errorf("%s level %d differs from the encoder's decode: PSNR %.2f dB", name, i, p)
			}
		}
	}
}

// TestUASTCAgainstBC7: the UASTC decode is within rounding of the
// encoder's own transcoding of the file to BC7 (mean square error under 2,
// where a wrong mode, pattern or endpoint order is off by tens).
func TestUASTCAgainstBC7(t *testing.T) {
	tex, err := Decode(readFile(t, "uastc_rgba.ktx2"))
	if err != nil {
		t.Fatal(err)
	}
	ref := readPNG(t, "uastc_rgba_bc7.png")
	if p := psnr(tex.Levels[0].Pix, ref.Pix, 0, 1, 2, 3); p < 45 {
		t.Errorf("PSNR %.2f dB against the BC7 transcoding, want at least 45", p)
	}
}

// TestMipLevels: the levels of a mipmapped UASTC file have the sizes of
// the chain and follow a 2x2 box reduction of the source (the encoder
// filters with a Kaiser window in linear light, so only loosely; random
// or misplaced blocks are under 12 dB).
func TestMipLevels(t *testing.T) {
	tex, err := Decode(readFile(t, "uastc_zstd_mips.ktx2"))
	if err != nil {
		t.Fatal(err)
	}
	src := readPNG(t, "rgba.png")
	cur, w, h := src.Pix, 32, 32
	for i, l := range tex.Levels[1:] {
		next := make([]byte, 4*(w/2)*(h/2))
		for y := 0; y < h/2; y++ {
			for x := 0; x < w/2; x++ {
				for c := 0; c < 4; c++ {
					s := 0
					for _, o := range []int{0, 4, 4 * w, 4*w + 4} {
						s += int(cur[4*(2*y*w+2*x)+c+o])
					}
					next[4*(y*w/2+x)+c] = uint8((s + 2) / 4)
				}
			}
		}
		cur, w, h = next, w/2, h/2
		if l.Width != w || l.Height != h {
			t.Fatalf("level %d is %dx%d, want %dx%d", i+1, l.Width, l.Height, w, h)
		}
		if w >= 4 {
			if p := psnr(l.Pix, cur, 0, 1, 2, 3); p < 16 {
				t.Errorf("level %d: PSNR %.2f dB against a box-filtered source, want at least 16", i+1, p)
			}
		}
	}
}

// plainKTX2 writes a KTX 2.0 file of one w x h level of an uncompressed
// format, supercompressed with scheme (none, Zstandard or zlib).
func plainKTX2(t testing.TB, vk uint32, w, h int, data []byte, scheme uint32, transfer uint8) []byte {
	return plainKTX2KV(t, vk, w, h, data, scheme, transfer, nil)
}

// plainKTX2KV is plainKTX2 with key/value pairs (values written with a
// terminating NUL).
func plainKTX2KV(t testing.TB, vk uint32, w, h int, data []byte, scheme uint32, transfer uint8, kv [][2]string) []byte {
	t.Helper()
	var kvd []byte
	for _, p := range kv {
		e := p[0] + "\x00" + p[1] + "\x00"
		kvd = binary.LittleEndian.AppendUint32(kvd, uint32(len(e)))
		kvd = append(kvd, e...)
		for len(kvd)%4 != 0 {
			kvd = append(kvd, 0)
		}
	}
	level := data
	switch scheme {
	case SchemeZstd:
		e, err := zstd.NewWriter(nil)
		if err != nil {
			t.Fatal(err)
		}
		level = e.EncodeAll(data, nil)
	case SchemeZlib:
		var b bytes.Buffer
		z := zlib.NewWriter(&b)
		z.Write(data)
		z.Close()
		level = b.Bytes()
	}
	le := binary.LittleEndian
	dfd := make([]byte, 4+24+16)
	le.PutUint32(dfd, uint32(len(dfd)))
	le.PutUint16(dfd[4+6:], 24+16)
	dfd[4+8], dfd[4+9], dfd[4+10] = ModelRGBSDA, 1, transfer
	hd := make([]byte, 80+24)
	copy(hd, Magic)
	for i, v := range []uint32{vk, 1, uint32(w), uint32(h), 0, 0, 1, 1, scheme, uint32(len(hd)), uint32(len(dfd)), uint32(len(hd) + len(dfd)), uint32(len(kvd))} {
		le.PutUint32(hd[12+4*i:], v)
	}
	le.PutUint64(hd[80:], uint64(len(hd)+len(dfd)+len(kvd)))
	le.PutUint64(hd[88:], uint64(len(level)))
	le.PutUint64(hd[96:], uint64(len(data)))
	return append(append(append(hd, dfd...), kvd...), level...)
}

// TestPlainFormats: uncompressed 8-bit formats, raw and supercompressed,
// widen to RGBA as a GL sampler reads them.
func TestPlainFormats(t *testing.T) {
	src := []byte{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 220, 230, 240}
	cases := []struct {
		vk     uint32
		bpp    int
		name   string
		scheme uint32
		want   func(p []byte) [4]byte
	}{
		{vkRGBA8SRGB, 4, "R8G8B8A8_SRGB", SchemeNone, func(p []byte) [4]byte { return [4]byte{p[0], p[1], p[2], p[3]} }},
		{vkRGBA8Unor, 4, "R8G8B8A8_UNORM", SchemeZstd, func(p []byte) [4]byte { return [4]byte{p[0], p[1], p[2], p[3]} }},
		{vkRGB8SRGB, 3, "R8G8B8_SRGB", SchemeZlib, func(p []byte) [4]byte { return [4]byte{p[0], p[1], p[2], 255} }},
		{vkR8G8Unorm, 2, "R8G8_UNORM", SchemeNone, func(p []byte) [4]byte { return [4]byte{p[0], p[1], 0, 255} }},
		{vkR8Unorm, 1, "R8_UNORM", SchemeZstd, func(p []byte) [4]byte { return [4]byte{p[0], 0, 0, 255} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, h := 3, 2
			data := src[:w*h*c.bpp]
			tex, err := Decode(plainKTX2(t, c.vk, w, h, data, c.scheme, 2))
			if err != nil {
				t.Fatal(err)
			}
			if tex.Format != c.name || !tex.SRGB || len(tex.Levels) != 1 {
				t.Fatalf("format %s srgb %v levels %d", tex.Format, tex.SRGB, len(tex.Levels))
			}
			for i := 0; i < w*h; i++ {
				if got, want := [4]byte(tex.Levels[0].Pix[4*i:]), c.want(data[c.bpp*i:]); got != want {
					t.Errorf("pixel %d = %v, want %v", i, got, want)
				}
			}
		})
	}
}

// TestOrientation: rows of a file whose KTXorientation goes up ("ru")
// come out top first; "rd" (the default) as stored.
func TestOrientation(t *testing.T) {
	rows := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12} // 1x3 RGBA
	for _, c := range []struct {
		orientation string
		first       byte
	}{{"rd", 1}, {"ru", 9}} {
		f, err := Parse(plainKTX2KV(t, vkRGBA8Unor, 1, 3, rows, SchemeNone, 1, [][2]string{{"KTXwriter", "test"}, {"KTXorientation", c.orientation}}))
		if err != nil {
			t.Fatal(err)
		}
		if string(f.KeyValues["KTXorientation"]) != c.orientation || string(f.KeyValues["KTXwriter"]) != "test" {
			t.Fatalf("key/values %q", f.KeyValues)
		}
		l, err := f.DecodeLevel(0)
		if err != nil {
			t.Fatal(err)
		}
		if l.Pix[0] != c.first || l.Pix[4] != 5 || l.Pix[8] != 10-c.first {
			t.Errorf("%s: rows start %d, %d, %d", c.orientation, l.Pix[0], l.Pix[4], l.Pix[8])
		}
	}
}

// TestBadFiles: broken files give an error saying what is wrong.
func TestBadFiles(t *testing.T) {
	uastc := readFile(t, "uastc_rgba.ktx2")
	etc1s := readFile(t, "etc1s_rgba.ktx2")
	zstdMips := readFile(t, "uastc_zstd_mips.ktx2")
	edit := func(b []byte, f func([]byte)) []byte {
		c := append([]byte(nil), b...)
		f(c)
		return c
	}
	le := binary.LittleEndian
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"not KTX2", []byte("\x89PNG\r\n\x1a\n...."), "not a KTX 2.0 file"},
		{"header cut", uastc[:60], "shorter than the 80-byte header"},
		{"zero width", edit(uastc, func(b []byte) { le.PutUint32(b[20:], 0) }), "only 2D textures"},
		{"huge", edit(uastc, func(b []byte) { le.PutUint32(b[20:], 1<<20) }), "larger than"},
		{"3D", edit(uastc, func(b []byte) { le.PutUint32(b[28:], 4) }), "3D texture"},
		{"too many levels", edit(uastc, func(b []byte) { le.PutUint32(b[40:], 9) }), "levelCount 9"},
		{"level past end", uastc[:len(uastc)-1], "reaches past the end of the file"},
		{"scheme", edit(uastc, func(b []byte) { le.PutUint32(b[44:], 9) }), "supercompression scheme 9"},
		{"DFD size", edit(uastc, func(b []byte) { le.PutUint32(b[le.Uint32(b[48:]):], 7) }), "dfdTotalSize"},
		{"colour model", edit(uastc, func(b []byte) { b[le.Uint32(b[48:])+4+8] = 99 }), "colour model 99"},
		{"UASTC BasisLZ", edit(uastc, func(b []byte) { le.PutUint32(b[44:], SchemeBasisLZ) }), "only ETC1S"},
		{"ETC1S raw", edit(etc1s, func(b []byte) { le.PutUint32(b[44:], SchemeNone) }), "must be BasisLZ"},
		{"uncompressed length", edit(zstdMips, func(b []byte) { le.PutUint64(b[80+16:], 99) }), "uncompressedByteLength is 99"},
		{"inflates too much", edit(zstdMips, func(b []byte) {
			// 16 layers of 16384x16384 UASTC: 4 GiB in level 0.
			le.PutUint32(b[20:], 16384)
			le.PutUint32(b[24:], 16384)
			le.PutUint32(b[32:], 16)
			le.PutUint64(b[80+16:], 4096*4096*16*16)
		}), "more than the"},
		{"zstd data", edit(zstdMips, func(b []byte) { o := le.Uint64(b[80:]); copy(b[o:], "garbage!") }), "inflating"},
		{"UASTC reserved mode", edit(uastc, func(b []byte) { b[le.Uint64(b[80:])] = 0x45 }), "reserved mode"},
		{"global data size", edit(etc1s, func(b []byte) { le.PutUint32(b[le.Uint64(b[64:])+4:], 1) }), "BasisLZ global data"},
		{"ETC1S slice", edit(etc1s, func(b []byte) { le.PutUint32(b[le.Uint64(b[64:])+20+8:], 1<<20) }), "does not lie in the level"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.data)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestCorpus decodes every .ktx2 file of the shared corpus and reports the
// counts by format.
func TestCorpus(t *testing.T) {
	files := testcorpus.Models(t, ".ktx2")
	if len(files) == 0 {
		t.Skip("no .ktx2 files in the corpus")
	}
	counts := map[string]int{}
	failed := 0
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), rel))
		if err != nil {
			t.Fatal(err)
		}
		tex, err := Decode(data)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			failed++
			continue
		}
		counts[tex.Format]++
		l := tex.Levels[0]
		if l.Width != tex.Width || l.Height != tex.Height || len(l.Pix) != 4*l.Width*l.Height {
			t.Errorf("%s: base level %dx%d, %d bytes", rel, l.Width, l.Height, len(l.Pix))
		}
		if last := tex.Levels[len(tex.Levels)-1]; len(tex.Levels) > 1 && (last.Width != max(tex.Width>>(len(tex.Levels)-1), 1)) {
			t.Errorf("%s: last level is %dx%d", rel, last.Width, last.Height)
		}
	}
	t.Logf("%d .ktx2 files: %d decoded (%v), %d failed", len(files), len(files)-failed, counts, failed)
}

// FuzzDecode: no input makes the decoder panic or hang; the seeds are the
// fixtures.
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"uastc_rgba.ktx2", "uastc_zstd_mips.ktx2", "uastc_zstd_rgb.ktx2", "etc1s_rgba.ktx2", "etc1s_mips.ktx2", "etc1s_gray.ktx2", "uastc_modes.ktx2"} {
		f.Add(readFile(f, name))
	}
	f.Add(plainKTX2(f, vkRGBA8SRGB, 2, 2, make([]byte, 16), SchemeZstd, 2))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		// Keep the images small: a tiny BasisLZ file may describe a large
		// image in a few run-length codes.
		if p.Header.PixelWidth*p.Header.PixelHeight > 1<<16 {
			return
		}
		tex, err := Decode(data)
		if err != nil {
			return
		}
		for i, l := range tex.Levels {
			if len(l.Pix) != 4*l.Width*l.Height {
				t.Fatalf("level %d: %dx%d with %d bytes", i, l.Width, l.Height, len(l.Pix))
			}
		}
	})
}

// uastcModeErrors decodes the base level of a UASTC file block by block
// and returns, per mode, the number of blocks and their mean square error
// against ref (RGBA, the level's size).
func uastcModeErrors(t *testing.T, data []byte, ref []byte) (count [19]int, mse [19]float64) {
	t.Helper()
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	w, h := f.LevelSize(0)
	if len(ref) != 4*w*h {
		t.Fatalf("reference has %d bytes for %dx%d", len(ref), w, h)
	}
	bw, bh := (w+3)/4, (h+3)/4
	d, err := f.levelBytes(0, uint64(bw*bh*16)*f.images())
	if err != nil {
		t.Fatal(err)
	}
	var px [64]byte
	for b := 0; b < bw*bh; b++ {
		mode := modeOf[d[16*b]&127]
		if err := uastcBlock(d[16*b:16*b+16], &px); err != nil {
			t.Fatal(err)
		}
		bx, by := b%bw, b/bw
		var se float64
		for i := 0; i < 16; i++ {
			x, y := 4*bx+i%4, 4*by+i/4
			if x >= w || y >= h {
				continue
			}
			for c := 0; c < 4; c++ {
				e := float64(px[4*i+c]) - float64(ref[4*(y*w+x)+c])
				se += e * e
			}
		}
		count[mode]++
		mse[mode] += se / 64
	}
	for m := range mse {
		if count[m] > 0 {
			mse[m] /= float64(count[m])
		}
	}
	return count, mse
}

// TestUASTCModes: a fixture made to use the UASTC modes 0 to 17 (the
// encoder picks mode 18 only in files of older versions) decodes, mode by
// mode, within rounding of the encoder's own BC7 transcoding; a wrong
// partition table, endpoint order or weight layout in a mode puts that
// mode's error in the hundreds.
func TestUASTCModes(t *testing.T) {
	count, mse := uastcModeErrors(t, readFile(t, "uastc_modes.ktx2"), readPNG(t, "uastc_modes_bc7.png").Pix)
	for m := 0; m < 18; m++ {
		t.Logf("mode %2d: %3d blocks, MSE %.2f against BC7", m, count[m], mse[m])
		if count[m] == 0 {
			t.Errorf("mode %d is not in the fixture", m)
		} else if mse[m] > 12 {
			t.Errorf("mode %d: mean square error %.2f against the BC7 transcoding, want at most 12", m, mse[m])
		}
	}
}

// TestUASTCModesCorpus: the lamp's glass base colour (UASTC, all 19 modes,
// mode 18 included) against its PNG twin of the same size in the corpus,
// mode by mode: the encoder's loss only.
func TestUASTCModesCorpus(t *testing.T) {
	const dir = "gltf-sample-assets/Models/StainedGlassLamp/"
	data, err := os.ReadFile(testcorpus.File(t, dir+"glTF-KTX-BasisU/StainedGlassLamp_glass_basecolor-alpha.ktx2"))
	if err != nil {
		t.Fatal(err)
	}
	pngData, err := os.ReadFile(testcorpus.File(t, dir+"glTF/StainedGlassLamp_glass_basecolor-alpha.png"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatal(err)
	}
	ref := image.NewNRGBA(m.Bounds())
	draw.Draw(ref, ref.Bounds(), m, m.Bounds().Min, draw.Src)
	count, mse := uastcModeErrors(t, data, ref.Pix)
	for m := range count {
		t.Logf("mode %2d: %6d blocks, MSE %.2f against the PNG", m, count[m], mse[m])
		if count[m] == 0 {
			t.Errorf("mode %d is not in the file", m)
		} else if mse[m] > 40 {
			t.Errorf("mode %d: mean square error %.2f against the PNG, want at most 40", m, mse[m])
		}
	}
}

// TestEndpoints4: interpolating four channels in 32-bit lanes gives what
// the scalar ASTC interpolation gives, for every pair of endpoint values
// and every weight.
func TestEndpoints4(t *testing.T) {
	for l := uint32(0); l < 256; l++ {
		for h := uint32(0); h < 256; h++ {
			e := newEndpoints4([4]uint32{l, h, 255 - l, 255 - h}, [4]uint32{h, l, 255 - h, 255 - l})
			for w := uint32(0); w <= 64; w++ {
				want := [4]uint8{interpolate(l, h, w), interpolate(h, l, w), interpolate(255-l, 255-h, w), interpolate(255-h, 255-l, w)}
				if got := e.at(w); got != want {
					t.Fatalf("endpoints %d, %d, weight %d: %v, want %v", l, h, w, got, want)
				}
			}
		}
	}
}
