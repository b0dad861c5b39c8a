package imgdec

/*
#include "cdec.h"
*/
import "C"

import (
	"bytes"
	"fmt"

	"physview/render/imgdec/ktx2"
)

// decodeKTX2 decodes the base level of a KTX 2.0 image (KHR_texture_basisu)
// with the Go decoder of package ktx2, into C memory.
func decodeKTX2(data []byte) (*Image, error) {
	f, err := ktx2.Parse(data)
	if err != nil {
		return nil, err
	}
	return decodeKTX2Level(f, 0)
}

// decodeKTX2Level decodes level l of f into C memory.
func decodeKTX2Level(f *ktx2.File, l int) (*Image, error) {
	w, h := f.LevelSize(l)
	p := C.pixels(C.size_t(4 * w * h))
	if p == nil {
		return nil, fmt.Errorf("ktx2: out of memory for %dx%d pixels", w, h)
	}
	m := wrapC(p, w, h)
	if err := f.DecodeLevelInto(l, m.Pix); err != nil {
		m.Free()
		return nil, err
	}
	return m, nil
}

// DecodeLevels decodes an image as Decode does and, for a KTX 2.0 file
// that holds a mipmap chain, its levels 1 and down as the file has them
// (nil for every other image, whose levels Mipmaps builds).
func DecodeLevels(data []byte) (*Image, []*Image, error) {
	if !bytes.HasPrefix(data, ktx2.Magic) {
		m, err := Decode(data)
		return m, nil, err
	}
	f, err := ktx2.Parse(data)
	if err != nil {
		return nil, nil, err
	}
	var all []*Image
	for l := range f.Levels {
		m, err := decodeKTX2Level(f, l)
		if err != nil {
			for _, m := range all {
				m.Free()
			}
			return nil, nil, err
		}
		all = append(all, m)
	}
	if len(all) == 1 {
		return all[0], nil, nil
	}
	return all[0], all[1:], nil
}
