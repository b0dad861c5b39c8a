package debugdraw

import (
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// GroupSize is how many nodes share one group: one buffer and one draw call
// per category. Editing a node rebuilds only its group.
const GroupSize = 64

// Group is the debug lines of GroupSize consecutive nodes. Version changes
// whenever the lines do, so the renderer re-uploads only changed groups.
type Group struct {
	Lines   Lines
	Version uint64
}

// Cache keeps every node's debug lines and rebuilds only what was marked
// dirty: with nothing marked, Update does no work.
type Cache struct {
	doc      *scene.Document
	meshes   MeshSource
	opt      Options
	nodes    []Lines
	groups   []Group
	dirty    map[int]bool
	selected int
	version  uint64
	// world is the document's world matrices, recomputed only when a
	// Change moved a node.
	world []mgl64.Mat4
	// users maps a shape to the nodes that draw it (colliders, triggers,
	// gravity volumes that sample it); nil until needed, dropped when a
	// node's extensions change.
	users map[int][]int
	// lit are the nodes drawn as selected besides the selection: the
	// bodies a selected joint connects (joints.go).
	lit map[int]bool
	// props are the animated values of the pose drawn (SetVisibility),
	// nil for the rest pose: an animated visible flag greys the node's
	// colliders as a hidden node's.
	props map[string][]float64
}

// NewCache makes a cache for d with every node dirty.
func NewCache(d *scene.Document, meshes MeshSource, opt Options) *Cache {
	c := &Cache{doc: d, meshes: meshes, opt: opt, selected: -1}
	c.nodes = make([]Lines, len(d.Nodes))
	c.groups = make([]Group, (len(d.Nodes)+GroupSize-1)/GroupSize)
	c.InvalidateAll()
	return c
}

// SceneCache makes a cache for d with its markers sized to the scene in
// the box [lo, hi] (the renderer's bounds).
func SceneCache(d *scene.Document, lo, hi mgl64.Vec3) *Cache {
	size := hi.Sub(lo).Len()
	if size <= 0 {
		size = 1
	}
	return NewCache(d, &DocumentMeshes{Doc: d}, Options{MarkerSize: size * 0.05, GravitySamples: 5})
}

// Apply marks dirty what an edit changed, as its Change says: the nodes it
// touched (with their descendants and the joints and compound triggers that
// refer to them) and the nodes that draw the shapes it changed.
func (c *Cache) Apply(ch scene.Change) {
	if ch.Structure || len(c.nodes) != len(c.doc.Nodes) {
		c.resize()
		c.InvalidateAll()
		return
	}
	if len(ch.Moved) > 0 {
		c.world = nil
	}
	if len(ch.Nodes) > 0 {
		c.users = nil
	}
	for _, n := range ch.Nodes {
		c.invalidate(n)
	}
	for _, n := range ch.Moved {
		c.invalidate(n)
	}
	if len(ch.Shapes) > 0 {
		if c.users == nil {
			c.users = c.shapeUsers()
		}
		for _, s := range ch.Shapes {
			for _, n := range c.users[s] {
				c.dirty[n] = true
			}
		}
	}
}

// resize follows a document whose node count changed.
func (c *Cache) resize() {
	c.nodes = make([]Lines, len(c.doc.Nodes))
	c.groups = make([]Group, (len(c.doc.Nodes)+GroupSize-1)/GroupSize)
}

// shapeUsers indexes which nodes draw each shape.
func (c *Cache) shapeUsers() map[int][]int {
	users := map[int][]int{}
	add := func(s, n int) {
		if s >= 0 {
			if u := users[s]; len(u) == 0 || u[len(u)-1] != n {
				users[s] = append(u, n)
			}
		}
	}
	for i, ne := range c.doc.Nodes {
		if b := ne.Body; b != nil {
			if b.Collider != nil {
				add(b.Collider.Shape, i)
			}
			if b.Trigger != nil {
				add(b.Trigger.Shape, i)
			}
		}
		if g := ne.Gravity; g != nil {
			if g.Type == scene.GravityShaped {
				add(g.Shape, i)
			}
			for _, vs := range c.doc.VolumeShapes(i) {
				add(vs[1], i)
			}
		}
	}
	return users
}

// InvalidateAll marks every node dirty.
func (c *Cache) InvalidateAll() {
	c.world, c.users = nil, nil
	c.dirty = make(map[int]bool, len(c.nodes))
	for i := range c.nodes {
		c.dirty[i] = true
	}
}

// invalidate marks node n dirty with everything its change can move: its
// descendants, the compound triggers and joints that refer to any of them.
func (c *Cache) invalidate(n int) {
	d := c.doc
	if n < 0 || n >= len(c.nodes) {
		return
	}
	changed := map[int]bool{}
	var walk func(int)
	walk = func(x int) {
		changed[x] = true
		for _, ch := range d.Children(x) {
			walk(ch)
		}
	}
	walk(n)
	for x := range changed {
		c.dirty[x] = true
	}
	for i, ne := range d.Nodes {
		if ne.Joint != nil && changed[ne.Joint.ConnectedNode] {
			c.dirty[i] = true
		}
		if ne.Body != nil && ne.Body.Trigger != nil {
			for _, t := range ne.Body.Trigger.Nodes {
				if changed[t] {
					c.dirty[i] = true
				}
			}
		}
	}
}

// Select highlights node n (-1 for none).
func (c *Cache) Select(n int) {
	if n == c.selected {
		return
	}
	if c.selected >= 0 && c.selected < len(c.nodes) {
		c.dirty[c.selected] = true
	}
	if n >= 0 && n < len(c.nodes) {
		c.dirty[n] = true
	}
	c.selected = n
	for m := range c.lit {
		c.dirty[m] = true
	}
	c.lit = jointBodies(c.doc, n)
	for m := range c.lit {
		c.dirty[m] = true
	}
}

// Update rebuilds the dirty nodes and their groups. It reports whether
// anything changed; with nothing dirty it returns at once.
func (c *Cache) Update() bool {
	if len(c.dirty) == 0 {
		return false
	}
	if c.world == nil {
		c.world = c.doc.WorldMatrices()
	}
	world := c.world
	// At an animated pose the visible flags are the pose's; at rest one
	// dirty node's is looked up alone, so an edit redraws without a walk
	// of every node, and more are found in one pass over the hierarchy
	// (each node's walk up its parents made the first build of a chain of
	// 50,000 nodes take 3 s).
	var hidden []bool
	if c.props != nil || len(c.dirty) > 1 {
		hidden = c.doc.HiddenNodes(c.props)
	}
	groups := map[int]bool{}
	for n := range c.dirty {
		hid := n < len(hidden) && hidden[n]
		if c.props == nil && len(c.dirty) == 1 {
			hid = c.doc.NodeHidden(n)
		}
		c.nodes[n] = nodeLines(c.doc, n, world, n == c.selected || c.lit[n], hid, c.meshes, c.opt)
		groups[n/GroupSize] = true
	}
	c.dirty = map[int]bool{}
	for g := range groups {
		var ls Lines
		end := min((g+1)*GroupSize, len(c.nodes))
		for k := range ls {
			total := 0
			for n := g * GroupSize; n < end; n++ {
				total += len(c.nodes[n][k])
			}
			ls[k] = make([]Line, 0, total)
			for n := g * GroupSize; n < end; n++ {
				ls[k] = append(ls[k], c.nodes[n][k]...)
			}
		}
		c.version++
		c.groups[g] = Group{Lines: ls, Version: c.version}
	}
	return true
}

// World returns the document's world matrices as the cache last computed
// them (recomputed only after a Change that moved a node).
func (c *Cache) World() []mgl64.Mat4 {
	if c.world == nil {
		c.world = c.doc.WorldMatrices()
	}
	return c.world
}

// Groups returns the groups, each with its version.
func (c *Cache) Groups() []Group { return c.groups }

// DocumentMeshes gives a document's mesh triangles to Shape, reading each
// mesh once.
type DocumentMeshes struct {
	Doc   *scene.Document
	cache map[int][][3]mgl64.Vec3
	// instances caches each node's EXT_mesh_gpu_instancing (instances.go).
	instances map[int][]mgl64.Mat4
}

// MeshTriangles returns the triangles of every triangle primitive of mesh m.
func (dm *DocumentMeshes) MeshTriangles(m int) ([][3]mgl64.Vec3, error) {
	if tris, ok := dm.cache[m]; ok {
		return tris, nil
	}
	if dm.cache == nil {
		dm.cache = map[int][][3]mgl64.Vec3{}
	}
	var tris [][3]mgl64.Vec3
	if m >= 0 && m < len(dm.Doc.GLTF.Meshes) {
		for p := range dm.Doc.GLTF.Meshes[m].Primitives {
			pd, err := dm.Doc.ReadPrimitive(m, p)
			if err != nil || pd.Mode != scene.DrawTriangles {
				continue
			}
			at := func(i int) mgl64.Vec3 {
				if pd.Indices != nil {
					i = int(pd.Indices[i])
				}
				v := pd.Positions[i]
				return mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])}
			}
			count := len(pd.Positions)
			if pd.Indices != nil {
				count = len(pd.Indices)
			}
			for i := 0; i+2 < count; i += 3 {
				tris = append(tris, [3]mgl64.Vec3{at(i), at(i + 1), at(i + 2)})
			}
		}
	}
	dm.cache[m] = tris
	return tris, nil
}
