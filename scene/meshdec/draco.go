package meshdec

/*
#cgo CXXFLAGS: -std=c++17 -O2
#cgo LDFLAGS: -ldraco
#include <stdlib.h>
#include "draco_shim.h"
*/
import "C"

import (
	"encoding/binary"
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
	if p, f, ok := dracoDeclared(data); ok && (p > dracoPerByte*uint64(len(data))+1024 || f > dracoPerByte*uint64(len(data))+1024) {
		return nil, fmt.Errorf("draco: the stream's %d bytes declare %d points and %d faces: not a real mesh", len(data), p, f)
	}
	var msg [256]C.char
	h := C.pv_draco_decode((*C.char)(unsafe.Pointer(&data[0])), C.size_t(len(data)), C.size_t(dracoBudget(len(data))), &msg[0], C.size_t(len(msg)))
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

// dracoBudget is the memory libdraco may allocate to decode n bytes:
// 64 MiB plus 1 KiB a byte (a real stream decodes to tens of bytes per
// byte of it; libdraco's own structures add a few times that), never more
// than twice MaxOutput.
func dracoBudget(n int) uint64 {
	return min(64<<20+1024*uint64(n), 2*MaxOutput)
}

// dracoPerByte bounds the points or faces a Draco stream may declare per
// byte of itself: libdraco allocates for the declared count before it
// reads the data (25 bytes that declared a billion points took 10 s and
// gigabytes), and a real mesh spends well over a bit per point or face.
const dracoPerByte = 64

// dracoDeclared reads the point and face counts a Draco stream declares
// ahead of its data, where the layout is fixed (draco's header, then a
// point cloud's int32 point count, or a sequential mesh's face and point
// counts: uint32 before bitstream 2.2, varints from 2.2); ok is false for
// other streams (edgebreaker meshes, metadata), which libdraco checks.
func dracoDeclared(data []byte) (points, faces uint64, ok bool) {
	const header = 11 // "DRACO", major, minor, encoder type, method, flags
	if len(data) < header || string(data[:5]) != "DRACO" || binary.LittleEndian.Uint16(data[9:11])&0x8000 != 0 {
		return 0, 0, false
	}
	major, minor, typ, method := data[5], data[6], data[7], data[8]
	rest := data[header:]
	switch {
	case typ == 0 && len(rest) >= 4: // point cloud, any method
		return uint64(binary.LittleEndian.Uint32(rest)), 0, true
	case typ == 1 && method == 0: // sequential mesh
		if major < 2 || major == 2 && minor < 2 {
			if len(rest) < 8 {
				return 0, 0, false
			}
			return uint64(binary.LittleEndian.Uint32(rest[4:])), uint64(binary.LittleEndian.Uint32(rest)), true
		}
		f, n := binary.Uvarint(rest)
		if n <= 0 {
			return 0, 0, false
		}
		p, m := binary.Uvarint(rest[n:])
		if m <= 0 {
			return 0, 0, false
		}
		return p, f, true
	}
	return 0, 0, false
}

// Indices returns the triangles' vertex indices (3 per face), nil for a
// point cloud. vertices is the number of vertices the indices address: the
// primitive's glTF vertex count, which is not Draco's point count when
// attributes live outside the Draco stream (KHR_draco_mesh_compression
// allows it; glTF-Transform keeps a sparse accessor out, and a primitive
// whose every attribute is sparse has a stream of triangles and no point);
// vertices < 0 means Draco's point count. Damaged data can decode to
// indices past the vertices (found by fuzzing): that is an error.
func (m *DracoMesh) Indices(vertices int) ([]uint32, error) {
	if m.h == nil || m.Faces < 0 {
		return nil, nil
	}
	if vertices < 0 {
		vertices = m.Points
	}
	out := make([]uint32, 3*m.Faces)
	if len(out) > 0 {
		C.pv_draco_indices(m.h, (*C.uint32_t)(unsafe.Pointer(&out[0])))
	}
	for _, v := range out {
		if int64(v) >= int64(vertices) {
			if vertices != m.Points {
				return nil, fmt.Errorf("draco: index %d is past the primitive's %d vertices", v, vertices)
			}
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
