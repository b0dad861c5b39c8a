package scene

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ExtNodeVisibility is KHR_node_visibility (ratified 2026; glTF 2.1 is to
// take it into core, but the 2.1 node schema has no "visible" yet): a node
// with visible false is not drawn, nor is anything under it. Physics does
// not care: its colliders still collide (and are drawn, greyed).
const ExtNodeVisibility = "KHR_node_visibility"

// NodeVisibility is a node's KHR_node_visibility block.
type NodeVisibility struct {
	// Visible is false for a hidden node (the default is true).
	Visible bool
	// Extra holds the keys the model does not interpret.
	Extra Members
}

// orderVisibility places the codec after the physics ones.
const orderVisibility = orderKHRPhysics + 10

func init() {
	registerExtension(extensionCodec{
		Names: []string{ExtNodeVisibility},
		Order: orderVisibility,
		Decode: func(d *Document, fs *findings) {
			for i, n := range d.GLTF.Nodes {
				raw, ok := rawExt(n.Extensions, ExtNodeVisibility)
				if !ok {
					continue
				}
				r := newReader(raw, fmt.Sprintf("/nodes/%d/extensions/%s", i, ExtNodeVisibility), fs)
				if r == nil {
					continue
				}
				d.Nodes[i].Visibility = &NodeVisibility{Visible: r.boolean("visible", true), Extra: r.rest()}
			}
		},
		Patch: func(d *Document, node int, blocks map[string]json.RawMessage) {
			if node < 0 || node >= len(d.Nodes) {
				return
			}
			if v := d.Nodes[node].Visibility; v != nil {
				var w writer
				w.set("visible", v.Visible)
				w.rest(v.Extra)
				blocks[ExtNodeVisibility] = w.bytes()
			}
		},
		Used: func(d *Document, used []string) []string {
			for _, ne := range d.Nodes {
				if ne.Visibility != nil {
					return append(used, ExtNodeVisibility)
				}
			}
			return used
		},
	})
}

// VisibilityPointer is the KHR_animation_pointer pointer of node n's
// visible flag.
func VisibilityPointer(n int) string {
	return fmt.Sprintf("/nodes/%d/extensions/%s/visible", n, ExtNodeVisibility)
}

// NodeVisible reports node n's own visible flag (true when it has none).
func (d *Document) NodeVisible(n int) bool {
	if n < 0 || n >= len(d.Nodes) || d.Nodes[n].Visibility == nil {
		return true
	}
	return d.Nodes[n].Visibility.Visible
}

// NodeHidden reports whether node n is not drawn at rest: its visible
// flag or an ancestor's is false.
func (d *Document) NodeHidden(n int) bool {
	if !d.NodeVisible(n) {
		return true
	}
	hidden := false
	d.Ancestors(n, func(a int) bool {
		hidden = !d.NodeVisible(a)
		return !hidden
	})
	return hidden
}

// HiddenNodes returns, for each node, whether it is not drawn: its own
// visible flag or an ancestor's is false. props are the animated values of
// a pose (anim.Pose.Props, by pointer; nil for the rest pose): an animated
// visible flag (a value of 0 is false) replaces the node's. nil when every
// node is visible.
func (d *Document) HiddenNodes(props map[string][]float64) []bool {
	own := func(n int) bool {
		if v, ok := props[VisibilityPointer(n)]; ok && len(v) > 0 {
			return v[0] != 0
		}
		return d.NodeVisible(n)
	}
	has := false
	for n := range d.Nodes {
		if d.Nodes[n].Visibility != nil {
			has = true
			break
		}
	}
	if !has {
		for p := range props {
			if strings.HasSuffix(p, "/extensions/"+ExtNodeVisibility+"/visible") {
				has = true
				break
			}
		}
	}
	if !has {
		return nil
	}
	hidden := make([]bool, len(d.Nodes))
	state := make([]int8, len(d.Nodes)) // 0 unknown, 1 visible, 2 hidden
	var walk func(n int) bool
	walk = func(n int) bool {
		// Iterative up the parents (Parent breaks cycles): the first
		// known or hidden ancestor decides.
		var chain []int
		h := false
		for m := n; m >= 0; m = d.Parent(m) {
			if state[m] != 0 {
				h = state[m] == 2
				break
			}
			chain = append(chain, m)
			if !own(m) {
				h = true
				break
			}
		}
		for i := len(chain) - 1; i >= 0; i-- {
			m := chain[i]
			if !own(m) {
				h = true
			}
			state[m] = 1
			if h {
				state[m] = 2
			}
		}
		return state[n] == 2
	}
	for n := range d.Nodes {
		hidden[n] = walk(n)
	}
	return hidden
}

// SetNodeVisible shows or hides a node and its subtree
// (KHR_node_visibility); a node given visible true that had no block
// keeps none.
type SetNodeVisible struct {
	Node    int
	Visible bool
}

// Name says what the edit does.
func (e SetNodeVisible) Name() string {
	if e.Visible {
		return fmt.Sprintf("Show node %d", e.Node)
	}
	return fmt.Sprintf("Hide node %d", e.Node)
}

func (e SetNodeVisible) check(d *Document) error { return d.checkNode(e.Node) }

func (e SetNodeVisible) apply(d *Document) (Edit, Change, error) {
	if err := d.checkNode(e.Node); err != nil {
		return nil, Change{}, err
	}
	old := d.Nodes[e.Node].Visibility
	inv := restoreVisibility{node: e.Node, v: old, name: e.Name()}
	switch {
	case old != nil:
		v := *old
		v.Visible = e.Visible
		d.Nodes[e.Node].Visibility = &v
	case !e.Visible:
		d.Nodes[e.Node].Visibility = &NodeVisibility{Visible: false}
	}
	// Moved: the subtree's drawing (its colliders greyed) is redone.
	return inv, Change{Nodes: []int{e.Node}, Moved: []int{e.Node}}, nil
}

// restoreVisibility puts a node's visibility block back (undo, redo); it
// is named after the edit it undoes, as the Edit menu shows it.
type restoreVisibility struct {
	node int
	v    *NodeVisibility
	name string
}

func (e restoreVisibility) Name() string { return e.name }

func (e restoreVisibility) apply(d *Document) (Edit, Change, error) {
	if err := d.checkNode(e.node); err != nil {
		return nil, Change{}, err
	}
	inv := restoreVisibility{node: e.node, v: d.Nodes[e.node].Visibility, name: e.name}
	d.Nodes[e.node].Visibility = e.v
	return inv, Change{Nodes: []int{e.node}, Moved: []int{e.node}}, nil
}
