// Package mutate makes a fixed, seeded set of damaged versions of a model
// file (truncations, byte flips, huge, negative and integer-overflowing
// numbers, values of the wrong JSON type, deep nesting), for the test that
// feeds them through loading, validation, drawing and simulation (issue 24:
// no input crashes the process). The same file always gives the same
// mutations.
package mutate

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"regexp"
	"strings"
)

// Mutation is one damaged version of a file.
type Mutation struct {
	// Name says what was done ("flip-8@3", "huge-numbers"), for messages.
	Name string
	Data []byte
}

// Of returns the mutations of a file named name (its path relative to
// where it was found: it seeds the choices) holding data.
func Of(name string, data []byte) []Mutation {
	h := fnv.New64a()
	h.Write([]byte(name))
	seed := h.Sum64()
	rng := func(k uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, k)) }
	var out []Mutation
	add := func(n string, d []byte) {
		if d != nil {
			out = append(out, Mutation{n, d})
		}
	}
	n := len(data)
	add("truncate-half", clone(data[:n/2]))
	add("truncate-last-byte", clone(data[:max(0, n-1)]))
	add("truncate-at-random", clone(data[:rng(1).IntN(n+1)]))
	for k, flips := range []int{1, 8, 64} {
		add(fmt.Sprintf("flip-%d", flips), flip(data, flips, rng(uint64(10+k))))
	}
	// The text part: the whole file, or a GLB's JSON chunk (the result is
	// put back in a GLB with its lengths fixed, so the damage reaches the
	// checks, not only the container's).
	text, rebuild := textPart(data)
	if text == nil {
		return out
	}
	for _, m := range []struct {
		name string
		f    func([]byte, *rand.Rand) []byte
	}{
		{"huge-numbers", numbers("1e308", "4294967295", "1e30", "9007199254740993")},
		{"negative-numbers", numbers("-1", "-1e308", "-2147483649", "-0")},
		{"overflow-integers", numbers("18446744073709551616", "2147483648", "99999999999999999999999")},
		{"zero-numbers", numbers("0", "0.0", "1e-320")},
		{"wrong-types", wrongTypes},
		{"deep-nesting", deepNesting},
	} {
		add(m.name, rebuild(m.f(text, rng(uint64(100+len(out))))))
	}
	return out
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// flip XORs count random bytes with random non-zero values.
func flip(data []byte, count int, r *rand.Rand) []byte {
	if len(data) == 0 {
		return nil
	}
	out := clone(data)
	for range count {
		out[r.IntN(len(out))] ^= byte(1 + r.IntN(255))
	}
	return out
}

const glbMagic = 0x46546C67

// textPart returns the JSON or XML text of data and a function that puts a
// changed text back (for a GLB: a new JSON chunk, the other chunks as they
// were). It returns nil for binary data it does not know.
func textPart(data []byte) ([]byte, func([]byte) []byte) {
	le := binary.LittleEndian
	if len(data) >= 20 && le.Uint32(data) == glbMagic {
		jl := int(le.Uint32(data[12:]))
		if 20+jl > len(data) || jl < 0 {
			return nil, nil
		}
		rest := data[20+jl:]
		return clone(data[20 : 20+jl]), func(js []byte) []byte {
			for len(js)%4 != 0 {
				js = append(js, ' ')
			}
			var b bytes.Buffer
			b.Write(le.AppendUint32(nil, glbMagic))
			b.Write(le.AppendUint32(nil, 2))
			b.Write(le.AppendUint32(nil, uint32(20+len(js)+len(rest))))
			b.Write(le.AppendUint32(nil, uint32(len(js))))
			b.Write(le.AppendUint32(nil, 0x4E4F534A))
			b.Write(js)
			b.Write(rest)
			return b.Bytes()
		}
	}
	t := bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf")
	if len(t) > 0 && (t[0] == '{' || t[0] == '<') {
		return clone(data), func(b []byte) []byte { return b }
	}
	return nil, nil
}

// number matches a JSON number, or a number in an XML attribute value.
var number = regexp.MustCompile(`-?\b\d+(\.\d+)?([eE][-+]?\d+)?\b`)

