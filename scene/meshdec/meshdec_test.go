package meshdec

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// glbBlocks reads a fixture .glb (scene/testdata/meshcodec) and returns its
// JSON and BIN chunk.
func glbBlocks(t testing.TB, name string) (doc map[string]any, bin []byte) {
	t.Helper()
	data, err := os.ReadFile("../testdata/meshcodec/" + name)
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint32(data[12:])
	if err := json.Unmarshal(data[20:20+n], &doc); err != nil {
		t.Fatal(err)
	}
	rest := data[20+n:]
	return doc, rest[8 : 8+binary.LittleEndian.Uint32(rest)]
}

func num(v any) int { f, _ := v.(float64); return int(f) }

// dracoStreams returns the Draco bitstreams of draco.glb, with the counts
// its accessors declare: vertices and indices per stream.
func dracoStreams(t testing.TB) (streams [][]byte, verts, indices []int) {
	return dracoStreamsIn(t, "draco.glb")
}

// dracoStreamsIn is dracoStreams of another fixture.
func dracoStreamsIn(t testing.TB, name string) (streams [][]byte, verts, indices []int) {
	doc, bin := glbBlocks(t, name)
	views := doc["bufferViews"].([]any)
	accs := doc["accessors"].([]any)
	for _, m := range doc["meshes"].([]any) {
		for _, p := range m.(map[string]any)["primitives"].([]any) {
			prim := p.(map[string]any)
			ext := prim["extensions"].(map[string]any)["KHR_draco_mesh_compression"].(map[string]any)
			bv := views[num(ext["bufferView"])].(map[string]any)
			off := num(bv["byteOffset"])
			streams = append(streams, bin[off:off+num(bv["byteLength"])])
			pos := accs[num(prim["attributes"].(map[string]any)["POSITION"])].(map[string]any)
			idx := accs[num(prim["indices"])].(map[string]any)
			verts = append(verts, num(pos["count"]))
			indices = append(indices, num(idx["count"]))
		}
	}
	return streams, verts, indices
}

func TestDecodeDraco(t *testing.T) {
	streams, verts, indices := dracoStreams(t)
	if len(streams) != 2 {
		t.Fatalf("%d Draco streams in draco.glb, want 2", len(streams))
	}
	for i, s := range streams {
		m, err := DecodeDraco(s)
		if err != nil {
			t.Fatal(err)
		}
		idx, err := m.Indices(-1)
		if err != nil {
			t.Fatal(err)
		}
		if m.Points != verts[i] || len(idx) != indices[i] || m.Faces*3 != len(idx) {
			t.Errorf("stream %d: %d points, %d indices; the accessors say %d and %d", i, m.Points, len(idx), verts[i], indices[i])
		}
		for _, v := range idx {
			if int(v) >= m.Points {
				t.Fatalf("stream %d: index %d past %d points", i, v, m.Points)
			}
		}
		pos, err := m.Attribute(0, 5126, 3)
		if err != nil || len(pos) != 12*m.Points {
			t.Errorf("stream %d: positions: %d bytes, %v", i, len(pos), err)
		}
		for _, tc := range []struct {
			uid, ctype, ncomp int
			want              string
		}{
			{99, 5126, 3, "no attribute with unique id 99"},
			{0, 5124, 3, "component type 5124 with 3 components is not supported"},
			{0, 5126, 0, "with 0 components is not supported"},
		} {
			if _, err := m.Attribute(tc.uid, tc.ctype, tc.ncomp); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Attribute(%d, %d, %d): %v, want %q", tc.uid, tc.ctype, tc.ncomp, err, tc.want)
			}
		}
		m.Close()
		m.Close() // twice is harmless
		if _, err := m.Attribute(0, 5126, 3); err == nil {
			t.Error("a closed mesh still reads")
		}
	}
	for _, bad := range [][]byte{nil, []byte("DRACO"), streams[0][:len(streams[0])/2], []byte(strings.Repeat("x", 100))} {
		if m, err := DecodeDraco(bad); err == nil {
			m.Close()
			t.Errorf("%d bytes of bad data decoded", len(bad))
		}
	}
}

