package corecheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The core glTF checks follow the Khronos glTF-Validator: each finding
// carries the Khronos issue code and severity of the same rule. They run in
// three passes over the document:
//
//   - schema (this file): JSON types, required properties, ranges, enums and
//     index references of every core object, on the generic JSON tree. A value
//     of the wrong type is reported and removed from the tree, an integer
//     written as a float (1.0) is rewritten as an integer, so qmuntal/gltf's
//     typed decoder, which is strict, reads what is left (sanitize);
//   - links (corecheck_link.go): accessors against buffer views and buffers,
//     mesh attributes, animations, skins, images, cameras, extensions;
//   - data (corecheck_data.go): accessor contents where the bytes are there.

// jsonTree is a JSON value read with UseNumber: map[string]any, []any,
// json.Number, string, bool or nil.
type jsonTree = any

// parseTree reads data as a JSON tree. Numbers stay json.Number, so values
// that overflow a float64 (1e400) are still read.
func parseTree(data []byte) (jsonTree, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if off, ok := trailingData(data, dec.InputOffset()); ok {
		return nil, fmt.Errorf("more data after the JSON value at byte %d", off)
	}
	return v, nil
}

// trailingData reports where anything but JSON whitespace follows the
// value that ends at end: a second value, or padding that is not spaces (a
// GLB's JSON chunk padded with zeros), which is not JSON.
func trailingData(data []byte, end int64) (int64, bool) {
	for i := end; i < int64(len(data)); i++ {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return i, true
		}
	}
	return 0, false
}

// schema walks the tree of a glTF document and reports schema findings.
type schema struct {
	fs    *findings
	root  map[string]any
	count map[string]int // length of each root collection
	// exts lists each extension object seen: name, owner kind, pointer.
	exts []extUse
	// notObjects are the pointers of array elements (in root collections,
	// or arrays of objects inside objects) that are not JSON objects: the
	// type mismatch is all Khronos says of them.
	notObjects []string
	// badComponentType are the accessors (by pointer) whose componentType
	// is not one glTF allows (VALUE_NOT_IN_LIST, deleted from the tree).
	badComponentType map[string]bool
	// v21 is set for a glTF 2.1 (or newer 2.x) document, whose root and
	// nodes have the 2.1 core properties (version21.go).
	v21 bool
	// cleaned says the pass removed or replaced a value of the wrong type
	// or range: the typed decoder must then read the cleaned tree, never
	// the text (a null element, a -1 index or a 0.5 would reach the link
	// checks and the loaders as a nil or an index out of range).
	cleaned bool
}

type extUse struct {
	name, kind, path string
	value            any
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "value"
}

func shortJSON(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}

// drop removes o[key], a value the pass reported, from the tree.
func (s *schema) drop(o map[string]any, key string) {
	delete(o, key)
	s.cleaned = true
}

func (s *schema) mismatch(p string, v any, want string) {
	s.fs.addc(Error, "TYPE_MISMATCH", p, "type mismatch: %s is not a %s", shortJSON(v), want)
}

func (s *schema) undefined(p, key string) {
	s.fs.addc(Error, "UNDEFINED_PROPERTY", p, "property %q must be defined", key)
}

// numberValue reads a json.Number; ok is false for a value that is not a
// number. inf reports a number too large for a float64.
func numberValue(v any) (f float64, ok, inf bool) {
	n, isNum := v.(json.Number)
	if !isNum {
		return 0, false, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return f, true, true
	}
	return f, true, false
}

// get returns o[key]; absent and required reports UNDEFINED_PROPERTY.
func (s *schema) get(o map[string]any, p, key string, req bool) (any, bool) {
	v, ok := o[key]
	if !ok && req {
		s.undefined(p, key)
	}
	return v, ok
}

// obj reads an object property; a value of another type is reported and removed.
func (s *schema) obj(o map[string]any, p, key string, req bool) map[string]any {
	v, ok := s.get(o, p, key, req)
	if !ok {
		return nil
	}
	m, isObj := v.(map[string]any)
	if !isObj {
		s.mismatch(p+"/"+key, v, "object")
		s.drop(o, key)
		return nil
	}
	return m
}

// arr reads an array property; empty arrays are EMPTY_ENTITY.
func (s *schema) arr(o map[string]any, p, key string, req bool) ([]any, bool) {
	v, ok := s.get(o, p, key, req)
	if !ok {
		return nil, false
	}
	a, isArr := v.([]any)
	if !isArr {
		s.mismatch(p+"/"+key, v, "array")
		s.drop(o, key)
		return nil, false
	}
	if len(a) == 0 {
		s.fs.addc(Error, "EMPTY_ENTITY", p+"/"+key, "the array must not be empty")
	}
	return a, true
}

// integer reads an integer property not less than min. 1.0 is accepted and
// rewritten as 1. It returns -1 and false when absent or invalid.
func (s *schema) integer(o map[string]any, p, key string, req bool, min int64) (int64, bool) {
	v, ok := s.get(o, p, key, req)
	if !ok {
		return -1, false
	}
	n, good := s.intValue(v, p+"/"+key, min, false)
	if !good {
		s.drop(o, key)
		return -1, false
	}
	o[key] = json.Number(strconv.FormatInt(n, 10))
	return n, true
}

// intValue reads an integer at least min. A negative index (a reference,
// index true) is INVALID_INDEX; any other integer below its minimum,
// VALUE_NOT_IN_RANGE.
func (s *schema) intValue(v any, p string, min int64, index bool) (int64, bool) {
	f, isNum, inf := numberValue(v)
	if !isNum {
		s.mismatch(p, v, "integer")
		return 0, false
	}
	if inf || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		if inf || math.Abs(f) > 1<<53 {
			s.fs.addc(Error, "VALUE_NOT_IN_RANGE", p, "value %s is out of range", v)
		} else {
			s.mismatch(p, v, "integer")
		}
		return 0, false
	}
	n := int64(f)
	if n < min {
		if index {
			s.fs.addc(Error, "INVALID_INDEX", p, "%d must be a non-negative integer", n)
		} else {
			s.fs.addc(Error, "VALUE_NOT_IN_RANGE", p, "value %d is out of range (at least %d)", n, min)
		}
		return 0, false
	}
	return n, true
}

