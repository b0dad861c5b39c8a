package jsonsplice

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSplice: the new value comes out in the old text's layout; where the
// two agree the old bytes are kept to the letter.
func TestSplice(t *testing.T) {
	four := "{\n    \"asset\": {\n        \"version\": \"2.0\"\n    },\n    \"nodes\": [\n        {\n            \"name\": \"A\",\n            \"translation\": [1, 2.50, 3]\n        }\n    ]\n}\n"
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{"unchanged, four spaces and a final newline", four,
			`{"asset":{"version":"2.0"},"nodes":[{"name":"A","translation":[1,2.50,3]}]}`,
			four},
		{"unchanged, tabs and CRLF",
			"{\r\n\t\"a\": [1,\r\n\t\t2],\r\n\t\"b\": \"x  y\"\r\n}",
			`{"a":[1,2],"b":"x  y"}`,
			"{\r\n\t\"a\": [1,\r\n\t\t2],\r\n\t\"b\": \"x  y\"\r\n}"},
		{"one number changed: only its bytes", four,
			`{"asset":{"version":"2.0"},"nodes":[{"name":"A","translation":[1,7,3]}]}`,
			strings.Replace(four, "2.50", "7", 1)},
		{"a member added: laid out like its neighbours", four,
			`{"asset":{"version":"2.0"},"nodes":[{"name":"A","translation":[1,2.50,3],"extensions":{"X":{"k":[1,2]}}}]}`,
			strings.Replace(four, "[1, 2.50, 3]\n", "[1, 2.50, 3],\n            \"extensions\": {\n                \"X\": {\n                    \"k\": [\n                        1,\n                        2\n                    ]\n                }\n            }\n", 1)},
		{"a member removed", four,
			`{"asset":{"version":"2.0"},"nodes":[{"translation":[1,2.50,3]}]}`,
			strings.Replace(four, "\"name\": \"A\",\n            ", "", 1)},
		{"an element appended", "[\n  {\"a\": 1},\n  {\"a\": 2}\n]",
			`[{"a":1},{"a":2},{"a":3}]`,
			"[\n  {\"a\": 1},\n  {\"a\": 2},\n  {\n    \"a\": 3\n  }\n]"},
		{"a second member after a lone one", "{\n  \"a\": 1\n}",
			`{"a":1,"b":true}`,
			"{\n  \"a\": 1,\n  \"b\": true\n}"},
		{"a compact file stays compact", `{"a":{"b":1},"c":[1,2]}`,
			`{"a":{"b":1,"d":{"e":[3]}},"c":[1,2]}`,
			`{"a":{"b":1,"d":{"e":[3]}},"c":[1,2]}`},
		{"a scalar becomes an object, indented from its line", "{\n  \"a\": {\n    \"b\": 1\n  }\n}",
			`{"a":{"b":{"c":2}}}`,
			"{\n  \"a\": {\n    \"b\": {\n      \"c\": 2\n    }\n  }\n}"},
		{"white space inside a string is a change", `{"s": "a b"}`,
			`{"s":"a  b"}`,
			`{"s": "a  b"}`},
		{"keys in another order keep their own bytes and the file's order", "{\n  \"a\": 1.0,\n  \"b\": 2.0\n}",
			`{"b":2.0,"a":1.5}`,
			"{\n  \"a\": 1.5,\n  \"b\": 2.0\n}"},
		{"a re-encoded block keeps the file's key order, new keys after", "{\n  \"motion\": {\n    \"mass\": 5.0,\n    \"type\": \"dynamic\"\n  }\n}",
			`{"motion":{"type":"dynamic","mass":5.0,"linearVelocity":[1,0,0]}}`,
			"{\n  \"motion\": {\n    \"mass\": 5.0,\n    \"type\": \"dynamic\",\n    \"linearVelocity\": [\n      1,\n      0,\n      0\n    ]\n  }\n}"},
		{"duplicate keys keep the new text's order", `{"a":1,"b":2,"a":3}`,
			`{"b":2,"a":1,"a":4}`,
			`{"b":2,"a":1,"a":4}`},
		{"a member added to a CRLF file: its lines end in CRLF too", "{\r\n  \"a\": 1\r\n}\r\n",
			`{"a":1,"b":{"c":[1,2]}}`,
			"{\r\n  \"a\": 1,\r\n  \"b\": {\r\n    \"c\": [\r\n      1,\r\n      2\r\n    ]\r\n  }\r\n}\r\n"},
		{"an element appended to a CRLF array", "{\r\n  \"a\": [\r\n    1\r\n  ]\r\n}",
			`{"a":[1,{"x":"l1\nl2"}]}`,
			"{\r\n  \"a\": [\r\n    1,\r\n    {\r\n      \"x\": \"l1\\nl2\"\r\n    }\r\n  ]\r\n}"},
		{"a member added to an object on one line stays on that line", "{\n  \"m\": { \"mass\": 5.0, \"type\": \"dynamic\" }\n}\n",
			`{"m":{"mass":5.0,"type":"dynamic","v":[1,0,{"w":2}]}}`,
			"{\n  \"m\": { \"mass\": 5.0, \"type\": \"dynamic\", \"v\": [1,0,{\"w\":2}] }\n}\n"},
		{"an element of an array on one line replaced by an object", "{\n  \"a\": [1, 2]\n}",
			`{"a":[1,{"x":[3]}]}`,
			"{\n  \"a\": [1, {\"x\":[3]}]\n}"},
		{"a member added to a file written \"key\":value (Blender) is written so too", "{\n\t\"a\":1,\n\t\"b\":{\n\t\t\"c\":2\n\t}\n}",
			`{"a":1,"b":{"c":2,"m":{"mass":3,"v":[0,"x\": y"],"e":{}}}}`,
			"{\n\t\"a\":1,\n\t\"b\":{\n\t\t\"c\":2,\n\t\t\"m\":{\n\t\t\t\"mass\":3,\n\t\t\t\"v\":[\n\t\t\t\t0,\n\t\t\t\t\"x\\\": y\"\n\t\t\t],\n\t\t\t\"e\":{}\n\t\t}\n\t}\n}"},
		{"an object emptied", "{\n  \"a\": {\n    \"b\": 1\n  }\n}",
			`{"a":{}}`,
			"{\n  \"a\": {}\n}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Splice([]byte(tc.old), []byte(tc.new))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
			// The result always says what the new text says.
			var a, b any
			if err := json.Unmarshal(got, &a); err != nil {
				t.Fatalf("the result is not JSON: %v", err)
			}
			json.Unmarshal([]byte(tc.new), &b)
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) {
				t.Errorf("the result says %s, the new text %s", ja, jb)
			}
		})
	}
}

