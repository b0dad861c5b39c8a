package diff

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/depcheck"
	"physview/scene"
)

// The pairs of TestOneChange are made from testdata/base.gltf (a crate
// with a dynamic body and a box collider, a floor, a lamp with an animated
// rotation, a kinematic anchor, one textured material) by scene edits and
// saves, by JSON edits where no edit exists (an inserted node), and by
// re-encoding its PNG.

// copyBase copies base.gltf and paint.png into a new folder and returns
// the copy of base.gltf.
func copyBase(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"base.gltf", "paint.png"} {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "base.gltf")
}

// editBase applies edits (built from the loaded copy) and saves it.
func editBase(t *testing.T, edits func(d *scene.Document) []scene.Edit) string {
	t.Helper()
	p := copyBase(t)
	d, err := scene.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits(d) {
		if _, err := scene.Apply(d, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Save(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// editJSON rewrites the copy's JSON with f.
func editJSON(t *testing.T, f func(doc map[string]any)) string {
	t.Helper()
	p := copyBase(t)
	var doc map[string]any
	data, _ := os.ReadFile(p)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	out, _ := json.Marshal(doc)
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// editPNG rewrites the copy's paint.png: its pixels changed by paint (nil:
// the same pixels) encoded at level.
func editPNG(t *testing.T, level png.CompressionLevel, paint func(m *image.NRGBA)) string {
	t.Helper()
	p := copyBase(t)
	f := filepath.Join(filepath.Dir(p), "paint.png")
	data, _ := os.ReadFile(f)
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	m := image.NewNRGBA(src.Bounds())
	for y := range m.Rect.Dy() {
		for x := range m.Rect.Dx() {
			m.Set(x, y, src.At(x, y))
		}
	}
	if paint != nil {
		paint(m)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: level}).Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(buf.Bytes(), data) {
		t.Fatal("the re-encoded PNG has the same bytes")
	}
	if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func load(t *testing.T, p string) *scene.Document {
	t.Helper()
	d, err := scene.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// shiftNodes adds k to every node reference base.gltf has.
func shiftNodes(doc map[string]any, k float64) {
	shift := func(v any) any { return v.(float64) + k }
	for _, s := range doc["scenes"].([]any) {
		ns := s.(map[string]any)["nodes"].([]any)
		for i := range ns {
			ns[i] = shift(ns[i])
		}
	}
	for _, n := range doc["nodes"].([]any) {
		if ch, ok := n.(map[string]any)["children"].([]any); ok {
			for i := range ch {
				ch[i] = shift(ch[i])
			}
		}
	}
	for _, a := range doc["animations"].([]any) {
		for _, ch := range a.(map[string]any)["channels"].([]any) {
			tg := ch.(map[string]any)["target"].(map[string]any)
			tg["node"] = shift(tg["node"])
		}
	}
}

func TestOneChange(t *testing.T) {
	base := filepath.Join("testdata", "base.gltf")
	meshcodec := filepath.Join("..", "testdata", "meshcodec")
	cases := []struct {
		name string
		a    string
		b    func(t *testing.T) string
		want []Change // summary: a part it must contain
	}{
		{"reformatted", base, func(t *testing.T) string {
			// Compact, keys sorted, numbers spelled 1.0 and 2e0.
			p := editJSON(t, func(map[string]any) {})
			data, _ := os.ReadFile(p)
			s := strings.ReplaceAll(string(data), `"mass":2`, `"mass":2e0`)
			s = strings.ReplaceAll(s, `"roughnessFactor":0.5`, `"roughnessFactor":5.0E-1`)
			s = strings.ReplaceAll(s, `"translation":[3,1,0]`, `"translation":[3.0,1.00,0.0]`)
			os.WriteFile(p, []byte(s), 0o644)
			return p
		}, nil},
		{"moved collider", base, func(t *testing.T) string {
			return editBase(t, func(d *scene.Document) []scene.Edit {
				tr := d.NodeTransform(1)
				tr.Translation = [3]float64{0, 2.5, 0}
				return []scene.Edit{scene.SetNodeTransform{Node: 1, Transform: tr}}
			})
		}, []Change{{Category: Physics, Kind: Moved, PointerA: "/nodes/1/translation", PointerB: "/nodes/1/translation", Node: "Crate",
			Summary: "collider moved: translation [0, 2, 0] → [0, 2.5, 0]"}}},
		{"changed mass", base, func(t *testing.T) string {
			return editBase(t, func(d *scene.Document) []scene.Edit {
				m := *d.Nodes[1].Body.Motion
				m.Mass = 5
				return []scene.Edit{d.SetMotionEdit(1, &m, "")}
			})
		}, []Change{{Category: Physics, Kind: Changed, PointerA: "/nodes/1/extensions/OMI_physics_body/motion/mass", PointerB: "/nodes/1/extensions/OMI_physics_body/motion/mass", Node: "Crate",
			Summary: "mass 2 → 5 kg"}}},
		{"resized collider", base, func(t *testing.T) string {
			return editBase(t, func(d *scene.Document) []scene.Edit {
				sh := d.Shapes[1]
				sh.Size = [3]float64{12, 1, 10}
				return []scene.Edit{scene.SetShape{Index: 1, Shape: sh}}
			})
		}, []Change{{Category: Physics, Kind: Changed, PointerA: "/extensions/OMI_physics_shape/shapes/1", PointerB: "/extensions/OMI_physics_shape/shapes/1", Node: "Floor",
			Summary: "collider resized: box size 10 x 1 x 10 → box size 12 x 1 x 10"}}},
		{"world gravity added", base, func(t *testing.T) string {
			return editBase(t, func(d *scene.Document) []scene.Edit {
				return []scene.Edit{scene.SetWorldGravity{Gravity: &scene.WorldGravity{Gravity: 1.62, Direction: [3]float64{0, -1, 0}}}}
			})
		}, []Change{{Category: Physics, Kind: Added, PointerB: "/extensions/OMI_physics_gravity",
			Summary: "world gravity added: 1.62 m/s² towards [0, -1, 0]"}}},
		{"new joint", base, func(t *testing.T) string {
			return editBase(t, func(d *scene.Document) []scene.Edit { return []scene.Edit{d.AddJointEdit(4, 1)} })
		}, []Change{{Category: Physics, Kind: Added, PointerB: "/nodes/4/extensions/OMI_physics_joint", Node: "Anchor",
			Summary: `joint added: connected to "Crate", 2 limits, 0 drives`}}},
		{"renamed node", base, func(t *testing.T) string {
			return editBase(t, func(d *scene.Document) []scene.Edit { return []scene.Edit{scene.SetNodeName{Node: 3, To: "Lantern"}} })
		}, []Change{{Category: Structure, Kind: Changed, PointerA: "/nodes/3/name", PointerB: "/nodes/3/name", Node: "Lantern",
			Summary: `renamed "Lamp" → "Lantern"`}}},
		{"inserted node at index 0", base, func(t *testing.T) string {
			return editJSON(t, func(doc map[string]any) {
				shiftNodes(doc, 1)
				doc["nodes"] = append([]any{map[string]any{"name": "Marker", "translation": []any{1.0, 0.0, 0.0}}}, doc["nodes"].([]any)...)
				s := doc["scenes"].([]any)[0].(map[string]any)
				s["nodes"] = append(s["nodes"].([]any), 0.0)
			})
		}, []Change{{Category: Structure, Kind: Added, PointerB: "/nodes/0", Node: "Marker",
			Summary: `node "Marker" added under the scene root`}}},
		{"node moved to another parent", base, func(t *testing.T) string {
			return editJSON(t, func(doc map[string]any) {
				root := doc["nodes"].([]any)[0].(map[string]any)
				root["children"] = []any{1.0, 2.0}
				sc := doc["scenes"].([]any)[0].(map[string]any)
				sc["nodes"] = append(sc["nodes"].([]any), 3.0)
			})
		}, []Change{{Category: Structure, Kind: Moved, PointerA: "/nodes/3", PointerB: "/nodes/3", Node: "Lamp",
			Summary: `moved from "Root" to the scene root`}}},
		{"re-compressed Draco mesh", filepath.Join(meshcodec, "draco.glb"), func(t *testing.T) string {
			return filepath.Join(meshcodec, "draco_sequential.glb")
		}, []Change{
			{Category: Geometry, Kind: Encoding, PointerA: "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression", PointerB: "/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression",
				Summary: `mesh "sphere" primitive 0: encoding changed (Draco data re-encoded, 3226 → 7450 bytes), geometry equal within 1e-06`},
			{Category: Geometry, Kind: Encoding, PointerA: "/meshes/1/primitives/0/extensions/KHR_draco_mesh_compression", PointerB: "/meshes/1/primitives/0/extensions/KHR_draco_mesh_compression",
				Summary: `mesh "box" primitive 0: encoding changed (Draco data re-encoded, 143 → 164 bytes), geometry equal within 1e-06`},
		}},
		{"quantized, the node's scale takes the dequantization", filepath.Join(meshcodec, "source.glb"), func(t *testing.T) string {
			return filepath.Join(meshcodec, "quantized.glb")
		}, []Change{
			{Category: Geometry, Kind: Encoding, PointerA: "/meshes/0/primitives/0", PointerB: "/meshes/0/primitives/0",
				Summary: `mesh "sphere" primitive 0: encoding changed plain → quantized SHORT (node "Sphere"'s transform takes the dequantization); vertices moved by up to 8.65023e-05`},
			{Category: Geometry, Kind: Encoding, PointerA: "/meshes/1/primitives/0", PointerB: "/meshes/1/primitives/0",
				Summary: `mesh "box" primitive 0: encoding changed plain → quantized SHORT (node "Box"'s transform takes the dequantization), geometry equal within 1e-06`},
		}},
		{"moved vertex", base, func(t *testing.T) string {
			return editJSON(t, func(doc map[string]any) {
				b := doc["buffers"].([]any)[0].(map[string]any)
				uri := b["uri"].(string)
				comma := strings.IndexByte(uri, ',')
				data, err := base64.StdEncoding.DecodeString(uri[comma+1:])
				if err != nil {
					t.Fatal(err)
				}
				// Vertex 6 (0.5, 0.5, 0.5): y += 0.25.
				binary.LittleEndian.PutUint32(data[6*12+4:], math.Float32bits(0.75))
				b["uri"] = uri[:comma+1] + base64.StdEncoding.EncodeToString(data)
			})
		}, []Change{{Category: Geometry, Kind: Changed, PointerA: "/meshes/0/primitives/0/attributes/POSITION", PointerB: "/meshes/0/primitives/0/attributes/POSITION",
			Summary: `mesh "Box" primitive 0: vertices moved by up to 0.25, bounds [-0.5, -0.5, -0.5]–[0.5, 0.5, 0.5] → [-0.5, -0.5, -0.5]–[0.5, 0.75, 0.5]`}}},
		{"material factor", base, func(t *testing.T) string {
			return editJSON(t, func(doc map[string]any) {
				m := doc["materials"].([]any)[0].(map[string]any)
				m["pbrMetallicRoughness"].(map[string]any)["roughnessFactor"] = 0.8
			})
		}, []Change{{Category: Value, Kind: Changed, PointerA: "/materials/0/pbrMetallicRoughness/roughnessFactor", PointerB: "/materials/0/pbrMetallicRoughness/roughnessFactor",
			Summary: `material "Painted": roughnessFactor 0.5 → 0.8`}}},
		{"node extras", base, func(t *testing.T) string {
			return editJSON(t, func(doc map[string]any) {
				doc["nodes"].([]any)[3].(map[string]any)["extras"] = map[string]any{"wattage": 40.0}
			})
		}, []Change{{Category: Value, Kind: Added, PointerB: "/nodes/3/extras", Node: "Lamp",
			Summary: `node "Lamp": extras added: {wattage: 40}`}}},
		{"animation keyframe", base, func(t *testing.T) string {
			return editJSON(t, func(doc map[string]any) {
				b := doc["buffers"].([]any)[0].(map[string]any)
				uri := b["uri"].(string)
				comma := strings.IndexByte(uri, ',')
				data, _ := base64.StdEncoding.DecodeString(uri[comma+1:])
				// Spin's last rotation (y, w at 256+4, 256+12): a 180° turn.
				binary.LittleEndian.PutUint32(data[260:], math.Float32bits(1))
				binary.LittleEndian.PutUint32(data[268:], math.Float32bits(0))
				b["uri"] = uri[:comma+1] + base64.StdEncoding.EncodeToString(data)
			})
		}, []Change{{Category: Animation, Kind: Changed, PointerA: "/animations/0/samplers/0", PointerB: "/animations/0/samplers/0", Node: "Lamp",
			Summary: `animation "Spin": channel rotation of "Lamp": values changed by up to 0.707107`}}},
		{"variant added", base, func(t *testing.T) string {
			return editBase(t, func(d *scene.Document) []scene.Edit { return []scene.Edit{scene.AddVariantEdit("Night")} })
		}, []Change{{Category: Variant, Kind: Added, PointerB: "/extensions/KHR_materials_variants/variants/0",
			Summary: `variant "Night" added`}}},
		{"re-encoded texture", base, func(t *testing.T) string {
			return editPNG(t, png.BestSpeed, nil)
		}, []Change{{Category: Texture, Kind: Encoding, PointerA: "/images/0", PointerB: "/images/0",
			Summary: `image "paint": encoding changed (image/png, 149 bytes → image/png, `}}},
		{"texture re-encoded as JPEG", base, func(t *testing.T) string {
			p := editJSON(t, func(doc map[string]any) {
				doc["images"].([]any)[0].(map[string]any)["uri"] = "paint.jpg"
			})
			m := image.NewNRGBA(image.Rect(0, 0, 8, 8))
			data, _ := os.ReadFile(filepath.Join("testdata", "paint.png"))
			src, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			for y := range 8 {
				for x := range 8 {
					m.Set(x, y, src.At(x, y))
				}
			}
			var buf bytes.Buffer
			if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 100}); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(filepath.Dir(p), "paint.jpg"), buf.Bytes(), 0o644)
			return p
		}, []Change{{Category: Texture, Kind: Encoding, PointerA: "/images/0", PointerB: "/images/0",
			Summary: `image "paint": encoding changed (image/png, 149 bytes → image/jpeg, `}}},
		{"repainted texture", base, func(t *testing.T) string {
			return editPNG(t, png.DefaultCompression, func(m *image.NRGBA) {
				m.Pix[0], m.Pix[1] = 255, 255 // pixel (0, 0): red and green 0 → 255
			})
		}, []Change{{Category: Texture, Kind: Changed, PointerA: "/images/0", PointerB: "/images/0",
			Summary: `image "paint": pixels changed, mean difference 1.99219, max 255 of 255 (8×8`}}},
		{"OMI to KHR", base, func(t *testing.T) string {
			p := copyBase(t)
			d := load(t, p)
			d.SetPhysicsDialect(scene.DialectKHR)
			out := filepath.Join(filepath.Dir(p), "khr.gltf")
			if err := d.Save(out); err != nil {
				t.Fatal(err)
			}
			return out
		}, []Change{{Category: Physics, Kind: Changed, PointerA: "/extensionsUsed", PointerB: "/extensionsUsed",
			Summary: "dialect changed OMI → KHR, physics equal"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Compare(load(t, c.a), load(t, c.b(t)))
			if err != nil {
				t.Fatal(err)
			}
			if r.Equal != (len(c.want) == 0) || len(r.Changes) != len(c.want) {
				var buf bytes.Buffer
				r.WriteText(&buf)
				t.Fatalf("got %d changes, want %d:\n%s", len(r.Changes), len(c.want), buf.String())
			}
			var text, js bytes.Buffer
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if err := r.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var decoded struct {
				Equal   bool             `json:"equal"`
				Changes []map[string]any `json:"changes"`
			}
			if err := json.Unmarshal(js.Bytes(), &decoded); err != nil {
				t.Fatal(err)
			}
			if decoded.Equal != r.Equal || len(decoded.Changes) != len(c.want) {
				t.Fatalf("JSON: %s", js.String())
			}
			for i, w := range c.want {
				g := r.Changes[i]
				if g.Category != w.Category || g.Kind != w.Kind || g.PointerA != w.PointerA || g.PointerB != w.PointerB || g.Node != w.Node || !strings.HasPrefix(g.Summary, w.Summary) {
					t.Errorf("change %d:\n got %+v\nwant %+v", i, g, w)
				}
				j := decoded.Changes[i]
				for k, v := range map[string]string{"category": w.Category, "kind": w.Kind, "pointerA": w.PointerA, "pointerB": w.PointerB, "node": w.Node} {
					if got, _ := j[k].(string); got != v {
						t.Errorf("JSON change %d: %s = %q, want %q", i, k, got, v)
					}
				}
				if !strings.Contains(text.String(), g.Category+" "+g.Kind) || !strings.Contains(text.String(), w.Summary) {
					t.Errorf("text report lacks %q:\n%s", w.Summary, text.String())
				}
			}
			if len(c.want) == 0 && !strings.HasSuffix(text.String(), "equal\n") {
				t.Errorf("text report of equal files:\n%s", text.String())
			}
		})
	}
}

// TestNoGL keeps the package free of GL and the GUI (it runs headless in
// git hooks and CI).
func TestNoGL(t *testing.T) {
	depcheck.Forbid(t, "scene/diff", "github.com/go-gl/gl", "github.com/AllenDang/giu", "github.com/AllenDang/cimgui-go", "physview/render", "physview/ui", "physview/internal/app")
}
