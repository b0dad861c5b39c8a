package imgdec

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"physview/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the generated PNG fixtures in testdata")

// chunk returns a PNG chunk with its length and CRC.
func chunk(typ string, body []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	b = append(b, typ...)
	b = append(b, body...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
}

func ihdr(w, h uint32, depth, ctype, interlace byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, w)
	b = binary.BigEndian.AppendUint32(b, h)
	return chunk("IHDR", append(b, depth, ctype, 0, 0, interlace))
}

// filterRows applies filter type y%5 to row y of raw (rows of rowbytes
// bytes, bpp bytes a pixel rounded up), so that every fixture has all
// five types, and returns the rows each after its filter byte.
func filterRows(raw []byte, rowbytes, bpp int) []byte {
	var out []byte
	prev := make([]byte, rowbytes)
	for y := 0; y*rowbytes < len(raw); y++ {
		row := raw[y*rowbytes : (y+1)*rowbytes]
		f := byte(y % 5)
		out = append(out, f)
		for i := range row {
			var a, b, c int
			if i >= bpp {
				a, c = int(row[i-bpp]), int(prev[i-bpp])
			}
			b = int(prev[i])
			var p int
			switch f {
			case 1:
				p = a
			case 2:
				p = b
			case 3:
				p = (a + b) / 2
			case 4:
				pa, pb, pc := abs(b-c), abs(a-c), abs(a+b-2*c)
				switch {
				case pa <= pb && pa <= pc:
					p = a
				case pb <= pc:
					p = b
				default:
					p = c
				}
			}
			out = append(out, row[i]-byte(p))
		}
		prev = row
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func deflate(b []byte) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(b)
	zw.Close()
	return z.Bytes()
}

// fixture describes a generated PNG: its header, optional PLTE and tRNS,
// and how its image data is split over IDATs.
type fixture struct {
	name         string
	w, h         int
	depth, ctype byte
	plte         int    // palette entries
	trns         []byte // tRNS body
	idatSize     int    // bytes an IDAT, 0 for one
	text         bool   // add ancillary chunks to skip
}

// channels is the number of samples a pixel of each colour type.
var channels = map[byte]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}

// raw returns the unfiltered rows: a gradient with noise, samples within
// the bit depth and palette indices within the palette.
func (f fixture) raw() (data []byte, rowbytes, bpp int) {
	bits := int(f.depth) * channels[f.ctype]
	rowbytes = (f.w*bits + 7) / 8
	bpp = max(bits/8, 1)
	top := 1<<f.depth - 1
	if f.ctype == 3 {
		top = f.plte - 1
	}
	seed := uint32(len(f.name))
	for y := 0; y < f.h; y++ {
		row := make([]byte, rowbytes)
		for x := 0; x < f.w; x++ {
			for c := 0; c < channels[f.ctype]; c++ {
				seed = seed*1664525 + 1013904223
				v := (x*7+y*5+c*40)%(top+1) + int(seed>>28) - 8
				v = min(max(v, 0), top)
				if (x+y)%9 == 0 && f.trns != nil && f.ctype != 3 {
					// The colour key, so that tRNS matches some pixels.
					v = int(binary.BigEndian.Uint16(f.trns[2*c:]))
				}
				bit := (x*channels[f.ctype] + c) * int(f.depth)
				row[bit/8] |= byte(v << (8 - int(f.depth) - bit%8))
			}
		}
		data = append(data, row...)
	}
	return data, rowbytes, bpp
}

func (f fixture) encode() []byte {
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, ihdr(uint32(f.w), uint32(f.h), f.depth, f.ctype, 0)...)
	if f.text {
		out = append(out, chunk("gAMA", []byte{0, 0, 0xb1, 0x8f})...)
		out = append(out, chunk("tEXt", []byte("Comment\x00imgdec fixture"))...)
	}
	if f.plte > 0 {
		var p []byte
		for i := 0; i < f.plte; i++ {
			p = append(p, byte(i*37), byte(255-i*11), byte(i*i))
		}
		out = append(out, chunk("PLTE", p)...)
	}
	if f.trns != nil {
		out = append(out, chunk("tRNS", f.trns)...)
	}
	raw, rowbytes, bpp := f.raw()
	z := deflate(filterRows(raw, rowbytes, bpp))
	for n := f.idatSize; len(z) > 0; {
		if n == 0 || n > len(z) {
			n = len(z)
		}
		out = append(out, chunk("IDAT", z[:n])...)
		z = z[n:]
	}
	if f.text {
		out = append(out, chunk("tIME", []byte{7, 232, 1, 2, 3, 4, 5})...)
	}
	return append(out, chunk("IEND", nil)...)
}

