package corecheck

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// LoadError is input that cannot be read at all (exit status 2 in the
// viewer). Code is the Khronos glTF-Validator issue code of the problem, such
// as INVALID_JSON, IO_ERROR or GLB_UNEXPECTED_END_OF_HEADER.
type LoadError struct {
	Code string
	Err  error
	// Pointer is the JSON pointer of the problem ("" for the file as a
	// whole, such as a broken GLB header).
	Pointer string
}

// Error returns the sentence without the code.
func (e *LoadError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *LoadError) Unwrap() error { return e.Err }

func loadErr(code, format string, args ...any) *LoadError {
	return &LoadError{Code: code, Err: fmt.Errorf(format, args...)}
}

// ErrorPointer returns the JSON pointer of a load error ("" when it is
// about the whole file or err is not a LoadError).
func ErrorPointer(err error) string {
	var le *LoadError
	if errors.As(err, &le) {
		return le.Pointer
	}
	return ""
}

// ErrorCode returns the Khronos issue code of a load error, or "" when err
// is not a LoadError.
func ErrorCode(err error) string {
	var le *LoadError
	if errors.As(err, &le) {
		return le.Code
	}
	return ""
}

const (
	chunkJSON = 0x4E4F534A // "JSON"
	chunkBIN  = 0x004E4942 // "BIN\x00"
)

// splitGLB returns the JSON and BIN chunks of a GLB, or data itself as JSON.
// Structural problems the file can still be read past (a duplicate or
// misplaced chunk, trailing bytes) become findings; the rest is a LoadError.
// Nothing is allocated: the chunks are slices of data.
func splitGLB(data []byte, fs *findings) (jsonChunk, bin []byte, glb bool, err error) {
	if len(data) < 4 || binary.LittleEndian.Uint32(data) != GLBMagic {
		return data, nil, false, nil
	}
	if len(data) < 12 {
		return nil, nil, true, loadErr("GLB_UNEXPECTED_END_OF_HEADER", "truncated GLB: %d bytes, the header alone needs 12", len(data))
	}
	version := binary.LittleEndian.Uint32(data[4:])
	total := int64(binary.LittleEndian.Uint32(data[8:]))
	if version != 2 {
		return nil, nil, true, loadErr("GLB_INVALID_VERSION", "GLB version %d is not supported (only 2)", version)
	}
	if total <= 12 || len(data) <= 12 {
		return nil, nil, true, loadErr("GLB_LENGTH_TOO_SMALL", "truncated GLB: %d bytes, the header and one chunk need at least 20", len(data))
	}
	// A header length past the end of the file is GLB_LENGTH_MISMATCH when
	// the chunks end with the file; a chunk cut off is reported below.
	headerLong := total > int64(len(data))
	end := int(min(total, int64(len(data))))
	off := 12
	lengthMismatch := false
	sawBIN := false
	for chunk := 0; off < end || (chunk == 0 && off < len(data)); chunk++ {
		if len(data)-off < 8 {
			return nil, nil, true, loadErr("GLB_UNEXPECTED_END_OF_CHUNK_HEADER", "truncated GLB: chunk %d header cut off at byte %d", chunk, off)
		}
		n := int64(binary.LittleEndian.Uint32(data[off:]))
		typ := binary.LittleEndian.Uint32(data[off+4:])
		start := off
		off += 8
		if n > int64(end-off) {
			if n > int64(len(data)-off) {
				return nil, nil, true, loadErr("GLB_UNEXPECTED_END_OF_CHUNK_DATA", "truncated GLB: chunk %d says %d bytes, %d remain", chunk, n, len(data)-off)
			}
			fs.addc(Error, "GLB_CHUNK_TOO_BIG", "", "chunk %d (0x%08x, at byte %d) length %d does not fit the total GLB length %d", chunk, typ, start, n, total)
			lengthMismatch = true
			end = len(data)
		}
		body := data[off : off+int(n)]
		off += int(n)
		if n == 0 && typ != chunkBIN { // an empty BIN chunk is GLB_EMPTY_BIN_CHUNK
			fs.addc(Error, "GLB_EMPTY_CHUNK", "", "chunk %d (0x%08x, at byte %d) has zero length", chunk, typ, start)
		} else if n%4 != 0 {
			fs.addc(Error, "GLB_CHUNK_LENGTH_UNALIGNED", "", "the length of chunk %d (0x%08x) is not a multiple of 4", chunk, typ)
		}
		switch {
		case chunk == 0 && typ != chunkJSON:
			return nil, nil, true, loadErr("GLB_UNEXPECTED_FIRST_CHUNK", "invalid GLB: the first chunk is not JSON (type 0x%08x)", typ)
		case chunk == 0:
			if n == 0 {
				return nil, nil, true, loadErr("GLB_EMPTY_CHUNK", "invalid GLB: the JSON chunk is empty")
			}
			jsonChunk = body
		case typ == chunkJSON:
			fs.addc(Error, "GLB_DUPLICATE_CHUNK", "", "chunk %d at byte %d: a second JSON chunk (ignored)", chunk, start)
		case typ == chunkBIN:
			if len(body) == 0 {
				fs.addc(Info, "GLB_EMPTY_BIN_CHUNK", "", "chunk %d at byte %d: an empty BIN chunk should be omitted", chunk, start)
			}
			switch {
			case sawBIN:
				fs.addc(Error, "GLB_DUPLICATE_CHUNK", "", "chunk %d at byte %d: a second BIN chunk (ignored)", chunk, start)
			case chunk != 1:
				// Misplaced, but still the buffer's data (as Khronos
				// reads it).
				fs.addc(Error, "GLB_UNEXPECTED_BIN_CHUNK", "", "chunk %d at byte %d: the BIN chunk must be the second chunk", chunk, start)
				bin, sawBIN = body, true
			default:
				bin, sawBIN = body, true
			}
		default:
			fs.addc(Warning, "GLB_UNKNOWN_CHUNK_TYPE", "", "chunk %d at byte %d has the unknown type 0x%08x (ignored)", chunk, start, typ)
		}
	}
	if headerLong {
		fs.addc(Error, "GLB_LENGTH_MISMATCH", "", "the header says %d bytes, the file has %d", total, len(data))
	} else if lengthMismatch {
		fs.addc(Error, "GLB_LENGTH_MISMATCH", "", "the header says %d bytes, the chunks take %d", total, off)
	} else if len(data) > end {
		fs.addc(Warning, "GLB_EXTRA_DATA", "", "%d bytes after the end of the GLB stream (ignored)", len(data)-end)
	}
	return jsonChunk, bin, true, nil
}
