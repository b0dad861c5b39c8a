package concave

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// File is a glTF scene for the decomposition's tests: a static ground box
// (10 x 1 x 10 m, its top at y = 0) and a dynamic body of 1 kg (no inertia
// given) at height y whose node has the mesh and no collider yet.
type File struct {
	Mesh Mesh
	Name string
	Y    float64
	// KHR writes KHR_physics_rigid_bodies and KHR_implicit_shapes instead
	// of OMI's extensions.
	KHR bool
}

// geometry returns the mesh's bytes (float positions, then unsigned short
// indices) and the document's buffer views, accessors and mesh.
func (f File) geometry() (bin []byte, parts map[string]any) {
	le := binary.LittleEndian
	lo := []float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range f.Mesh.Pos {
		for k := 0; k < 3; k++ {
			v := float32(p[k])
			bin = le.AppendUint32(bin, math.Float32bits(v))
			lo[k], hi[k] = math.Min(lo[k], float64(v)), math.Max(hi[k], float64(v))
		}
	}
	posLen := len(bin)
	for _, t := range f.Mesh.Tris {
		for _, i := range t {
			bin = le.AppendUint16(bin, uint16(i))
		}
	}
	idxLen := len(bin) - posLen
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	return bin, map[string]any{
		"bufferViews": []any{
			map[string]any{"buffer": 0, "byteLength": posLen, "target": 34962},
			map[string]any{"buffer": 0, "byteOffset": posLen, "byteLength": idxLen, "target": 34963},
		},
		"accessors": []any{
			map[string]any{"bufferView": 0, "componentType": 5126, "count": len(f.Mesh.Pos), "type": "VEC3", "min": lo, "max": hi},
			map[string]any{"bufferView": 1, "componentType": 5123, "count": 3 * len(f.Mesh.Tris), "type": "SCALAR"},
		},
		"meshes": []any{map[string]any{"name": f.Name, "primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": 0}, "indices": 1}}}},
	}
}

// document returns the glTF JSON object with buffer 0 as given.
func (f File) document(buffer map[string]any, geo map[string]any) map[string]any {
	doc := map[string]any{"asset": map[string]any{"version": "2.0", "generator": "physview concave fixtures"}}
	for k, v := range geo {
		doc[k] = v
	}
	doc["buffers"] = []any{buffer}
	doc["scene"] = 0
	doc["scenes"] = []any{map[string]any{"nodes": []int{0, 1}}}
	ground := map[string]any{"name": "ground", "translation": []float64{0, -0.5, 0}}
	body := map[string]any{"name": f.Name, "mesh": 0, "translation": []float64{0, f.Y, 0}}
	if f.KHR {
		doc["extensionsUsed"] = []string{"KHR_implicit_shapes", "KHR_physics_rigid_bodies"}
		doc["extensions"] = map[string]any{"KHR_implicit_shapes": map[string]any{"shapes": []any{map[string]any{"type": "box", "box": map[string]any{"size": []float64{10, 1, 10}}}}}}
		ground["extensions"] = map[string]any{"KHR_physics_rigid_bodies": map[string]any{"collider": map[string]any{"geometry": map[string]any{"shape": 0}}}}
		body["extensions"] = map[string]any{"KHR_physics_rigid_bodies": map[string]any{"motion": map[string]any{"mass": 1}}}
	} else {
		doc["extensionsUsed"] = []string{"OMI_physics_body", "OMI_physics_shape"}
		doc["extensions"] = map[string]any{"OMI_physics_shape": map[string]any{"shapes": []any{map[string]any{"type": "box", "box": map[string]any{"size": []float64{10, 1, 10}}}}}}
		ground["extensions"] = map[string]any{"OMI_physics_body": map[string]any{"collider": map[string]any{"shape": 0}}}
		body["extensions"] = map[string]any{"OMI_physics_body": map[string]any{"motion": map[string]any{"type": "dynamic", "mass": 1}}}
	}
	doc["nodes"] = []any{ground, body}
	return doc
}

// GLB returns the scene as a .glb.
func (f File) GLB() ([]byte, error) {
	bin, geo := f.geometry()
	js, err := json.Marshal(f.document(map[string]any{"byteLength": len(bin)}, geo))
	if err != nil {
		return nil, err
	}
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	le := binary.LittleEndian
	var b bytes.Buffer
	b.Write(le.AppendUint32(nil, 0x46546C67))
	b.Write(le.AppendUint32(nil, 2))
	b.Write(le.AppendUint32(nil, uint32(12+8+len(js)+8+len(bin))))
	b.Write(le.AppendUint32(nil, uint32(len(js))))
	b.Write(le.AppendUint32(nil, 0x4E4F534A))
	b.Write(js)
	b.Write(le.AppendUint32(nil, uint32(len(bin))))
	b.Write(le.AppendUint32(nil, 0x004E4942))
	b.Write(bin)
	return b.Bytes(), nil
}

// GLTF returns the scene as a .gltf with its buffer in binName beside it,
// or, when binName is "", in a data URI.
func (f File) GLTF(binName string) (js, bin []byte, err error) {
	bin, geo := f.geometry()
	uri := binName
	if binName == "" {
		uri = "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin)
	}
	js, err = json.MarshalIndent(f.document(map[string]any{"byteLength": len(bin), "uri": uri}, geo), "", "  ")
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return append(js, '\n'), bin, nil
}
