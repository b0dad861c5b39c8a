package diff

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// handledExtensions are the extensions compared through the model (or not
// at all, for encodings): left out of the generic value comparison.
var handledExtensions = []string{
	scene.ExtBody, scene.ExtCollider, scene.ExtGravity, scene.ExtJoint, scene.ExtShape,
	scene.ExtKHRBodies, scene.ExtKHRShapes, scene.ExtVariants,
	"KHR_draco_mesh_compression", "EXT_meshopt_compression", "KHR_meshopt_compression", "KHR_mesh_quantization",
}

// dropHandled removes the handled extensions from a plain object's
// "extensions" member (and the member when nothing is left).
func dropHandled(p map[string]any) {
	ext, ok := p["extensions"].(map[string]any)
	if !ok {
		return
	}
	for _, e := range handledExtensions {
		delete(ext, e)
	}
	if len(ext) == 0 {
		delete(p, "extensions")
	}
}

func (c *comparer) compareRoot() {
	da, db := c.a.d.GLTF, c.b.d.GLTF
	asset := func(d *scene.Document) any {
		p, _ := plain(d.GLTF.Asset).(map[string]any)
		delete(p, "generator") // every tool writes its own
		return p
	}
	c.emitLeaves(Value, -1, -1, "asset", asset(c.a.d), asset(c.b.d), "/asset", "/asset")
	required := func(d *scene.Document) []string {
		var r []string
		for _, e := range d.GLTF.ExtensionsRequired {
			if !slices.Contains(handledExtensions, e) {
				r = append(r, e)
			}
		}
		sort.Strings(r)
		return slices.Compact(r)
	}
	if ra, rb := required(c.a.d), required(c.b.d); !slices.Equal(ra, rb) {
		c.addDoc(Value, Changed, "/extensionsRequired", "/extensionsRequired", "extensions required %v → %v", ra, rb)
	}
	root := func(d *scene.Document) map[string]any {
		p := map[string]any{}
		if d.GLTF.Extras != nil {
			p["extras"] = plain(d.GLTF.Extras)
		}
		if len(d.GLTF.Extensions) > 0 {
			p["extensions"] = plain(d.GLTF.Extensions)
		}
		dropHandled(p)
		return p
	}
	c.emitLeaves(Value, -1, -1, "document", root(c.a.d), root(c.b.d), "", "")
	if len(da.Scenes) != len(db.Scenes) {
		c.addDoc(Structure, Changed, "/scenes", "/scenes", "%d scenes → %d", len(da.Scenes), len(db.Scenes))
	}
	sa, sb := -1, -1
	if da.Scene != nil {
		sa = *da.Scene
	}
	if db.Scene != nil {
		sb = *db.Scene
	}
	if sa != sb && len(da.Scenes) > 1 {
		c.addDoc(Value, Changed, "/scene", "/scene", "default scene %d → %d", sa, sb)
	}
	for i := range min(len(da.Scenes), len(db.Scenes)) {
		ids := func(s *side, nodes []int) []string {
			var r []string
			for _, n := range nodes {
				r = append(r, c.nodeID(s, n))
			}
			sort.Strings(r)
			return r
		}
		if !slices.Equal(ids(c.a, da.Scenes[i].Nodes), ids(c.b, db.Scenes[i].Nodes)) {
			// Only a change when it is not explained by added or removed roots.
			if c.sceneRootsChanged(da.Scenes[i].Nodes, db.Scenes[i].Nodes) {
				c.addDoc(Structure, Changed, ptr("scenes", i, "nodes"), ptr("scenes", i, "nodes"), "scene %d shows other root nodes", i)
			}
		}
	}
}

// sceneRootsChanged reports whether a matched node is a root of the scene
// on one side only.
func (c *comparer) sceneRootsChanged(ra, rb []int) bool {
	for _, n := range ra {
		if m, ok := c.nodeAB[n]; ok && !slices.Contains(rb, m) && c.b.parent[m] < 0 {
			return true
		}
	}
	for _, m := range rb {
		if n, ok := c.nodeBA[m]; ok && !slices.Contains(ra, n) && c.a.parent[n] < 0 {
			return true
		}
	}
	return false
}

