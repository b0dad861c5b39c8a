package g4mf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"strings"
)

// The G4MF JSON, as far as this package reads and writes it (3D only).

type file struct {
	Asset       asset        `json:"asset"`
	Nodes       []node       `json:"nodes,omitempty"`
	Shapes      []shape      `json:"shapes,omitempty"`
	Meshes      []mesh       `json:"meshes,omitempty"`
	Accessors   []accessor   `json:"accessors,omitempty"`
	BufferViews []bufferView `json:"bufferViews,omitempty"`
	Buffers     []buffer     `json:"buffers,omitempty"`
}

// knownKeys are the top-level keys the codec reads; others are reported lost.
var knownKeys = map[string]bool{"asset": true, "nodes": true, "shapes": true, "meshes": true, "accessors": true, "bufferViews": true, "buffers": true}

type asset struct {
	Dimension int    `json:"dimension"`
	Generator string `json:"generator,omitempty"`
	Version   string `json:"version,omitempty"`
}

type node struct {
	Name         string          `json:"name,omitempty"`
	Children     []int           `json:"children,omitempty"`
	Position     []float64       `json:"position,omitempty"`
	Basis        []float64       `json:"basis,omitempty"`
	Rotor        []float64       `json:"rotor,omitempty"`
	Scale        []float64       `json:"scale,omitempty"`
	MeshInstance *meshInstance   `json:"meshInstance,omitempty"`
	Physics      *physics        `json:"physics,omitempty"`
	Extras       json.RawMessage `json:"extras,omitempty"`
	// Read only to report them lost.
	Camera   json.RawMessage `json:"camera,omitempty"`
	Light    json.RawMessage `json:"light,omitempty"`
	Skeleton json.RawMessage `json:"skeleton,omitempty"`
	Bone     json.RawMessage `json:"bone,omitempty"`
	Model    json.RawMessage `json:"modelInstance,omitempty"`
}

type meshInstance struct {
	Mesh      int   `json:"mesh"`
	Materials []int `json:"materials,omitempty"`
}

type physics struct {
	Motion   *motion `json:"motion,omitempty"`
	Collider *shaped `json:"collider,omitempty"`
	Trigger  *shaped `json:"trigger,omitempty"`
}

type motion struct {
	Type               string    `json:"type"`
	Mass               *float64  `json:"mass,omitempty"`
	InertiaDiagonal    []float64 `json:"inertiaDiagonal,omitempty"`
	InertiaOrientation []float64 `json:"inertiaOrientation,omitempty"`
	LinearVelocity     []float64 `json:"linearVelocity,omitempty"`
	AngularVelocity    []float64 `json:"angularVelocity,omitempty"`
	GravityFactor      *float64  `json:"gravityFactor,omitempty"`
}

type shaped struct {
	Shape *int  `json:"shape,omitempty"`
	Nodes []int `json:"nodes,omitempty"`
}

type shape struct {
	Name    string          `json:"name,omitempty"`
	Type    string          `json:"type,omitempty"`
	Size    []float64       `json:"size,omitempty"`
	Curves  json.RawMessage `json:"curves,omitempty"`
	Mesh    *int            `json:"mesh,omitempty"`
	Heights *int            `json:"heights,omitempty"`
	Length  *float64        `json:"length,omitempty"`
}

type mesh struct {
	Name     string    `json:"name,omitempty"`
	Vertices int       `json:"vertices"`
	Surfaces []surface `json:"surfaces"`
}

type surface struct {
	Simplexes *int `json:"simplexes,omitempty"`
	Edges     *int `json:"edges,omitempty"`
	Material  *int `json:"material,omitempty"`
}

type accessor struct {
	BufferView    int    `json:"bufferView"`
	ComponentType string `json:"componentType"`
	VectorSize    int    `json:"vectorSize,omitempty"`
}

type bufferView struct {
	Buffer     int `json:"buffer"`
	ByteLength int `json:"byteLength"`
	ByteOffset int `json:"byteOffset,omitempty"`
}

type buffer struct {
	ByteLength int    `json:"byteLength"`
	URI        string `json:"uri,omitempty"`
	Chunk      *int   `json:"chunk,omitempty"`
	Encoding   string `json:"encoding,omitempty"`
}

const (
	magic     = 0x464D3447 // "G4MF"
	chunkJSON = 0x4E4F534A // "JSON"
	chunkBLOB = 0x424F4C42 // "BLOB"
)

