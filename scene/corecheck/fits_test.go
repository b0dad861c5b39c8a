package corecheck

import (
	"fmt"
	"math"
	"testing"
)

func TestFits(t *testing.T) {
	for _, tc := range []struct {
		offset, stride, count, elem, length int
		want                                bool
	}{
		{0, 12, 3, 12, 36, true},
		{0, 12, 4, 12, 36, false},
		{4, 16, 2, 12, 32, true},
		{4, 16, 2, 12, 31, false},
		{0, 0, 5, 4, 4, true}, // stride 0: every element at the same place
		{0, 1 << 53, 2, 12, 10180, false},
		{0, 12, math.MaxInt, 12, 1 << 20, false},
		{math.MaxInt, 4, 1, 4, 16, false},
		{-4, 4, 1, 4, 16, false},
		{0, 4, 0, 4, 16, false},
		{0, -4, 2, 4, 16, false},
	} {
		if got := Fits(tc.offset, tc.stride, tc.count, tc.elem, tc.length); got != tc.want {
			t.Errorf("Fits(%d, %d, %d, %d, %d) = %v", tc.offset, tc.stride, tc.count, tc.elem, tc.length, got)
		}
	}
}

// TestHostileNumbersDecode: numbers from the mutation test that crashed
// the checks (a stride of 2^53 overflowed the bounds check; a negative
// byteLength sliced backwards) give findings, not a panic.
func TestHostileNumbersDecode(t *testing.T) {
	const tri = "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"
	for _, tc := range []struct{ name, buffer, view, accessor string }{
		{"stride 2^53", `{"byteLength":36,"uri":"data:application/octet-stream;base64,` + tri + `"}`, `{"buffer":0,"byteLength":36,"byteStride":9007199254740992}`, `{"bufferView":0,"componentType":5126,"count":2,"type":"VEC3"}`},
		{"count 2^62", `{"byteLength":36,"uri":"data:application/octet-stream;base64,` + tri + `"}`, `{"buffer":0,"byteLength":36}`, `{"bufferView":0,"componentType":5126,"count":4611686018427387904,"type":"VEC3"}`},
		{"negative byteLength", `{"byteLength":-4,"uri":"data:application/octet-stream;base64,` + tri + `"}`, `{"buffer":0,"byteLength":36}`, `{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}`},
		{"sparse count 2^62", `{"byteLength":36,"uri":"data:application/octet-stream;base64,` + tri + `"}`, `{"buffer":0,"byteLength":36}`, `{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","sparse":{"count":4611686018427387904,"indices":{"bufferView":0,"componentType":5125},"values":{"bufferView":0}}}`},
	} {
		doc := fmt.Sprintf(`{"asset":{"version":"2.0"},"buffers":[%s],"bufferViews":[%s],"accessors":[%s],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`, tc.buffer, tc.view, tc.accessor)
		res, err := Decode([]byte(doc), nil, Options{})
		if err != nil {
			continue // refused: fine
		}
		errors := 0
		for _, f := range res.Findings {
			if f.Severity == Error {
				errors++
			}
		}
		if errors == 0 {
			t.Errorf("%s: no error found", tc.name)
		}
	}
}
