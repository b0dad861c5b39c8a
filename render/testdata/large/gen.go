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

	"physview/render/internal/meshgen"
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
		pos, nrm, idx := meshgen.Cube()
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
		pos, nrm, idx := meshgen.Sphere(*verts)
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
