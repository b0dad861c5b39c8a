package imgdec

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"strings"
	"testing"
)

// pngHeader is a PNG signature and IHDR declaring w x h (no pixel data:
// the budget reads only the header).
func pngHeader(w, h uint32) []byte {
	b := append([]byte(nil), pngMagic...)
	b = binary.BigEndian.AppendUint32(b, 13)
	b = append(b, "IHDR"...)
	b = binary.BigEndian.AppendUint32(b, w)
	b = binary.BigEndian.AppendUint32(b, h)
	return append(b, 8, 6, 0, 0, 0, 0, 0, 0, 0)
}

func TestDimensions(t *testing.T) {
	var jp bytes.Buffer
	if err := jpeg.Encode(&jp, image.NewGray(image.Rect(0, 0, 17, 9)), nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		w, h int
		ok   bool
	}{
		{"PNG header", pngHeader(16384, 16384), 16384, 16384, true},
		{"JPEG", jp.Bytes(), 17, 9, true},
		{"not an image", []byte("hello"), 0, 0, false},
		{"PNG cut in the header", pngHeader(4, 4)[:20], 0, 0, false},
	} {
		w, h, ok := Dimensions(tc.data)
		if w != tc.w || h != tc.h || ok != tc.ok {
			t.Errorf("%s: %d x %d, %v; want %d x %d, %v", tc.name, w, h, ok, tc.w, tc.h, tc.ok)
		}
	}
}

// TestBudget: a 16384x16384 PNG header is over the document budget before
// anything is decoded; three 8192x8192 fit (341 MB each, mipmaps
// included) and a fourth waits for one to be given back.
func TestBudget(t *testing.T) {
	b := NewBudget(DocumentPixelBytes)
	if _, err := b.Take(pngHeader(16384, 16384)); err == nil || !strings.Contains(err.Error(), "16384x16384") {
		t.Errorf("16384x16384: error %v, want one naming the size", err)
	}
	var got []int64
	for range 3 {
		n, err := b.Take(pngHeader(8192, 8192))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
	if got[0] != 8192*8192*4*4/3 {
		t.Errorf("reserved %d bytes, want %d", got[0], 8192*8192*4*4/3)
	}
	if _, err := b.Take(pngHeader(8192, 8192)); err == nil {
		t.Error("a fourth 8192x8192 image fits, want it over the budget")
	}
	b.Give(got[0])
	if _, err := b.Take(pngHeader(8192, 8192)); err != nil {
		t.Errorf("after one was given back: %v", err)
	}
	if _, err := b.Take(pngHeader(MaxSide+1, 1)); err == nil {
		t.Error("a side past MaxSide is accepted")
	}
}

// TestBudgetReserve: reduced decodes take their bytes from the same
// budget as Take.
func TestBudgetReserve(t *testing.T) {
	b := NewBudget(100)
	if err := b.Reserve(60); err != nil {
		t.Fatal(err)
	}
	if err := b.Reserve(41); err == nil {
		t.Error("60 + 41 bytes fit a budget of 100")
	}
	if err := b.Reserve(40); err != nil {
		t.Errorf("60 + 40 bytes: %v", err)
	}
	b.Give(60)
	if err := b.Reserve(60); err != nil {
		t.Errorf("after 60 were given back: %v", err)
	}
}