// fixtures are the generated PNGs under testdata, 13x11 so that rows of
// 1, 2 and 4 bits end inside a byte and each filter type has two rows.
var fixtures = []fixture{
	{name: "gen_gray1.png", depth: 1, ctype: 0},
	{name: "gen_gray2.png", depth: 2, ctype: 0},
	{name: "gen_gray4.png", depth: 4, ctype: 0},
	{name: "gen_gray8.png", depth: 8, ctype: 0},
	{name: "gen_gray1_trns.png", depth: 1, ctype: 0, trns: []byte{0, 1}},
	{name: "gen_gray4_trns.png", depth: 4, ctype: 0, trns: []byte{0, 9}},
	{name: "gen_gray8_trns.png", depth: 8, ctype: 0, trns: []byte{0, 200}},
	{name: "gen_gray_alpha8.png", depth: 8, ctype: 4},
	{name: "gen_rgb8.png", depth: 8, ctype: 2},
	{name: "gen_rgb8_trns.png", depth: 8, ctype: 2, trns: []byte{0, 10, 0, 20, 0, 30}},
	{name: "gen_rgba8.png", depth: 8, ctype: 6},
	{name: "gen_palette1.png", depth: 1, ctype: 3, plte: 2},
	{name: "gen_palette2_trns.png", depth: 2, ctype: 3, plte: 3, trns: []byte{0, 128}},
	{name: "gen_palette4.png", depth: 4, ctype: 3, plte: 16},
	{name: "gen_palette8_trns.png", depth: 8, ctype: 3, plte: 200, trns: []byte{0, 10, 20, 30, 255, 128}},
	{name: "gen_rgb8_split.png", depth: 8, ctype: 2, idatSize: 50, text: true},
}

func init() {
	for i := range fixtures {
		fixtures[i].w, fixtures[i].h = 13, 11
	}
}

// TestFixtures checks that the generated fixtures are up to date (or
// rewrites them with -update) and use all five filter types.
func TestFixtures(t *testing.T) {
	for _, f := range fixtures {
		data := f.encode()
		path := filepath.Join("testdata", f.name)
		if *update {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -run TestFixtures -update writes it)", err)
		}
		if !bytes.Equal(old, data) {
			t.Errorf("%s is not what the generator writes; go test -run TestFixtures -update", f.name)
		}
	}
	// Go's encoder, for a 16-bit fixture the fast path leaves to libspng.
	g := image.NewGray16(image.Rect(0, 0, 13, 11))
	for i := range g.Pix {
		g.Pix[i] = byte(i * 13)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, g); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("testdata/gen_gray16.png", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// filterTypes returns how many rows of a non-interlaced PNG use each
// filter type (index 5 counts invalid ones).
func filterTypes(t *testing.T, data []byte) [6]int {
	t.Helper()
	var counts [6]int
	var z []byte
	var w, h, bits int
	for p := 8; p+12 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[p:]))
		body := data[p+8 : p+8+n]
		switch string(data[p+4 : p+8]) {
		case "IHDR":
			w, h = int(binary.BigEndian.Uint32(body)), int(binary.BigEndian.Uint32(body[4:]))
			bits = int(body[8]) * channels[body[9]]
		case "IDAT":
			z = append(z, body...)
		}
		p += 12 + n
	}
	r, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	raw.ReadFrom(r)
	stride := 1 + (w*bits+7)/8
	for y := 0; y < h; y++ {
		counts[min(int(raw.Bytes()[y*stride]), 5)]++
	}
	return counts
}

