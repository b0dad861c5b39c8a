package meshdec

/*
#cgo CXXFLAGS: -std=c++17 -O2
#cgo LDFLAGS: -ldraco
#include <stdlib.h>
#include "draco_shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// DracoMesh is a decoded Draco mesh or point cloud. Close frees it.
type DracoMesh struct {
	h *C.pv_draco
	// Points is the number of decoded vertices.
	Points int
	// Faces is the number of triangles, -1 for a point cloud.
	Faces int
}

// DecodeDraco decodes a Draco bitstream (the bytes of the buffer view a
// KHR_draco_mesh_compression block names).
func DecodeDraco(data []byte) (*DracoMesh, error) {
	if len(data) == 0 {
		return nil, errors.New("draco: no data")
	}
	if len(data) > MaxInput {
		return nil, fmt.Errorf("draco: %d bytes is over the %d MiB limit", len(data), MaxInput>>20)
	}
	var msg [256]C.char
	h := C.pv_draco_decode((*C.char)(unsafe.Pointer(&data[0])), C.size_t(len(data)), &msg[0], C.size_t(len(msg)))
	if h == nil {
		return nil, fmt.Errorf("draco: %s", C.GoString(&msg[0]))
	}
	m := &DracoMesh{h: h, Points: int(C.pv_draco_points(h)), Faces: int(C.pv_draco_faces(h))}
	if m.Faces > MaxOutput/12 || m.Points > MaxOutput/4 {
		m.Close()
		return nil, fmt.Errorf("draco: %d points and %d faces are over the decoding budget", m.Points, m.Faces)
	}
	return m, nil
}

// Indices returns the triangles' vertex indices (3 per face), nil for a
// point cloud. Damaged data can decode to indices past the points (found
// by fuzzing): that is an error.
func (m *DracoMesh) Indices() ([]uint32, error) {
	if m.h == nil || m.Faces < 0 {
		return nil, nil
	}
	out := make([]uint32, 3*m.Faces)
	if len(out) > 0 {
		C.pv_draco_indices(m.h, (*C.uint32_t)(unsafe.Pointer(&out[0])))
	}
	for _, v := range out {
		if int(v) >= m.Points {
			return nil, fmt.Errorf("draco: index %d is past the %d decoded points", v, m.Points)
		}
	}
	return out, nil
}

// Components returns the number of components of the attribute with the
// given unique id, or -1 when the mesh has no such attribute.
func (m *DracoMesh) Components(uid int) int {
	if m.h == nil || uid < 0 || uid > 1<<31 {
		return -1
	}
	return int(C.pv_draco_attribute_components(m.h, C.uint32_t(uid)))
}

// Attribute returns the attribute with unique id uid as Points elements of
// ncomp components of glTF component type ctype, tightly packed in little
// endian (the layout of a glTF accessor without byteStride).
func (m *DracoMesh) Attribute(uid, ctype, ncomp int) ([]byte, error) {
	size := ComponentSize(ctype)
	if m.h == nil {
		return nil, errors.New("draco: mesh is closed")
	}
	if size == 0 || ncomp < 1 || ncomp > 16 {
		return nil, fmt.Errorf("draco: attribute %d: component type %d with %d components is not supported", uid, ctype, ncomp)
	}
	if m.Components(uid) < 0 {
		return nil, fmt.Errorf("draco: no attribute with unique id %d", uid)
	}
	n := m.Points * ncomp * size
	if n > MaxOutput {
		return nil, fmt.Errorf("draco: attribute %d: %d bytes is over the decoding budget", uid, n)
	}
	out := make([]byte, n)
	if n == 0 {
		return out, nil
	}
	switch C.pv_draco_attribute(m.h, C.uint32_t(uid), C.int(ctype), C.int(ncomp), unsafe.Pointer(&out[0])) {
	case 0:
		return out, nil
	case 1:
		return nil, fmt.Errorf("draco: no attribute with unique id %d", uid)
	default:
		return nil, fmt.Errorf("draco: attribute %d cannot be converted to component type %d", uid, ctype)
	}
}

// Close frees the decoded mesh.
func (m *DracoMesh) Close() {
	if m.h != nil {
		C.pv_draco_free(m.h)
		m.h = nil
	}
}
