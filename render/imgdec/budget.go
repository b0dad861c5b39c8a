package imgdec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"sync"

	"physview/render/imgdec/ktx2"
)

// DocumentPixelBytes is how many bytes of decoded pixels (RGBA, mipmaps
// included) the images of one document may hold at once: 1 GB, three
// 8192x8192 images (341 MB each); one of 16384x16384 (1.33 GB) is over.
// A 140 KB PNG may declare 16384x16384; three of them took 5.7 GB and a
// minute before the GL driver refused them.
const DocumentPixelBytes = 1 << 30

// Dimensions returns the width and height an encoded image's header
// declares, read without decoding it (PNG IHDR, KTX2 header, and the
// standard decoders' DecodeConfig for JPEG and WebP); ok is false when the
// header cannot be read.
func Dimensions(data []byte) (w, h int, ok bool) {
	switch {
	case bytes.HasPrefix(data, pngMagic) && len(data) >= 24:
		return int(binary.BigEndian.Uint32(data[16:])), int(binary.BigEndian.Uint32(data[20:])), true
	case bytes.HasPrefix(data, ktx2.Magic) && len(data) >= 28:
		return int(binary.LittleEndian.Uint32(data[20:])), max(1, int(binary.LittleEndian.Uint32(data[24:]))), true
	case isAVIF(data):
		return 0, 0, false // libavif checks MaxSide itself
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0, false
	}
	return cfg.Width, cfg.Height, true
}

// Budget counts the decoded pixel bytes a document's images hold. Take
// reserves an image's bytes from its header before it is decoded; Give
// returns them when the pixels are freed. Safe for concurrent use.
type Budget struct {
	mu    sync.Mutex
	total int64
	used  int64
}

// NewBudget returns a budget of total bytes.
func NewBudget(total int64) *Budget { return &Budget{total: total} }

// Take reserves what decoding data will allocate (4 bytes a pixel, a third
// more for mipmaps) and returns it, or an error when that is past what is
// left: the image is then not decoded. An image whose header cannot be
// read reserves nothing (its decoder refuses it, or checks MaxSide).
func (b *Budget) Take(data []byte) (int64, error) {
	w, h, ok := Dimensions(data)
	if !ok || w <= 0 || h <= 0 {
		return 0, nil
	}
	if w > MaxSide || h > MaxSide {
		return 0, fmt.Errorf("image declares %dx%d pixels, larger than %dx%d", w, h, MaxSide, MaxSide)
	}
	need := int64(w) * int64(h) * 4 * 4 / 3
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+need > b.total {
		return 0, fmt.Errorf("image declares %dx%d pixels (%d MB decoded), past the %d MB the document's images may hold at once (%d MB in use)", w, h, need>>20, b.total>>20, b.used>>20)
	}
	b.used += need
	return need, nil
}

// Reserve takes n bytes already decoded (a reduced decode, whose size the
// header does not say), or returns an error when they are past what is
// left.
func (b *Budget) Reserve(n int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.total {
		return fmt.Errorf("%d MB of decoded pixels, past the %d MB the document's images may hold at once (%d MB in use)", n>>20, b.total>>20, b.used>>20)
	}
	b.used += n
	return nil
}

// Give returns n bytes Take or Reserve reserved.
func (b *Budget) Give(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}
