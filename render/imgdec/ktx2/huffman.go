package ktx2

import (
	"errors"
	"fmt"
)

// bitReader reads a BasisLZ bitstream: bits LSB first within each byte.
// Reading past the end gives zero bits and sets over, which the caller
// turns into an error.
type bitReader struct {
	d     []byte
	pos   int    // next byte to load
	buf   uint64 // loaded bits, next bit lowest
	n     uint   // bits in buf
	extra int    // zero bytes loaded past the end
}

func newBitReader(d []byte) *bitReader { return &bitReader{d: d} }

func (r *bitReader) fill() {
	for r.n <= 56 {
		var c byte
		if r.pos < len(r.d) {
			c = r.d[r.pos]
			r.pos++
		} else {
			r.extra++
		}
		r.buf |= uint64(c) << r.n
		r.n += 8
	}
}

// over says more bits were read than the data holds.
func (r *bitReader) over() bool { return r.extra*8 > int(r.n) }

func (r *bitReader) peek(n uint) uint32 {
	if r.n < n {
		r.fill()
	}
	return uint32(r.buf & (1<<n - 1))
}

func (r *bitReader) skip(n uint) {
	r.buf >>= n
	r.n -= n
}

// bits reads an n-bit value (n at most 32).
func (r *bitReader) bits(n uint) uint32 {
	v := r.peek(n)
	r.skip(n)
	return v
}

// vlc reads the BasisLZ variable-length value made of chunks of n data
// bits, each followed by a bit saying another chunk follows.
func (r *bitReader) vlc(n uint) uint32 {
	var v uint32
	for shift := uint(0); ; shift += n {
		c := r.bits(n + 1)
		v |= (c & (1<<n - 1)) << shift
		if c>>n == 0 || shift+n >= 32 {
			return v
		}
	}
}

// huffman is a canonical Huffman code decoded with one table lookup: the
// next maxLen bits index table, whose entry holds symbol<<5 | code length
// (length 0: no code starts with these bits).
type huffman struct {
	table  []uint32
	maxLen uint
}

var errBadCode = errors.New("invalid Huffman code")

// newHuffman builds the decoder of a code from each symbol's code length
// (0 for unused symbols), codes assigned as Deflate (RFC 1951, 3.2.2) does
// and sent MSB first.
func newHuffman(lengths []uint8) (*huffman, error) {
	var count [17]int
	maxLen := uint(0)
	for _, l := range lengths {
		if l > 16 {
			return nil, fmt.Errorf("code length %d is over 16", l)
		}
		count[l]++
		maxLen = max(maxLen, uint(l))
	}
	h := &huffman{maxLen: maxLen}
	if maxLen == 0 {
		return h, nil
	}
	var next [17]uint32
	code := uint32(0)
	count[0] = 0
	for l := 1; l <= 16; l++ {
		code = (code + uint32(count[l-1])) << 1
		next[l] = code
	}
	if code+uint32(count[16]) > 1<<16 {
		return nil, errors.New("Huffman code lengths are oversubscribed")
	}
	h.table = make([]uint32, 1<<maxLen)
	for sym, l := range lengths {
		if l == 0 {
			continue
		}
		c := next[l]
		next[l]++
		if c >= 1<<l {
			return nil, errors.New("Huffman code lengths are oversubscribed")
		}
		// Reverse the code: its first (most significant) bit is read first.
		rev := uint32(0)
		for i := uint8(0); i < l; i++ {
			rev = rev<<1 | c>>i&1
		}
		for k := rev; k < 1<<maxLen; k += 1 << l {
			h.table[k] = uint32(sym)<<5 | uint32(l)
		}
	}
	return h, nil
}

// decode reads one symbol.
func (h *huffman) decode(r *bitReader) (int, error) {
	if h.maxLen == 0 {
		return 0, errors.New("symbol read with an empty Huffman table")
	}
	e := h.table[r.peek(h.maxLen)]
	if e&31 == 0 {
		return 0, errBadCode
	}
	r.skip(uint(e & 31))
	return int(e >> 5), nil
}

// codeLengthOrder is the order the code-length code's lengths are sent in.
var codeLengthOrder = [21]int{17, 18, 19, 20, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15, 16}

// readHuffman reads a compressed Huffman table (the BasisLZ spec's
// read_huffman_table).
func readHuffman(r *bitReader) (*huffman, error) {
	total := int(r.bits(14))
	if total == 0 {
		return &huffman{}, nil
	}
	ncl := int(r.bits(5))
	if ncl < 1 || ncl > 21 {
		return nil, fmt.Errorf("%d code length codes (1 to 21 allowed)", ncl)
	}
	var clLen [21]uint8
	for i := 0; i < ncl; i++ {
		clLen[codeLengthOrder[i]] = uint8(r.bits(3))
	}
	cl, err := newHuffman(clLen[:])
	if err != nil {
		return nil, err
	}
	lengths := make([]uint8, total)
	for cur := 0; cur < total; {
		sym, err := cl.decode(r)
		if err != nil {
			return nil, err
		}
		if r.over() {
			return nil, errors.New("Huffman table cut off")
		}
		if sym <= 16 {
			lengths[cur] = uint8(sym)
			cur++
			continue
		}
		var n int
		var v uint8
		switch sym {
		case 17:
			n = int(r.bits(3)) + 3
		case 18:
			n = int(r.bits(7)) + 11
		case 19, 20:
			if cur == 0 || lengths[cur-1] == 0 {
				return nil, errors.New("Huffman table repeats a length with none before")
			}
			v = lengths[cur-1]
			if sym == 19 {
				n = int(r.bits(2)) + 3
			} else {
				n = int(r.bits(7)) + 7
			}
		}
		if cur+n > total {
			return nil, fmt.Errorf("Huffman table has more than %d code lengths", total)
		}
		for ; n > 0; n-- {
			lengths[cur] = v
			cur++
		}
	}
	return newHuffman(lengths)
}
