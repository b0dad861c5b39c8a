package ktx2

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// BasisLZ/ETC1S (KTX 2.0 appendices "BasisLZ Global Data" and
// "BasisLZ/ETC1S Bitstream Specification"): global endpoint and selector
// codebooks and four Huffman tables shared by every image, and per image
// an RGB slice and an optional second slice (alpha, or green of a
// two-channel texture), each a Huffman-coded grid of codebook references.

// etc1sEndpoint is a codebook colour: 5-bit base colour and intensity table.
type etc1sEndpoint struct {
	rgb   [3]uint8
	inten uint8
}

// imageDesc locates one image's slices within its level's data.
type imageDesc struct {
	flags                 uint32
	rgbOffset, rgbLength  uint32
	alphaOffset, alphaLen uint32
}

// basisLZ is the decoded global data.
type basisLZ struct {
	endpoints []etc1sEndpoint
	palettes  [][16]byte // each endpoint's four RGBA colours, selector order
	selectors [][4]uint8 // rows top first, 2 bits a texel, left texel lowest
	images    []imageDesc

	endpointPred, endpointDelta, selector, selectorRLE *huffman
	historySize                                        int
}

const isPFrame = 2

// etc1Inten is the ETC1 intensity modifier table; a selector value 0..3
// picks -b, -a, +a, +b.
var etc1Inten = [8][4]int{
	{-8, -2, 2, 8}, {-17, -5, 5, 17}, {-29, -9, 9, 29}, {-42, -13, 13, 42},
	{-60, -18, 18, 60}, {-80, -24, 24, 80}, {-106, -33, 33, 106}, {-183, -47, 47, 183},
}

// parseBasisLZ reads and decodes the supercompression global data.
func parseBasisLZ(f *File) (*basisLZ, error) {
	h := f.Header
	if h.SGDByteOffset > uint64(len(f.data)) || h.SGDByteLength > uint64(len(f.data))-h.SGDByteOffset {
		return nil, fmt.Errorf("ktx2: the BasisLZ global data (offset %d, %d bytes) reaches past the end of the file", h.SGDByteOffset, h.SGDByteLength)
	}
	d := f.data[h.SGDByteOffset : h.SGDByteOffset+h.SGDByteLength]
	if len(d) < 20 {
		return nil, fmt.Errorf("ktx2: the BasisLZ global data is %d bytes, shorter than its header", len(d))
	}
	le := binary.LittleEndian
	nEnd, nSel := int(le.Uint16(d)), int(le.Uint16(d[2:]))
	endLen, selLen, tabLen, extLen := uint64(le.Uint32(d[4:])), uint64(le.Uint32(d[8:])), uint64(le.Uint32(d[12:])), uint64(le.Uint32(d[16:]))
	// Images: every level, layer, face (2D: one z slice each).
	nImg := uint64(len(f.Levels)) * uint64(max(h.LayerCount, 1)) * uint64(h.FaceCount)
	if want := 20 + 20*nImg + endLen + selLen + tabLen + extLen; want != uint64(len(d)) {
		return nil, fmt.Errorf("ktx2: the BasisLZ global data is %d bytes, its header and %d image descriptions say %d", len(d), nImg, want)
	}
	if nEnd == 0 || nSel == 0 {
		return nil, fmt.Errorf("ktx2: BasisLZ has %d endpoints and %d selectors (both must be at least 1)", nEnd, nSel)
	}
	gd := &basisLZ{}
	o := 20
	for i := uint64(0); i < nImg; i++ {
		gd.images = append(gd.images, imageDesc{le.Uint32(d[o:]), le.Uint32(d[o+4:]), le.Uint32(d[o+8:]), le.Uint32(d[o+12:]), le.Uint32(d[o+16:])})
		o += 20
	}
	endData := d[o : o+int(endLen)]
	o += int(endLen)
	selData := d[o : o+int(selLen)]
	o += int(selLen)
	tabData := d[o : o+int(tabLen)]

	var err error
	if gd.endpoints, err = readEndpoints(endData, nEnd); err != nil {
		return nil, fmt.Errorf("ktx2: BasisLZ endpoint codebook: %w", err)
	}
	gd.palettes = make([][16]byte, nEnd)
	for i, e := range gd.endpoints {
		gd.palettes[i] = etc1sPalette(e)
	}
	if gd.selectors, err = readSelectors(selData, nSel); err != nil {
		return nil, fmt.Errorf("ktx2: BasisLZ selector codebook: %w", err)
	}
	if err = gd.readTables(tabData); err != nil {
		return nil, fmt.Errorf("ktx2: BasisLZ slice Huffman tables: %w", err)
	}
	return gd, nil
}

