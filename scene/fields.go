package scene

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"physview/scene/internal/jsonobj"
)

// Member is one JSON key with its raw value, kept exactly as it was read.
type Member struct {
	Key   string
	Value json.RawMessage
}

// Members holds the keys of an owned JSON object that the model does not
// interpret (extensions, extras, keys from future versions), in file order.
// They are written back unchanged after the keys the model writes.
type Members []Member

// Reader reads the members of one JSON object leniently: a value of the
// wrong type becomes a finding and the default is used, so loading goes on.
// Dialect codecs get one from NewReader (codec.go).
type Reader struct {
	obj  *jsonobj.Object
	path string
	fs   *findings
	used map[string]bool
	// prefix is put before the generic codes (TYPE_MISMATCH...) of the
	// reader's findings: the dialect of the extension it reads.
	prefix string
}

// reader is the package's own name for Reader.
type reader = Reader

// newReader parses raw as an object. It returns nil, with an error finding,
// when raw is not an object.
func newReader(raw json.RawMessage, path string, fs *findings) *reader {
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		fs.errorf(codePrefix(path)+"TYPE_MISMATCH", path, "must be a JSON object (%v)", err)
		return nil
	}
	return &reader{obj: obj, path: path, fs: fs, used: map[string]bool{}, prefix: codePrefix(path)}
}

// codePrefix is the prefix of the generic codes (TYPE_MISMATCH,
// UNDEFINED_PROPERTY, VALUE_NOT_IN_RANGE) for a value at path: the one a
// codec's CodePrefix hook gives ("KHR_" in the Khronos physics drafts,
// none in glTF 2.1 core shapes, whose codes are the validator's own), none
// in KHR_materials_variants (whose rules are the Khronos validator's own),
// and "OMI_" elsewhere.
func codePrefix(path string) string {
	for _, c := range extensionCodecs {
		if c.CodePrefix == nil {
			continue
		}
		if p, ok := c.CodePrefix(path); ok {
			return p
		}
	}
	_, ext, ok := strings.Cut(path, "/extensions/")
	if ok {
		if ext, _, _ = strings.Cut(ext, "/"); ext == ExtVariants {
			return ""
		}
	}
	return "OMI_"
}

// code returns base with the reader's dialect prefix.
func (r *reader) code(base string) string { return r.prefix + base }

// has reports whether key has a value: a null is no value, as raw reads
// it (and as the Khronos validator does), so a required member written
// null is reported missing instead of read silently as its default.
func (r *reader) has(key string) bool {
	v, ok := r.obj.Get(key)
	return ok && !bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}

func (r *reader) raw(key string) (json.RawMessage, bool) {
	r.used[key] = true
	v, ok := r.obj.Get(key)
	if ok && bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		// Read as absent; the Khronos validator gives a null its
		// TYPE_MISMATCH (extras may be anything).
		if key != "extras" {
			r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must not be null: read as if absent")
		}
		return nil, false
	}
	return v, ok
}

func (r *reader) at(key string) string { return r.path + "/" + key }

// bad records that key's value could not be read as an object: the key is
// left out of the used set so rest() keeps the value and saving writes it
// back as it was (the model writes nothing under that key). A bad scalar or
// array is replaced by its default instead, and the finding says so.
func (r *reader) bad(key string) { r.used[key] = false }

// number reads a finite number; absent gives def.
func (r *reader) number(key string, def float64) float64 {
	v, ok := r.raw(key)
	if !ok {
		return def
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		if math.IsNaN(def) {
			r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must be a number, found %s%s", short(v), instead(false, ""))
		} else {
			r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must be a number, found %s; %g is used instead", short(v), def)
		}
		return def
	}
	return f
}

// optNumber reads a number that may be absent.
func (r *reader) optNumber(key string) *float64 {
	if _, ok := r.raw(key); !ok {
		return nil
	}
	f := r.number(key, math.NaN())
	if math.IsNaN(f) {
		return nil
	}
	return &f
}

// index reads a glTF id: an integer, -1 meaning "none". A non-integer
// number is an error and gives def.
func (r *reader) index(key string, def int) int {
	v, ok := r.raw(key)
	if !ok {
		return def
	}
	var f float64
	if err := json.Unmarshal(v, &f); err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must be an integer index, found %s%s", short(v), instead(def >= 0, strconv.Itoa(def)))
		return def
	}
	return int(f)
}

func (r *reader) boolean(key string, def bool) bool {
	v, ok := r.raw(key)
	if !ok {
		return def
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must be true or false, found %s; %t is used instead", short(v), def)
		return def
	}
	return b
}

func (r *reader) str(key, def string) string {
	v, ok := r.raw(key)
	if !ok {
		return def
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must be a string, found %s%s", short(v), instead(def != "", strconv.Quote(def)))
		return def
	}
	return s
}

// numbers reads an array of finite numbers; nil if absent or malformed.
func (r *reader) numbers(key string) ([]float64, bool) { return r.numbersOr(key, "") }

// numbersOr is numbers for a vector with a default: the findings end with
// what is used instead (def, written as the file would).
func (r *reader) numbersOr(key, def string) ([]float64, bool) {
	v, ok := r.raw(key)
	if !ok {
		return nil, false
	}
	var fs []float64
	if err := json.Unmarshal(v, &fs); err != nil {
		r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must be an array of numbers, found %s%s", short(v), instead(def != "", def))
		return nil, false
	}
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must hold finite numbers%s", instead(def != "", def))
			return nil, false
		}
	}
	return fs, true
}