// index reads a reference to an element of the root collection coll.
func (s *schema) index(o map[string]any, p, key, coll string, req bool) int {
	v, ok := s.get(o, p, key, req)
	if !ok {
		return -1
	}
	i, good := s.intValue(v, p+"/"+key, 0, true)
	if !good {
		s.drop(o, key)
		return -1
	}
	o[key] = json.Number(strconv.FormatInt(i, 10))
	if coll != "" && int(i) >= s.count[coll] {
		s.fs.addc(Error, "UNRESOLVED_REFERENCE", p+"/"+key, "unresolved reference: %s %d does not exist (the file has %d)", strings.TrimSuffix(coll, "s"), i, s.count[coll])
		return -1
	}
	return int(i)
}

// indexArray reads an array of references, unique, not empty.
func (s *schema) indexArray(o map[string]any, p, key, coll string, req bool) []int {
	a, ok := s.arr(o, p, key, req)
	if !ok {
		return nil
	}
	var out []int
	seen := map[int64]bool{}
	clean := a[:0:0]
	for i, v := range a {
		ep := fmt.Sprintf("%s/%s/%d", p, key, i)
		n, good := s.intValue(v, ep, 0, true)
		if !good {
			s.cleaned = true
			continue
		}
		clean = append(clean, json.Number(strconv.FormatInt(n, 10)))
		if seen[n] {
			s.fs.addc(Error, "DUPLICATE_ELEMENTS", ep, "duplicate element %d", n)
			continue
		}
		seen[n] = true
		if coll != "" && int(n) >= s.count[coll] {
			s.fs.addc(Error, "UNRESOLVED_REFERENCE", ep, "unresolved reference: %s %d does not exist (the file has %d)", strings.TrimSuffix(coll, "s"), n, s.count[coll])
			continue
		}
		out = append(out, int(n))
	}
	o[key] = clean
	return out
}

// number reads a finite number property within [min, max] (exclusive where
// minEx is set); NaN bounds mean none.
func (s *schema) number(o map[string]any, p, key string, req bool, min, max float64, minEx bool) (float64, bool) {
	v, ok := s.get(o, p, key, req)
	if !ok {
		return 0, false
	}
	f, good := s.numValue(v, p+"/"+key, min, max, minEx)
	if !good {
		s.drop(o, key)
	}
	return f, good
}

func (s *schema) numValue(v any, p string, min, max float64, minEx bool) (float64, bool) {
	f, isNum, inf := numberValue(v)
	if !isNum {
		s.mismatch(p, v, "number")
		return 0, false
	}
	if inf {
		s.fs.addc(Error, "VALUE_NOT_IN_RANGE", p, "value %s is out of range", v)
		return 0, false
	}
	if (!math.IsNaN(min) && (f < min || (minEx && f == min))) || (!math.IsNaN(max) && f > max) {
		s.fs.addc(Error, "VALUE_NOT_IN_RANGE", p, "value %s is out of range", v)
		return f, true
	}
	return f, true
}

var none = math.NaN()

