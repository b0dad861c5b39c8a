package corecheck

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"net/url"
	"slices"
	"strings"

	"github.com/qmuntal/gltf"
)

// GLBMagic is the first four bytes of a GLB container, "glTF" little-endian.
const GLBMagic = 0x46546C67

// Options says what the caller adds to the core checks.
type Options struct {
	// Known reports whether the caller reads extension name itself (the
	// physics and variants codecs); a used extension that neither corecheck
	// nor Known knows is UNSUPPORTED_EXTENSION. Nil knows none.
	Known func(name string) bool
}

// Result is a document read and checked: the typed glTF (buffers loaded,
// images left encoded), where it came from and the core findings.
type Result struct {
	GLTF *gltf.Document
	// JSON is the JSON text (the GLB JSON chunk or the whole .gltf); BIN the
	// GLB BIN chunk, if any; GLB whether data was a GLB container.
	JSON, BIN []byte
	GLB       bool
	// Chunks are the GLB's chunks of other types than JSON and BIN (which
	// extensions may refer to), header included, in file order.
	Chunks [][]byte
	// MissingBuffers are the buffers that have no bytes because their
	// file does not exist (an IO_ERROR finding each), their data URI does
	// not decode (INVALID_URI) or the GLB's BIN chunk is cut off, by
	// index, with why ("its file a.bin was not found").
	MissingBuffers map[int]string
	// Findings are the core findings, in the order they were made.
	Findings []Finding
	// Omitted counts, by code, the findings past MaxFindingsPerCode that
	// were not made.
	Omitted map[string]Omitted
	// ScannedBytes is what the check of accessors' min and max read:
	// each distinct scan once, within the scan budget (ScanBudgetFloor).
	ScannedBytes int64
}

// Decode reads a glTF document from data (a .gltf JSON text or a .glb
// container). External buffers are read from dir; dir may be nil when the
// document has none. Whatever the Khronos glTF-Validator reports as a problem
// becomes a finding with its issue code; only input that cannot be read at
// all is an error (a *LoadError, with the code).
func Decode(data []byte, dir iofs.FS, opt Options) (*Result, error) {
	res, err := decode(data, dir, opt)
	if err != nil {
		var le *LoadError
		if errors.As(err, &le) && le.Findings == nil && res != nil {
			// Khronos reports the GLB container's problems with the
			// one that stops the reading.
			le.Findings = res.Findings
		}
		return nil, err
	}
	return res, nil
}

// MaxNodes is the most nodes a document may have: a file with more is a
// load error (a node takes about 2 KB of memory once read, checked and
// kept; 1,000,000 of them about 2 GB).
const MaxNodes = 1_000_000

