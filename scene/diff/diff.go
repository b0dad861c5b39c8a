package diff

import (
	"fmt"
	"sort"
	"strings"

	"physview/scene"
)

// Categories of a Change.
const (
	Structure = "structure"
	Value     = "value"
	Physics   = "physics"
	Geometry  = "geometry"
	Texture   = "texture"
	Animation = "animation"
	Variant   = "variant"
)

// Kinds of a Change.
const (
	Added    = "added"
	Removed  = "removed"
	Changed  = "changed"
	Moved    = "moved"
	Encoding = "encoding"
)

// Change is one difference between document A and document B.
type Change struct {
	// Category is structure, value, physics, geometry, texture, animation or variant.
	Category string `json:"category"`
	// Kind is added, removed, changed, moved or encoding (the same content
	// written another way).
	Kind string `json:"kind"`
	// PointerA and PointerB are the JSON pointers (RFC 6901) of what changed
	// in A and in B; empty for the side that does not have it.
	PointerA string `json:"pointerA,omitempty"`
	PointerB string `json:"pointerB,omitempty"`
	// Node is the name of the node the change is about, if it is about one.
	Node string `json:"node,omitempty"`
	// Summary says what changed in a line.
	Summary string `json:"summary"`
	// NodeA and NodeB are the node's indices in A and B, -1 for none: what
	// the window selects and tints.
	NodeA int `json:"-"`
	NodeB int `json:"-"`
}

// Report is the result of Compare.
type Report struct {
	// A and B name the compared files (for the text header).
	A, B string `json:"-"`
	// Equal is true when there is no change.
	Equal   bool     `json:"equal"`
	Changes []Change `json:"changes"`
}

// Tolerance is the largest difference between two numbers (relative above
// 1) that still counts as equal, and the geometry's "equal within".
const Tolerance = 1e-6

// Compare returns the differences between a and b. What cannot be read on
// one side (a missing buffer, an image that does not decode) is reported
// as a change naming why; the error is only for a failure of the
// comparison itself (a bug, recovered), naming the two files.
func Compare(a, b *scene.Document) (Report, error) { return CompareWith(a, b, Options{}) }

// Options tune a comparison.
type Options struct {
	// DecodeImage decodes images whose bytes differ (nil: StdDecode).
	DecodeImage ImageDecoder
}

// CompareWith is Compare with options.
func CompareWith(a, b *scene.Document, o Options) (r Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = Report{}, fmt.Errorf("diff %s and %s: internal error: %v", a.Path, b.Path, p)
		}
	}()
	c := newComparer(a, b)
	c.opt = o
	c.run()
	r = Report{A: a.Path, B: b.Path, Changes: c.changes, Equal: len(c.changes) == 0}
	if r.Changes == nil {
		r.Changes = []Change{}
	}
	return r, nil
}

// comparer holds the matching of A's parts to B's while one comparison runs.
type comparer struct {
	opt     Options
	a, b    *side
	changes []Change
	// nodeAB and nodeBA map matched nodes; likewise meshes, materials,
	// images, animations and skins.
	nodeAB, nodeBA map[int]int
	meshAB, meshBA map[int]int
	matAB, matBA   map[int]int
	imgAB, imgBA   map[int]int
	skinAB         map[int]int
	// geoms caches the primitives read; absorbed are A's nodes whose
	// transform change carries their mesh's new encoding, nodeSpace the
	// meshes of A compared in such a node's parent space (geometry.go);
	// carried are the nodes whose transform change carries the new
	// encoding but also moves what else the node holds (a collider,
	// children, a camera): reported, with why.
	geoms map[geomKey]primGeom
	// sameImage marks the images with the same bytes at the same index.
	sameImage map[int]bool
	absorbed  map[int]bool
	carried   map[int]bool
	nodeSpace map[int]nodeTransforms
}

// side is one document with what the comparison derives from it.
type side struct {
	d      *scene.Document
	parent []int
	// children lists each node's children (valid indices only).
	children [][]int
	// imgHash is the SHA-256 of each image's bytes, made when first asked
	// for (imageHash).
	imgHash []string
}

func newSide(d *scene.Document) *side {
	s := &side{d: d}
	n := len(d.GLTF.Nodes)
	s.parent = make([]int, n)
	s.children = make([][]int, n)
	for i := range n {
		s.parent[i] = d.Parent(i)
	}
	for i, node := range d.GLTF.Nodes {
		if node == nil {
			continue
		}
		for _, ch := range node.Children {
			if ch >= 0 && ch < n && s.parent[ch] == i {
				s.children[i] = append(s.children[i], ch)
			}
		}
	}
	s.imgHash = make([]string, len(d.GLTF.Images))
	return s
}

func newComparer(a, b *scene.Document) *comparer {
	return &comparer{
		a: newSide(a), b: newSide(b),
		nodeAB: map[int]int{}, nodeBA: map[int]int{},
		meshAB: map[int]int{}, meshBA: map[int]int{},
		matAB: map[int]int{}, matBA: map[int]int{},
		imgAB: map[int]int{}, imgBA: map[int]int{},
		skinAB: map[int]int{}, sameImage: map[int]bool{},
	}
}

func (c *comparer) run() {
	c.matchImages()
	c.matchMeshes()
	c.matchMaterials()
	c.matchNodes()
	c.matchSkins()
	c.findAbsorbed()

	c.compareRoot()
	c.compareNodes()
	c.comparePhysics()
	c.compareMeshes()
	c.compareMaterials()
	c.compareImages()
	c.compareAnimations()
	c.compareSkins()
	c.compareVariants()
	c.sortChanges()
}

// addNode records a change about node na of A / nb of B (-1 for none).
func (c *comparer) addNode(cat, kind string, na, nb int, pa, pb, format string, args ...any) {
	name := ""
	if nb >= 0 {
		name = c.b.d.NodeName(nb)
	} else if na >= 0 {
		name = c.a.d.NodeName(na)
	}
	c.changes = append(c.changes, Change{Category: cat, Kind: kind, PointerA: pa, PointerB: pb,
		Node: name, Summary: fmt.Sprintf(format, args...), NodeA: na, NodeB: nb})
}

// addDoc records a change about no node.
func (c *comparer) addDoc(cat, kind, pa, pb, format string, args ...any) {
	c.changes = append(c.changes, Change{Category: cat, Kind: kind, PointerA: pa, PointerB: pb,
		Summary: fmt.Sprintf(format, args...), NodeA: -1, NodeB: -1})
}

// categoryOrder sorts the report: what a reviewer reads first, first.
var categoryOrder = map[string]int{Structure: 0, Physics: 1, Value: 2, Geometry: 3, Texture: 4, Animation: 5, Variant: 6}

// sortChanges orders the changes by category, keeping the order they were
// found in (document order) within one, so the report reads the same
// every time.
func (c *comparer) sortChanges() {
	sort.SliceStable(c.changes, func(i, j int) bool {
		x, y := c.changes[i], c.changes[j]
		if x.Category != y.Category {
			return categoryOrder[x.Category] < categoryOrder[y.Category]
		}
		return false
	})
}

// ptr joins JSON pointer tokens, escaping ~ and /.
func ptr(parts ...any) string {
	var sb strings.Builder
	for _, p := range parts {
		s := fmt.Sprint(p)
		sb.WriteByte('/')
		sb.WriteString(pointerEscape.Replace(s))
	}
	return sb.String()
}

// pointerEscape escapes a JSON pointer's reference token (RFC 6901), made
// once: building it for each token was most of diffing a large file.
var pointerEscape = strings.NewReplacer("~", "~0", "/", "~1")
