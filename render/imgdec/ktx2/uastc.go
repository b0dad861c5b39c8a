package ktx2

import (
	"encoding/binary"
	"fmt"
)

// UASTC LDR 4x4: 128-bit blocks, each a subset of 4x4 LDR ASTC with a
// simpler layout (Basis Universal's UASTC texture specification). A block
// starts with a variable-length mode code, then transcoding hints (skipped
// here), the partition pattern and colour component selector, the
// endpoint values (the trits or quints of the whole block first, then each
// value's bits) and the weights, the first weight of each subset one bit
// shorter.

const solidMode = 8

// uastcModes describes the 19 modes.
var uastcModes = [19]struct {
	code, codeLen uint8 // mode code, LSB first
	hintBits      uint8 // BC1, ETC1 and ETC2 hint bits after the code
	weightBits    uint8
	endpointRange uint8
	subsets       uint8
	planes        uint8
	comps         uint8 // 2 = luminance + alpha, 3 = RGB, 4 = RGBA
	patternBits   uint8
}{
	{0x1, 4, 15, 4, 19, 1, 1, 3, 0},
	{0x35, 6, 15, 2, 20, 1, 1, 3, 0},
	{0x1d, 5, 15, 3, 8, 2, 1, 3, 5},
	{0x3, 5, 15, 2, 7, 3, 1, 3, 4},
	{0x13, 5, 15, 2, 12, 2, 1, 3, 5},
	{0xb, 5, 15, 3, 20, 1, 1, 3, 0},
	{0x1b, 5, 15, 2, 18, 1, 2, 3, 0},
	{0x7, 5, 15, 2, 12, 2, 1, 3, 5},
	{0x17, 5, 0, 0, 0, 0, 0, 4, 0}, // solid colour
	{0xf, 5, 23, 2, 8, 2, 1, 4, 5},
	{0x2, 3, 17, 4, 13, 1, 1, 4, 0},
	{0x0, 2, 17, 2, 13, 1, 2, 4, 0},
	{0x6, 3, 17, 3, 19, 1, 1, 4, 0},
	{0x1f, 5, 23, 1, 20, 1, 2, 4, 0},
	{0xd, 5, 23, 2, 20, 1, 1, 4, 0},
	{0x5, 7, 23, 4, 20, 1, 1, 2, 0},
	{0x15, 6, 23, 2, 20, 2, 1, 2, 5},
	{0x25, 6, 23, 2, 20, 1, 2, 2, 0},
	{0x9, 4, 15, 5, 11, 1, 1, 3, 0},
}

// modeOf maps the low 7 bits of a block to its mode (19 and up: reserved).
var modeOf [128]uint8

// The ASTC partition seeds of UASTC's common patterns: 2 subsets (modes 2,
// 4, 9, 16), 2 subsets of mode 7, 3 subsets (mode 3).
var (
	seeds2 = []uint32{28, 20, 16, 29, 91, 9, 107, 72, 149, 204, 50, 114, 496, 17, 78, 39,
		252, 828, 43, 156, 116, 210, 476, 273, 684, 359, 246, 195, 694, 524}
	seeds2Mode7 = []uint32{36, 48, 61, 137, 161, 183, 226, 281, 302, 307, 479, 495, 593, 594,
		605, 799, 812, 988, 993}
	seeds3 = []uint32{260, 74, 32, 156, 183, 15, 745, 0, 335, 902, 254}
)

// pattern is a partition pattern: the subset of each texel and the first
// texel (the anchor, whose weight is one bit shorter) of each subset.
type pattern struct {
	subset  [16]uint8
	anchors [3]int8
	// anchorMask has bit t set when texel t is an anchor.
	anchorMask uint16
}

var patterns2, patterns2Mode7, patterns3 []pattern

// singleSubset is the pattern of the one-subset modes.
var singleSubset = pattern{anchors: [3]int8{0, -1, -1}, anchorMask: 1}

