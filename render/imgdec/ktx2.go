package imgdec

import (
	"bytes"

	"physview/render/imgdec/ktx2"
)

// decodeKTX2 decodes the base level of a KTX 2.0 image (KHR_texture_basisu)
// with the Go decoder of package ktx2.
func decodeKTX2(data []byte) (*Image, error) {
	f, err := ktx2.Parse(data)
	if err != nil {
		return nil, err
	}
	l, err := f.DecodeLevel(0)
	if err != nil {
		return nil, err
	}
	return &Image{Width: l.Width, Height: l.Height, Pix: l.Pix}, nil
}

// DecodeLevels decodes an image as Decode does and, for a KTX 2.0 file
// that holds a mipmap chain, its levels 1 and down as the file has them
// (nil for every other image, whose levels Mipmaps builds).
func DecodeLevels(data []byte) (*Image, []*Image, error) {
	if !bytes.HasPrefix(data, ktx2.Magic) {
		m, err := Decode(data)
		return m, nil, err
	}
	t, err := ktx2.Decode(data)
	if err != nil {
		return nil, nil, err
	}
	var levels []*Image
	for _, l := range t.Levels[1:] {
		levels = append(levels, &Image{Width: l.Width, Height: l.Height, Pix: l.Pix})
	}
	base := t.Levels[0]
	return &Image{Width: base.Width, Height: base.Height, Pix: base.Pix}, levels, nil
}
