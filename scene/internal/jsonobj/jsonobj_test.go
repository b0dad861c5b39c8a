package jsonobj

import (
	"testing"
)

func TestRoundTripKeepsOrderAndLiterals(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b": 1.50, "a": [1e3, {"z": true}], "c": "x\u00e9"}`, `{"b":1.50,"a":[1e3, {"z": true}],"c":"x\u00e9"}`},
		{`{}`, `{}`},
		{` { "k" : null } `, `{"k":null}`},
	}
	for _, c := range cases {
		o, err := Parse([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		got, _ := o.MarshalJSON()
		if string(got) != c.want {
			t.Errorf("%s -> %s, want %s", c.in, got, c.want)
		}
	}
}

func TestEdit(t *testing.T) {
	o, err := Parse([]byte(`{"a":1,"b":2,"c":3}`))
	if err != nil {
		t.Fatal(err)
	}
	o.Set("b", []byte(`"two"`)) // in place
	o.Set("d", []byte(`4`))     // appended
	o.Delete("a")
	o.Delete("missing")
	got, _ := o.MarshalJSON()
	if string(got) != `{"b":"two","c":3,"d":4}` {
		t.Errorf("got %s", got)
	}
	if o.Len() != 3 || !o.Has("c") || o.Has("a") {
		t.Errorf("len %d, keys %v", o.Len(), o.Keys())
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{``, `[1]`, `"x"`, `{"a":}`, `{"a":1} {}`, `{"a":1`} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%q parsed without error", in)
		}
	}
}