func readEndpoints(d []byte, n int) ([]etc1sEndpoint, error) {
	r := newBitReader(d)
	var models [4]*huffman
	for i := range models {
		m, err := readHuffman(r)
		if err != nil {
			return nil, err
		}
		models[i] = m
	}
	gray := r.bits(1) == 1
	out := make([]etc1sEndpoint, n)
	prev := [3]int{16, 16, 16}
	prevInten := 0
	for i := range out {
		delta, err := models[3].decode(r)
		if err != nil {
			return nil, err
		}
		prevInten = (prevInten + delta) & 7
		out[i].inten = uint8(prevInten)
		chans := 3
		if gray {
			chans = 1
		}
		for c := 0; c < chans; c++ {
			m := models[0]
			switch {
			case prev[c] >= 22:
				m = models[2]
			case prev[c] >= 10:
				m = models[1]
			}
			delta, err := m.decode(r)
			if err != nil {
				return nil, err
			}
			prev[c] = (prev[c] + delta) & 31
		}
		if gray {
			prev[1], prev[2] = prev[0], prev[0]
		}
		out[i].rgb = [3]uint8{uint8(prev[0]), uint8(prev[1]), uint8(prev[2])}
		if r.over() {
			return nil, errors.New("cut off")
		}
	}
	return out, nil
}

func readSelectors(d []byte, n int) ([][4]uint8, error) {
	r := newBitReader(d)
	if r.bits(2) != 0 {
		return nil, errors.New("the two reserved bits are not zero")
	}
	out := make([][4]uint8, n)
	if r.bits(1) == 1 {
		for i := range out {
			for j := range out[i] {
				out[i][j] = uint8(r.bits(8))
			}
		}
	} else {
		m, err := readHuffman(r)
		if err != nil {
			return nil, err
		}
		for j := range out[0] {
			out[0][j] = uint8(r.bits(8))
		}
		for i := 1; i < n; i++ {
			for j := range out[i] {
				x, err := m.decode(r)
				if err != nil {
					return nil, err
				}
				out[i][j] = uint8(x) ^ out[i-1][j]
			}
		}
	}
	if r.over() {
		return nil, errors.New("cut off")
	}
	return out, nil
}

func (gd *basisLZ) readTables(d []byte) error {
	r := newBitReader(d)
	for _, p := range []**huffman{&gd.endpointPred, &gd.endpointDelta, &gd.selector, &gd.selectorRLE} {
		m, err := readHuffman(r)
		if err != nil {
			return err
		}
		*p = m
	}
	gd.historySize = int(r.bits(13))
	if r.over() {
		return errors.New("cut off")
	}
	return nil
}

// decodeImage decodes layer 0, face 0 of level l (w x h) into pix (RGBA).
func (gd *basisLZ) decodeImage(f *File, l, w, h int, pix []byte) error {
	per := int(max(f.Header.LayerCount, 1) * f.Header.FaceCount)
	desc := gd.images[l*per]
	if desc.flags&isPFrame != 0 {
		return errors.New("the first image is a P-frame")
	}
	lv := f.Levels[l]
	level := f.data[lv.ByteOffset : lv.ByteOffset+lv.ByteLength]
	slice := func(off, n uint32, what string) ([]byte, error) {
		if n == 0 || uint64(off)+uint64(n) > uint64(len(level)) {
			return nil, fmt.Errorf("the %s slice (offset %d, %d bytes) does not lie in the level's %d bytes", what, off, n, len(level))
		}
		return level[off : off+n], nil
	}
	bw, bh := (w+3)/4, (h+3)/4
	rgb, err := slice(desc.rgbOffset, desc.rgbLength, "RGB")
	if err != nil {
		return err
	}
	chans := f.DFD.Channels
	if err := gd.decodeSlice(rgb, bw, bh, w, h, pix, -1); err != nil {
		return fmt.Errorf("RGB slice: %w", err)
	}
	if desc.alphaLen != 0 || len(chans) > 1 {
		a, err := slice(desc.alphaOffset, desc.alphaLen, "second")
		if err != nil {
			return err
		}
		into := 3 // alpha
		if len(chans) > 1 && chans[1] == 4 {
			into = 1 // KHR_DF_CHANNEL_ETC1S_GGG: a two-channel texture
		}
		if err := gd.decodeSlice(a, bw, bh, w, h, pix, into); err != nil {
			return fmt.Errorf("second slice: %w", err)
		}
	}
	return nil
}

// approxMTF is the BasisLZ selector history buffer.
type approxMTF struct {
	v     []int
	rover int
}

func (m *approxMTF) add(x int) {
	m.v[m.rover] = x
	m.rover++
	if m.rover == len(m.v) {
		m.rover = len(m.v) / 2
	}
}

func (m *approxMTF) use(i int) {
	if i > 0 {
		m.v[i/2], m.v[i] = m.v[i], m.v[i/2]
	}
}