// meshoptViews returns the meshopt blocks of meshopt.glb with their bytes.
func meshoptViews(t testing.TB) (blocks []map[string]any, data [][]byte) {
	doc, bin := glbBlocks(t, "meshopt.glb")
	for _, v := range doc["bufferViews"].([]any) {
		ext, ok := v.(map[string]any)["extensions"].(map[string]any)
		if !ok {
			continue
		}
		b := ext["EXT_meshopt_compression"].(map[string]any)
		off := num(b["byteOffset"])
		blocks = append(blocks, b)
		data = append(data, bin[off:off+num(b["byteLength"])])
	}
	return blocks, data
}

func TestDecodeMeshopt(t *testing.T) {
	blocks, data := meshoptViews(t)
	modes := map[string]int{}
	for i, b := range blocks {
		mode, _ := b["mode"].(string)
		filter, _ := b["filter"].(string)
		count, stride := num(b["count"]), num(b["byteStride"])
		out, err := DecodeMeshopt(data[i], count, stride, mode, filter)
		if err != nil {
			t.Fatalf("view %d (%s %s): %v", i, mode, filter, err)
		}
		if len(out) != count*stride {
			t.Errorf("view %d: %d bytes, want %d", i, len(out), count*stride)
		}
		modes[mode+"/"+filter]++
		// One byte less must fail cleanly, never read past the end.
		if _, err := DecodeMeshopt(data[i][:len(data[i])-1], count, stride, mode, filter); err == nil && count > 0 {
			t.Errorf("view %d: truncated data decoded", i)
		}
	}
	if modes["TRIANGLES/"] == 0 || modes["ATTRIBUTES/"]+modes["ATTRIBUTES/NONE"] == 0 || modes["ATTRIBUTES/OCTAHEDRAL"] == 0 {
		t.Errorf("fixture modes %v: want TRIANGLES, ATTRIBUTES and OCTAHEDRAL", modes)
	}
	// Every precondition libmeshoptimizer asserts is an error here.
	for _, tc := range []struct {
		count, stride int
		mode, filter  string
		want          string
	}{
		{3, 6, ModeAttributes, "", "multiple of 4 up to 256"},
		{3, 260, ModeAttributes, "", "multiple of 4 up to 256"},
		{4, 2, ModeTriangles, "", "multiple of 3"},
		{3, 8, ModeTriangles, "", "byteStride of 2 or 4"},
		{3, 4, ModeIndices, FilterOctahedral, "only for ATTRIBUTES"},
		{3, 12, ModeAttributes, FilterOctahedral, "OCTAHEDRAL needs a byteStride of 4 or 8"},
		{3, 4, ModeAttributes, FilterQuaternion, "QUATERNION needs a byteStride of 8"},
		{3, 4, "POINTS", "", "unknown mode"},
		{3, 4, ModeAttributes, "SQUARE", "unknown filter"},
		{-1, 4, ModeAttributes, "", "are not valid"},
		{1 << 30, 16, ModeAttributes, "", "decoding budget"},
		{3, 4, ModeAttributes, "", "no data"},
	} {
		_, err := DecodeMeshopt(nil, tc.count, tc.stride, tc.mode, tc.filter)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d x %d %s %s: %v, want %q", tc.count, tc.stride, tc.mode, tc.filter, err, tc.want)
		}
	}
}