// pngFiles returns the PNGs under testdata and, when it is present, in the
// whole shared corpus.
func pngFiles(t *testing.T, corpus bool) []string {
	files, err := filepath.Glob("testdata/*.png")
	if err != nil {
		t.Fatal(err)
	}
	if !corpus {
		return files
	}
	dir := testcorpus.Dir(t)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".png") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// fallback are the testdata PNGs the fast path leaves to libspng.
var fallback = map[string]bool{"interlaced.png": true, "rgba16.png": true, "gray_alpha.png": true, "gen_gray16.png": true}

// TestFastPNGMatchesSPNG decodes every PNG of testdata and of the corpus
// with the fast path and with libspng: the pixels must be the same bytes,
// and a file one refuses the other must refuse too; each one the fast
// path reads, decoded reduced to 64 pixels a side (a preview), must be
// the rounded block averages of its whole decode.
func TestFastPNGMatchesSPNG(t *testing.T) {
	files := pngFiles(t, false)
	if !testing.Short() {
		if _, err := os.Stat(filepath.Join(testcorpus.Root(t), "..", "shared", "corpus", "MANIFEST.tsv")); err == nil {
			files = pngFiles(t, true)
		} else {
			t.Log("shared corpus absent: testdata only")
		}
	}
	fast := 0
	var scratch Scratch
	defer scratch.Free()
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		want, werr := decodeSPNG(data)
		got, gerr := decodePNGFast(data)
		switch {
		case errors.Is(gerr, errUnsupported):
			if strings.HasPrefix(path, "testdata") && !fallback[name] {
				t.Errorf("%s: fast path declined it", path)
			}
			if werr != nil {
				t.Errorf("%s: libspng: %v", path, werr)
			}
			t.Logf("%s: left to libspng", path)
			if m, err := Decode(data); err != nil {
				t.Errorf("%s: Decode of a fallback image: %v", path, err)
			} else {
				m.Free()
			}
		case werr != nil || gerr != nil:
			if (werr == nil) != (gerr == nil) {
				t.Errorf("%s: libspng says %v, fast path %v", path, werr, gerr)
			}
		default:
			fast++
			// The preview's decode of the same file (DecodeReduced):
			// the block averages of the whole image.
			if r, err := scratch.DecodeReduced(data, 64); err != nil {
				if err != ErrNotReduced || got.Width > 64 || got.Height > 64 {
					t.Errorf("%s: reduced to 64: %v", path, err)
				}
			} else {
				if !bytes.Equal(r.Pix, blockAverages(got, 1<<ReducedShift(got.Width, got.Height, 64))) {
					t.Errorf("%s: reduced to 64, the pixels are not the rounded averages of their blocks", path)
				}
				r.Free()
			}
			if got.Width != want.Width || got.Height != want.Height {
				t.Errorf("%s: %dx%d, libspng %dx%d", path, got.Width, got.Height, want.Width, want.Height)
			} else if i := firstDiff(got.Pix, want.Pix); i >= 0 {
				t.Errorf("%s: pixel %d is %v, libspng %v", path, i/4, got.Pix[i&^3:i&^3+4], want.Pix[i&^3:i&^3+4])
			}
			if fallback[name] {
				t.Errorf("%s: fast path decoded an image it should leave to libspng", path)
			}
		}
		got.Free()
		want.Free()
	}
	t.Logf("%d files, %d through the fast path", len(files), fast)
	if fast < len(fixtures) {
		t.Errorf("only %d files through the fast path", fast)
	}
}

func firstDiff(a, b []byte) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestFixturesUseAllFilters makes sure the fast path's five unfilter
// loops are each compared with libspng, for every pixel size.
func TestFixturesUseAllFilters(t *testing.T) {
	for _, f := range fixtures {
		data, err := os.ReadFile(filepath.Join("testdata", f.name))
		if err != nil {
			t.Fatal(err)
		}
		c := filterTypes(t, data)
		for i, n := range c[:5] {
			if n == 0 {
				t.Errorf("%s: no row with filter type %d (%v)", f.name, i, c)
			}
		}
	}
}

