package meshdec

/*
#cgo LDFLAGS: -lmeshoptimizer
#include <meshoptimizer.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// Meshopt modes of the EXT_meshopt_compression / KHR_meshopt_compression
// buffer view extension.
const (
	ModeAttributes = "ATTRIBUTES"
	ModeTriangles  = "TRIANGLES"
	ModeIndices    = "INDICES"
)

// Meshopt filters applied after decoding ATTRIBUTES.
const (
	FilterNone        = "NONE"
	FilterOctahedral  = "OCTAHEDRAL"
	FilterQuaternion  = "QUATERNION"
	FilterExponential = "EXPONENTIAL"
)

// DecodeMeshopt decodes a meshopt-compressed buffer view of count elements
// of stride bytes in the given mode, then applies filter ("" means NONE).
// It returns count*stride bytes. Every precondition of libmeshoptimizer is
// checked first: a bad value is an error, never an abort.
func DecodeMeshopt(src []byte, count, stride int, mode, filter string) ([]byte, error) {
	if count < 0 || stride <= 0 {
		return nil, fmt.Errorf("meshopt: count %d and byteStride %d are not valid", count, stride)
	}
	if len(src) > MaxInput {
		return nil, fmt.Errorf("meshopt: %d bytes is over the %d MiB limit", len(src), MaxInput>>20)
	}
	if count > MaxOutput/stride {
		return nil, fmt.Errorf("meshopt: %d elements of %d bytes are over the %d MiB decoding budget", count, stride, MaxOutput>>20)
	}
	if filter == "" {
		filter = FilterNone
	}
	switch mode {
	case ModeAttributes:
		if stride%4 != 0 || stride > 256 {
			return nil, fmt.Errorf("meshopt: ATTRIBUTES needs a byteStride that is a multiple of 4 up to 256, not %d", stride)
		}
	case ModeTriangles, ModeIndices:
		if stride != 2 && stride != 4 {
			return nil, fmt.Errorf("meshopt: %s needs a byteStride of 2 or 4, not %d", mode, stride)
		}
		if mode == ModeTriangles && count%3 != 0 {
			return nil, fmt.Errorf("meshopt: TRIANGLES needs a count that is a multiple of 3, not %d", count)
		}
		if filter != FilterNone {
			return nil, fmt.Errorf("meshopt: filter %s is only for ATTRIBUTES", filter)
		}
	default:
		return nil, fmt.Errorf("meshopt: unknown mode %q", mode)
	}
	switch filter {
	case FilterNone:
	case FilterOctahedral:
		if stride != 4 && stride != 8 {
			return nil, fmt.Errorf("meshopt: OCTAHEDRAL needs a byteStride of 4 or 8, not %d", stride)
		}
	case FilterQuaternion:
		if stride != 8 {
			return nil, fmt.Errorf("meshopt: QUATERNION needs a byteStride of 8, not %d", stride)
		}
	case FilterExponential:
		if stride%4 != 0 {
			return nil, fmt.Errorf("meshopt: EXPONENTIAL needs a byteStride that is a multiple of 4, not %d", stride)
		}
	default:
		return nil, fmt.Errorf("meshopt: unknown filter %q", filter)
	}
	out := make([]byte, count*stride)
	if count == 0 {
		return out, nil
	}
	if len(src) == 0 {
		return nil, errors.New("meshopt: no data")
	}
	dst := unsafe.Pointer(&out[0])
	in := (*C.uchar)(unsafe.Pointer(&src[0]))
	n, sz, cnt := C.size_t(len(src)), C.size_t(stride), C.size_t(count)
	var rc C.int
	switch mode {
	case ModeAttributes:
		rc = C.meshopt_decodeVertexBuffer(dst, cnt, sz, in, n)
	case ModeTriangles:
		rc = C.meshopt_decodeIndexBuffer(dst, cnt, sz, in, n)
	case ModeIndices:
		rc = C.meshopt_decodeIndexSequence(dst, cnt, sz, in, n)
	}
	if rc != 0 {
		return nil, fmt.Errorf("meshopt: %s data of %d elements of %d bytes does not decode (code %d; the format version may be newer than libmeshoptimizer 0.%d reads)", mode, count, stride, int(rc), C.MESHOPTIMIZER_VERSION/10)
	}
	switch filter {
	case FilterOctahedral:
		C.meshopt_decodeFilterOct(dst, cnt, sz)
	case FilterQuaternion:
		C.meshopt_decodeFilterQuat(dst, cnt, sz)
	case FilterExponential:
		C.meshopt_decodeFilterExp(dst, cnt, sz)
	}
	return out, nil
}
