package corecheck

import (
	"reflect"
	"strings"
	"sync"

	"github.com/qmuntal/gltf"
)

// Go's encoding/json, which qmuntal/gltf decodes with, matches an object's
// keys to its fields ignoring case: "bUffers" fills Document.Buffers. The
// glTF schema and the Khronos validator match keys exactly, so such a key
// is an unexpected property there (and in the schema pass), and a document
// read through it would be read, drawn and saved from data the file does
// not give (a save wrote the buffer anew under its right name). The typed
// decoder is therefore given the tree without keys that differ from a
// property of qmuntal's types only in case.

var (
	glTFKeysOnce sync.Once
	glTFKeys     map[string]string // lower case -> the property's exact name
	glTFExact    map[string]bool   // the exact names
)

// caseVariant reports whether key is a property name of the glTF types in
// another case.
func caseVariant(key string) bool {
	glTFKeysOnce.Do(func() {
		glTFKeys, glTFExact = map[string]string{}, map[string]bool{}
		seen := map[reflect.Type]bool{}
		var walk func(t reflect.Type)
		walk = func(t reflect.Type) {
			for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
				t = t.Elem()
			}
			if t.Kind() != reflect.Struct || seen[t] {
				return
			}
			seen[t] = true
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if name == "-" || !f.IsExported() {
					continue
				}
				if name == "" {
					name = f.Name
				}
				glTFKeys[strings.ToLower(name)] = name
				glTFExact[name] = true
				walk(f.Type)
			}
		}
		walk(reflect.TypeOf(gltf.Document{}))
	})
	if glTFExact[key] {
		return false // nearly every key: no lower-casing
	}
	exact, ok := glTFKeys[strings.ToLower(key)]
	return ok && exact != key
}

// opaqueKeys hold objects whose keys are not the glTF types' properties:
// extension blocks and extras (anyone's data, read by name elsewhere and
// saved as written) and attribute maps (semantic names such as TARGET_0
// are the file's own).
var opaqueKeys = map[string]bool{"extensions": true, "extras": true, "attributes": true, "targets": true}

// caseVariantFound reports whether the schema pass found an unexpected
// property that is a case variant: the tree is walked only then, which
// keeps the walk (a quarter of a parse) off every ordinary file.
func caseVariantFound(fs findings) bool {
	for _, f := range fs {
		if f.Code != "UNEXPECTED_PROPERTY" {
			continue
		}
		key := f.Path[strings.LastIndexByte(f.Path, '/')+1:]
		key = strings.NewReplacer("~1", "/", "~0", "~").Replace(key)
		if caseVariant(key) {
			return true
		}
	}
	return false
}

// withoutCaseVariants returns tree with every key that is a case variant
// of a glTF property left out, and whether there was one; tree itself is
// not changed.
func withoutCaseVariants(v any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		var out map[string]any
		for k, e := range x {
			ne, changed := e, false
			if !opaqueKeys[k] {
				ne, changed = withoutCaseVariants(e)
			}
			drop := caseVariant(k)
			if (drop || changed) && out == nil {
				out = make(map[string]any, len(x))
				for k2, e2 := range x {
					out[k2] = e2
				}
			}
			if drop {
				delete(out, k)
			} else if changed {
				out[k] = ne
			}
		}
		if out == nil {
			return x, false
		}
		return out, true
	case []any:
		var out []any
		for i, e := range x {
			ne, changed := withoutCaseVariants(e)
			if changed && out == nil {
				out = append([]any(nil), x...)
			}
			if changed {
				out[i] = ne
			}
		}
		if out == nil {
			return x, false
		}
		return out, true
	}
	return v, false
}