// TestFastPNGErrors checks that broken files are errors of the fast path,
// with the reason, and of Decode as a whole (after libspng and Go).
func TestFastPNGErrors(t *testing.T) {
	sig := []byte("\x89PNG\r\n\x1a\n")
	rgb := fixture{name: "x", w: 5, h: 4, depth: 8, ctype: 2}
	raw, rowbytes, bpp := rgb.raw()
	filtered := filterRows(raw, rowbytes, bpp)
	file := func(parts ...[]byte) []byte {
		return append(append([]byte(nil), sig...), bytes.Join(parts, nil)...)
	}
	good := file(ihdr(5, 4, 8, 2, 0), chunk("IDAT", deflate(filtered)), chunk("IEND", nil))
	if m, err := decodePNGFast(good); err != nil {
		t.Fatalf("the valid base file: %v", err)
	} else {
		m.Free()
	}
	badFilter := append([]byte(nil), filtered...)
	badFilter[2*(1+rowbytes)] = 5
	crc := append([]byte(nil), good...)
	crc[len(sig)+4+4+5]++ // a byte of IHDR's body
	z := deflate(filtered)
	palette := fixture{name: "p", w: 5, h: 4, depth: 8, ctype: 3, plte: 4}
	praw, prb, _ := palette.raw()
	praw[7] = 9 // past the 4 entries
	for _, tc := range []struct {
		name, want string
		data       []byte
		decodeErr  bool // whether Decode fails too (libspng or Go accept some)
	}{
		{"truncated IDAT", "truncated chunk", good[:len(good)-20], true},
		{"truncated zlib stream", "invalid zlib stream", file(ihdr(5, 4, 8, 2, 0), chunk("IDAT", z[:len(z)/2]), chunk("IEND", nil)), true},
		{"one row short", "wrong size", file(ihdr(5, 4, 8, 2, 0), chunk("IDAT", deflate(filtered[:3*(1+rowbytes)])), chunk("IEND", nil)), true},
		{"one byte long", "wrong size", file(ihdr(5, 4, 8, 2, 0), chunk("IDAT", deflate(append(filtered, 0))), chunk("IEND", nil)), false},
		{"zero width", "invalid IHDR", file(ihdr(0, 4, 8, 2, 0), chunk("IDAT", z), chunk("IEND", nil)), true},
		{"huge", "larger than the limit", file(ihdr(MaxSide+1, 4, 8, 2, 0), chunk("IDAT", z), chunk("IEND", nil)), true},
		{"width over 2^31", "invalid IHDR", file(ihdr(1<<31, 4, 8, 2, 0), chunk("IDAT", z), chunk("IEND", nil)), true},
		{"RGB of 4 bits", "invalid IHDR", file(ihdr(5, 4, 4, 2, 0), chunk("IDAT", z), chunk("IEND", nil)), true},
		{"IDAT first", "invalid IHDR", file(chunk("IDAT", z), ihdr(5, 4, 8, 2, 0), chunk("IEND", nil)), true},
		{"palette without PLTE", "PLTE", file(ihdr(5, 4, 8, 3, 0), chunk("IDAT", deflate(filterRows(praw, prb, 1))), chunk("IEND", nil)), true},
		{"palette index out of range", "palette index", file(ihdr(5, 4, 8, 3, 0), chunk("PLTE", make([]byte, 12)), chunk("IDAT", deflate(filterRows(praw, prb, 1))), chunk("IEND", nil)), false},
		{"bad filter byte", "invalid filter", file(ihdr(5, 4, 8, 2, 0), chunk("IDAT", deflate(badFilter)), chunk("IEND", nil)), true},
		{"bad CRC", "CRC", crc, true},
		{"no IEND", "truncated", good[:len(good)-12], false},
		{"no IDAT", "no IDAT", file(ihdr(5, 4, 8, 2, 0), chunk("IEND", nil)), true},
		{"tRNS on RGBA", "tRNS", file(ihdr(5, 4, 8, 6, 0), chunk("tRNS", make([]byte, 6)), chunk("IDAT", z), chunk("IEND", nil)), false},
		{"unknown critical chunk", "critical", file(ihdr(5, 4, 8, 2, 0), chunk("ABCD", nil), chunk("IDAT", z), chunk("IEND", nil)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := decodePNGFast(tc.data)
			if err == nil {
				m.Free()
				t.Fatal("fast path: no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("fast path: %q, want it to mention %q", err, tc.want)
			}
			m, err = Decode(tc.data)
			if !tc.decodeErr {
				m.Free()
				return
			}
			if err == nil {
				m.Free()
				t.Fatal("Decode: no error")
			}
			if !strings.Contains(err.Error(), "png") {
				t.Errorf("Decode: %q, want it to mention png", err)
			}
		})
	}
}

// lamp are the StainedGlassLamp's textures, the model PNG decoding costs
// the most in.
func lamp(b *testing.B) [][]byte {
	dir := filepath.Join(testcorpus.Dir(b), "gltf-sample-assets", "Models", "StainedGlassLamp", "glTF")
	files, err := filepath.Glob(filepath.Join(dir, "*.png"))
	if err != nil || len(files) == 0 {
		b.Skipf("no StainedGlassLamp PNGs in %s", dir)
	}
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// BenchmarkPNG decodes the lamp's 19 PNGs (one op is all of them) and a
// small testdata PNG with the fast path, libspng and Go's image/png.
func BenchmarkPNG(b *testing.B) {
	small, err := os.ReadFile("testdata/rgb8.png")
	if err != nil {
		b.Fatal(err)
	}
	decoders := []struct {
		name string
		dec  func([]byte) (*Image, error)
	}{
		{"fast", decodePNGFast},
		{"spng", decodeSPNG},
		{"go", DecodeStd},
	}
	for _, set := range []struct {
		name  string
		files func(b *testing.B) [][]byte
	}{
		{"lamp", lamp},
		{"rgb8", func(*testing.B) [][]byte { return [][]byte{small} }},
	} {
		for _, d := range decoders {
			b.Run(set.name+"/"+d.name, func(b *testing.B) {
				files := set.files(b)
				var n int64
				for _, f := range files {
					n += int64(len(f))
				}
				b.SetBytes(n)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, f := range files {
						m, err := d.dec(f)
						if err != nil {
							b.Fatal(err)
						}
						m.Free()
					}
				}
			})
		}
	}
}

// TestDecodeReducedPNG decodes every testdata PNG the fast path reads,
// and two large generated ones (blocks of more than 256 rows, whose sums
// are kept in two steps; one all white, the largest sums), reduced to
// several sides: each pixel must be exactly the rounded average of its
// block of the whole decode (blocks cut by the right and bottom edges
// averaging the pixels they have), one Scratch serving every image; the
// PNGs the fast path leaves to libspng return ErrNotReduced.
func TestDecodeReducedPNG(t *testing.T) {
	var s Scratch
	defer s.Free()
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	for _, path := range pngFiles(t, false) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{filepath.Base(path), data})
	}
	for _, white := range []bool{false, true} {
		m := image.NewNRGBA(image.Rect(0, 0, 700, 600))
		for i := range m.Pix {
			m.Pix[i] = byte(i*7 + i/2801)
			if white {
				m.Pix[i] = 255
			}
		}
		var b bytes.Buffer
		if err := png.Encode(&b, m); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{fmt.Sprintf("700x600 white %v", white), b.Bytes()})
	}
	for _, in := range inputs {
		name, data := in.name, in.data
		full, err := Decode(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, side := range []int{1, 2, 3, 5, 6, 8, 300} {
			m, err := s.DecodeReduced(data, side)
			if fallback[name] {
				if err != ErrNotReduced {
					t.Errorf("%s side %d: %v, want ErrNotReduced", name, side, err)
				}
				m.Free()
				continue
			}
			if full.Width <= side && full.Height <= side {
				if err != ErrNotReduced {
					t.Errorf("%s (%dx%d) side %d: %v, want ErrNotReduced", name, full.Width, full.Height, side, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s side %d: %v", name, side, err)
			}
			f := 1 << ReducedShift(full.Width, full.Height, side)
			w, h := (full.Width+f-1)/f, (full.Height+f-1)/f
			// The least reduction that fits: half of it would not.
			least := f == 1 || (full.Width+f/2-1)/(f/2) > side || (full.Height+f/2-1)/(f/2) > side
			if m.Width != w || m.Height != h || m.Width > side || m.Height > side || !least {
				t.Fatalf("%s (%dx%d) side %d: %dx%d, want %dx%d", name, full.Width, full.Height, side, m.Width, m.Height, w, h)
			}
			if !bytes.Equal(m.Pix, blockAverages(full, f)) {
				t.Errorf("%s side %d: the pixels are not the rounded averages of their blocks", name, side)
			}
			m.Free()
		}
		full.Free()
	}
	if s.size == 0 {
		t.Error("the scratch was never used")
	}
}

// blockAverages reduces m by f: each pixel the rounded average of its
// f x f block, over the pixels the block has at the right and bottom
// edges.
func blockAverages(m *Image, f int) []byte {
	w, h := (m.Width+f-1)/f, (m.Height+f-1)/f
	out := make([]byte, 4*w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var sum [4]int
			n := 0
			for yy := y * f; yy < min(m.Height, (y+1)*f); yy++ {
				for xx := x * f; xx < min(m.Width, (x+1)*f); xx++ {
					for k := range sum {
						sum[k] += int(m.Pix[(yy*m.Width+xx)*4+k])
					}
					n++
				}
			}
			for k := range sum {
				out[(y*w+x)*4+k] = byte((sum[k] + n/2) / n)
			}
		}
	}
	return out
}

// TestDecodeReducedLargeBlocks: an image reduced to a side of 1 to 3
// pixels has blocks of up to 8192 x 8192 pixels, whose sums pass 32 bits
// from 4105 x 4105 white pixels (x 255): each pixel must still be its block's average. A
// two-colour palette (1 bit a pixel) keeps the file and its rows small.
func TestDecodeReducedLargeBlocks(t *testing.T) {
	cases := []struct {
		w, h, side int
		want       []byte // the reduced pixels
	}{
		{4200, 4200, 1, []byte{255, 255, 255, 255}},
		{8200, 2100, 2, []byte{255, 255, 255, 255, 255, 255, 255, 255}},
	}
	for _, c := range cases {
		m := image.NewPaletted(image.Rect(0, 0, c.w, c.h), color.Palette{color.White, color.Black})
		var b bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, m); err != nil {
			t.Fatal(err)
		}
		got, err := DecodeReduced(b.Bytes(), c.side)
		if err != nil {
			t.Fatalf("%dx%d side %d: %v", c.w, c.h, c.side, err)
		}
		if !bytes.Equal(got.Pix, c.want) {
			t.Errorf("%dx%d side %d: %dx%d pixels %v, want %v", c.w, c.h, c.side, got.Width, got.Height, got.Pix, c.want)
		}
		got.Free()
	}
}

