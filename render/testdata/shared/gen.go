//go:build ignore

// gen writes a file like the one of issue 36 that took 469 MB to draw: 98
// meshes, each with its own material (no texture), all sharing one UV
// sphere's accessors, on 98 nodes in a grid. docs/rendering.md measures
// the peak memory of `viewer screenshot` on it.
//
//	go run render/testdata/shared/gen.go -o /tmp/shared98.glb
package main

import (
	"flag"
	"log"
	"math"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

func main() {
	out := flag.String("o", "shared98.glb", "output file")
	n := flag.Int("n", 98, "meshes")
	seg := flag.Int("seg", 96, "segments around the sphere")
	ring := flag.Int("ring", 64, "rings from pole to pole")
	flag.Parse()
	doc := gltf.NewDocument()
	var pos, nrm [][3]float32
	var uv [][2]float32
	var idx []uint16
	for r := 0; r <= *ring; r++ {
		th := math.Pi * float64(r) / float64(*ring)
		for s := 0; s <= *seg; s++ {
			ph := 2 * math.Pi * float64(s) / float64(*seg)
			v := [3]float32{float32(math.Sin(th) * math.Cos(ph)), float32(math.Cos(th)), float32(math.Sin(th) * math.Sin(ph))}
			pos, nrm = append(pos, [3]float32{v[0] * 0.4, v[1] * 0.4, v[2] * 0.4}), append(nrm, v)
			uv = append(uv, [2]float32{float32(s) / float32(*seg), float32(r) / float32(*ring)})
		}
	}
	for r := 0; r < *ring; r++ {
		for s := 0; s < *seg; s++ {
			a := uint16(r*(*seg+1) + s)
			b := a + uint16(*seg) + 1
			idx = append(idx, a, b, a+1, a+1, b, b+1)
		}
	}
	attrs := gltf.PrimitiveAttributes{
		gltf.POSITION:   modeler.WritePosition(doc, pos),
		gltf.NORMAL:     modeler.WriteNormal(doc, nrm),
		gltf.TEXCOORD_0: modeler.WriteTextureCoord(doc, uv),
	}
	indices := modeler.WriteIndices(doc, idx)
	scene := &gltf.Scene{Name: "grid"}
	for i := 0; i < *n; i++ {
		h := float64(i) / float64(*n)
		doc.Materials = append(doc.Materials, &gltf.Material{PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorFactor: &[4]float64{0.5 + 0.5*math.Cos(2*math.Pi*h), 0.5 + 0.5*math.Cos(2*math.Pi*(h+1.0/3)), 0.5 + 0.5*math.Cos(2*math.Pi*(h+2.0/3)), 1},
			MetallicFactor:  gltf.Float(h), RoughnessFactor: gltf.Float(0.2 + 0.6*h)}})
		doc.Meshes = append(doc.Meshes, &gltf.Mesh{Primitives: []*gltf.Primitive{{Attributes: attrs, Indices: gltf.Index(indices), Material: gltf.Index(i)}}})
		doc.Nodes = append(doc.Nodes, &gltf.Node{Mesh: gltf.Index(i), Translation: [3]float64{float64(i%14) - 6.5, float64(i/14) - 3, 0}})
		scene.Nodes = append(scene.Nodes, i)
	}
	doc.Scenes = []*gltf.Scene{scene}
	doc.Scene = gltf.Index(0)
	if err := gltf.SaveBinary(doc, *out); err != nil {
		log.Fatal(err)
	}
}