// nodeRest is what of node n the generic comparison sees: all but the
// name, children, transform and references, which are compared by
// identity, and the handled extensions.
func (c *comparer) nodeRest(s *side, n int) map[string]any {
	node := s.d.GLTF.Nodes[n]
	p, _ := plain(node).(map[string]any)
	if p == nil {
		p = map[string]any{}
	}
	for _, k := range []string{"name", "children", "mesh", "skin", "camera", "matrix", "translation", "rotation", "scale"} {
		delete(p, k)
	}
	dropHandled(p)
	if node.Camera != nil && *node.Camera >= 0 && *node.Camera < len(s.d.GLTF.Cameras) {
		p["camera"] = plain(s.d.GLTF.Cameras[*node.Camera])
	}
	return p
}

// hasPhysicsBody reports whether node n carries a collider or trigger.
func hasPhysicsBody(d *scene.Document, n int) bool {
	b := d.Nodes[n].Body
	return b != nil && (b.Collider != nil || b.Trigger != nil || b.Motion != nil)
}

func (c *comparer) compareNodes() {
	a, b := c.a.d, c.b.d
	for na := range a.GLTF.Nodes {
		nb, ok := c.nodeAB[na]
		if !ok {
			continue
		}
		an, bn := a.GLTF.Nodes[na], b.GLTF.Nodes[nb]
		if an.Name != bn.Name {
			c.addNode(Structure, Changed, na, nb, ptr("nodes", na, "name"), ptr("nodes", nb, "name"), "renamed %q → %q", an.Name, bn.Name)
		}
		if pa, pb := c.a.parent[na], c.b.parent[nb]; c.nodeID(c.a, pa) != c.nodeID(c.b, pb) {
			c.addNode(Structure, Moved, na, nb, ptr("nodes", na), ptr("nodes", nb), "moved from %s to %s", parentText(a, pa), parentText(b, pb))
		}
		c.compareTransform(na, nb)
		ma, mb := "none", "none"
		if an.Mesh != nil {
			ma = c.meshID(c.a, *an.Mesh)
		}
		if bn.Mesh != nil {
			mb = c.meshID(c.b, *bn.Mesh)
		}
		if ma != mb {
			c.addNode(Value, Changed, na, nb, ptr("nodes", na, "mesh"), ptr("nodes", nb, "mesh"), "mesh %s → %s", optMesh(a, an.Mesh), optMesh(b, bn.Mesh))
		}
		sa, sb := "none", "none"
		if an.Skin != nil {
			sa = "A"
			if j, ok := c.skinAB[*an.Skin]; ok {
				sa = fmt.Sprint(j)
			}
		}
		if bn.Skin != nil {
			sb = fmt.Sprint(*bn.Skin)
		}
		if sa != sb {
			c.addNode(Value, Changed, na, nb, ptr("nodes", na, "skin"), ptr("nodes", nb, "skin"), "skin changed")
		}
		c.emitLeaves(Value, na, nb, fmt.Sprintf("node %q", bn.Name), c.nodeRest(c.a, na), c.nodeRest(c.b, nb), ptr("nodes", na), ptr("nodes", nb))
		c.compareChildOrder(na, nb)
	}
	c.compareChildOrder(-1, -1)
	for na := range a.GLTF.Nodes {
		if _, ok := c.nodeAB[na]; !ok && a.GLTF.Nodes[na] != nil && c.topUnmatched(c.a, c.nodeAB, na) {
			c.addNode(Structure, Removed, na, -1, ptr("nodes", na), "", "node %q removed%s", a.NodeName(na), subtreeText(c.a, na))
		}
	}
	for nb := range b.GLTF.Nodes {
		if _, ok := c.nodeBA[nb]; !ok && b.GLTF.Nodes[nb] != nil && c.topUnmatched(c.b, c.nodeBA, nb) {
			c.addNode(Structure, Added, -1, nb, "", ptr("nodes", nb), "node %q added under %s%s", b.NodeName(nb), parentText(b, c.b.parent[nb]), subtreeText(c.b, nb))
		}
	}
	for i := range c.a.d.GLTF.Meshes {
		if _, ok := c.meshAB[i]; !ok {
			c.addDoc(Structure, Removed, ptr("meshes", i), "", "mesh %s removed", meshName(a, i))
		}
	}
	for j := range c.b.d.GLTF.Meshes {
		if _, ok := c.meshBA[j]; !ok {
			c.addDoc(Structure, Added, "", ptr("meshes", j), "mesh %s added", meshName(b, j))
		}
	}
}

