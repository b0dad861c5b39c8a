package diff

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/qmuntal/gltf"
)

// Matching: which part of A is which part of B. Each kind is matched by
// its name first, then by its content, then (for unnamed leftovers) by
// order, so that an inserted or reordered entry shifts no identity.

// pairBy pairs the unpaired indices of a and b whose key (not "") is equal,
// k-th with k-th for repeated keys, into ab and ba.
func pairBy(na, nb int, ab, ba map[int]int, keyA, keyB func(int) string) {
	pending := map[string][]int{}
	for j := range nb {
		if _, ok := ba[j]; ok {
			continue
		}
		if k := keyB(j); k != "" {
			pending[k] = append(pending[k], j)
		}
	}
	for i := range na {
		if _, ok := ab[i]; ok {
			continue
		}
		k := keyA(i)
		if k == "" || len(pending[k]) == 0 {
			continue
		}
		j := pending[k][0]
		pending[k] = pending[k][1:]
		ab[i], ba[j] = j, i
	}
}

// pairInOrder pairs what is still unpaired, in order, when both are
// allowed (ok) on their sides.
func pairInOrder(na, nb int, ab, ba map[int]int, okA, okB func(int) bool) {
	j := 0
	for i := range na {
		if _, done := ab[i]; done || !okA(i) {
			continue
		}
		for j < nb {
			if _, done := ba[j]; done || !okB(j) {
				j++
				continue
			}
			break
		}
		if j >= nb {
			return
		}
		ab[i], ba[j] = j, i
		j++
	}
}

// id returns the identity of entry i of side s given the pairing m (A to
// B): matched entries of both sides get the same string.
func id(s, a *side, i int, ab map[int]int) string {
	if i < 0 {
		return "none"
	}
	if s == a {
		if j, ok := ab[i]; ok {
			return fmt.Sprint("=", j)
		}
		return fmt.Sprint("A", i)
	}
	return fmt.Sprint("=", i)
}

func (c *comparer) meshID(s *side, m int) string {
	return inRange(m, len(s.d.GLTF.Meshes), func() string { return id(s, c.a, m, c.meshAB) })
}

func (c *comparer) matID(s *side, m int) string {
	return inRange(m, len(s.d.GLTF.Materials), func() string { return id(s, c.a, m, c.matAB) })
}

func (c *comparer) imgID(s *side, m int) string {
	return inRange(m, len(s.d.GLTF.Images), func() string { return id(s, c.a, m, c.imgAB) })
}

func (c *comparer) nodeID(s *side, n int) string {
	return inRange(n, len(s.d.GLTF.Nodes), func() string { return id(s, c.a, n, c.nodeAB) })
}

// inRange returns f() for a valid index, the same text on both sides for
// one out of range (a broken reference compares equal to itself).
func inRange(i, n int, f func() string) string {
	if i >= n {
		return fmt.Sprint("missing ", i)
	}
	return f()
}

// imageHash is image i's content hash ("" when it cannot be read), made
// once.
func (s *side) imageHash(i int) string {
	if s.imgHash[i] != "" {
		return s.imgHash[i]
	}
	data, err := imageBytes(s.d, i)
	if err != nil {
		return ""
	}
	h := sha256.Sum256(data)
	s.imgHash[i] = hex.EncodeToString(h[:])
	return s.imgHash[i]
}

func (c *comparer) matchImages() {
	ia, ib := c.a.d.GLTF.Images, c.b.d.GLTF.Images
	// The same bytes at the same index first: a comparison of bytes is
	// cheaper than hashing them (the common case, an image untouched).
	for i := range min(len(ia), len(ib)) {
		da, errA := imageBytes(c.a.d, i)
		db, errB := imageBytes(c.b.d, i)
		if errA == nil && errB == nil && bytes.Equal(da, db) {
			c.imgAB[i], c.imgBA[i] = i, i
			c.sameImage[i] = true
		}
	}
	pairBy(len(ia), len(ib), c.imgAB, c.imgBA, c.a.imageHash, c.b.imageHash)
	pairBy(len(ia), len(ib), c.imgAB, c.imgBA, func(i int) string { return ia[i].Name }, func(j int) string { return ib[j].Name })
	stem := func(im *gltf.Image) string {
		if im.URI == "" || strings.HasPrefix(im.URI, "data:") {
			return ""
		}
		b := path.Base(im.URI)
		return strings.TrimSuffix(b, path.Ext(b))
	}
	pairBy(len(ia), len(ib), c.imgAB, c.imgBA, func(i int) string { return stem(ia[i]) }, func(j int) string { return stem(ib[j]) })
	pairInOrder(len(ia), len(ib), c.imgAB, c.imgBA, func(i int) bool { return ia[i].Name == "" }, func(j int) bool { return ib[j].Name == "" })
}