// numArray reads an array of numbers whose length is one of lengths (any
// when lengths is empty), each within [min, max].
func (s *schema) numArray(o map[string]any, p, key string, req bool, min, max float64, lengths ...int) ([]float64, bool) {
	a, ok := s.arr(o, p, key, req)
	if !ok {
		return nil, false
	}
	if len(lengths) > 0 && !containsInt(lengths, len(a)) {
		s.fs.addc(Error, "ARRAY_LENGTH_NOT_IN_LIST", p+"/"+key, "invalid array length %d; valid lengths are %v", len(a), lengths)
		s.drop(o, key)
		return nil, false
	}
	out := make([]float64, 0, len(a))
	bad := false
	for i, v := range a {
		f, good := s.numValue(v, fmt.Sprintf("%s/%s/%d", p, key, i), min, max, false)
		if !good {
			a[i] = json.Number("0")
			bad = true
			s.cleaned = true
		}
		out = append(out, f)
	}
	return out, !bad
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// str reads a string property.
func (s *schema) str(o map[string]any, p, key string, req bool) (string, bool) {
	v, ok := s.get(o, p, key, req)
	if !ok {
		return "", false
	}
	str, isStr := v.(string)
	if !isStr {
		s.mismatch(p+"/"+key, v, "string")
		s.drop(o, key)
		return "", false
	}
	return str, true
}

// enumStr reads a string that should be one of list (VALUE_NOT_IN_LIST, a
// warning, as in Khronos); a value outside the list is removed for decoding.
func (s *schema) enumStr(o map[string]any, p, key string, req bool, list ...string) (string, bool) {
	v, ok := s.str(o, p, key, req)
	if !ok {
		return "", false
	}
	for _, l := range list {
		if v == l {
			return v, true
		}
	}
	s.fs.addc(Warning, "VALUE_NOT_IN_LIST", p+"/"+key, "invalid value %q; valid values are %s", v, strings.Join(list, ", "))
	s.drop(o, key)
	return v, false
}

// enumInt reads an integer that should be one of list.
func (s *schema) enumInt(o map[string]any, p, key string, req bool, list ...int64) (int64, bool) {
	v, ok := s.integer(o, p, key, req, math.MinInt64)
	if !ok {
		return -1, false
	}
	for _, l := range list {
		if v == l {
			return v, true
		}
	}
	s.fs.addc(Warning, "VALUE_NOT_IN_LIST", p+"/"+key, "invalid value %d; valid values are %v", v, list)
	s.drop(o, key)
	return v, false
}

func (s *schema) boolean(o map[string]any, p, key string) {
	if v, ok := o[key]; ok {
		if _, isBool := v.(bool); !isBool {
			s.mismatch(p+"/"+key, v, "boolean")
			s.drop(o, key)
		}
	}
}

// common checks name, extras and extensions of any glTF object of kind.
func (s *schema) common(o map[string]any, p, kind string) {
	if allowed, ok := coreProperties[kind]; ok {
		if s.v21 {
			allowed = append(allowed, core21Properties[kind]...)
		}
		s.unexpected(o, p, allowed)
	}
	s.str(o, p, "name", false)
	// "extras": null is no extras (glTF-Validator reads a JSON null as an
	// absent value).
	if v, ok := o["extras"]; ok && v != nil {
		if _, isObj := v.(map[string]any); !isObj {
			s.fs.addc(Info, "NON_OBJECT_EXTRAS", p+"/extras", "prefer JSON objects for extras")
		}
	}
	if e := s.obj(o, p, "extensions", false); e != nil {
		for _, name := range sortedKeys(e) {
			ep := p + "/extensions/" + jsonPointerEscape(name)
			// Every extension's value is an object, whether or not the
			// extension is known (JSON null included).
			if _, isObj := e[name].(map[string]any); !isObj {
				s.fs.addc(Error, "TYPE_MISMATCH", ep, "type mismatch: an extension object must be a JSON object")
			}
			s.exts = append(s.exts, extUse{name, kind, ep, e[name]})
		}
	}
}

// unexpected reports UNEXPECTED_PROPERTY for each key of o that is not in
// allowed, nor name, extras or extensions.
func (s *schema) unexpected(o map[string]any, p string, allowed []string) {
	for _, k := range sortedKeys(o) {
		if k != "name" && k != "extras" && k != "extensions" && !slices.Contains(allowed, k) {
			s.fs.addc(Warning, "UNEXPECTED_PROPERTY", p+"/"+jsonPointerEscape(k), "unexpected property %q", k)
		}
	}
}

// coreProperties lists the properties the glTF 2.0 schema defines for each
// kind of core object, besides name, extras and extensions.
var coreProperties = map[string][]string{
	"root":                   {"extensionsUsed", "extensionsRequired", "accessors", "animations", "asset", "buffers", "bufferViews", "cameras", "images", "materials", "meshes", "nodes", "samplers", "scene", "scenes", "skins", "textures"},
	"asset":                  {"copyright", "generator", "version", "minVersion"},
	"buffer":                 {"uri", "byteLength"},
	"bufferView":             {"buffer", "byteOffset", "byteLength", "byteStride", "target"},
	"image":                  {"uri", "mimeType", "bufferView"},
	"sampler":                {"magFilter", "minFilter", "wrapS", "wrapT"},
	"scene":                  {"nodes"},
	"skin":                   {"inverseBindMatrices", "skeleton", "joints"},
	"texture":                {"sampler", "source"},
	"accessor":               {"bufferView", "byteOffset", "componentType", "normalized", "count", "type", "max", "min", "sparse"},
	"sparse":                 {"count", "indices", "values"},
	"sparseIndices":          {"bufferView", "byteOffset", "componentType"},
	"sparseValues":           {"bufferView", "byteOffset"},
	"animation":              {"channels", "samplers"},
	"animationSampler":       {"input", "interpolation", "output"},
	"animationChannel":       {"sampler", "target"},
	"animationChannelTarget": {"node", "path"},
	"camera":                 {"orthographic", "perspective", "type"},
	"cameraOrthographic":     {"xmag", "ymag", "zfar", "znear"},
	"cameraPerspective":      {"aspectRatio", "yfov", "zfar", "znear"},
	"textureInfo":            {"index", "texCoord", "scale", "strength"},
	"material":               {"pbrMetallicRoughness", "normalTexture", "occlusionTexture", "emissiveTexture", "emissiveFactor", "alphaMode", "alphaCutoff", "doubleSided"},
	"pbrMetallicRoughness":   {"baseColorFactor", "baseColorTexture", "metallicFactor", "roughnessFactor", "metallicRoughnessTexture"},
	"mesh":                   {"primitives", "weights"},
	"primitive":              {"attributes", "indices", "material", "mode", "targets"},
	"node":                   {"camera", "children", "skin", "matrix", "mesh", "rotation", "scale", "translation", "weights"},
	"light":                  {"type", "color", "intensity", "range", "spot"},
}

// extensionProperties lists the properties each known extension's object
// defines (for every object it may extend), besides extras and extensions.
var extensionProperties = map[string][]string{
	"KHR_materials_anisotropy":            {"anisotropyStrength", "anisotropyRotation", "anisotropyTexture"},
	"KHR_materials_clearcoat":             {"clearcoatFactor", "clearcoatTexture", "clearcoatRoughnessFactor", "clearcoatRoughnessTexture", "clearcoatNormalTexture"},
	"KHR_materials_diffuse_transmission":  {"diffuseTransmissionFactor", "diffuseTransmissionTexture", "diffuseTransmissionColorFactor", "diffuseTransmissionColorTexture"},
	"KHR_materials_dispersion":            {"dispersion"},
	"KHR_materials_emissive_strength":     {"emissiveStrength"},
	"KHR_materials_ior":                   {"ior"},
	"KHR_materials_iridescence":           {"iridescenceFactor", "iridescenceTexture", "iridescenceIor", "iridescenceThicknessMinimum", "iridescenceThicknessMaximum", "iridescenceThicknessTexture"},
	"KHR_materials_pbrSpecularGlossiness": {"diffuseFactor", "diffuseTexture", "specularFactor", "glossinessFactor", "specularGlossinessTexture"},
	"KHR_materials_sheen":                 {"sheenColorFactor", "sheenColorTexture", "sheenRoughnessFactor", "sheenRoughnessTexture"},
	"KHR_materials_specular":              {"specularFactor", "specularTexture", "specularColorFactor", "specularColorTexture"},
	"KHR_materials_transmission":          {"transmissionFactor", "transmissionTexture"},
	"KHR_materials_unlit":                 {},
	"KHR_materials_volume":                {"thicknessFactor", "thicknessTexture", "attenuationDistance", "attenuationColor"},
	"KHR_texture_transform":               {"offset", "rotation", "scale", "texCoord"},
	"KHR_texture_basisu":                  {"source"},
	"EXT_texture_webp":                    {"source"},
	"EXT_texture_avif":                    {"source"},
	"KHR_lights_punctual":                 {"lights", "light"},
	"KHR_materials_variants":              {"variants", "mappings"},
	"KHR_node_visibility":                 {"visible"},
	"KHR_animation_pointer":               {"pointer"},
	"KHR_draco_mesh_compression":          {"bufferView", "attributes"},
	"EXT_mesh_gpu_instancing":             {"attributes"},
	"EXT_meshopt_compression":             {"buffer", "byteOffset", "byteLength", "byteStride", "count", "mode", "filter", "fallback"},
}

func jsonPointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// collection reads root array key, each element an object; elements of
// another type are reported and replaced by empty objects for decoding.
func (s *schema) collection(key string) []map[string]any {
	a, ok := s.arr(s.root, "", key, false)
	if !ok {
		return nil
	}
	out := make([]map[string]any, len(a))
	for i, v := range a {
		m, isObj := v.(map[string]any)
		if !isObj {
			s.mismatch(fmt.Sprintf("/%s/%d", key, i), v, "object")
			s.notObjects = append(s.notObjects, fmt.Sprintf("/%s/%d", key, i))
			m = map[string]any{}
			a[i] = m
			s.cleaned = true
		}
		out[i] = m
	}
	return out
}

// objects reads an array of objects inside an object (mesh primitives,
// animation channels).
func (s *schema) objects(o map[string]any, p, key string, req bool) []map[string]any {
	a, ok := s.arr(o, p, key, req)
	if !ok {
		return nil
	}
	out := make([]map[string]any, len(a))
	for i, v := range a {
		m, isObj := v.(map[string]any)
		if !isObj {
			s.fs.addc(Error, "ARRAY_TYPE_MISMATCH", p+"/"+key, "array element %s is not an object", shortJSON(v))
			s.notObjects = append(s.notObjects, fmt.Sprintf("%s/%s/%d", p, key, i))
			m = map[string]any{}
			a[i] = m
			s.cleaned = true
		}
		out[i] = m
	}
	return out
}

var rootCollections = []string{"accessors", "animations", "buffers", "bufferViews", "cameras", "images", "materials", "meshes", "nodes", "samplers", "scenes", "skins", "textures"}

// checkSchema checks the whole tree. root must be the decoded top value.
// bufferLengthOK reports whether buffer i has a byteLength the schema pass
// accepted (an integer of at least 1; the pass deletes any other). The
// Khronos validator neither reads nor measures a buffer without one: no
// IO_ERROR for its file, no BUFFER_MISSING_GLB_DATA, no BUFFER_VIEW_TOO_LONG
// against it, no checks of data in it; the schema finding is all it gets.
func (s *schema) bufferLengthOK(i int) bool {
	bufs, _ := s.root["buffers"].([]any)
	if i < 0 || i >= len(bufs) {
		return false
	}
	b, ok := bufs[i].(map[string]any)
	if !ok {
		return false
	}
	_, ok = b["byteLength"]
	return ok
}

func checkSchema(tree jsonTree, fs *findings) (*schema, bool) {
	root, ok := tree.(map[string]any)
	if !ok {
		fs.addc(Error, "TYPE_MISMATCH", "", "type mismatch: the document is a JSON %s, not an object", typeName(tree))
		return nil, false
	}
	s := &schema{fs: fs, root: root, count: map[string]int{}}
	s.v21 = IsVersion21(root)
	colls := map[string][]map[string]any{}
	for _, c := range rootCollections {
		colls[c] = s.collection(c)
		s.count[c] = len(colls[c])
	}
	s.common(root, "", "root")
	if a := s.obj(root, "", "asset", true); a != nil {
		s.common(a, "/asset", "asset")
		s.str(a, "/asset", "copyright", false)
		s.str(a, "/asset", "generator", false)
		if v, ok := s.str(a, "/asset", "version", true); ok {
			s.checkVersion(a, v)
		}
	}
	s.stringSet(root, "extensionsUsed")
	s.stringSet(root, "extensionsRequired")
	s.index(root, "", "scene", "scenes", false)

	for i, o := range colls["accessors"] {
		s.accessor(o, fmt.Sprintf("/accessors/%d", i))
	}
	for i, o := range colls["animations"] {
		s.animation(o, fmt.Sprintf("/animations/%d", i))
	}
	for i, o := range colls["buffers"] {
		p := fmt.Sprintf("/buffers/%d", i)
		s.common(o, p, "buffer")
		s.str(o, p, "uri", false)
		s.integer(o, p, "byteLength", true, 1)
	}
	for i, o := range colls["bufferViews"] {
		p := fmt.Sprintf("/bufferViews/%d", i)
		s.common(o, p, "bufferView")
		s.index(o, p, "buffer", "buffers", true)
		s.integer(o, p, "byteOffset", false, 0)
		s.integer(o, p, "byteLength", true, 1)
		if st, ok := s.integer(o, p, "byteStride", false, 4); ok {
			if st > 252 {
				s.fs.addc(Error, "VALUE_NOT_IN_RANGE", p+"/byteStride", "value %d is out of range (4 to 252)", st)
			} else if st%4 != 0 {
				s.fs.addc(Error, "VALUE_MULTIPLE_OF", p+"/byteStride", "value %d is not a multiple of 4", st)
			}
		}
		s.enumInt(o, p, "target", false, 34962, 34963)
	}
	for i, o := range colls["cameras"] {
		s.camera(o, fmt.Sprintf("/cameras/%d", i))
	}
	for i, o := range colls["images"] {
		p := fmt.Sprintf("/images/%d", i)
		s.common(o, p, "image")
		_, hasURI := s.str(o, p, "uri", false)
		bv := s.index(o, p, "bufferView", "bufferViews", false)
		_, hasBV := o["bufferView"]
		if hasURI == hasBV {
			s.fs.addc(Error, "ONE_OF_MISMATCH", p, "exactly one of bufferView and uri must be defined")
		}
		mt, hasMT := s.str(o, p, "mimeType", false)
		// image/jpeg and image/png, and what the extensions in use add
		// (EXT_texture_webp: image/webp).
		if hasMT && mt != "image/jpeg" && mt != "image/png" && (mt != "image/webp" || !s.declared("EXT_texture_webp")) {
			allowed := "image/jpeg, image/png"
			if s.declared("EXT_texture_webp") {
				allowed += ", image/webp"
			}
			s.fs.addc(Warning, "VALUE_NOT_IN_LIST", p+"/mimeType", "invalid value %q; valid values are %s", mt, allowed)
		}
		if !hasMT && hasBV && bv >= 0 {
			s.fs.addc(Error, "UNSATISFIED_DEPENDENCY", p+"/bufferView", "dependency failed: mimeType must be defined with bufferView")
		}
	}
	for i, o := range colls["materials"] {
		s.material(o, fmt.Sprintf("/materials/%d", i))
	}
	for i, o := range colls["meshes"] {
		s.mesh(o, fmt.Sprintf("/meshes/%d", i))
	}
	for i, o := range colls["nodes"] {
		s.node(o, fmt.Sprintf("/nodes/%d", i))
	}
	for i, o := range colls["samplers"] {
		p := fmt.Sprintf("/samplers/%d", i)
		s.common(o, p, "sampler")
		s.enumInt(o, p, "magFilter", false, 9728, 9729)
		s.enumInt(o, p, "minFilter", false, 9728, 9729, 9984, 9985, 9986, 9987)
		s.enumInt(o, p, "wrapS", false, 33071, 33648, 10497)
		s.enumInt(o, p, "wrapT", false, 33071, 33648, 10497)
	}
	for i, o := range colls["scenes"] {
		p := fmt.Sprintf("/scenes/%d", i)
		s.common(o, p, "scene")
		s.indexArray(o, p, "nodes", "nodes", false)
	}
	for i, o := range colls["skins"] {
		p := fmt.Sprintf("/skins/%d", i)
		s.common(o, p, "skin")
		s.index(o, p, "inverseBindMatrices", "accessors", false)
		s.index(o, p, "skeleton", "nodes", false)
		s.indexArray(o, p, "joints", "nodes", true)
	}
	for i, o := range colls["textures"] {
		p := fmt.Sprintf("/textures/%d", i)
		s.common(o, p, "texture")
		s.index(o, p, "sampler", "samplers", false)
		s.index(o, p, "source", "images", false)
	}
	return s, true
}

func (s *schema) checkVersion(a map[string]any, v string) {
	major, minor, ok := parseVersion(v)
	if !ok {
		s.fs.addc(Error, "PATTERN_MISMATCH", "/asset/version", "version %q does not match the pattern major.minor", v)
		return
	}
	if major != 2 {
		s.fs.addc(Error, "UNKNOWN_ASSET_MAJOR_VERSION", "/asset/version", "unknown glTF major version %d (only 2 is read)", major)
	} else if minor > ReadMinor {
		// Newer than physview reads, but decoding refused the file
		// already if its minVersion says it cannot be read as 2.1.
		s.fs.addc(Info, "UNKNOWN_ASSET_MINOR_VERSION", "/asset/version", "glTF %s is newer than 2.%d, the newest version physview reads: what is newer is not shown", v, ReadMinor)
	}
	if mv, ok := s.str(a, "/asset", "minVersion", false); ok {
		mmaj, mmin, good := parseVersion(mv)
		switch {
		case !good:
			s.fs.addc(Error, "PATTERN_MISMATCH", "/asset/minVersion", "minVersion %q does not match the pattern major.minor", mv)
		case mmaj > major || (mmaj == major && mmin > minor):
			s.fs.addc(Error, "ASSET_MIN_VERSION_GREATER_THAN_VERSION", "/asset/minVersion", "minVersion %q is greater than version %q", mv, v)
		}
	}
}

// parseVersion reads a glTF version: two numeric parts of at most 9
// digits, without leading zeros ("2.10" is newer than "2.1").
func parseVersion(v string) (major, minor int, ok bool) {
	a, b, found := strings.Cut(v, ".")
	if !found || !versionPart(a) || !versionPart(b) {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(a)
	minor, err2 := strconv.Atoi(b)
	return major, minor, err1 == nil && err2 == nil
}

func (s *schema) stringSet(o map[string]any, key string) {
	a, ok := s.arr(o, "", key, false)
	if !ok {
		return
	}
	seen := map[string]bool{}
	clean := a[:0:0]
	for i, v := range a {
		str, isStr := v.(string)
		if !isStr {
			s.fs.addc(Error, "ARRAY_TYPE_MISMATCH", fmt.Sprintf("/%s/%d", key, i), "array element %s is not a string", shortJSON(v))
			s.cleaned = true
			continue
		}
		clean = append(clean, str)
		if seen[str] {
			s.fs.addc(Error, "DUPLICATE_ELEMENTS", fmt.Sprintf("/%s/%d", key, i), "duplicate element %q", str)
		}
		seen[str] = true
	}
	o[key] = clean
}

var componentTypes = []int64{5120, 5121, 5122, 5123, 5125, 5126}
var accessorTypes = []string{"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"}

func (s *schema) accessor(o map[string]any, p string) {
	s.common(o, p, "accessor")
	s.index(o, p, "bufferView", "bufferViews", false)
	if _, ok := s.integer(o, p, "byteOffset", false, 0); ok {
		if _, hasBV := o["bufferView"]; !hasBV {
			s.fs.addc(Error, "UNSATISFIED_DEPENDENCY", p+"/byteOffset", "dependency failed: bufferView must be defined with byteOffset")
		}
	}
	if _, has := o["componentType"]; has {
		if _, ok := s.enumInt(o, p, "componentType", true, componentTypes...); !ok {
			if s.badComponentType == nil {
				s.badComponentType = map[string]bool{}
			}
			s.badComponentType[p] = true
		}
	} else {
		s.enumInt(o, p, "componentType", true, componentTypes...)
	}
	s.boolean(o, p, "normalized")
	s.integer(o, p, "count", true, 1)
	s.enumStr(o, p, "type", true, accessorTypes...)
	maxs, _ := s.numArray(o, p, "max", false, none, none)
	mins, _ := s.numArray(o, p, "min", false, none, none)
	// Bounds are read (as Khronos does) only with a valid type and
	// component type.
	ct, _, _ := numberValue(o["componentType"])
	_, typeOK := o["type"]
	if r, ok := glIntRange[int64(ct)]; ok && typeOK {
		for key, vals := range map[string][]float64{"min": mins, "max": maxs} {
			s.glInts(p+"/"+key, vals, r)
		}
	}
	if sp := s.obj(o, p, "sparse", false); sp != nil {
		sp0 := p + "/sparse"
		s.common(sp, sp0, "sparse")
		s.integer(sp, sp0, "count", true, 1)
		if ind := s.obj(sp, sp0, "indices", true); ind != nil {
			ip := sp0 + "/indices"
			s.common(ind, ip, "sparseIndices")
			s.index(ind, ip, "bufferView", "bufferViews", true)
			s.integer(ind, ip, "byteOffset", false, 0)
			s.enumInt(ind, ip, "componentType", true, 5121, 5123, 5125)
		}
		if val := s.obj(sp, sp0, "values", true); val != nil {
			vp := sp0 + "/values"
			s.common(val, vp, "sparseValues")
			s.index(val, vp, "bufferView", "bufferViews", true)
			s.integer(val, vp, "byteOffset", false, 0)
		}
	}
}

func (s *schema) animation(o map[string]any, p string) {
	s.common(o, p, "animation")
	samplers := s.objects(o, p, "samplers", true)
	for i, sm := range samplers {
		sp := fmt.Sprintf("%s/samplers/%d", p, i)
		s.common(sm, sp, "animationSampler")
		s.index(sm, sp, "input", "accessors", true)
		s.index(sm, sp, "output", "accessors", true)
		s.enumStr(sm, sp, "interpolation", false, "LINEAR", "STEP", "CUBICSPLINE")
	}
	for i, ch := range s.objects(o, p, "channels", true) {
		cp := fmt.Sprintf("%s/channels/%d", p, i)
		s.common(ch, cp, "animationChannel")
		if v, ok := s.get(ch, cp, "sampler", true); ok {
			n, good := s.intValue(v, cp+"/sampler", 0, true)
			if !good {
				s.drop(ch, "sampler")
			} else if int(n) >= len(samplers) {
				s.fs.addc(Error, "UNRESOLVED_REFERENCE", cp+"/sampler", "unresolved reference: sampler %d does not exist (the animation has %d)", n, len(samplers))
			} else {
				ch["sampler"] = json.Number(strconv.FormatInt(n, 10))
			}
		}
		if t := s.obj(ch, cp, "target", true); t != nil {
			tp := cp + "/target"
			s.common(t, tp, "animationChannelTarget")
			s.index(t, tp, "node", "nodes", false)
			s.str(t, tp, "path", true)
		}
	}
}

func (s *schema) camera(o map[string]any, p string) {
	s.common(o, p, "camera")
	typ, _ := s.enumStr(o, p, "type", true, "perspective", "orthographic")
	orth := s.obj(o, p, "orthographic", false)
	persp := s.obj(o, p, "perspective", false)
	if orth != nil && persp != nil {
		s.fs.addc(Error, "ONE_OF_MISMATCH", p, "exactly one of orthographic and perspective must be defined")
	} else if (typ == "perspective" && persp == nil) || (typ == "orthographic" && orth == nil) {
		s.fs.addc(Error, "UNDEFINED_PROPERTY", p, "property %q must be defined", typ)
	}
	if orth != nil {
		op := p + "/orthographic"
		s.common(orth, op, "cameraOrthographic")
		xm, okx := s.number(orth, op, "xmag", true, none, none, false)
		ym, oky := s.number(orth, op, "ymag", true, none, none, false)
		zf, okf := s.number(orth, op, "zfar", true, 0, none, true)
		zn, okn := s.number(orth, op, "znear", true, 0, none, false)
		// Each magnification on its own: zero is an error, negative a
		// warning (it flips the image).
		for _, m := range []struct {
			key string
			v   float64
			ok  bool
		}{{"xmag", xm, okx}, {"ymag", ym, oky}} {
			switch {
			case m.ok && m.v == 0:
				s.fs.addc(Error, "CAMERA_XMAG_YMAG_ZERO", op+"/"+m.key, "xmag and ymag must not be zero")
			case m.ok && m.v < 0:
				s.fs.addc(Warning, "CAMERA_XMAG_YMAG_NEGATIVE", op+"/"+m.key, "xmag and ymag should not be negative")
			}
		}
		if okf && okn && zf <= zn {
			s.fs.addc(Error, "CAMERA_ZFAR_LEQUAL_ZNEAR", op, "zfar must be greater than znear")
		}
	}
	if persp != nil {
		pp := p + "/perspective"
		s.common(persp, pp, "cameraPerspective")
		s.number(persp, pp, "aspectRatio", false, 0, none, true)
		if y, ok := s.number(persp, pp, "yfov", true, 0, none, true); ok && y >= math.Pi {
			s.fs.addc(Warning, "CAMERA_YFOV_GEQUAL_PI", pp, "yfov should be less than pi")
		}
		zf, okf := s.number(persp, pp, "zfar", false, 0, none, true)
		zn, okn := s.number(persp, pp, "znear", true, 0, none, true)
		if okf && okn && zf <= zn {
			s.fs.addc(Error, "CAMERA_ZFAR_LEQUAL_ZNEAR", pp, "zfar must be greater than znear")
		}
	}
	if typ == "perspective" && persp == nil && orth == nil {
		s.undefined(p, "perspective")
	} else if typ == "orthographic" && orth == nil && persp == nil {
		s.undefined(p, "orthographic")
	}
}

func (s *schema) textureInfo(o map[string]any, p, key string) {
	t := s.obj(o, p, key, false)
	if t == nil {
		return
	}
	tp := p + "/" + key
	s.common(t, tp, "textureInfo")
	s.index(t, tp, "index", "textures", true)
	s.integer(t, tp, "texCoord", false, 0)
	if key == "normalTexture" {
		s.number(t, tp, "scale", false, none, none, false)
	}
	if key == "occlusionTexture" {
		s.number(t, tp, "strength", false, 0, 1, false)
	}
}

func (s *schema) material(o map[string]any, p string) {
	s.common(o, p, "material")
	if pbr := s.obj(o, p, "pbrMetallicRoughness", false); pbr != nil {
		pp := p + "/pbrMetallicRoughness"
		s.common(pbr, pp, "pbrMetallicRoughness")
		s.numArray(pbr, pp, "baseColorFactor", false, 0, 1, 4)
		s.textureInfo(pbr, pp, "baseColorTexture")
		s.number(pbr, pp, "metallicFactor", false, 0, 1, false)
		s.number(pbr, pp, "roughnessFactor", false, 0, 1, false)
		s.textureInfo(pbr, pp, "metallicRoughnessTexture")
	}
	s.textureInfo(o, p, "normalTexture")
	s.textureInfo(o, p, "occlusionTexture")
	s.textureInfo(o, p, "emissiveTexture")
	s.numArray(o, p, "emissiveFactor", false, 0, 1, 3)
	mode, _ := s.enumStr(o, p, "alphaMode", false, "OPAQUE", "MASK", "BLEND")
	if _, ok := s.number(o, p, "alphaCutoff", false, 0, none, false); ok && mode != "MASK" {
		s.fs.addc(Warning, "MATERIAL_ALPHA_CUTOFF_INVALID_MODE", p+"/alphaCutoff", "alpha cutoff is supported only for MASK alpha mode")
	}
	s.boolean(o, p, "doubleSided")
}

func (s *schema) mesh(o map[string]any, p string) {
	s.common(o, p, "mesh")
	for i, pr := range s.objects(o, p, "primitives", true) {
		pp := fmt.Sprintf("%s/primitives/%d", p, i)
		s.common(pr, pp, "primitive")
		s.indexMap(pr, pp, "attributes", true)
		s.index(pr, pp, "indices", "accessors", false)
		s.index(pr, pp, "material", "materials", false)
		// The drawing mode is an integer from 0 (POINTS) to 6
		// (TRIANGLE_FAN).
		if m, ok := s.integer(pr, pp, "mode", false, 0); ok && m > 6 {
			s.fs.addc(Error, "VALUE_NOT_IN_RANGE", pp+"/mode", "value %d is out of range (0 to 6)", m)
			s.drop(pr, "mode")
		}
		for ti, t := range s.objects(pr, pp, "targets", false) {
			tp := fmt.Sprintf("%s/targets/%d", pp, ti)
			if len(t) == 0 {
				s.fs.addc(Error, "EMPTY_ENTITY", tp, "the object must not be empty")
			}
			for _, k := range sortedKeys(t) {
				s.index(t, tp, k, "accessors", false)
			}
		}
	}
	s.numArray(o, p, "weights", false, none, none)
}

// indexMap reads an object whose values are accessor indices (attributes).
func (s *schema) indexMap(o map[string]any, p, key string, req bool) {
	m := s.obj(o, p, key, req)
	if m == nil {
		return
	}
	if len(m) == 0 {
		s.fs.addc(Error, "EMPTY_ENTITY", p+"/"+key, "the object must not be empty")
	}
	for _, k := range sortedKeys(m) {
		s.index(m, p+"/"+key, k, "accessors", false)
	}
}

// children checks the type of each of a node's children and removes those
// that are not indices. A child written as a plain non-negative integer
// (the usual case) costs no allocation: the array is only copied when an
// element is removed or rewritten, and the path only made for a finding.
func (s *schema) children(o map[string]any, arr []any, p string) {
	var clean []any // nil while every element is kept as it is
	var small [16]int64
	seen := small[:0]
	var seenMap map[int64]bool
	for i, v := range arr {
		n, good, same := plainIndex(v)
		if !good {
			n, good = s.intValue(v, fmt.Sprintf("%s/children/%d", p, i), 0, true)
			if !good {
				s.cleaned = true
			}
		}
		if !same && clean == nil {
			clean = append(make([]any, 0, len(arr)), arr[:i]...)
		}
		if !good {
			continue
		}
		dup := false
		if seenMap != nil {
			dup = seenMap[n]
			seenMap[n] = true
		} else {
			dup = slices.Contains(seen, n)
			if len(seen) < cap(small) {
				seen = append(seen, n)
			} else {
				seenMap = map[int64]bool{n: true}
				for _, m := range seen {
					seenMap[m] = true
				}
			}
		}
		if dup {
			s.fs.addc(Error, "DUPLICATE_ELEMENTS", fmt.Sprintf("%s/children/%d", p, i), "duplicate element %d", n)
		}
		if clean != nil {
			if same {
				clean = append(clean, v)
			} else {
				clean = append(clean, json.Number(strconv.FormatInt(n, 10)))
			}
		}
	}
	if clean != nil {
		o["children"] = clean
	}
}

// plainIndex reads v when it is a non-negative integer written plainly
// (digits only, at most 2^53), as intValue would; same is true then, as
// such a number is kept as it is written.
func plainIndex(v any) (n int64, good, same bool) {
	num, ok := v.(json.Number)
	if !ok || len(num) == 0 || len(num) > 16 {
		return 0, false, false
	}
	for _, c := range []byte(num) {
		if c < '0' || c > '9' {
			return 0, false, false
		}
	}
	n, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil || n > 1<<53 || (len(num) > 1 && num[0] == '0') {
		return 0, false, false
	}
	return n, true, true
}

func (s *schema) node(o map[string]any, p string) {
	s.common(o, p, "node")
	s.index(o, p, "camera", "cameras", false)
	if a, ok := o["children"]; ok {
		if arr, isArr := a.([]any); isArr && len(arr) == 0 {
			s.fs.addc(Error, "EMPTY_ENTITY", p+"/children", "the array must not be empty")
		}
		// Range and uniqueness of children are checked with the hierarchy
		// (parents); here only their type.
		if arr, isArr := a.([]any); isArr {
			s.children(o, arr, p)
		} else {
			s.mismatch(p+"/children", a, "array")
			s.drop(o, "children")
		}
	}
	skin := s.index(o, p, "skin", "skins", false)
	_, hasMesh := o["mesh"]
	s.index(o, p, "mesh", "meshes", false)
	if _, ok := o["skin"]; ok && !hasMesh && skin >= -1 {
		s.fs.addc(Error, "UNSATISFIED_DEPENDENCY", p+"/skin", "dependency failed: mesh must be defined with skin")
	}
	// Only a valid matrix, rotation, scale or translation (the right
	// length, numbers, in range) counts for NODE_MATRIX_TRS: the Khronos
	// validator reads an invalid one as absent, after reporting it.
	_, hasMatrix := s.numArray(o, p, "matrix", false, none, none, 16)
	// A component outside -1..1 is VALUE_NOT_IN_RANGE; the length is
	// judged only on a rotation whose components are in range.
	r, hasR := s.numArray(o, p, "rotation", false, -1, 1, 4)
	hasR = hasR && inUnitRange(r)
	if hasR {
		l := math.Sqrt(r[0]*r[0] + r[1]*r[1] + r[2]*r[2] + r[3]*r[3])
		if math.Abs(l-1) > UnitLengthThresholdVec4 {
			s.fs.addc(Error, "ROTATION_NON_UNIT", p+"/rotation", "rotation quaternion must be normalized (length %g)", l)
		}
	}
	_, hasS := s.numArray(o, p, "scale", false, none, none, 3)
	_, hasT := s.numArray(o, p, "translation", false, none, none, 3)
	if hasMatrix && (hasR || hasS || hasT) {
		s.fs.addc(Error, "NODE_MATRIX_TRS", p+"/matrix", "a node can have either a matrix or translation/rotation/scale, not both")
	}
	if _, ok := o["weights"]; ok {
		s.numArray(o, p, "weights", false, none, none)
		if !hasMesh {
			s.fs.addc(Error, "UNSATISFIED_DEPENDENCY", p+"/weights", "dependency failed: mesh must be defined with weights")
		}
	}
}

// dropUnderNotObjects removes the findings about root collection elements
// that are not objects, but their TYPE_MISMATCH: they are decoded as empty
// objects so that indices into the collection stay in place, and the
// rules would otherwise report that empty object's missing properties and
// its not being used.
func (s *schema) dropUnderNotObjects(fs *findings) {
	if len(s.notObjects) == 0 {
		return
	}
	// A set, and each finding's path looked up prefix by prefix: linear,
	// where comparing every finding with every element was quadratic
	// (75,000 images written as arrays took minutes).
	not := make(map[string]bool, len(s.notObjects))
	for _, p := range s.notObjects {
		not[p] = true
	}
	kept := (*fs)[:0]
	for _, f := range *fs {
		drop := not[f.Path] && f.Code != "TYPE_MISMATCH"
		for i := 1; !drop && i < len(f.Path); i++ {
			if f.Path[i] == '/' && not[f.Path[:i]] {
				drop = true
			}
		}
		if !drop {
			kept = append(kept, f)
		}
	}
	*fs = kept
}

// declared reports whether extensionsUsed names ext.
func (s *schema) declared(ext string) bool {
	used, _ := s.root["extensionsUsed"].([]any)
	return slices.Contains(used, any(ext))
}

// glIntRange is the range of each integer component type.
var glIntRange = map[int64][2]float64{
	5120: {-128, 127}, 5121: {0, 255}, 5122: {-32768, 32767}, 5123: {0, 65535}, 5125: {0, 4294967295},
}

// glInts checks the bounds of an integer accessor: whole numbers
// (ARRAY_TYPE_MISMATCH) its component type can hold (INVALID_GL_VALUE).
func (s *schema) glInts(p string, vals []float64, r [2]float64) {
	for _, v := range vals {
		if v != math.Trunc(v) {
			s.fs.addc(Error, "ARRAY_TYPE_MISMATCH", p, "%g is not an integer", v)
		} else if v < r[0] || v > r[1] {
			s.fs.addc(Error, "INVALID_GL_VALUE", p, "%g does not fit the component type (%g to %g)", v, r[0], r[1])
		}
	}
}

// inUnitRange reports whether every value is within -1..1.
func inUnitRange(vs []float64) bool {
	for _, v := range vs {
		if v < -1 || v > 1 {
			return false
		}
	}
	return true
}
