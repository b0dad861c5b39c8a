package render

import (
	"sync"

	"physview/scene"
)

// primInput is what uploading one primitive needs from the document, read
// without GL: its vertex data with the UV sets its material samples.
type primInput struct {
	pd   *scene.PrimitiveData
	uv2  [][2]float32 // the third UV attribute, nil for none
	sets [2]int       // gpuPrimitive.uvSets
	err  error
}

// readPrimitiveInput reads primitive p of mesh m for upload: the second
// and third UV attributes hold TEXCOORD_1 and TEXCOORD_2, or the higher
// sets the primitive's material samples in their place.
func readPrimitiveInput(d *scene.Document, mats []material, m, p int) primInput {
	pd, err := d.ReadPrimitive(m, p)
	if err != nil {
		return primInput{err: err}
	}
	sets := uvSetsFor(mats, pd.Material)
	if sets[0] != 1 {
		if uv := d.ReadTexCoords(m, p, sets[0], pd); uv != nil {
			pd.UV1 = uv
		} else {
			sets[0] = 1
		}
	}
	uv2 := d.ReadTexCoords(m, p, sets[1], pd)
	if uv2 == nil {
		sets[1] = -1 // no such set: a texture on it reads set 0
	}
	return primInput{pd: pd, uv2: uv2, sets: sets}
}

// prepareBudget bounds the vertex data prepareGeometry holds for a
// document until it is uploaded (an estimate: 80 bytes a vertex, 4 an
// index). A larger document is read one primitive at a time by SetDocument,
// as before, so that its peak memory does not grow.
const prepareBudget = 256 << 20

// preparedGeometry is a document's primitives read ahead of SetDocument,
// by mesh and primitive; nil entries are read by SetDocument (a primitive
// drawing another's buffers needs nothing read).
type preparedGeometry [][]*primInput

// prepared holds the geometry Preload read until SetDocument takes it.
var prepared = struct {
	sync.Mutex
	m map[*scene.Document]preparedGeometry
}{m: map[*scene.Document]preparedGeometry{}}

// prepareGeometry reads d's primitives off the GL thread (on the load
// goroutine, where Preload runs), so that opening a file does not stall
// the window's frames for the reading: SetDocument then only uploads.
// Nothing is prepared when the estimate is over prepareBudget.
func prepareGeometry(d *scene.Document) {
	defer func() {
		// A panic (none is known: ReadPrimitive recovers its own) leaves
		// nothing prepared; SetDocument reads each primitive and says why
		// one fails.
		_ = recover()
	}()
	g := d.GLTF
	mats := make([]material, len(g.Materials))
	for i, m := range g.Materials {
		mats[i] = newMaterial(m)
	}
	keyed := map[geometryKey]bool{}
	var bytes int64
	var todo [][2]int
	for m, mesh := range g.Meshes {
		if mesh == nil {
			continue
		}
		for p, prim := range mesh.Primitives {
			if prim == nil {
				continue
			}
			if key, ok := geometryKeyOf(d, mats, m, p); ok {
				if keyed[key] {
					continue
				}
				keyed[key] = true
			}
			if pi, ok := prim.Attributes["POSITION"]; ok && pi >= 0 && pi < len(g.Accessors) && g.Accessors[pi] != nil {
				bytes += int64(g.Accessors[pi].Count) * 80
			}
			if prim.Indices != nil && *prim.Indices >= 0 && *prim.Indices < len(g.Accessors) && g.Accessors[*prim.Indices] != nil {
				bytes += int64(g.Accessors[*prim.Indices].Count) * 4
			}
			todo = append(todo, [2]int{m, p})
		}
	}
	if bytes > prepareBudget || len(todo) == 0 {
		return
	}
	out := make(preparedGeometry, len(g.Meshes))
	for m, mesh := range g.Meshes {
		if mesh != nil {
			out[m] = make([]*primInput, len(mesh.Primitives))
		}
	}
	for _, mp := range todo {
		in := readPrimitiveInput(d, mats, mp[0], mp[1])
		out[mp[0]][mp[1]] = &in
	}
	prepared.Lock()
	prepared.m[d] = out
	prepared.Unlock()
}

// takePrepared returns (and forgets) the geometry prepared for d, nil for
// none.
func takePrepared(d *scene.Document) preparedGeometry {
	prepared.Lock()
	defer prepared.Unlock()
	g := prepared.m[d]
	delete(prepared.m, d)
	return g
}
