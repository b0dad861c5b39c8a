package scene_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/internal/khronosval"
	"physview/internal/testcorpus"
	"physview/scene"
)

// codeSet returns the sorted distinct finding codes of fs.
func codeSet(fs []scene.Finding) []string {
	var out []string
	for _, f := range fs {
		if !slices.Contains(out, f.Code) {
			out = append(out, f.Code)
		}
	}
	slices.Sort(out)
	return out
}

// added returns the codes of out that in does not have.
func added(in, out []string) []string {
	var a []string
	for _, c := range out {
		if !slices.Contains(in, c) {
			a = append(a, c)
		}
	}
	return a
}

// convertAll saves each fixture under testdata/convert as .glb and as
// .gltf (in a folder of its own, so resources are copied) and returns the
// inputs and outputs by fixture.
func convertAll(t *testing.T) (ins []string, outs map[string][]string) {
	t.Helper()
	ins, _ = filepath.Glob("testdata/convert/*.gl*")
	if len(ins) < 5 {
		t.Fatalf("%d fixtures", len(ins))
	}
	outs = map[string][]string{}
	tmp := t.TempDir()
	for _, in := range ins {
		d, err := scene.Load(in)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		for _, out := range []string{filepath.Join(tmp, base+".glb"), filepath.Join(tmp, base, base+".gltf")} {
			if err := d.Save(out); err != nil {
				t.Fatalf("%s to %s: %v", in, out, err)
			}
			outs[in] = append(outs[in], out)
		}
	}
	return ins, outs
}

// TestConvertAddsNoFinding: issue 24 item 7. Converting a file to .glb or
// .gltf adds no finding code the input did not have: data-URI images move
// into the BIN chunk (no DATA_URI_GLB), a variants mapping without a
// material gets no "material": -1, and a misplaced BIN chunk is kept (the
// output has its bytes).
func TestConvertAddsNoFinding(t *testing.T) {
	ins, outs := convertAll(t)
	for _, in := range ins {
		d, _ := scene.Load(in)
		want := codeSet(d.Findings())
		for _, out := range outs[in] {
			o, err := scene.Load(out)
			if err != nil {
				t.Errorf("%s: %v", out, err)
				continue
			}
			if a := added(want, codeSet(o.Findings())); len(a) > 0 {
				t.Errorf("%s -> %s adds %v: %v", in, filepath.Base(out), a, o.Findings())
			}
			// Geometry survives: the triangle's buffer has its bytes.
			if n := len(o.GLTF.Buffers); n == 0 || len(o.GLTF.Buffers[0].Data) < 36 {
				t.Errorf("%s -> %s: the buffer lost its bytes", in, filepath.Base(out))
			}
			data, _ := os.ReadFile(out)
			if strings.HasSuffix(out, ".glb") && strings.Contains(string(data), "data:image") {
				t.Errorf("%s -> %s: a data-URI image stays a data URI in the GLB", in, filepath.Base(out))
			}
		}
	}
}

// TestConvertAddsNoKhronosFinding: the same judged by the Khronos
// validator (skipped when it is not installed).
func TestConvertAddsNoKhronosFinding(t *testing.T) {
	kdir := khronosval.Dir(t, testcorpus.Root(t))
	ins, outs := convertAll(t)
	all := slices.Clone(ins)
	for _, in := range ins {
		all = append(all, outs[in]...)
	}
	reps, err := khronosval.Run(kdir, t.TempDir(), all)
	if err != nil {
		t.Fatal(err)
	}
	codes := func(f string) []string {
		r, ok := reps[f]
		if !ok || r.Err != "" {
			t.Fatalf("%s: no report (%v)", f, r.Err)
		}
		var out []string
		for _, m := range r.Messages {
			if !slices.Contains(out, m.Code) {
				out = append(out, m.Code)
			}
		}
		return out
	}
	for _, in := range ins {
		want := codes(in)
		for _, out := range outs[in] {
			if a := added(want, codes(out)); len(a) > 0 {
				t.Errorf("%s -> %s: Khronos finds %v the input did not have", in, filepath.Base(out), a)
			}
		}
	}
}
