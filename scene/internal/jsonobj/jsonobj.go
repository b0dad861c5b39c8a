// Package jsonobj holds a JSON object that remembers the order of its keys
// and keeps every member value as the exact bytes it was read from.
//
// The scene package uses it to save a glTF document by patching the JSON it
// loaded: only the blocks the model owns are replaced, so every other value
// (number spellings, key order, explicit defaults, unknown keys) survives.
package jsonobj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Object is an ordered JSON object whose member values are raw JSON.
// The zero value is an empty object ready to use.
type Object struct {
	keys []string
	vals map[string]json.RawMessage
}

// Parse reads a JSON object. It fails if data is not exactly one JSON object.
func Parse(data []byte) (*Object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("expected a JSON object, found %s", describe(tok))
	}
	o := &Object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("object key is not a string")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("key %q: %w", key, err)
		}
		o.Set(key, raw)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the JSON object")
	}
	return o, nil
}

func describe(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		return "an array"
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "something else"
}

// Keys returns the keys in their order.
func (o *Object) Keys() []string { return append([]string(nil), o.keys...) }

// Len returns the number of members.
func (o *Object) Len() int { return len(o.keys) }

// Get returns the raw value of key.
func (o *Object) Get(key string) (json.RawMessage, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// Has reports whether key is present.
func (o *Object) Has(key string) bool {
	_, ok := o.vals[key]
	return ok
}

// Set replaces the value of key in place, or appends key at the end.
func (o *Object) Set(key string, v json.RawMessage) {
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// SetValue marshals v (without HTML escaping: "<" stays "<") and stores
// it under key.
func (o *Object) SetValue(key string, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	o.Set(key, b)
	return nil
}

// Delete removes key if present.
func (o *Object) Delete(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// MarshalJSON writes the members in their order, values as stored.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		v := o.vals[k]
		if len(v) == 0 {
			v = json.RawMessage("null")
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ParseArray splits a JSON array into its raw elements.
func ParseArray(data []byte) ([]json.RawMessage, error) {
	var out []json.RawMessage
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Marshal encodes v as JSON without HTML escaping, so names and extras with
// "<", ">" and "&" are written as they were read.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// JoinArray writes raw elements as one JSON array, each element's bytes
// unchanged (json.Marshal would re-escape them).
func JoinArray(elems []json.RawMessage) json.RawMessage {
	n := 2
	for _, e := range elems {
		n += len(e) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, e := range elems {
		if i > 0 {
			b = append(b, ',')
		}
		if len(e) == 0 {
			e = json.RawMessage("null")
		}
		b = append(b, e...)
	}
	return append(b, ']')
}