// FuzzDraco hands arbitrary bytes (seeded with the fixture's bitstreams)
// to libdraco through the shim, bounded to 64 KiB, and reads what decodes.
func FuzzDraco(f *testing.F) {
	streams, _, _ := dracoStreams(f)
	sequential, _, _ := dracoStreamsIn(f, "draco_sequential.glb")
	for _, s := range append(streams, sequential...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		m, err := DecodeDraco(data)
		if err != nil {
			return
		}
		defer m.Close()
		idx, err := m.Indices(-1)
		for _, v := range idx {
			if err == nil && int(v) >= m.Points {
				t.Fatalf("index %d past %d points", v, m.Points)
			}
		}
		for uid := 0; uid < 4; uid++ {
			if c := m.Components(uid); c > 0 {
				if b, err := m.Attribute(uid, 5126, c); err == nil && len(b) != 4*c*m.Points {
					t.Fatalf("attribute %d: %d bytes", uid, len(b))
				}
			}
		}
	})
}

// FuzzMeshopt decodes arbitrary bytes with arbitrary counts, strides,
// modes and filters (seeded with the fixture's views).
func FuzzMeshopt(f *testing.F) {
	blocks, data := meshoptViews(f)
	modes := []string{ModeAttributes, ModeTriangles, ModeIndices}
	filters := []string{"", FilterOctahedral, FilterQuaternion, FilterExponential}
	for i, b := range blocks {
		mi, fi := 0, 0
		for k, m := range modes {
			if m == b["mode"] {
				mi = k
			}
		}
		for k, fl := range filters {
			if fl == b["filter"] {
				fi = k
			}
		}
		f.Add(data[i], num(b["count"]), num(b["byteStride"]), mi, fi)
	}
	f.Fuzz(func(t *testing.T, data []byte, count, stride, mode, filter int) {
		if count > 1<<16 || len(data) > 1<<20 {
			return
		}
		m := modes[((mode%3)+3)%3]
		fl := filters[((filter%4)+4)%4]
		out, err := DecodeMeshopt(data, count, stride, m, fl)
		if err == nil && len(out) != count*stride {
			t.Fatalf("%d bytes for %d x %d", len(out), count, stride)
		}
	})
}

// TestDracoDeclared: the counts read ahead of a sequential stream's data
// are the ones its accessors declare and libdraco decodes (edgebreaker
// streams are left to libdraco), and a
// stream that declares far more than its size can hold is refused at once,
// before libdraco allocates for it (FuzzDraco's a1dd184e79738001: 25 bytes
// declaring 985,595,905 points took 10 s).
func TestDracoDeclared(t *testing.T) {
	edgebreaker, _, _ := dracoStreams(t)
	sequential, verts, indices := dracoStreamsIn(t, "draco_sequential.glb")
	read := 0
	for i, s := range append(sequential, edgebreaker...) {
		p, f, ok := dracoDeclared(s)
		if i < len(sequential) && (!ok || int(p) != verts[i] || int(f) != indices[i]/3) {
			t.Errorf("sequential stream %d: declared %d points and %d faces (%v), its accessors %d and %d", i, p, f, ok, verts[i], indices[i]/3)
		}
		if !ok {
			continue
		}
		read++
		m, err := DecodeDraco(s)
		if err != nil {
			t.Fatalf("stream %d: %v", i, err)
		}
		if int(p) != m.Points || int(f) != m.Faces {
			t.Errorf("stream %d declares %d points and %d faces, decodes %d and %d", i, p, f, m.Points, m.Faces)
		}
		m.Close()
	}
	if read != len(sequential) {
		t.Errorf("%d streams read ahead, want the %d sequential ones", read, len(sequential))
	}
	hung := []byte("DRACO\x02\x02\x00\x00\xb7;\x01\x00\xbf:\x01\x01\x01\x01\x01\x14\x14\x01\x01\x00")
	if p, _, ok := dracoDeclared(hung); !ok || p != 985595905 {
		t.Errorf("declared %d points (%v), want 985595905", p, ok)
	}
	start := time.Now()
	if _, err := DecodeDraco(hung); err == nil || !strings.Contains(err.Error(), "declare 985595905 points") {
		t.Errorf("error %v, want the declared count refused", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing took %v", d)
	}
}