// topUnmatched reports whether unmatched node n's parent is matched (or
// it has none): the top of an added or removed subtree, reported once.
func (c *comparer) topUnmatched(s *side, matched map[int]int, n int) bool {
	p := s.parent[n]
	if p < 0 {
		return true
	}
	_, ok := matched[p]
	return ok
}

// subtreeText counts a node's descendants for an added/removed summary.
func subtreeText(s *side, n int) string {
	count := 0
	var walk func(int)
	walk = func(i int) {
		for _, ch := range s.children[i] {
			count++
			walk(ch)
		}
	}
	walk(n)
	if count == 0 {
		return ""
	}
	return fmt.Sprintf(" with %d descendants", count)
}

func parentText(d *scene.Document, p int) string {
	if p < 0 {
		return "the scene root"
	}
	return fmt.Sprintf("%q", d.NodeName(p))
}

func optMesh(d *scene.Document, m *int) string {
	if m == nil {
		return "none"
	}
	return meshName(d, *m)
}

// compareChildOrder reports once when the matched children of a matched
// pair (the roots for -1) come in another order.
func (c *comparer) compareChildOrder(na, nb int) {
	var ca, cb []int
	if na < 0 {
		ca, cb = c.a.roots(), c.b.roots()
	} else {
		ca, cb = c.a.children[na], c.b.children[nb]
	}
	var seqA, seqB []int
	for _, x := range ca {
		if y, ok := c.nodeAB[x]; ok && slices.Contains(cb, y) {
			seqA = append(seqA, y)
		}
	}
	for _, y := range cb {
		if x, ok := c.nodeBA[y]; ok && slices.Contains(ca, x) {
			seqB = append(seqB, y)
		}
	}
	if na < 0 {
		// Roots are ordered by their index: only the relative order counts.
		return
	}
	if !slices.Equal(seqA, seqB) {
		c.addNode(Structure, Moved, na, nb, ptr("nodes", na, "children"), ptr("nodes", nb, "children"), "children reordered")
	}
}

// compareTransform reports a changed local transform once: a physics move
// for a node with a body, a value change otherwise.
func (c *comparer) compareTransform(na, nb int) {
	a, b := c.a.d, c.b.d
	ma, mb := a.LocalMatrix(na), b.LocalMatrix(nb)
	if matApprox(ma, mb) || c.absorbed[na] {
		return
	}
	ta, tb := a.NodeTransform(na), b.NodeTransform(nb)
	var parts []string
	field := func(name string, x, y []float64) {
		if !approxSlice(x, y) {
			parts = append(parts, fmt.Sprintf("%s %s → %s", name, nums(x), nums(y)))
		}
	}
	field("translation", ta.Translation[:], tb.Translation[:])
	field("rotation", ta.Rotation[:], tb.Rotation[:])
	field("scale", ta.Scale[:], tb.Scale[:])
	if len(parts) == 0 {
		parts = append(parts, "matrix changed")
	}
	if c.carried[na] {
		parts[len(parts)-1] += " (it takes the mesh's dequantization: the node's collider, children or camera move with it)"
	}
	prop := func(d *scene.Document, n int) string {
		node := d.GLTF.Nodes[n]
		if node.Matrix != [16]float64{} && node.Matrix != [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} {
			return "matrix"
		}
		return strings.Fields(parts[0])[0]
	}
	pa, pb := ptr("nodes", na, prop(a, na)), ptr("nodes", nb, prop(b, nb))
	if hasPhysicsBody(a, na) || hasPhysicsBody(b, nb) {
		what := "body"
		if colliderOf(b, nb) != nil {
			what = "collider"
		} else if triggerOf(b, nb) != nil {
			what = "trigger"
		}
		c.addNode(Physics, Moved, na, nb, pa, pb, "%s moved: %s", what, strings.Join(parts, ", "))
		return
	}
	c.addNode(Value, Changed, na, nb, pa, pb, "transform: %s", strings.Join(parts, ", "))
}

func matApprox(x, y mgl64.Mat4) bool {
	return approxSlice(x[:], y[:])
}