// TestDecodeReducedHostile decodes made-up and damaged PNGs reduced and
// with Go's image/png: where the preview decodes, Go's decode must too and
// the preview must be its block averages, byte for byte; where Go refuses
// a file, the preview must refuse it too (an error, never a crash, and
// within a second for a header declaring 16384x16384 pixels).
func TestDecodeReducedHostile(t *testing.T) {
	// rows is h rows of n bytes each after filter byte f, the bytes
	// counting up from seed.
	rows := func(h, n int, f byte, seed int) []byte {
		var b []byte
		for y := 0; y < h; y++ {
			b = append(b, f)
			for x := 0; x < n; x++ {
				b = append(b, byte(seed+x*37+y*11))
			}
		}
		return b
	}
	file := func(chunks ...[]byte) []byte {
		b := bytes.Clone(pngMagic)
		for _, c := range chunks {
			b = append(b, c...)
		}
		return b
	}
	testdata := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	iend := chunk("IEND", nil)
	rgba := deflate(rows(9, 4*13, 4, 1))
	badCRC := chunk("IDAT", rgba)
	badCRC[len(badCRC)-1] ^= 1
	plte := chunk("PLTE", []byte{255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9, 200, 100, 50})
	cases := []struct {
		name string
		data []byte
		side int
		want string // "ok", "not reduced" or "error"
	}{
		{"rgba 13x9", file(ihdr(13, 9, 8, 6, 0), chunk("IDAT", rgba), iend), 2, "ok"},
		{"interlaced", testdata("interlaced.png"), 2, "not reduced"},
		{"16-bit", testdata("rgba16.png"), 2, "not reduced"},
		{"palette 4-bit with tRNS", file(ihdr(9, 7, 4, 3, 0), plte, chunk("tRNS", []byte{0, 128, 255}), chunk("IDAT", deflate(func() []byte {
			b := rows(7, 5, 0, 0)
			for i := range b {
				if i%6 != 0 {
					b[i] = byte(i%5)<<4 | byte(i%4) // indices 0-4
				}
			}
			return b
		}())), iend), 2, "ok"},
		{"1x1", file(ihdr(1, 1, 8, 6, 0), chunk("IDAT", deflate(rows(1, 4, 0, 7))), iend), 1, "not reduced"},
		{"1x300 grey", file(ihdr(1, 300, 8, 0, 0), chunk("IDAT", deflate(rows(300, 1, 3, 9))), iend), 64, "ok"},
		{"300x1 rgb", file(ihdr(300, 1, 8, 2, 0), chunk("IDAT", deflate(rows(1, 900, 1, 2))), iend), 7, "ok"},
		{"IDATs split, one empty", file(ihdr(13, 9, 8, 6, 0), chunk("IDAT", rgba[:10]), chunk("IDAT", nil), chunk("IDAT", rgba[10:]), iend), 3, "ok"},
		{"16384x16384 with 10 bytes of data", file(ihdr(16384, 16384, 8, 6, 0), chunk("IDAT", deflate(make([]byte, 5))), iend), 512, "error"},
		{"16385 wide", file(ihdr(16385, 2, 8, 6, 0), chunk("IDAT", deflate(rows(2, 4*16385, 0, 1))), iend), 512, "error"},
		{"IDAT cut short", file(ihdr(13, 9, 8, 6, 0), chunk("IDAT", rgba[:len(rgba)/2]), iend), 2, "error"},
		{"IDAT bad CRC", file(ihdr(13, 9, 8, 6, 0), badCRC, iend), 2, "error"},
		{"no IEND", file(ihdr(13, 9, 8, 6, 0), chunk("IDAT", rgba)), 2, "error"},
		{"file cut in IDAT", file(ihdr(13, 9, 8, 6, 0), chunk("IDAT", rgba))[:60], 2, "error"},
		{"a row too many", file(ihdr(13, 9, 8, 6, 0), chunk("IDAT", deflate(rows(10, 4*13, 4, 1))), iend), 2, "error"},
		{"filter type 5", file(ihdr(13, 9, 8, 6, 0), chunk("IDAT", deflate(rows(9, 4*13, 5, 1))), iend), 2, "error"},
	}
	var s Scratch
	defer s.Free()
	for _, c := range cases {
		var std *Image
		serr := errors.New("not decoded")
		switch {
		case c.want != "error":
			if std, serr = DecodeStd(c.data); serr != nil {
				t.Fatalf("%s: image/png: %v", c.name, serr)
			}
		case strings.HasPrefix(c.name, "16384x16384"):
			// image/png allocates the whole image (1 GB) before it
			// reads the data.
		default:
			if _, err := DecodeStd(c.data); err == nil {
				t.Errorf("%s: image/png decodes it", c.name)
			}
		}
		start := time.Now()
		m, err := s.DecodeReduced(c.data, c.side)
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: %v", c.name, d)
		}
		got := "ok"
		switch {
		case err == ErrNotReduced:
			got = "not reduced"
		case err != nil:
			got = "error"
		}
		if got != c.want {
			t.Errorf("%s: %s (%v), want %s", c.name, got, err, c.want)
		}
		if err != nil {
			continue
		}
		if serr != nil {
			t.Errorf("%s: reduced to %dx%d, but image/png refuses it: %v", c.name, m.Width, m.Height, serr)
		} else if f := 1 << ReducedShift(std.Width, std.Height, c.side); !bytes.Equal(m.Pix, blockAverages(std, f)) {
			t.Errorf("%s: %dx%d, not image/png's %dx%d averaged over blocks of %d", c.name, m.Width, m.Height, std.Width, std.Height, f)
		}
		m.Free()
	}
}