func makePatterns(seeds []uint32, count uint32) []pattern {
	ps := make([]pattern, len(seeds))
	for i, s := range seeds {
		p := &ps[i]
		p.anchors = [3]int8{-1, -1, -1}
		for t := 0; t < 16; t++ {
			k := partitionOf(s, uint32(t&3), uint32(t>>2), count)
			p.subset[t] = k
			if p.anchors[k] < 0 {
				p.anchors[k] = int8(t)
				p.anchorMask |= 1 << t
			}
		}
	}
	return ps
}

func init() {
	for i := range modeOf {
		modeOf[i] = 19
	}
	for m, d := range uastcModes {
		for hi := 0; hi < 1<<(7-d.codeLen); hi++ {
			modeOf[int(d.code)|hi<<d.codeLen] = uint8(m)
		}
	}
	patterns2 = makePatterns(seeds2, 2)
	patterns2Mode7 = makePatterns(seeds2Mode7, 2)
	patterns3 = makePatterns(seeds3, 3)
}

// tritDigits and quintDigits split the packed trits (a base-3 number of
// five digits in a byte, first digit lowest) and quints (base 5, three
// digits in 7 bits) of UASTC endpoints. Values past 3^5 or 5^3, which no
// encoder writes, give the digits of the number modulo those.
var (
	tritDigits  [256][5]uint8
	quintDigits [128][3]uint8
)

func init() {
	for v := range tritDigits {
		for i, t := 0, v; i < 5; i, t = i+1, t/3 {
			tritDigits[v][i] = uint8(t % 3)
		}
	}
	for v := range quintDigits {
		for i, t := 0, v; i < 3; i, t = i+1, t/5 {
			quintDigits[v][i] = uint8(t % 5)
		}
	}
}

// lowMask[n] has the n low bits set.
var lowMask = [8]uint8{0, 1, 3, 7, 15, 31, 63, 127}

// block128 reads the bits of one 128-bit block, LSB first.
type block128 struct {
	lo, hi uint64
	pos    uint
}

func (b *block128) get(n uint) uint32 {
	if n == 0 {
		return 0
	}
	var v uint64
	switch {
	case b.pos >= 64:
		v = b.hi >> (b.pos - 64)
	case b.pos == 0:
		v = b.lo
	default:
		v = b.lo>>b.pos | b.hi<<(64-b.pos)
	}
	b.pos += n
	return uint32(v & (1<<n - 1))
}

// decodeUASTC decodes the w x h image of UASTC blocks in d into pix (RGBA,
// w*h*4 bytes).
func decodeUASTC(d []byte, w, h int, pix []byte) error {
	bw := (w + 3) / 4
	var px [64]byte
	for by := 0; by < (h+3)/4; by++ {
		for bx := 0; bx < bw; bx++ {
			o := 16 * (by*bw + bx)
			if err := uastcBlock(d[o:o+16], &px); err != nil {
				return fmt.Errorf("UASTC block (%d, %d): %w", bx, by, err)
			}
			n := 4 * min(4, w-4*bx) // bytes of a block row inside the image
			for y := 0; y < 4 && 4*by+y < h; y++ {
				o := 4 * ((4*by+y)*w + 4*bx)
				copy(pix[o:o+n], px[16*y:16*y+n])
			}
		}
	}
	return nil
}

