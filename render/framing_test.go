package render

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"physview/scene"
)

// shellScene is a glTF of a sphere of radius 1 at (3, 0, 0) inside a
// sphere of radius 20 about the origin whose normals point inward when
// inward is set (a sky dome), with a camera node at (0, 1, 10) when camera
// is set.
func shellScene(t *testing.T, inward, camera bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	var views, accessors []obj
	add := func(data any, target, count int, typ string, ct int) int {
		start := buf.Len()
		binary.Write(&buf, binary.LittleEndian, data)
		views = append(views, obj{"buffer": 0, "byteOffset": start, "byteLength": buf.Len() - start, "target": target})
		for buf.Len()%4 != 0 {
			buf.WriteByte(0)
		}
		accessors = append(accessors, obj{"bufferView": len(views) - 1, "componentType": ct, "count": count, "type": typ})
		return len(accessors) - 1
	}
	sphere := func(r float32, in bool) obj {
		var pos, nrm []float32
		var idx []uint16
		const rings, segs = 12, 16
		for i := 0; i <= rings; i++ {
			th := math.Pi * float64(i) / rings
			for j := 0; j <= segs; j++ {
				ph := 2 * math.Pi * float64(j) / segs
				n := [3]float32{float32(math.Sin(th) * math.Cos(ph)), float32(math.Cos(th)), float32(-math.Sin(th) * math.Sin(ph))}
				s := float32(1)
				if in {
					s = -1
				}
				pos = append(pos, n[0]*r, n[1]*r, n[2]*r)
				nrm = append(nrm, n[0]*s, n[1]*s, n[2]*s)
			}
		}
		for i := 0; i < rings; i++ {
			for j := 0; j < segs; j++ {
				a := uint16(i*(segs+1) + j)
				b := a + segs + 1
				if in {
					idx = append(idx, a, a+1, b, a+1, b+1, b)
				} else {
					idx = append(idx, a, b, a+1, a+1, b, b+1)
				}
			}
		}
		p := add(pos, 34962, len(pos)/3, "VEC3", 5126)
		accessors[p]["min"], accessors[p]["max"] = []float32{-r, -r, -r}, []float32{r, r, r}
		n := add(nrm, 34962, len(nrm)/3, "VEC3", 5126)
		i := add(idx, 34963, len(idx), "SCALAR", 5123)
		return obj{"primitives": []obj{{"attributes": obj{"POSITION": p, "NORMAL": n}, "indices": i}}}
	}
	meshes := []obj{sphere(1, false), sphere(20, inward)}
	nodes := []obj{{"name": "ball", "mesh": 0, "translation": []float64{3, 0, 0}}, {"name": "sky", "mesh": 1}}
	roots := []int{0, 1}
	doc := obj{"asset": obj{"version": "2.0"}, "scene": 0, "meshes": meshes, "accessors": accessors, "bufferViews": views}
	if camera {
		doc["cameras"] = []obj{{"type": "perspective", "perspective": obj{"yfov": 0.8, "znear": 0.1}}}
		nodes = append(nodes, obj{"name": "eye", "camera": 0, "translation": []float64{0, 1, 10}})
		roots = append(roots, 2)
	}
	doc["nodes"], doc["scenes"] = nodes, []obj{{"nodes": roots}}
	doc["buffers"] = []obj{{"byteLength": buf.Len(), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFramingInsideShell: a scene inside a sphere whose normals point
// inward is framed without the sphere (the ball's bounds), or viewed from
// the file's camera when it has one, and the note says which; the same
// sphere facing outward is framed whole.
func TestFramingInsideShell(t *testing.T) {
	headless(t)
	for _, tc := range []struct {
		name           string
		inward, camera bool
		wantCamera     int
		wantMax        float64 // Max x of the framed bounds
		note           string
	}{
		{"dome", true, false, -1, 4, "framed without the mesh that encloses the scene"},
		{"dome and camera", true, true, 0, 20, "viewed from the file's camera 0"},
		{"outward sphere", false, false, -1, 20, ""},
		{"outward sphere and camera", false, true, -1, 20, ""},
	} {
		d, err := scene.Decode(shellScene(t, tc.inward, tc.camera), nil)
		if err != nil {
			t.Fatal(err)
		}
		r := showing(t, d)
		f := r.Framing()
		r.Delete()
		if f.Camera != tc.wantCamera || math.Abs(f.Max[0]-tc.wantMax) > 0.01 || !strings.HasPrefix(f.Note, tc.note) || (tc.note == "") != (f.Note == "") {
			t.Errorf("%s: framing %+v, want camera %d, max x %g, note %q", tc.name, f, tc.wantCamera, tc.wantMax, tc.note)
		}
	}
}

// latLong is a lat-long sphere of radius 1 from polar angle th0 to th1
// (0 the +y pole, π the -y pole), its normals pointing in when in is set.
func latLong(th0, th1 float64, in bool) *scene.PrimitiveData {
	pd := &scene.PrimitiveData{}
	const rings, segs = 12, 16
	s := float32(1)
	if in {
		s = -1
	}
	inf := float32(math.Inf(1))
	pd.Min, pd.Max = [3]float32{inf, inf, inf}, [3]float32{-inf, -inf, -inf}
	for i := 0; i <= rings; i++ {
		th := th0 + (th1-th0)*float64(i)/rings
		for j := 0; j <= segs; j++ {
			ph := 2 * math.Pi * float64(j) / segs
			p := [3]float32{float32(math.Sin(th) * math.Cos(ph)), float32(math.Cos(th)), float32(-math.Sin(th) * math.Sin(ph))}
			pd.Positions = append(pd.Positions, p)
			pd.Normals = append(pd.Normals, [3]float32{p[0] * s, p[1] * s, p[2] * s})
			for k := range p {
				pd.Min[k], pd.Max[k] = min(pd.Min[k], p[k]), max(pd.Max[k], p[k])
			}
		}
	}
	return pd
}

// TestFacesInward: shells seen from inside (a sky sphere, a sky dome)
// count; closed solids and concave sheets whose normals all lean one way
// (a shallow bowl, like the curved ramp of the KHR physics ShapeTypes
// sample, whose mean normal is 0.89 long) do not.
func TestFacesInward(t *testing.T) {
	for _, tc := range []struct {
		name string
		pd   *scene.PrimitiveData
		want bool
	}{
		{"inverted sphere", latLong(0, math.Pi, true), true},
		{"inverted upper hemisphere (sky dome)", latLong(0, math.Pi/2, true), true},
		{"outward sphere", latLong(0, math.Pi, false), false},
		{"shallow bowl (lower cap to 40°)", latLong(math.Pi*(1-40.0/180), math.Pi, true), false},
	} {
		if got := facesInward(tc.pd); got != tc.want {
			t.Errorf("%s: facesInward = %v, want %v", tc.name, got, tc.want)
		}
	}
}