func (r *reader) vec3(key string, def [3]float64) [3]float64 {
	fs, ok := r.numbersOr(key, vecText(def[:]))
	if !ok {
		return def
	}
	if len(fs) != 3 {
		r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must have 3 numbers, has %d%s", len(fs), instead(true, vecText(def[:])))
		return def
	}
	return [3]float64{fs[0], fs[1], fs[2]}
}

func (r *reader) vec4(key string, def [4]float64) [4]float64 {
	fs, ok := r.numbersOr(key, vecText(def[:]))
	if !ok {
		return def
	}
	if len(fs) != 4 {
		r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must have 4 numbers, has %d%s", len(fs), instead(true, vecText(def[:])))
		return def
	}
	return [4]float64{fs[0], fs[1], fs[2], fs[3]}
}

// instead is the end of a TYPE_MISMATCH finding: what the model holds in
// place of the file's value (Document.PlayedDefaults repeats it when the
// physics is played). Without a default (has false) the member is read
// as absent.
func instead(has bool, def string) string {
	if !has {
		return "; it is read as absent"
	}
	return "; " + def + " is used instead"
}

// vecText writes a default vector as the file would: [0, 0, 0].
func vecText(v []float64) string {
	parts := make([]string, len(v))
	for i, f := range v {
		parts[i] = strconv.FormatFloat(f, 'g', -1, 64)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// indices reads an array of integers; ok is false if absent or malformed.
func (r *reader) indices(key string) ([]int, bool) {
	fs, ok := r.numbers(key)
	if !ok {
		return nil, false
	}
	out := make([]int, 0, len(fs))
	for _, f := range fs {
		if f != math.Trunc(f) || math.Abs(f) > 1<<31 {
			r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must hold integers, found %v", f)
			return nil, false
		}
		out = append(out, int(f))
	}
	return out, true
}

func (r *reader) strings(key string) []string {
	v, ok := r.raw(key)
	if !ok {
		return nil
	}
	var ss []string
	if err := json.Unmarshal(v, &ss); err != nil {
		r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must be an array of strings, found %s", short(v))
		return nil
	}
	return ss
}

// object returns a reader for a nested object, or nil if absent or not an object.
func (r *reader) object(key string) *reader {
	v, ok := r.raw(key)
	if !ok {
		return nil
	}
	sub := newReader(v, r.at(key), r.fs)
	if sub == nil {
		r.bad(key)
	}
	return sub
}

// array returns the raw elements of an array member.
func (r *reader) array(key string) []json.RawMessage {
	v, ok := r.raw(key)
	if !ok {
		return nil
	}
	elems, err := jsonobj.ParseArray(v)
	if err != nil {
		r.fs.errorf(r.code("TYPE_MISMATCH"), r.at(key), "must be an array, found %s", short(v))
		return nil
	}
	return elems
}

// rest returns the members not read so far, in file order.
func (r *reader) rest() Members {
	var m Members
	for _, k := range r.obj.Keys() {
		if r.used[k] {
			continue
		}
		v, _ := r.obj.Get(k)
		m = append(m, Member{Key: k, Value: v})
	}
	return m
}

// short quotes a raw JSON value for a message, cut to a readable length.
func short(v json.RawMessage) string {
	s := string(bytes.TrimSpace(v))
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// Writer builds an owned JSON object in a fixed key order.
type Writer struct {
	obj jsonobj.Object
}

// writer is the package's own name for Writer.
type writer = Writer

func (w *writer) set(key string, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only finite numbers, strings and the model's own types reach here.
		panic("scene: cannot encode " + key + ": " + err.Error())
	}
	w.obj.Set(key, bytes.TrimRight(b.Bytes(), "\n"))
}

func (w *writer) raw(key string, v json.RawMessage) { w.obj.Set(key, v) }

// ref writes an optional glTF index, or nothing when it is unset (below 0):
// an index below 0 fails schema validation in every other tool.
func (w *writer) ref(key string, i int) {
	if i >= 0 {
		w.set(key, i)
	}
}

// encoder is a model value that writes its own JSON.
type encoder interface{ encode() json.RawMessage }

// setList writes key as the array of the elements' encodings.
func setList[T encoder](w *writer, key string, xs []T) {
	out := make([]json.RawMessage, len(xs))
	for i, x := range xs {
		out[i] = x.encode()
	}
	w.set(key, out)
}

// finite writes a number unless it is infinite, which JSON cannot hold and
// the specifications spell as "absent".
func (w *writer) finite(key string, f float64) {
	if !math.IsInf(f, 0) && !math.IsNaN(f) {
		w.set(key, f)
	}
}

// rest appends the uninterpreted members that the model did not write itself.
func (w *writer) rest(m Members) {
	for _, mem := range m {
		if !w.obj.Has(mem.Key) {
			w.obj.Set(mem.Key, mem.Value)
		}
	}
}

func (w *writer) bytes() json.RawMessage {
	b, _ := w.obj.MarshalJSON()
	return b
}

func itoa(i int) string { return strconv.Itoa(i) }