// materialJSON is material i of s as plain values, each texture reference
// replaced by what it shows (image identity and sampler).
func (c *comparer) materialJSON(s *side, i int) any {
	p := plain(s.d.GLTF.Materials[i])
	c.resolveTextures(s, p, "")
	return p
}

// resolveTextures replaces the "index" of every texture info (an object
// under a key ending in "Texture") with the texture's content.
func (c *comparer) resolveTextures(s *side, v any, key string) {
	switch x := v.(type) {
	case map[string]any:
		if strings.HasSuffix(key, "Texture") {
			if f, ok := x["index"].(float64); ok {
				x["index"] = c.textureText(s, int(f))
			}
		}
		for k, e := range x {
			c.resolveTextures(s, e, k)
		}
	case []any:
		for _, e := range x {
			c.resolveTextures(s, e, key)
		}
	}
}

// textureText names texture t by its images' identities and its sampler.
func (c *comparer) textureText(s *side, t int) string {
	if t < 0 || t >= len(s.d.GLTF.Textures) {
		return fmt.Sprintf("texture %d (missing)", t)
	}
	tex := s.d.GLTF.Textures[t]
	var srcs []string
	if tex.Source != nil {
		srcs = append(srcs, "image "+c.imageLabel(s, *tex.Source))
	}
	if ext, ok := plain(tex.Extensions).(map[string]any); ok {
		names := make([]string, 0, len(ext))
		for k := range ext {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if m, ok := ext[k].(map[string]any); ok {
				if f, ok := m["source"].(float64); ok {
					srcs = append(srcs, k+" image "+c.imageLabel(s, int(f)))
				}
			}
		}
	}
	sampler := "default sampler"
	if tex.Sampler != nil && *tex.Sampler >= 0 && *tex.Sampler < len(s.d.GLTF.Samplers) {
		sampler = "sampler " + showValue(plain(s.d.GLTF.Samplers[*tex.Sampler]))
	}
	return strings.Join(srcs, ", ") + ", " + sampler
}

// imageLabel names image i: matched images get the same label on both
// sides (B's name or index), unmatched ones their side.
func (c *comparer) imageLabel(s *side, i int) string {
	id := c.imgID(s, i)
	if strings.HasPrefix(id, "=") {
		var j int
		fmt.Sscan(id[1:], &j)
		if j >= 0 && j < len(c.b.d.GLTF.Images) && c.b.d.GLTF.Images[j].Name != "" {
			return fmt.Sprintf("%q", c.b.d.GLTF.Images[j].Name)
		}
		return "#" + id[1:]
	}
	return "A#" + id[1:]
}

func (c *comparer) compareMaterials() {
	a, b := c.a.d, c.b.d
	for i := range a.GLTF.Materials {
		j, ok := c.matAB[i]
		if !ok {
			c.addDoc(Structure, Removed, ptr("materials", i), "", "material %s removed", matName(a, i))
			continue
		}
		what := "material " + matName(b, j)
		ma, mb := c.materialJSON(c.a, i), c.materialJSON(c.b, j)
		if m, ok := ma.(map[string]any); ok {
			delete(m, "name")
			dropHandled(m)
		}
		if m, ok := mb.(map[string]any); ok {
			delete(m, "name")
			dropHandled(m)
		}
		if a.GLTF.Materials[i].Name != b.GLTF.Materials[j].Name {
			c.addDoc(Value, Changed, ptr("materials", i, "name"), ptr("materials", j, "name"), "material renamed %s → %s", matName(a, i), matName(b, j))
		}
		c.emitLeaves(Value, -1, -1, what, ma, mb, ptr("materials", i), ptr("materials", j))
	}
	for j := range b.GLTF.Materials {
		if _, ok := c.matBA[j]; !ok {
			c.addDoc(Structure, Added, "", ptr("materials", j), "material %s added", matName(b, j))
		}
	}
}

func matName(d *scene.Document, m int) string {
	if m < 0 || m >= len(d.GLTF.Materials) {
		return "default"
	}
	if d.GLTF.Materials[m].Name != "" {
		return fmt.Sprintf("%q", d.GLTF.Materials[m].Name)
	}
	return fmt.Sprint(m)
}