// TestSpliceRefuses: text that is not one JSON value is an error, not a
// guess.
func TestSpliceRefuses(t *testing.T) {
	for _, c := range [][2]string{
		{`{"a":1`, `{"a":1}`},
		{`{"a":1}`, `{"a":}`},
		{`{"a":1} x`, `{"a":1}`},
		{``, `{}`},
	} {
		if _, err := Splice([]byte(c[0]), []byte(c[1])); err == nil {
			t.Errorf("Splice(%q, %q) gave no error", c[0], c[1])
		}
	}
}

// FuzzSplice: for any two JSON values the result is the new value, and an
// unchanged value comes back byte for byte.
func FuzzSplice(f *testing.F) {
	f.Add(`{"a": [1, 2], "b": {"c": "d"}}`, `{"a":[1,3],"b":{"c":"d","e":null}}`)
	f.Add("[\n  1,\n  2\n]", `[1,2,3]`)
	f.Add(`"x"`, `{"y":[]}`)
	f.Fuzz(func(t *testing.T, oldText, newText string) {
		if !json.Valid([]byte(oldText)) || !json.Valid([]byte(newText)) {
			return
		}
		got, err := Splice([]byte(oldText), []byte(newText))
		if err != nil {
			t.Fatalf("Splice(%q, %q): %v", oldText, newText, err)
		}
		a, err := jsonValue(got)
		if err != nil {
			t.Fatalf("Splice(%q, %q) = %q: not JSON: %v", oldText, newText, got, err)
		}
		b, _ := jsonValue([]byte(newText))
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Fatalf("Splice(%q, %q) = %q says %s, want %s", oldText, newText, got, ja, jb)
		}
		if same, _ := Splice([]byte(oldText), []byte(oldText)); !bytes.Equal(same, []byte(oldText)) {
			t.Fatalf("Splice of %q with itself gave %q", oldText, same)
		}
	})
}

// jsonValue decodes JSON text for comparing values: a number is its float64
// when it has one and its text when it is out of float64's range (1E1000
// is JSON, and a splice must keep it as written).
func jsonValue(text []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v), nil
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
		return "number " + x.String()
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}