// decode is Decode; on an error, res.Findings are the GLB container's
// findings made before it.
func decode(data []byte, dir iofs.FS, opt Options) (res *Result, err error) {
	res = &Result{}
	var fs findings
	chunks, glb, err := splitGLB(data, &fs)
	if err != nil {
		return nil, err
	}
	jsonChunk, bin := chunks.json, chunks.bin
	res.JSON, res.BIN, res.GLB, res.Chunks = jsonChunk, bin, glb, chunks.extra
	res.Findings = slices.Clip(fs)
	tree, err := parseTree(jsonChunk)
	if err == nil && bytes.HasPrefix(jsonChunk, []byte("\xef\xbb\xbf")) {
		err = errors.New("byte order mark")
	}
	if err != nil {
		// checkJSON words the error (line and column).
		if err := checkJSON(jsonChunk); err != nil {
			return res, &LoadError{Code: "INVALID_JSON", Err: err}
		}
		return res, loadErr("INVALID_JSON", "broken JSON: %v", err)
	}
	if nodes, _ := asMap(tree)["nodes"].([]any); len(nodes) > MaxNodes {
		// Each node costs about 2 KB once decoded and checked, from as
		// little as 3 bytes of text ("{},"): past the bound the file is
		// refused before that memory is taken.
		le := loadErr("VALUE_NOT_IN_RANGE", "%d nodes: more than the %d physview reads (about 2 KB of memory each)", len(nodes), MaxNodes)
		le.Pointer = "/nodes"
		return res, le
	}
	sc, ok := checkSchema(tree, &fs)
	if !ok {
		return res, loadErr("TYPE_MISMATCH", "not a glTF document: the JSON is not an object")
	}
	version, _ := asMap(sc.root["asset"])["version"].(string)
	if version == "" {
		le := loadErr("UNDEFINED_PROPERTY", "not a glTF document: no asset.version")
		le.Pointer = "/asset"
		if _, ok := sc.root["asset"].(map[string]any); !ok {
			le.Pointer = "/"
		}
		return res, le
	}
	if !strings.HasPrefix(version, "2.") {
		code := "UNKNOWN_ASSET_MAJOR_VERSION"
		if _, _, ok := parseVersion(version); !ok {
			code = "PATTERN_MISMATCH"
		}
		le := loadErr(code, "glTF version %q is not supported (only 2.x)", version)
		le.Pointer = "/asset/version"
		return res, le
	}
	if le := checkMinVersion(sc.root); le != nil {
		return res, le
	}

	// qmuntal/gltf's typed decoder refuses some valid files (an integer
	// written as 1.0) and files with type errors the schema pass reported;
	// those are decoded from the tree the schema pass cleaned.
	doc := new(gltf.Document)
	typed := jsonChunk
	if sc.cleaned || caseVariantFound(fs) {
		// Values the schema pass reported and removed (a null element, a
		// -1 index, a 0.5 count), and keys like "bUffers", which
		// encoding/json would take for "buffers" (casefold.go): the
		// typed document is decoded from the cleaned tree, so that no
		// check or loader after this meets them.
		tree, _ := withoutCaseVariants(sc.root)
		if clean, err := json.Marshal(tree); err == nil {
			typed = clean
		}
	}
	if err := json.Unmarshal(typed, doc); err != nil {
		tree, _ := withoutCaseVariants(sc.root)
		clean, merr := json.Marshal(tree)
		doc = new(gltf.Document)
		if merr != nil {
			return res, loadErr("INVALID_JSON", "not a valid glTF document: %v", merr)
		}
		if err := json.Unmarshal(clean, doc); err != nil {
			return res, loadErr("TYPE_MISMATCH", "not a valid glTF document: %v", strings.TrimPrefix(err.Error(), "gltf: "))
		}
	}
	fillNil(doc)
	for _, im := range doc.Images {
		if u, ok := localURI(im.URI); ok {
			im.URI = u
		}
	}
	missing, err := loadBuffers(doc, sc, dir, glb, chunks, &fs)
	if err != nil {
		return res, err
	}
	res.GLTF, res.MissingBuffers = doc, missing
	res.Omitted = checkLinks(doc, sc, jsonChunk, glb, opt, &fs)
	checkImages(doc, sc, dir, glb, &fs)
	res.ScannedBytes = checkData(doc, &fs)
	checkMoreData(doc, &fs)
	sc.dropUnderNotObjects(&fs)
	res.Findings = fs
	return res, nil
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// checkJSON reports a syntax error with its line and column.
func checkJSON(data []byte) error {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return errors.New("broken JSON: the text starts with a byte order mark, which JSON does not allow")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return errors.New("broken JSON: the file is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if off, ok := trailingData(data, dec.InputOffset()); ok {
			line, col := lineCol(data, off)
			return fmt.Errorf("broken JSON at line %d, column %d: more data after the JSON value (byte 0x%02x); only spaces may pad it", line, col, data[off])
		}
		if _, ok := v.(map[string]any); !ok {
			return errors.New("not a glTF document: the JSON is not an object")
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset)
		return fmt.Errorf("broken JSON at line %d, column %d: %v", line, col, se)
	}
	if strings.Contains(err.Error(), "unexpected EOF") || strings.Contains(err.Error(), "unexpected end") {
		return errors.New("broken JSON: the text ends too early")
	}
	return fmt.Errorf("broken JSON: %v", err)
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// localURI returns a relative URI as a file path (unescaped), or false for
// a data URI, an absolute URI or one that does not parse.
func localURI(uri string) (string, bool) {
	if uri == "" || strings.HasPrefix(uri, "data:") {
		return "", false
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return "", false
	}
	p, err := url.PathUnescape(strings.ReplaceAll(uri, "\\", "/"))
	if err != nil {
		return "", false
	}
	return strings.TrimPrefix(p, "./"), true
}

// loadBuffers gives every buffer its bytes: the GLB BIN chunk, a data URI
// or a file next to the document. A buffer without uri outside a GLB is a
// placeholder and has no bytes; a remote URI is never fetched (a finding).
// A local file that does not exist is an IO_ERROR finding (the buffer has
// no bytes, and missing says why, as for a BIN chunk cut off); one that
// cannot be read otherwise, or a name that leaves the folder, is an error.
// No buffer is allocated from byteLength: data is sliced from what was
// read. A buffer whose byteLength is missing or invalid is left without
// bytes, as the Khronos validator leaves it (glTF-Transform writes an empty
// GLB buffer as {}).
func loadBuffers(doc *gltf.Document, sc *schema, dir iofs.FS, glb bool, chunks glbChunks, fs *findings) (missing map[int]string, err error) {
	bin := chunks.bin
	for i, b := range doc.Buffers {
		p := fmt.Sprintf("/buffers/%d", i)
		if !sc.bufferLengthOK(i) {
			continue
		}
		var data []byte
		switch {
		case b.URI == "" && glb && i == 0:
			if chunks.binCut {
				// GLB_UNEXPECTED_END_OF_CHUNK_DATA says so; the buffer
				// has no bytes (never zeros in their place).
				missing = setMissing(missing, i, "the GLB's BIN chunk is cut off")
				continue
			}
			if bin == nil && chunks.cut {
				// The BIN chunk may be what the cut took: the GLB_
				// finding says so, not BUFFER_MISSING_GLB_DATA (as Khronos).
				missing = setMissing(missing, i, "the GLB is cut off before a BIN chunk")
				continue
			}
			if bin == nil {
				fs.addc(Error, "BUFFER_MISSING_GLB_DATA", p, "buffer 0 refers to the GLB binary chunk, which the file does not have")
				continue
			}
			data = bin
			// Up to 3 bytes pad the chunk to 4; what lies past that
			// padding is too much (as Khronos counts it).
			if extra := len(bin) - (b.ByteLength+3)&^3; b.ByteLength >= 0 && extra > 0 && !chunks.cut {
				fs.addc(Warning, "BUFFER_GLB_CHUNK_TOO_BIG", p, "the BIN chunk has %d bytes more than byteLength %d padded to 4", extra, b.ByteLength)
			}
		case b.URI == "":
			continue // a placeholder: no bytes
		case strings.HasPrefix(b.URI, "data:"):
			if glb {
				fs.addc(Info, "URI_GLB", p+"/uri", "URI used in a GLB container")
			}
			media, raw, err := decodeDataURI(b.URI)
			if err != nil {
				// Not a data URI, so not DATA_URI_GLB (as Khronos).
				fs.addc(Error, "INVALID_URI", p+"/uri", "invalid data URI: %v", err)
				// Nothing is drawn from it, and saying why beats "reaches
				// past the end of buffer 0 (0 bytes)".
				missing = setMissing(missing, i, fmt.Sprintf("its data URI does not decode: %v", err))
				continue
			}
			if glb {
				fs.addc(Warning, "DATA_URI_GLB", p+"/uri", "data URI used in a GLB container")
			}
			// Media types are case-insensitive (RFC 2045, section 5.1).
			if m := strings.ToLower(media); m != "application/octet-stream" && m != "application/gltf-buffer" {
				fs.addc(Error, "BUFFER_DATA_URI_MIME_TYPE_INVALID", p+"/uri", "data URI media type must be application/octet-stream or application/gltf-buffer, found %q (read anyway)", media)
			}
			data = raw
		default:
			if glb {
				fs.addc(Info, "URI_GLB", p+"/uri", "URI used in a GLB container")
			}
			u, err := url.Parse(b.URI)
			if err != nil {
				fs.addc(Error, "INVALID_URI", p+"/uri", "invalid URI %q: %v", b.URI, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				fs.addc(Warning, "NON_RELATIVE_URI", p+"/uri", "non-relative URI %q: remote data is never fetched, so the buffer has no bytes", b.URI)
				continue
			}
			name, ok := localURI(b.URI)
			if dir == nil || !ok || !iofs.ValidPath(name) {
				le := loadErr("IO_ERROR", "buffer %d: cannot read %q: buffer.uri must be a relative path inside the file's folder", i, b.URI)
				le.Pointer = p + "/uri"
				return nil, le
			}
			raw, err := readRegularFS(dir, name)
			if errors.Is(err, iofs.ErrNotExist) {
				// As Khronos: a finding, and everything else is still
				// checked; the accessors that read the buffer get no
				// data checks, and the document says it is missing
				// (MissingBuffers) so nothing is drawn from it.
				fs.addc(Error, "IO_ERROR", p+"/uri", "%s", ResourceNotFound(b.URI))
				missing = setMissing(missing, i, fmt.Sprintf("its file %s was not found", b.URI))
				continue
			}
			if errors.Is(err, ErrNotRegular) {
				// A named pipe would block the reader: refused unread,
				// a finding like a missing file.
				why := unwrapPathError(err).Error()
				fs.addc(Error, "IO_ERROR", p+"/uri", "buffer file %s is not read: %s", b.URI, why)
				missing = setMissing(missing, i, fmt.Sprintf("its file %s is %s", b.URI, strings.TrimPrefix(why, ErrNotRegular.Error()+": it is ")))
				continue
			}
			if err != nil {
				return nil, &LoadError{Code: "IO_ERROR", Err: fmt.Errorf("buffer %d: %s: %w", i, b.URI, unwrapPathError(err)), Pointer: p + "/uri"}
			}
			data = raw
			b.URI = name // unescaped, as qmuntal/gltf's decoder leaves it
		}
		if b.ByteLength < 0 {
			continue // the schema check says so; no bytes to slice
		}
		if len(data) < b.ByteLength {
			fs.addc(Error, "BUFFER_BYTE_LENGTH_MISMATCH", p, "the data has %d bytes, less than byteLength %d", len(data), b.ByteLength)
		} else {
			data = data[:b.ByteLength:b.ByteLength]
		}
		b.Data = data
	}
	return missing, nil
}

// setMissing records in m (made when nil) why buffer i has no bytes.
func setMissing(m map[int]string, i int, why string) map[int]string {
	if m == nil {
		m = map[int]string{}
	}
	m[i] = why
	return m
}

// ResourceNotFound is the message of the IO_ERROR finding for a buffer or
// image file that does not exist, worded as the Khronos validator words it.
func ResourceNotFound(uri string) string { return fmt.Sprintf("Resource not found (%s).", uri) }

// DecodeDataURI returns the media type and the bytes of a data: URI, as
// the checks read it (base64 or percent-encoded).
func DecodeDataURI(uri string) (media string, data []byte, err error) { return decodeDataURI(uri) }

// decodeDataURI reads data:[media type][;params][;base64],DATA; without
// base64 the data is percent-encoded text.
func decodeDataURI(uri string) (media string, data []byte, err error) {
	head, payload, ok := strings.Cut(strings.TrimPrefix(uri, "data:"), ",")
	if !ok {
		return "", nil, errors.New("no comma before the data")
	}
	parts := strings.Split(head, ";")
	isBase64 := len(parts) > 1 && parts[len(parts)-1] == "base64"
	params := parts[1:]
	if isBase64 {
		params = parts[1 : len(parts)-1]
	}
	for _, part := range params {
		if !strings.Contains(part, "=") {
			return "", nil, fmt.Errorf("malformed parameter %q", part)
		}
	}
	if !isBase64 {
		text, err := url.PathUnescape(payload)
		if err != nil {
			return "", nil, fmt.Errorf("bad percent-encoding: %v", err)
		}
		return parts[0], []byte(text), nil
	}
	// A base64 payload may be percent-encoded too (RFC 2397 is a URI).
	if strings.Contains(payload, "%") {
		if un, err := url.PathUnescape(payload); err == nil {
			payload = un
		}
	}
	data, err = base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "", nil, fmt.Errorf("bad base64: %v", err)
	}
	return parts[0], data, nil
}

func unwrapPathError(err error) error {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