// meshPrint is a mesh's content fingerprint: its primitives' vertex counts
// and position bounds, rounded.
func meshPrint(s *side, m int) string {
	var sb strings.Builder
	for _, p := range s.d.GLTF.Meshes[m].Primitives {
		a, ok := p.Attributes[gltf.POSITION]
		if !ok || a < 0 || a >= len(s.d.GLTF.Accessors) {
			sb.WriteString("-;")
			continue
		}
		acc := s.d.GLTF.Accessors[a]
		fmt.Fprintf(&sb, "%d", acc.Count)
		for _, v := range append(acc.Min, acc.Max...) {
			fmt.Fprintf(&sb, ",%.4g", v)
		}
		sb.WriteByte(';')
	}
	return sb.String()
}

// meshCounts is a mesh's primitives' vertex counts.
func meshCounts(s *side, m int) string {
	var sb strings.Builder
	for _, p := range s.d.GLTF.Meshes[m].Primitives {
		a, ok := p.Attributes[gltf.POSITION]
		if !ok || a < 0 || a >= len(s.d.GLTF.Accessors) {
			sb.WriteString("-;")
			continue
		}
		fmt.Fprintf(&sb, "%d;", s.d.GLTF.Accessors[a].Count)
	}
	return sb.String()
}

func (c *comparer) matchMeshes() {
	ma, mb := c.a.d.GLTF.Meshes, c.b.d.GLTF.Meshes
	pairBy(len(ma), len(mb), c.meshAB, c.meshBA, func(i int) string { return ma[i].Name }, func(j int) string { return mb[j].Name })
	pairBy(len(ma), len(mb), c.meshAB, c.meshBA, func(i int) string { return meshPrint(c.a, i) }, func(j int) string { return meshPrint(c.b, j) })
	// Then by vertex counts alone: a re-encode (quantization) moves the
	// bounds and may drop the name.
	pairBy(len(ma), len(mb), c.meshAB, c.meshBA, func(i int) string { return meshCounts(c.a, i) }, func(j int) string { return meshCounts(c.b, j) })
	pairInOrder(len(ma), len(mb), c.meshAB, c.meshBA, func(i int) bool { return ma[i].Name == "" }, func(j int) bool { return mb[j].Name == "" })
}

func (c *comparer) matchMaterials() {
	ma, mb := c.a.d.GLTF.Materials, c.b.d.GLTF.Materials
	pairBy(len(ma), len(mb), c.matAB, c.matBA, func(i int) string { return ma[i].Name }, func(j int) string { return mb[j].Name })
	content := func(s *side) func(int) string {
		return func(i int) string { return canonicalString(c.materialJSON(s, i)) }
	}
	pairBy(len(ma), len(mb), c.matAB, c.matBA, content(c.a), content(c.b))
	pairInOrder(len(ma), len(mb), c.matAB, c.matBA, func(i int) bool { return ma[i].Name == "" }, func(j int) bool { return mb[j].Name == "" })
}

func (c *comparer) matchSkins() {
	sa, sb := c.a.d.GLTF.Skins, c.b.d.GLTF.Skins
	skinBA := map[int]int{}
	pairBy(len(sa), len(sb), c.skinAB, skinBA, func(i int) string { return sa[i].Name }, func(j int) string { return sb[j].Name })
	pairInOrder(len(sa), len(sb), c.skinAB, skinBA, func(i int) bool { return sa[i].Name == "" }, func(j int) bool { return sb[j].Name == "" })
}

// roots returns the nodes of s without a parent, in index order.
func (s *side) roots() []int {
	var r []int
	for i := range s.parent {
		if s.parent[i] < 0 && s.d.GLTF.Nodes[i] != nil {
			r = append(r, i)
		}
	}
	return r
}

// nodeSignature is what a node is apart from its name: its mesh, transform,
// physics and number of children. Two unmatched siblings with the same
// signature are one node renamed.
func (c *comparer) nodeSignature(s *side, n int) string {
	node := s.d.GLTF.Nodes[n]
	mesh := "none"
	if node.Mesh != nil {
		mesh = c.meshID(s, *node.Mesh)
	}
	m := s.d.LocalMatrix(n)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s|%d|", mesh, len(s.children[n]))
	for _, v := range m {
		fmt.Fprintf(&sb, "%.5g,", v+0) // +0 folds -0
	}
	sb.WriteString(c.physicsSignature(s, n))
	return sb.String()
}

