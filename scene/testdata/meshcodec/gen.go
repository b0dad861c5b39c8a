//go:build ignore

// gen writes source.glb, the uncompressed twin of the compressed fixtures
// in this folder: a UV sphere (positions, normals, UVs, RGBA colours as
// normalized bytes, 16-bit indices) and a box beside it. make.sh compresses it
// with glTF-Transform.
//
//	sh make.sh
package main

import (
	"flag"
	"log"
	"math"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

func main() {
	seg := flag.Int("seg", 24, "segments around the sphere")
	ring := flag.Int("ring", 16, "rings from pole to pole")
	out := flag.String("o", "source.glb", "output file")
	flag.Parse()
	doc := gltf.NewDocument()
	sphere(doc, *seg, *ring)
	box(doc)
	doc.Nodes = []*gltf.Node{
		{Name: "Sphere", Mesh: gltf.Index(0), Translation: [3]float64{-0.6, 0, 0}},
		{Name: "Box", Mesh: gltf.Index(1), Translation: [3]float64{0.9, 0, 0}, Rotation: [4]float64{0, 0.3826834, 0, 0.9238795}},
	}
	doc.Scenes = []*gltf.Scene{{Name: "Scene", Nodes: []int{0, 1}}}
	doc.Scene = gltf.Index(0)
	if err := gltf.SaveBinary(doc, *out); err != nil {
		log.Fatal(err)
	}
}

// sphere adds mesh 0 and material 0.
func sphere(doc *gltf.Document, seg, ring int) {
	var pos, nrm [][3]float32
	var uv [][2]float32
	var col [][4]uint8
	var idx []uint16
	for r := 0; r <= ring; r++ {
		th := math.Pi * float64(r) / float64(ring)
		for s := 0; s <= seg; s++ {
			ph := 2 * math.Pi * float64(s) / float64(seg)
			n := [3]float32{float32(math.Sin(th) * math.Cos(ph)), float32(math.Cos(th)), float32(math.Sin(th) * math.Sin(ph))}
			nrm = append(nrm, n)
			pos = append(pos, [3]float32{n[0] * 0.8, n[1] * 0.8, n[2] * 0.8})
			uv = append(uv, [2]float32{float32(s) / float32(seg), float32(r) / float32(ring)})
			col = append(col, [4]uint8{uint8(255 * s / seg), uint8(255 * r / ring), 160, 255})
		}
	}
	for r := 0; r < ring; r++ {
		for s := 0; s < seg; s++ {
			a := uint16(r*(seg+1) + s)
			b := a + uint16(seg) + 1
			idx = append(idx, a, b, a+1, a+1, b, b+1)
		}
	}
	mat := 0
	doc.Materials = []*gltf.Material{{Name: "painted", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{1, 1, 1, 1}, MetallicFactor: gltf.Float(0), RoughnessFactor: gltf.Float(0.6)}}}
	doc.Meshes = []*gltf.Mesh{{Name: "sphere", Primitives: []*gltf.Primitive{{
		Indices: gltf.Index(modeler.WriteIndices(doc, idx)),
		Attributes: gltf.PrimitiveAttributes{
			gltf.POSITION:   modeler.WritePosition(doc, pos),
			gltf.NORMAL:     modeler.WriteNormal(doc, nrm),
			gltf.TEXCOORD_0: modeler.WriteTextureCoord(doc, uv),
			gltf.COLOR_0:    modeler.WriteColor(doc, col),
		},
		Material: &mat,
	}}}}
}

// box adds mesh 1, a box with flat faces: 24 vertices.
func box(doc *gltf.Document) {
	mat := 0
	var bp, bn [][3]float32
	var bi []uint16
	for f := 0; f < 6; f++ {
		ax := f / 2
		sg := float32(1 - 2*(f%2))
		u, v := (ax+1)%3, (ax+2)%3
		base := uint16(len(bp))
		for k := 0; k < 4; k++ {
			var p, n [3]float32
			p[ax], n[ax] = 0.5*sg, sg
			p[u] = 0.5 * float32(1-2*(k&1))
			p[v] = 0.5 * float32(1-2*(k>>1))
			bp, bn = append(bp, p), append(bn, n)
		}
		if sg > 0 {
			bi = append(bi, base, base+1, base+2, base+2, base+1, base+3)
		} else {
			bi = append(bi, base, base+2, base+1, base+1, base+2, base+3)
		}
	}
	doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: "box", Primitives: []*gltf.Primitive{{
		Indices:    gltf.Index(modeler.WriteIndices(doc, bi)),
		Attributes: gltf.PrimitiveAttributes{gltf.POSITION: modeler.WritePosition(doc, bp), gltf.NORMAL: modeler.WriteNormal(doc, bn)},
		Material:   &mat,
	}}})
}