// splitG4B returns the JSON chunk and every chunk's data of a binary G4MF
// file, or data itself as JSON for the text form.
func splitG4B(data []byte) (js []byte, chunks [][]byte, err error) {
	if len(data) < 4 || binary.LittleEndian.Uint32(data) != magic {
		return data, nil, nil
	}
	if len(data) < 32 {
		return nil, nil, fmt.Errorf("truncated G4B: %d bytes, the headers alone need 32", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[4:]); v != 0 {
		return nil, nil, fmt.Errorf("G4B version %d is not supported (only the draft version 0)", v)
	}
	total := binary.LittleEndian.Uint64(data[8:])
	if total > uint64(len(data)) {
		return nil, nil, fmt.Errorf("truncated G4B: the header says %d bytes, the file has %d", total, len(data))
	}
	data = data[:total]
	off := 16
	for i := 0; off < len(data); i++ {
		if len(data)-off < 16 {
			return nil, nil, fmt.Errorf("truncated G4B: chunk %d header cut off at byte %d", i, off)
		}
		typ := binary.LittleEndian.Uint32(data[off:])
		enc := binary.LittleEndian.Uint32(data[off+4:])
		n := binary.LittleEndian.Uint64(data[off+8:])
		off += 16
		if n > uint64(len(data)-off) {
			return nil, nil, fmt.Errorf("truncated G4B: chunk %d says %d bytes, %d remain", i, n, len(data)-off)
		}
		body := data[off : off+int(n)]
		if enc != 0 {
			var cc [4]byte
			binary.LittleEndian.PutUint32(cc[:], enc)
			return nil, nil, fmt.Errorf("G4B chunk %d is encoded as %q; only plain chunks are read", i, string(cc[:]))
		}
		if typ == chunkJSON && js == nil {
			js = body
		}
		chunks = append(chunks, body)
		off += int(n)
		off = (off + 15) &^ 15
	}
	if js == nil {
		return nil, nil, errors.New("invalid G4B: no JSON chunk")
	}
	return js, chunks, nil
}

// g4bContainer wraps JSON and one BLOB chunk (when blob is not nil).
func g4bContainer(js, blob []byte) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	chunk := func(typ uint32, data []byte, padWith byte, last bool) {
		b.Write(le.AppendUint32(nil, typ))
		b.Write(le.AppendUint32(nil, 0))
		b.Write(le.AppendUint64(nil, uint64(len(data))))
		b.Write(data)
		if !last {
			for b.Len()%16 != 0 {
				b.WriteByte(padWith)
			}
		}
	}
	b.Write(le.AppendUint32(nil, magic))
	b.Write(le.AppendUint32(nil, 0))
	b.Write(le.AppendUint64(nil, 0)) // size, set below
	chunk(chunkJSON, js, ' ', blob == nil)
	if blob != nil {
		chunk(chunkBLOB, blob, 0, true)
	}
	out := b.Bytes()
	le.PutUint64(out[8:], uint64(len(out)))
	return out
}

// bufferData returns the bytes of buffer i.
func bufferData(f *file, i int, chunks [][]byte, dir fs.FS) ([]byte, error) {
	if i < 0 || i >= len(f.Buffers) {
		return nil, fmt.Errorf("buffer %d does not exist (the file has %d)", i, len(f.Buffers))
	}
	b := f.Buffers[i]
	if b.Encoding != "" {
		return nil, fmt.Errorf("buffer %d is encoded as %q; only plain buffers are read", i, b.Encoding)
	}
	var data []byte
	switch {
	case b.Chunk != nil:
		if *b.Chunk < 0 || *b.Chunk >= len(chunks) {
			return nil, fmt.Errorf("buffer %d: chunk %d does not exist", i, *b.Chunk)
		}
		data = chunks[*b.Chunk]
	case strings.HasPrefix(b.URI, "data:"):
		comma := strings.IndexByte(b.URI, ',')
		if comma < 0 || !strings.HasSuffix(b.URI[:comma], ";base64") {
			return nil, fmt.Errorf("buffer %d: data URI is not base64", i)
		}
		d, err := base64.StdEncoding.DecodeString(b.URI[comma+1:])
		if err != nil {
			return nil, fmt.Errorf("buffer %d: %w", i, err)
		}
		data = d
	case b.URI != "":
		if u, err := url.Parse(b.URI); err == nil && u.Scheme != "" {
			return nil, fmt.Errorf("buffer %d: uri %q is not a relative file path; only local files are read", i, b.URI)
		}
		name, err := url.PathUnescape(b.URI)
		if err != nil || dir == nil || !fs.ValidPath(name) {
			return nil, fmt.Errorf("buffer %d: cannot read %q next to the file", i, b.URI)
		}
		d, err := fs.ReadFile(dir, name)
		if err != nil {
			return nil, fmt.Errorf("buffer %d: %w", i, err)
		}
		data = d
	default:
		return nil, fmt.Errorf("buffer %d has neither uri nor chunk", i)
	}
	if len(data) < b.ByteLength {
		return nil, fmt.Errorf("buffer %d has %d bytes, its byteLength says %d", i, len(data), b.ByteLength)
	}
	return data[:b.ByteLength], nil
}

