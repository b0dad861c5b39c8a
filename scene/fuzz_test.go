package scene

import (
	"bytes"
	"testing"
)

// fuzzDoc places one fuzzed JSON value at every place an owned extension can
// sit, so a single input exercises every decoder.
func fuzzDoc(ext []byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"asset":{"version":"2.0"},"extensions":{`)
	for i, name := range ownedExtensions {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + name + `":`)
		b.Write(ext)
	}
	b.WriteString(`},"materials":[{},{}],"nodes":[{"children":[1],"extensions":{`)
	for i, name := range ownedExtensions {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"` + name + `":`)
		b.Write(ext)
	}
	b.WriteString(`}},{}],"meshes":[{"primitives":[{"attributes":{},"extensions":{"KHR_materials_variants":`)
	b.Write(ext)
	b.WriteString(`}}]}]}`)
	return b.Bytes()
}

// FuzzExtensions feeds arbitrary JSON to every owned extension decoder. It
// must never panic, and whatever loads must save, load again and save to the
// same bytes.
func FuzzExtensions(f *testing.F) {
	seeds := []string{
		`{}`, `[]`, `null`, `1`, `"x"`,
		`{"shapes":[{"type":"capsule","radius":0.5,"height":0.2}],"colliders":[{"type":"hull","mesh":0,"isTrigger":true}]}`,
		`{"motion":{"type":"rigid"},"collider":{"shape":0},"trigger":{},"type":"trigger","shape":0,"collider":0}`,
		`{"type":"line","gravity":1,"line":{"points":[0,0,0,1,1,1]},"priority":2.5,"stop":true}`,
		`{"physicsJoints":[{"limits":[{"angularAxes":[0],"min":-1,"max":1}],"drives":[{"type":"angular","mode":"force","axis":0}]}],"joint":0,"connectedNode":1}`,
		`{"variants":[{"name":"a"}],"mappings":[{"material":1,"variants":[0,0]}],"mapping":[{"material":0,"variants":["b"]}]}`,
		`{"physicsMaterials":[{"frictionCombine":"x"}],"collisionFilters":[{"collisionSystems":[1]}],"gravity":-3,"direction":[0,0,0]}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, ext []byte) {
		d, err := Decode(fuzzDoc(ext), nil)
		if err != nil {
			return // not JSON at all: a load error, which is fine
		}
		out, err := d.Encode("fuzz.gltf")
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		d2, err := Decode(out[0].Data, nil)
		if err != nil {
			t.Fatalf("saved file does not load: %v\n%s", err, out[0].Data)
		}
		out2, err := d2.Encode("fuzz.gltf")
		if err != nil {
			t.Fatalf("second encode: %v", err)
		}
		if !bytes.Equal(out[0].Data, out2[0].Data) {
			t.Fatalf("save is not stable:\nfirst:\n%s\nsecond:\n%s", out[0].Data, out2[0].Data)
		}
	})
}
