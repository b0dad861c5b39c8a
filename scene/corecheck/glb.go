package corecheck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
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
	// Offset is the byte offset of a problem with a GLB container (a
	// GLB_ code), as Khronos reports it.
	Offset int64
	// Findings are the problems found before the one that stopped the
	// reading (a GLB's chunk findings), which Khronos reports with it.
	Findings []Finding
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

// glbChunks is what splitGLB read from a GLB container.
type glbChunks struct {
	json, bin []byte
	// extra are the whole chunks of other types, header included.
	extra [][]byte
	// cut is set when the file ends inside a chunk header or chunk data;
	// binCut when that chunk is the BIN chunk: its bytes are not used (a
	// buffer in it has no data).
	cut, binCut bool
}

// splitGLB reads a GLB container as the glTF 2.0 specification lays it
// out ("GLB File Format Specification": a 12-byte header of magic,
// version and total length, then chunks of length, type and data; the
// first is JSON, a BIN chunk may follow) and reports each problem the
// Khronos glTF-Validator reports, at the byte offset it gives: every
// chunk header is checked for alignment, for fitting the declared length,
// for its place and type, independently of the others; the stream ends
// at the declared length when a chunk ends there (GLB_EXTRA_DATA after
// it), else at the end of the file. A file cut inside a chunk header or
// chunk data is an error finding, and what was read before it is still
// used. Only a header that cannot be read, or no JSON chunk to read, is a
// LoadError, which carries the findings made before it. Data that does not
// start with the GLB magic is returned as JSON. Nothing is allocated: the
// chunks are slices of data.
func splitGLB(data []byte, fs *findings) (c glbChunks, glb bool, err error) {
	if len(data) < 4 || binary.LittleEndian.Uint32(data) != GLBMagic {
		return glbChunks{json: data}, false, nil
	}
	if len(data) < 12 {
		le := loadErr("GLB_UNEXPECTED_END_OF_HEADER", "truncated GLB: %d bytes, the header alone needs 12", len(data))
		le.Offset = int64(len(data))
		return c, true, le
	}
	if version := binary.LittleEndian.Uint32(data[4:]); version != 2 {
		le := loadErr("GLB_INVALID_VERSION", "GLB version %d is not supported (only 2)", version)
		le.Offset = 4
		return c, true, le
	}
	total := int64(binary.LittleEndian.Uint32(data[8:]))
	if total <= 12 {
		fs.addAt(Error, "GLB_LENGTH_TOO_SMALL", 8, "the header's total length %d is too small: the header alone takes 12 bytes", total)
	}
	size := int64(len(data))
	off := int64(12)
	sawJSON, sawBIN := false, false
	for chunk := 0; off < size; chunk++ {
		if off == total {
			// A stream that ends where the header says, with bytes after.
			fs.addAt(Warning, "GLB_EXTRA_DATA", off, "%d bytes after the end of the GLB stream (its declared length %d; ignored)", size-off, total)
			break
		}
		if size-off < 8 {
			fs.addAt(Error, "GLB_UNEXPECTED_END_OF_CHUNK_HEADER", size, "truncated GLB: the header of chunk %d is cut off at byte %d", chunk, size)
			c.cut = true
			break
		}
		start := off
		n := int64(binary.LittleEndian.Uint32(data[off:]))
		typ := binary.LittleEndian.Uint32(data[off+4:])
		off += 8
		if n%4 != 0 {
			fs.addAt(Error, "GLB_CHUNK_LENGTH_UNALIGNED", start, "the length %d of chunk %d (%s) is not a multiple of 4", n, chunk, chunkName(typ))
		}
		if off+n > total {
			fs.addAt(Error, "GLB_CHUNK_TOO_BIG", start, "chunk %d (%s) of %d bytes ends at byte %d, past the declared GLB length %d", chunk, chunkName(typ), n, off+n, total)
		}
		if chunk == 0 && typ != chunkJSON {
			fs.addAt(Error, "GLB_UNEXPECTED_FIRST_CHUNK", start, "the first chunk must be JSON, not %s", chunkName(typ))
		}
		if typ == chunkBIN && chunk > 1 && !sawBIN {
			// Misplaced, but still the buffer's data (as Khronos reads it).
			fs.addAt(Error, "GLB_UNEXPECTED_BIN_CHUNK", start, "chunk %d is the BIN chunk, which must be the second chunk", chunk)
		}
		var body []byte
		whole := n <= size-off
		if whole {
			body = data[off : off+n]
		}
		switch typ {
		case chunkJSON:
			if n == 0 {
				fs.addAt(Error, "GLB_EMPTY_CHUNK", start, "chunk %d (JSON) has zero length", chunk)
			}
			if sawJSON {
				fs.addAt(Error, "GLB_DUPLICATE_CHUNK", start, "chunk %d is a second JSON chunk (ignored)", chunk)
			} else if whole && n > 0 {
				c.json = body
			}
			sawJSON = true
		case chunkBIN:
			if n == 0 {
				fs.addAt(Info, "GLB_EMPTY_BIN_CHUNK", start, "chunk %d is an empty BIN chunk, which should be omitted", chunk)
			}
			if sawBIN {
				fs.addAt(Error, "GLB_DUPLICATE_CHUNK", start, "chunk %d is a second BIN chunk (ignored)", chunk)
			} else {
				c.bin, c.binCut = body, !whole
			}
			sawBIN = true
		default:
			fs.addAt(Warning, "GLB_UNKNOWN_CHUNK_TYPE", start, "chunk %d has the unknown type %s (ignored)", chunk, chunkName(typ))
			if whole && n%4 == 0 && chunk > 0 {
				// The specification lets extensions refer to chunks of
				// new types: a save keeps them.
				c.extra = append(c.extra, data[start:off+n])
			}
		}
		if !whole {
			fs.addAt(Error, "GLB_UNEXPECTED_END_OF_CHUNK_DATA", size, "truncated GLB: chunk %d (%s) says %d bytes, %d remain", chunk, chunkName(typ), n, size-off)
			c.cut = true
			break
		}
		off += n
	}
	if !c.cut && off == size && off != total {
		fs.addAt(Error, "GLB_LENGTH_MISMATCH", off, "the header says %d bytes, the GLB stream has %d", total, off)
	}
	if c.json == nil {
		return c, true, noJSON(sawJSON, fs)
	}
	return c, true, nil
}

// noJSON is the LoadError of a GLB without a JSON chunk to read: the last
// error finding, which says why, with the findings before it.
func noJSON(sawJSON bool, fs *findings) *LoadError {
	why := ""
	if !sawJSON {
		why = ": the GLB has no JSON chunk"
	}
	for i := len(*fs) - 1; i >= 0; i-- {
		if f := (*fs)[i]; f.Severity == Error {
			le := loadErr(f.Code, "%s%s", f.Message, why)
			le.Offset = f.Offset
			le.Findings = slices.Delete(slices.Clone(*fs), i, i+1)
			return le
		}
	}
	le := loadErr("GLB_UNEXPECTED_FIRST_CHUNK", "invalid GLB%s", why)
	le.Offset, le.Findings = 12, slices.Clone(*fs)
	return le
}

// chunkName names a chunk type: JSON, BIN or its value in hexadecimal.
func chunkName(typ uint32) string {
	switch typ {
	case chunkJSON:
		return "JSON"
	case chunkBIN:
		return "BIN"
	}
	return fmt.Sprintf("0x%08x", typ)
}