// looseKey is what a node is apart from its name, its transform and its
// physics' sizes and values: its mesh, its children's names and the kinds
// of its physics (motion type, collider and trigger shape types, joint,
// gravity field). With index set, the node's index in the file is part of
// it. "" for a node with none of these (an empty node is not told from
// another by them).
func (c *comparer) looseKey(s *side, n int, index bool) string {
	node := s.d.GLTF.Nodes[n]
	var sb strings.Builder
	if node.Mesh != nil {
		sb.WriteString("mesh " + c.meshID(s, *node.Mesh) + ";")
	}
	var kids []string
	for _, k := range s.children[n] {
		if k >= 0 && k < len(s.d.GLTF.Nodes) && s.d.GLTF.Nodes[k] != nil {
			kids = append(kids, strconv.Quote(s.d.GLTF.Nodes[k].Name))
		}
	}
	if len(kids) > 0 {
		slices.Sort(kids)
		sb.WriteString("children " + strings.Join(kids, ",") + ";")
	}
	if m := motionOf(s.d, n); m != nil {
		fmt.Fprintf(&sb, "motion %s;", m.Type)
	}
	shapeType := func(i int) string {
		if i < 0 || i >= len(s.d.Shapes) {
			return "none"
		}
		return s.d.Shapes[i].Type.String()
	}
	if col := colliderOf(s.d, n); col != nil {
		sb.WriteString("collider " + shapeType(col.Shape) + ";")
	}
	if t := triggerOf(s.d, n); t != nil {
		sb.WriteString("trigger " + shapeType(t.Shape) + ";")
	}
	if s.d.Nodes[n].Joint != nil {
		sb.WriteString("joint;")
	}
	if g := s.d.Nodes[n].Gravity; g != nil {
		sb.WriteString("gravity " + g.Type.String() + ";")
	}
	if sb.Len() == 0 {
		return ""
	}
	if index {
		fmt.Fprintf(&sb, "#%d", n)
	}
	return sb.String()
}

// pairUnique pairs what is still unpaired by key, where the key is on
// exactly one unpaired item of each side: a guess made only when there is
// no other to make.
func pairUnique(na, nb int, ab, ba map[int]int, keyA, keyB func(int) string) {
	count := func(n int, done map[int]int, key func(int) string) map[string][]int {
		m := map[string][]int{}
		for i := range n {
			if _, ok := done[i]; ok {
				continue
			}
			if k := key(i); k != "" {
				m[k] = append(m[k], i)
			}
		}
		return m
	}
	as, bs := count(na, ab, keyA), count(nb, ba, keyB)
	for k, is := range as {
		if js := bs[k]; len(is) == 1 && len(js) == 1 {
			ab[is[0]], ba[js[0]] = js[0], is[0]
		}
	}
}

// matchNodes pairs nodes level by level from the roots: by name among the
// children of a matched pair, then by signature (a rename), then unnamed
// ones in order; what is left is paired by a unique name anywhere (moved
// to another parent).
func (c *comparer) matchNodes() {
	var level func(as, bs []int)
	level = func(as, bs []int) {
		na, nb := c.a.d.GLTF.Nodes, c.b.d.GLTF.Nodes
		ab, ba := map[int]int{}, map[int]int{}
		pairBy(len(as), len(bs), ab, ba, func(i int) string { return na[as[i]].Name }, func(j int) string { return nb[bs[j]].Name })
		pairBy(len(as), len(bs), ab, ba, func(i int) string { return c.nodeSignature(c.a, as[i]) }, func(j int) string { return c.nodeSignature(c.b, bs[j]) })
		pairInOrder(len(as), len(bs), ab, ba, func(i int) bool { return na[as[i]].Name == "" }, func(j int) bool { return nb[bs[j]].Name == "" })
		// Renamed and changed too (a collider resized, the node moved):
		// the only node of its kind left on each side, else (a stack of
		// crates renamed) the one of its kind at the same index in the file.
		pairUnique(len(as), len(bs), ab, ba, func(i int) string { return c.looseKey(c.a, as[i], false) }, func(j int) string { return c.looseKey(c.b, bs[j], false) })
		pairBy(len(as), len(bs), ab, ba, func(i int) string { return c.looseKey(c.a, as[i], true) }, func(j int) string { return c.looseKey(c.b, bs[j], true) })
		for i, j := range ab {
			c.nodeAB[as[i]], c.nodeBA[bs[j]] = bs[j], as[i]
		}
		for i := range as {
			if j, ok := ab[i]; ok {
				level(c.a.children[as[i]], c.b.children[bs[j]])
			}
		}
	}
	level(c.a.roots(), c.b.roots())
	// Moved to another parent: a unique name left on both sides.
	for {
		ua, ub := c.unmatchedByName(c.a, c.nodeAB), c.unmatchedByName(c.b, c.nodeBA)
		found := false
		for name, i := range ua {
			if j, ok := ub[name]; ok && i >= 0 && j >= 0 {
				c.nodeAB[i], c.nodeBA[j] = j, i
				level(c.a.children[i], c.b.children[j])
				found = true
			}
		}
		if !found {
			return
		}
	}
}

// unmatchedByName maps the names of s's unmatched named nodes to their
// index, -1 when the name is on several.
func (c *comparer) unmatchedByName(s *side, matched map[int]int) map[string]int {
	m := map[string]int{}
	for i, node := range s.d.GLTF.Nodes {
		if node == nil || node.Name == "" {
			continue
		}
		if _, ok := matched[i]; ok {
			continue
		}
		if _, dup := m[node.Name]; dup {
			m[node.Name] = -1
		} else {
			m[node.Name] = i
		}
	}
	return m
}

// approx reports whether x and y are equal within Tolerance (relative for
// magnitudes above 1).
func approx(x, y float64) bool {
	if x == y {
		return true
	}
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return false
	}
	return math.Abs(x-y) <= Tolerance*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
}

func approxSlice(x, y []float64) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !approx(x[i], y[i]) {
			return false
		}
	}
	return true
}
