package ktx2

// The parts of ASTC (Khronos Data Format specification, section "ASTC
// Compressed Texture Image Formats") that UASTC blocks decode with:
// integer-sequence ranges, colour endpoint unquantization, weight
// unquantization for the pure-bit ranges, partition pattern generation
// and LDR weight interpolation.

// bise holds, for each ASTC quantization range 0..20, its number of bits
// and whether it adds a trit or a quint to them (levels = (1, 3 or 5) << bits).
var bise = [21]struct{ bits, trits, quints uint8 }{
	{1, 0, 0}, {0, 1, 0}, {2, 0, 0}, {0, 0, 1}, // 2, 3, 4, 5 levels
	{1, 1, 0}, {3, 0, 0}, {1, 0, 1}, {2, 1, 0}, // 6, 8, 10, 12
	{4, 0, 0}, {2, 0, 1}, {3, 1, 0}, {5, 0, 0}, // 16, 20, 24, 32
	{3, 0, 1}, {4, 1, 0}, {6, 0, 0}, {4, 0, 1}, // 40, 48, 64, 80
	{5, 1, 0}, {7, 0, 0}, {5, 0, 1}, {6, 1, 0}, // 96, 128, 160, 192
	{8, 0, 0}, // 256
}

// endpointUnquant[r][v] is the 8-bit colour endpoint value of the value v
// of range r, v being the trit or quint times 2^bits plus the bits.
var endpointUnquant [21][256]uint8

// unquantParams are the C constants and B bit patterns of the ASTC colour
// endpoint unquantization table for the trit and quint ranges (pattern
// letters a..f name bits 0..5 of the value's bits, '0' a zero).
var unquantParams = map[int]struct {
	b string
	c uint32
}{
	4: {"000000000", 204}, 6: {"000000000", 113}, 7: {"b000b0bb0", 93}, 9: {"b0000bb00", 54},
	10: {"cb000cbcb", 44}, 12: {"cb0000cbc", 26}, 13: {"dcb000dcb", 22}, 15: {"dcb0000dc", 13},
	16: {"edcb000ed", 11}, 18: {"edcb0000e", 6}, 19: {"fedcb000f", 5},
}

func init() {
	for r, q := range bise {
		levels := (1 + 2*int(q.trits) + 4*int(q.quints)) << q.bits
		for v := 0; v < levels && v < 256; v++ {
			endpointUnquant[r][v] = unquantEndpoint(r, uint32(v))
		}
	}
}

// unquantEndpoint maps value v of range r to 0..255.
func unquantEndpoint(r int, v uint32) uint8 {
	q := bise[r]
	bits := v & (1<<q.bits - 1)
	if q.trits == 0 && q.quints == 0 {
		return uint8(replicate(bits, uint(q.bits), 8))
	}
	p, ok := unquantParams[r]
	if !ok {
		return 0 // a range ASTC never uses for endpoints
	}
	a := uint32(0)
	if bits&1 != 0 {
		a = 0x1ff
	}
	var b uint32
	for _, ch := range p.b {
		b <<= 1
		if ch != '0' {
			b |= bits >> uint(ch-'a') & 1
		}
	}
	t := (v>>q.bits)*p.c + b
	t ^= a
	return uint8(a&0x80 | t>>2)
}

// replicate repeats the n-bit value v to fill to bits.
func replicate(v uint32, n, to uint) uint32 {
	if n == 0 {
		return 0
	}
	var out uint32
	got := uint(0)
	for got < to {
		out = out<<n | v
		got += n
	}
	return out >> (got - to)
}

// weightUnquant[bits][v] is the 0..64 weight of the bits-bit weight v.
var weightUnquant [6][32]uint32

func init() {
	for n := uint(1); n <= 5; n++ {
		for v := uint32(0); v < 1<<n; v++ {
			w := replicate(v, n, 6)
			if w > 32 {
				w++
			}
			weightUnquant[n][v] = w
		}
	}
}

