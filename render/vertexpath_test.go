package render

import (
	"strings"
	"testing"
)

// TestVertexPaths checks that the mesh vertex shader gets only the paths
// a draw asks for (VERTEX_DYNAMIC for skins, morph targets and
// instancing; VERTEX_BATCH for batches) and that every vertex path
// compiles with plain and transmissive materials: a plain draw's program
// has neither path, so llvmpipe does not run the joint and batch fetches
// for its vertices.
func TestVertexPaths(t *testing.T) {
	for _, c := range []struct {
		f              shaderFeatures
		dynamic, batch bool
	}{
		{0, false, false},
		{featTransmission, false, false},
		{featVertexDynamic, true, false},
		{featVertexBatch | featClearcoat, false, true},
	} {
		src := meshVertSource(c.f)
		if !strings.HasPrefix(src, "#version 330 core\n") {
			t.Errorf("%#x: the source does not start with its #version line", uint16(c.f))
		}
		if got := strings.Contains(src, "#define VERTEX_DYNAMIC\n"); got != c.dynamic {
			t.Errorf("%#x: VERTEX_DYNAMIC defined %v, want %v", uint16(c.f), got, c.dynamic)
		}
		if got := strings.Contains(src, "#define VERTEX_BATCH\n"); got != c.batch {
			t.Errorf("%#x: VERTEX_BATCH defined %v, want %v", uint16(c.f), got, c.batch)
		}
	}
	headless(t)
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	for _, v := range []shaderFeatures{featVertexDynamic, featVertexBatch} {
		for _, f := range []shaderFeatures{0, featTransmission | featClearcoat} {
			p := r.meshProgram(f | v)
			if p == r.mesh {
				t.Errorf("%#x: %v", uint16(f|v), r.Messages)
				continue
			}
			// The path's uniforms are there, the other path's are not.
			dyn, batch := p.loc("uSkinned") >= 0, p.loc("uBatchFirst") >= 0
			if dyn != (v == featVertexDynamic) || batch != (v == featVertexBatch) {
				t.Errorf("%#x: uSkinned %v, uBatchFirst %v", uint16(f|v), dyn, batch)
			}
		}
	}
	if base := r.meshProgram(0); base.loc("uSkinned") >= 0 || base.loc("uBatchFirst") >= 0 {
		t.Error("the plain program has a skin or batch uniform")
	}
}
