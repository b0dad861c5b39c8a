package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"physview/internal/testcorpus"
)

func TestReadPrimitiveFlatNormals(t *testing.T) {
	d := mustLoad(t, "testdata/current.gltf")
	pd, err := d.ReadPrimitive(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The tetrahedron has 4 faces and no normals: 12 de-indexed vertices.
	if pd.Mode != DrawTriangles || len(pd.Positions) != 12 || pd.Indices != nil || len(pd.Normals) != 12 {
		t.Fatalf("mode %v, %d positions, %d normals, indices %v", pd.Mode, len(pd.Positions), len(pd.Normals), pd.Indices)
	}
	for f := 0; f < 4; f++ {
		a, b, c := pd.Positions[3*f], pd.Positions[3*f+1], pd.Positions[3*f+2]
		n := pd.Normals[3*f]
		if l := math.Sqrt(float64(dot(n, n))); math.Abs(l-1) > 1e-6 {
			t.Errorf("face %d normal %v has length %g", f, n, l)
		}
		if math.Abs(float64(dot(n, sub(b, a)))) > 1e-6 || math.Abs(float64(dot(n, sub(c, a)))) > 1e-6 {
			t.Errorf("face %d normal %v is not perpendicular to the face", f, n)
		}
		// Counter-clockwise winding: the normal points away from the centroid (0.25, 0.25, 0.25).
		centroid := [3]float32{0.25, 0.25, 0.25}
		if dot(n, sub(a, centroid)) <= 0 {
			t.Errorf("face %d normal %v points inwards", f, n)
		}
	}
	if pd.Min != [3]float32{0, 0, 0} || pd.Max != [3]float32{1, 1, 1} {
		t.Errorf("bounds %v %v", pd.Min, pd.Max)
	}
}

func TestTriangulate(t *testing.T) {
	cases := []struct {
		mode gltf.PrimitiveMode
		idx  []uint32
		n    int
		want []uint32
	}{
		{gltf.PrimitiveTriangleStrip, nil, 5, []uint32{0, 1, 2, 2, 1, 3, 2, 3, 4}},
		{gltf.PrimitiveTriangleFan, nil, 5, []uint32{0, 1, 2, 0, 2, 3, 0, 3, 4}},
		{gltf.PrimitiveTriangleFan, []uint32{4, 3, 2, 1}, 5, []uint32{4, 3, 2, 4, 2, 1}},
		{gltf.PrimitiveTriangleStrip, nil, 2, []uint32{}},
	}
	for _, c := range cases {
		got := triangulate(c.mode, c.idx, c.n)
		if len(got) != len(c.want) {
			t.Errorf("%v %v: %v, want %v", c.mode, c.idx, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%v %v: %v, want %v", c.mode, c.idx, got, c.want)
				break
			}
		}
	}
}

func TestReadPrimitiveCorpus(t *testing.T) {
	d := mustLoad(t, testcorpus.File(t, "gltf-sample-assets/Models/Box/glTF/Box.gltf"))
	pd, err := d.ReadPrimitive(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pd.Positions) != 24 || len(pd.Indices) != 36 || len(pd.Normals) != 24 || pd.Material != 0 {
		t.Errorf("Box: %d positions, %d indices, %d normals, material %d", len(pd.Positions), len(pd.Indices), len(pd.Normals), pd.Material)
	}
	if pd.Min != [3]float32{-0.5, -0.5, -0.5} || pd.Max != [3]float32{0.5, 0.5, 0.5} {
		t.Errorf("Box bounds %v %v", pd.Min, pd.Max)
	}
	h := mustLoad(t, testcorpus.File(t, "gltf-sample-assets/Models/DamagedHelmet/glTF-Binary/DamagedHelmet.glb"))
	hp, err := h.ReadPrimitive(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The helmet has a normal map and no tangents: they are computed, unit
	// length and perpendicular to the normals.
	if len(hp.Tangents) != len(hp.Positions) {
		t.Fatalf("helmet tangents %d for %d vertices", len(hp.Tangents), len(hp.Positions))
	}
	for i := 0; i < len(hp.Tangents); i += 97 {
		tg := [3]float32{hp.Tangents[i][0], hp.Tangents[i][1], hp.Tangents[i][2]}
		if l := dot(tg, tg); math.Abs(float64(l)-1) > 1e-3 || math.Abs(float64(dot(tg, hp.Normals[i]))) > 1e-3 {
			t.Errorf("tangent %d = %v (normal %v)", i, hp.Tangents[i], hp.Normals[i])
		}
	}
}

func TestReadPrimitiveMalformed(t *testing.T) {
	d := mustLoad(t, "testdata/current.gltf")
	d.GLTF.Accessors[0].Count = 1000 // more elements than the buffer view holds
	if _, err := d.ReadPrimitive(0, 0); err == nil || !strings.Contains(err.Error(), "do not fit") {
		t.Errorf("oversized accessor: %v", err)
	}
	d = mustLoad(t, "testdata/current.gltf")
	d.GLTF.Accessors[0].Sparse = &gltf.Sparse{Count: 1, Indices: gltf.SparseIndices{BufferView: 1, ComponentType: gltf.ComponentUshort}, Values: gltf.SparseValues{BufferView: 0}}
	d.GLTF.Accessors[0].Count = 1 // the sparse index (0..) may point past the count
	if _, err := d.ReadPrimitive(0, 0); err == nil {
		t.Log("sparse accessor accepted") // either an error or valid data, never a panic
	}
	if _, err := d.ReadPrimitive(3, 0); err == nil {
		t.Error("mesh 3 does not exist")
	}
}