// decodeSlice decodes one slice of bw x bh ETC1S blocks into the w x h
// RGBA pixels: all of R, G, B and alpha 255 when only < 0, else only the
// channel only, from the decoded green.
func (gd *basisLZ) decodeSlice(d []byte, bw, bh, w, h int, pix []byte, only int) error {
	const (
		predRepeat   = 4 * 4 * 4 * 4 // endpoint prediction "repeat the last symbol"
		rleThresh    = 3
		rleCountSyms = 64
	)
	r := newBitReader(d)
	nEnd, nSel := len(gd.endpoints), len(gd.selectors)
	hist := approxMTF{v: make([]int, gd.historySize), rover: gd.historySize / 2}
	rleSym := nSel + gd.historySize
	var (
		preds         [2][]int
		predBits      = make([]uint8, (bw+1)/2)
		curPred       uint32
		prevPredSym   uint32
		predRepeatCnt int
		prevEndpoint  int
		selRLE        int
	)
	preds[0], preds[1] = make([]int, bw), make([]int, bw)
	for by := 0; by < bh; by++ {
		row := by & 1
		for bx := 0; bx < bw; bx++ {
			if bx&1 == 0 {
				if by&1 == 0 {
					if predRepeatCnt > 0 {
						predRepeatCnt--
						curPred = prevPredSym
					} else {
						s, err := gd.endpointPred.decode(r)
						if err != nil {
							return err
						}
						if s == predRepeat {
							predRepeatCnt = int(r.vlc(4)) + rleThresh - 1
							curPred = prevPredSym
						} else if s > predRepeat {
							return fmt.Errorf("endpoint prediction symbol %d", s)
						} else {
							curPred = uint32(s)
							prevPredSym = curPred
						}
					}
					predBits[bx>>1] = uint8(curPred >> 4)
				} else {
					curPred = uint32(predBits[bx>>1])
				}
			}
			pred := curPred & 3
			curPred >>= 2
			var ei int
			switch pred {
			case 0:
				ei = prevEndpoint
			case 1:
				ei = preds[row^1][bx]
			case 2:
				if bx == 0 {
					return errors.New("upper-left endpoint prediction in the first column")
				}
				ei = preds[row^1][bx-1]
			default:
				delta, err := gd.endpointDelta.decode(r)
				if err != nil {
					return err
				}
				ei = delta + prevEndpoint
				if ei >= nEnd {
					ei -= nEnd
				}
			}
			if ei >= nEnd {
				return fmt.Errorf("endpoint %d of %d", ei, nEnd)
			}
			preds[row][bx] = ei
			prevEndpoint = ei

			var si int
			sym := nSel
			if selRLE > 0 {
				selRLE--
			} else {
				s, err := gd.selector.decode(r)
				if err != nil {
					return err
				}
				sym = s
				if s == rleSym {
					run, err := gd.selectorRLE.decode(r)
					if err != nil {
						return err
					}
					if run == rleCountSyms-1 {
						selRLE = int(r.vlc(7)) + rleThresh
					} else {
						selRLE = run + rleThresh
					}
					sym = nSel
					selRLE--
				} else if s > rleSym {
					return fmt.Errorf("selector symbol %d", s)
				}
			}
			if sym >= nSel {
				k := sym - nSel
				if k >= len(hist.v) {
					return fmt.Errorf("selector history entry %d of %d", k, len(hist.v))
				}
				si = hist.v[k]
				hist.use(k)
			} else {
				si = sym
				if len(hist.v) > 0 {
					hist.add(si)
				}
			}
			if r.over() {
				return errors.New("slice data cut off")
			}
			gd.etc1sBlock(ei, si, bx, by, w, h, pix, only)
		}
	}
	return nil
}

// etc1sPalette returns the four colours (RGBA, alpha 255) an ETC1S
// endpoint gives selectors 0 to 3: the 5-bit base colour widened to 8 bits
// plus the intensity modifier, clamped.
func etc1sPalette(e etc1sEndpoint) [16]byte {
	var pal [16]byte
	for s := 0; s < 4; s++ {
		for c := 0; c < 3; c++ {
			v := int(e.rgb[c]<<3|e.rgb[c]>>2) + etc1Inten[e.inten][s]
			pal[4*s+c] = uint8(min(max(v, 0), 255))
		}
		pal[4*s+3] = 255
	}
	return pal
}

// etc1sBlock writes the texels of one ETC1S block: all of RGBA when only
// is negative, else channel only, from the colour's green.
func (gd *basisLZ) etc1sBlock(ei, si, bx, by, w, h int, pix []byte, only int) {
	pal := &gd.palettes[ei]
	sel := &gd.selectors[si]
	nx := min(4, w-4*bx)
	for y := 0; y < 4 && 4*by+y < h; y++ {
		row := pix[4*((4*by+y)*w+4*bx):]
		row = row[:4*nx]
		s := sel[y]
		if only < 0 {
			for x := 0; x < nx; x++ {
				k := 4 * int(s>>(2*x)&3)
				copy(row[4*x:4*x+4], pal[k:k+4])
			}
			continue
		}
		for x := 0; x < nx; x++ {
			row[4*x+only] = pal[4*int(s>>(2*x)&3)+1]
		}
	}
}