// reader reads accessors, loading each buffer once.
type reader struct {
	f      *file
	chunks [][]byte
	dir    fs.FS
	bufs   map[int][]byte
}

var componentSize = map[string]int{
	"float32": 4, "float64": 8, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
	"uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8,
}

// accessor returns accessor i as numbers, and its vector size.
func (r *reader) accessor(i int) ([]float64, int, error) {
	if i < 0 || i >= len(r.f.Accessors) {
		return nil, 0, fmt.Errorf("accessor %d does not exist (the file has %d)", i, len(r.f.Accessors))
	}
	a := r.f.Accessors[i]
	size, ok := componentSize[a.ComponentType]
	if !ok {
		return nil, 0, fmt.Errorf("accessor %d: component type %q is not read", i, a.ComponentType)
	}
	vs := a.VectorSize
	if vs == 0 {
		vs = 1
	}
	if vs < 0 {
		return nil, 0, fmt.Errorf("accessor %d: vectorSize %d", i, vs)
	}
	if a.BufferView < 0 || a.BufferView >= len(r.f.BufferViews) {
		return nil, 0, fmt.Errorf("accessor %d: buffer view %d does not exist", i, a.BufferView)
	}
	bv := r.f.BufferViews[a.BufferView]
	buf, ok := r.bufs[bv.Buffer]
	if !ok {
		b, err := bufferData(r.f, bv.Buffer, r.chunks, r.dir)
		if err != nil {
			return nil, 0, fmt.Errorf("accessor %d: %w", i, err)
		}
		r.bufs[bv.Buffer], buf = b, b
	}
	if bv.ByteOffset < 0 || bv.ByteLength < 0 || bv.ByteOffset+bv.ByteLength > len(buf) {
		return nil, 0, fmt.Errorf("accessor %d: buffer view %d (offset %d, length %d) runs past its buffer of %d bytes", i, a.BufferView, bv.ByteOffset, bv.ByteLength, len(buf))
	}
	data := buf[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]
	if len(data)%(size*vs) != 0 {
		return nil, 0, fmt.Errorf("accessor %d: %d bytes is not a whole number of %d-component %s elements", i, len(data), vs, a.ComponentType)
	}
	le := binary.LittleEndian
	out := make([]float64, len(data)/size)
	for k := range out {
		p := data[k*size:]
		switch a.ComponentType {
		case "float32":
			out[k] = float64(math.Float32frombits(le.Uint32(p)))
		case "float64":
			out[k] = math.Float64frombits(le.Uint64(p))
		case "int8":
			out[k] = float64(int8(p[0]))
		case "int16":
			out[k] = float64(int16(le.Uint16(p)))
		case "int32":
			out[k] = float64(int32(le.Uint32(p)))
		case "int64":
			out[k] = float64(int64(le.Uint64(p)))
		case "uint8":
			out[k] = float64(p[0])
		case "uint16":
			out[k] = float64(le.Uint16(p))
		case "uint32":
			out[k] = float64(le.Uint32(p))
		case "uint64":
			out[k] = float64(le.Uint64(p))
		}
	}
	return out, vs, nil
}

// blob builds the one buffer a written file has.
type blob struct {
	f    *file
	data []byte
}

func (b *blob) add(typ string, vs int, raw []byte) int {
	for len(b.data)%8 != 0 {
		b.data = append(b.data, 0)
	}
	b.f.BufferViews = append(b.f.BufferViews, bufferView{Buffer: 0, ByteOffset: len(b.data), ByteLength: len(raw)})
	b.data = append(b.data, raw...)
	b.f.Accessors = append(b.f.Accessors, accessor{BufferView: len(b.f.BufferViews) - 1, ComponentType: typ, VectorSize: vs})
	return len(b.f.Accessors) - 1
}

func (b *blob) floats(vs int, v []float64) int {
	raw := make([]byte, 0, 4*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(float32(x)))
	}
	return b.add("float32", vs, raw)
}

func (b *blob) uints(vs int, v []uint32) int {
	raw := make([]byte, 0, 4*len(v))
	for _, x := range v {
		raw = binary.LittleEndian.AppendUint32(raw, x)
	}
	return b.add("uint32", vs, raw)
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "\t")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
