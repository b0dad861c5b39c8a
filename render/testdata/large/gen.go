//go:build ignore

// gen writes the large scenes of issue 31 that docs/rendering.md measures
// (section "Instanced drawing"):
//
//	go run render/testdata/large/gen.go -kind prims -n 100000 -o /tmp/prims100k.gltf
//	go run render/testdata/large/gen.go -kind nodes -n 10000 -verts 100000 -o /tmp/nodes10k.glb
//	go run render/testdata/large/gen.go -kind gpuinst -n 10000 -verts 100000 -o /tmp/inst10k.glb
//
// prims: one cube mesh whose primitive (POSITION, NORMAL, indices,
// material 0) is copied n times, on one node (the JSON grows by about 60
// bytes a copy). nodes: one UV sphere of about verts vertices on n nodes
// in a square grid. gpuinst: the same sphere on one node with
// EXT_mesh_gpu_instancing, n instances on the same grid. A .glb output
// holds its buffer; a .gltf embeds it as a data URI.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"strings"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

func main() {
	out := flag.String("o", "large.glb", "output file (.glb or .gltf)")
	kind := flag.String("kind", "prims", "prims, nodes or gpuinst")
	n := flag.Int("n", 100000, "primitives, nodes or instances")
	verts := flag.Int("verts", 100000, "vertices of the sphere (nodes, gpuinst)")
	flag.Parse()
	doc := gltf.NewDocument()
	doc.Materials = []*gltf.Material{{Name: "grey", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
		BaseColorFactor: &[4]float64{0.8, 0.6, 0.3, 1}, MetallicFactor: gltf.Float(0.1), RoughnessFactor: gltf.Float(0.5)}}}
	side := int(math.Ceil(math.Sqrt(float64(*n))))
	grid := func(i int) [3]float64 {
		return [3]float64{float64(i%side) - float64(side-1)/2, 0, float64(i/side) - float64(side-1)/2}
	}
	switch *kind {
	case "prims":
		pos, nrm, idx := cube()
		prim := &gltf.Primitive{Attributes: gltf.PrimitiveAttributes{
			gltf.POSITION: modeler.WritePosition(doc, pos),
			gltf.NORMAL:   modeler.WriteNormal(doc, nrm),
		}, Indices: gltf.Index(modeler.WriteIndices(doc, idx)), Material: gltf.Index(0)}
		mesh := &gltf.Mesh{Name: "cube"}
		for i := 0; i < *n; i++ {
			mesh.Primitives = append(mesh.Primitives, prim)
		}
		doc.Meshes = []*gltf.Mesh{mesh}
		doc.Nodes = []*gltf.Node{{Name: "cubes", Mesh: gltf.Index(0)}}
		doc.Scenes = []*gltf.Scene{{Nodes: []int{0}}}
	case "nodes", "gpuinst":
		pos, nrm, idx := sphere(*verts)
		doc.Meshes = []*gltf.Mesh{{Name: "sphere", Primitives: []*gltf.Primitive{{Attributes: gltf.PrimitiveAttributes{
			gltf.POSITION: modeler.WritePosition(doc, pos),
			gltf.NORMAL:   modeler.WriteNormal(doc, nrm),
		}, Indices: gltf.Index(modeler.WriteIndices(doc, idx)), Material: gltf.Index(0)}}}}
		if *kind == "nodes" {
			sc := &gltf.Scene{}
			for i := 0; i < *n; i++ {
				doc.Nodes = append(doc.Nodes, &gltf.Node{Mesh: gltf.Index(0), Translation: grid(i)})
				sc.Nodes = append(sc.Nodes, i)
			}
			doc.Scenes = []*gltf.Scene{sc}
			break
		}
		t := make([][3]float32, *n)
		for i := range t {
			g := grid(i)
			t[i] = [3]float32{float32(g[0]), float32(g[1]), float32(g[2])}
		}
		acc := modeler.WriteAccessor(doc, gltf.TargetNone, t)
		doc.Nodes = []*gltf.Node{{Name: "instances", Mesh: gltf.Index(0), Extensions: gltf.Extensions{
			"EXT_mesh_gpu_instancing": map[string]any{"attributes": map[string]int{"TRANSLATION": acc}}}}}
		doc.ExtensionsUsed = []string{"EXT_mesh_gpu_instancing"}
		doc.ExtensionsRequired = []string{"EXT_mesh_gpu_instancing"}
		doc.Scenes = []*gltf.Scene{{Nodes: []int{0}}}
	default:
		log.Fatalf("-kind %q: want prims, nodes or gpuinst", *kind)
	}
	doc.Scene = gltf.Index(0)
	var err error
	if strings.HasSuffix(*out, ".gltf") {
		err = gltf.Save(doc, *out)
	} else {
		err = gltf.SaveBinary(doc, *out)
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("wrote", *out)
}

// cube is a unit cube of 24 vertices (flat normals) and 36 indices.
func cube() (pos, nrm [][3]float32, idx []uint16) {
	for f := 0; f < 6; f++ {
		axis, sign := f/2, float32(1-2*(f%2))
		var n [3]float32
		n[axis] = sign
		u, v := (axis+1)%3, (axis+2)%3
		base := uint16(len(pos))
		for _, c := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			var p [3]float32
			p[axis] = sign * 0.5
			p[u], p[v] = c[0]*0.5, c[1]*0.5
			pos, nrm = append(pos, p), append(nrm, n)
		}
		if sign > 0 {
			idx = append(idx, base, base+1, base+2, base, base+2, base+3)
		} else {
			idx = append(idx, base, base+2, base+1, base, base+3, base+2)
		}
	}
	return pos, nrm, idx
}

// sphere is a UV sphere of radius 0.4 with about verts vertices.
func sphere(verts int) (pos, nrm [][3]float32, idx []uint32) {
	ring := int(math.Max(2, math.Sqrt(float64(verts)/2)))
	seg := 2 * ring
	for r := 0; r <= ring; r++ {
		th := math.Pi * float64(r) / float64(ring)
		for s := 0; s <= seg; s++ {
			ph := 2 * math.Pi * float64(s) / float64(seg)
			v := [3]float32{float32(math.Sin(th) * math.Cos(ph)), float32(math.Cos(th)), float32(math.Sin(th) * math.Sin(ph))}
			pos, nrm = append(pos, [3]float32{v[0] * 0.4, v[1] * 0.4, v[2] * 0.4}), append(nrm, v)
		}
	}
	for r := 0; r < ring; r++ {
		for s := 0; s < seg; s++ {
			a := uint32(r*(seg+1) + s)
			b := a + uint32(seg) + 1
			idx = append(idx, a, b, a+1, a+1, b, b+1)
		}
	}
	return pos, nrm, idx
}