// numbers replaces about one number in four (at least one) with the given
// values in turn.
func numbers(vals ...string) func([]byte, *rand.Rand) []byte {
	return func(text []byte, r *rand.Rand) []byte {
		locs := number.FindAllIndex(text, -1)
		if len(locs) == 0 {
			return nil
		}
		pick := r.IntN(len(locs))
		var b bytes.Buffer
		last, k := 0, 0
		for i, l := range locs {
			if i != pick && r.IntN(4) != 0 {
				continue
			}
			b.Write(text[last:l[0]])
			b.WriteString(vals[k%len(vals)])
			k++
			last = l[1]
		}
		b.Write(text[last:])
		return b.Bytes()
	}
}

// jsonValue matches a JSON value the wrong-type mutation replaces: after
// a colon, a number, string, true/false/null, or an opening bracket.
var jsonValue = regexp.MustCompile(`:\s*(-?\d[\d.eE+-]*|"(?:[^"\\]|\\.)*"|true|false|null|\[|\{)`)

// wrongTypes gives about one value in five a value of another JSON type
// (for XML: a number attribute becomes a word). An opening bracket becomes
// a string followed by the bracketed value as an object member would not
// parse, so only scalars are replaced and brackets get a scalar in front.
func wrongTypes(text []byte, r *rand.Rand) []byte {
	if t := bytes.TrimLeft(text, " \t\r\n\xef\xbb\xbf"); len(t) > 0 && t[0] == '<' {
		return numbers("abc", "", "1,2", "nan", "inf")(text, r)
	}
	locs := jsonValue.FindAllSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return nil
	}
	repl := []string{`"x"`, `[]`, `{}`, `null`, `true`, `-7`, `[1,2,3]`, `{"a":[]}`}
	pick := r.IntN(len(locs))
	var b bytes.Buffer
	last := 0
	for i, l := range locs {
		if i != pick && r.IntN(5) != 0 {
			continue
		}
		start, end := l[2], l[3]
		if start < last {
			continue // inside a value already replaced
		}
		if text[start] == '[' || text[start] == '{' {
			end = matching(text, start)
			if end < 0 {
				continue
			}
		}
		b.Write(text[last:start])
		b.WriteString(repl[r.IntN(len(repl))])
		last = end
	}
	b.Write(text[last:])
	return b.Bytes()
}

// matching returns the index after the bracket that closes the one at i,
// or -1.
func matching(text []byte, i int) int {
	depth, inStr := 0, false
	for k := i; k < len(text); k++ {
		c := text[k]
		switch {
		case inStr && c == '\\':
			k++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
	return -1
}

// nestDepth is how deep the deep-nesting mutation nests.
const nestDepth = 100_000

// deepNesting puts a value nested nestDepth deep in place of one value
// (JSON arrays and objects alternating), or nestDepth nested elements
// inside the XML root.
func deepNesting(text []byte, r *rand.Rand) []byte {
	if t := bytes.TrimLeft(text, " \t\r\n\xef\xbb\xbf"); len(t) > 0 && t[0] == '<' {
		i := bytes.LastIndex(text, []byte("</"))
		if i < 0 {
			return nil
		}
		return append(append(append(clone(text[:i]), strings.Repeat("<group>", nestDepth)...), strings.Repeat("</group>", nestDepth)...), text[i:]...)
	}
	locs := jsonValue.FindAllSubmatchIndex(text, -1)
	if len(locs) == 0 {
		return nil
	}
	l := locs[r.IntN(len(locs))]
	start, end := l[2], l[3]
	if text[start] == '[' || text[start] == '{' {
		if end = matching(text, start); end < 0 {
			return nil
		}
	}
	var b bytes.Buffer
	b.Write(text[:start])
	for k := range nestDepth {
		if k%2 == 0 {
			b.WriteByte('[')
		} else {
			b.WriteString(`{"a":`)
		}
	}
	b.WriteString("1")
	for k := nestDepth - 1; k >= 0; k-- {
		if k%2 == 0 {
			b.WriteByte(']')
		} else {
			b.WriteByte('}')
		}
	}
	b.Write(text[end:])
	return b.Bytes()
}