// uastcBlock decodes one block to its 16 RGBA texels, rows top first.
func uastcBlock(d []byte, out *[64]byte) error {
	b := block128{lo: binary.LittleEndian.Uint64(d), hi: binary.LittleEndian.Uint64(d[8:])}
	mode := int(modeOf[d[0]&127])
	if mode >= len(uastcModes) {
		return fmt.Errorf("reserved mode code %#x", d[0]&127)
	}
	m := &uastcModes[mode]
	b.pos = uint(m.codeLen)
	if mode == solidMode {
		c := [4]uint8{uint8(b.get(8)), uint8(b.get(8)), uint8(b.get(8)), uint8(b.get(8))}
		for i := 0; i < 64; i += 4 {
			copy(out[i:i+4], c[:])
		}
		return nil
	}
	b.pos += uint(m.hintBits)

	pat := &singleSubset
	if m.patternBits > 0 {
		k := int(b.get(uint(m.patternBits)))
		table := patterns2
		switch {
		case m.subsets == 3:
			table = patterns3
		case mode == 7:
			table = patterns2Mode7
		}
		if k >= len(table) {
			return fmt.Errorf("mode %d: pattern %d does not exist", mode, k)
		}
		pat = &table[k]
	}
	ccs := -1
	if m.planes == 2 {
		ccs = 3 // mode 17 (luminance + alpha) always selects alpha
		if mode != 17 {
			ccs = int(b.get(2))
		}
	}

	// Endpoints: the packed trits (5 a byte) or quints (3 in 7 bits), then
	// the low bits of each value.
	nv := int(m.comps) * 2 * int(m.subsets)
	q := bise[m.endpointRange]
	var tq [8]uint32
	group := 0
	switch {
	case q.trits != 0:
		group = 5
	case q.quints != 0:
		group = 3
	}
	ngroups := 0
	if group > 0 {
		ngroups = (nv + group - 1) / group
		for i := 0; i < ngroups; i++ {
			n := uint(8)
			if q.quints != 0 {
				n = 7
			}
			if i == ngroups-1 {
				switch left := nv - i*group; {
				case q.trits != 0 && left < 5:
					n = [5]uint{0, 2, 4, 5, 7}[left]
				case q.quints != 0 && left < 3:
					n = [3]uint{0, 3, 5}[left]
				}
			}
			tq[i] = b.get(n)
		}
	}
	var ep [18]uint8
	unq := &endpointUnquant[m.endpointRange]
	for i := 0; i < nv; i++ {
		v := b.get(uint(q.bits))
		switch group {
		case 5:
			v |= uint32(tritDigits[tq[i/5]&0xff][i%5]) << q.bits
		case 3:
			v |= uint32(quintDigits[tq[i/3]&0x7f][i%3]) << q.bits
		}
		ep[i] = unq[v&0xff]
	}

	// Weights, plane-interleaved for dual-plane modes. All modes but 18
	// have at most 64 bits of them: those are read from one word.
	planes := int(m.planes)
	var wt [32]uint8
	wb := uint(m.weightBits)
	total := wb*16*uint(planes) - uint(m.subsets)*uint(planes)
	if b.pos+total > 128 {
		return fmt.Errorf("mode %d needs %d bits", mode, b.pos+total)
	}
	ps := uint(planes - 1) // texel of weight i: i >> ps
	if total <= 64 {
		bits := uint64(b.get(32)) | uint64(b.get(32))<<32
		for i := 0; i < 16*planes; i++ {
			n := (wb - uint(pat.anchorMask>>(uint(i)>>ps)&1)) & 7
			wt[i] = uint8(bits) & lowMask[n]
			bits >>= n
		}
	} else {
		for i := 0; i < 16*planes; i++ {
			wt[i] = uint8(b.get(wb - uint(pat.anchorMask>>(uint(i)>>ps)&1)))
		}
	}

	// The colours each weight gives in each subset.
	var pal [3][32][4]uint8
	levels := 1 << m.weightBits
	wq := &weightUnquant[m.weightBits]
	for s := 0; s < int(m.subsets); s++ {
		e := ep[s*int(m.comps)*2:]
		var lo, hi [4]uint32
		switch m.comps {
		case 2:
			lo = [4]uint32{uint32(e[0]), uint32(e[0]), uint32(e[0]), uint32(e[2])}
			hi = [4]uint32{uint32(e[1]), uint32(e[1]), uint32(e[1]), uint32(e[3])}
		default:
			lo[3], hi[3] = 255, 255
			for c := 0; c < int(m.comps); c++ {
				lo[c], hi[c] = uint32(e[2*c]), uint32(e[2*c+1])
			}
		}
		ends := newEndpoints4(lo, hi)
		for l := 0; l < levels; l++ {
			pal[s][l] = ends.at(wq[l])
		}
	}
	for t := 0; t < 16; t++ {
		s := pat.subset[t]
		if planes == 1 {
			copy(out[4*t:4*t+4], pal[s][wt[t]][:])
			continue
		}
		copy(out[4*t:4*t+4], pal[s][wt[2*t]][:])
		out[4*t+ccs] = pal[s][wt[2*t+1]][ccs]
	}
	return nil
}