// interpolate blends two 8-bit LDR endpoints with a 0..64 weight as ASTC
// decodes with sRGB reads off (values widened by bit replication).
func interpolate(l, h, w uint32) uint8 {
	l = l<<8 | l
	h = h<<8 | h
	return uint8((l*(64-w) + h*w + 32) >> 6 >> 8)
}

// endpoints4 holds the four channels of two LDR endpoints widened to 16
// bits, two channels a word in 32-bit lanes, for interpolating all four
// with two multiplications a side (each lane stays under 2^22).
type endpoints4 struct{ lo01, lo23, hi01, hi23 uint64 }

func newEndpoints4(lo, hi [4]uint32) endpoints4 {
	return endpoints4{
		uint64(lo[0]*257) | uint64(lo[1]*257)<<32, uint64(lo[2]*257) | uint64(lo[3]*257)<<32,
		uint64(hi[0]*257) | uint64(hi[1]*257)<<32, uint64(hi[2]*257) | uint64(hi[3]*257)<<32,
	}
}

// at returns interpolate of each channel at weight w (0..64).
func (e endpoints4) at(w uint32) [4]uint8 {
	w64 := uint64(w)
	a := e.lo01*(64-w64) + e.hi01*w64 + (32 | 32<<32)
	c := e.lo23*(64-w64) + e.hi23*w64 + (32 | 32<<32)
	return [4]uint8{uint8(a >> 14), uint8(a >> 46), uint8(c >> 14), uint8(c >> 46)}
}

// hash52 is the ASTC partition hash.
func hash52(p uint32) uint32 {
	p ^= p >> 15
	p -= p << 17
	p += p << 7
	p += p << 4
	p ^= p >> 5
	p += p << 16
	p ^= p >> 7
	p ^= p >> 3
	p ^= p << 6
	p ^= p >> 17
	return p
}

// partitionOf returns the partition of texel (x, y) of a 2D block with
// fewer than 31 texels (the small-block rule doubles the coordinates), for
// a partition seed and count.
func partitionOf(seed uint32, x, y uint32, count uint32) uint8 {
	x, y = x<<1, y<<1
	seed += (count - 1) * 1024
	rnum := hash52(seed)
	var s [12]uint32
	for i, sh := range [12]uint{0, 4, 8, 12, 16, 20, 24, 28, 18, 22, 26} {
		s[i] = rnum >> sh & 0xf
	}
	s[11] = (rnum>>30 | rnum<<2) & 0xf
	for i := range s {
		s[i] *= s[i]
	}
	var sh1, sh2 uint
	if seed&1 != 0 {
		sh1, sh2 = 4, 5
		if seed&2 == 0 {
			sh1 = 5
		}
		if count == 3 {
			sh2 = 6
		}
	} else {
		sh1, sh2 = 5, 4
		if count == 3 {
			sh1 = 6
		}
		if seed&2 == 0 {
			sh2 = 5
		}
	}
	sh3 := sh2
	if seed&0x10 != 0 {
		sh3 = sh1
	}
	for i := 0; i < 8; i++ {
		if i&1 == 0 {
			s[i] >>= sh1
		} else {
			s[i] >>= sh2
		}
	}
	for i := 8; i < 12; i++ {
		s[i] >>= sh3
	}
	// z is 0 for 2D blocks: the seed11, seed12, seed9 and seed10 terms drop.
	a := (s[0]*x + s[1]*y + rnum>>14) & 0x3f
	b := (s[2]*x + s[3]*y + rnum>>10) & 0x3f
	c := (s[4]*x + s[5]*y + rnum>>6) & 0x3f
	d := (s[6]*x + s[7]*y + rnum>>2) & 0x3f
	if count < 4 {
		d = 0
	}
	if count < 3 {
		c = 0
	}
	switch {
	case a >= b && a >= c && a >= d:
		return 0
	case b >= c && b >= d:
		return 1
	case c >= d:
		return 2
	}
	return 3
}
