package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	g "github.com/AllenDang/giu"

	"physview/internal/app"
	"physview/scene"
)

// findingsTab lists the renderer's notes and the document's findings: the
// severity and code on a line that can be clicked, the sentence and JSON
// pointer under it. Clicking selects the node the finding is about (or the
// first node that uses the object it is about) and frames it.
func findingsTab(s *State, act func(app.Intent)) g.Widget {
	ws := g.Layout{}
	for _, m := range s.Messages {
		ws = append(ws, g.Style().SetColor(g.StyleColorText, severityColor[scene.Warning]).To(g.Label("render: "+m).Wrapped(true)))
	}
	fs := BySeverity(s.S.Doc.Findings())
	if sum := findingSummary(fs); sum != "" {
		ws = append(ws, g.Label(sum), g.Separator())
	}
	for i, gr := range GroupFindings(fs, func(path string) int { return FindingNode(s.S.Doc, path) }) {
		f, node := gr.Finding, gr.Node
		head := fmt.Sprintf("%-7s %s", f.Severity, f.Code)
		if node >= 0 {
			head += "   -> " + s.S.Doc.NodeName(node)
		}
		if len(gr.Paths) > 1 {
			head += fmt.Sprintf("   x %d", len(gr.Paths))
		}
		sel := g.Selectable(fmt.Sprintf("%s##f%d", head, i)).Selected(node >= 0 && node == s.S.Selected)
		if node >= 0 {
			sel = sel.OnClick(func() {
				act(app.Select{Node: node, Frame: true})
			})
		}
		ws = append(ws,
			g.Style().SetColor(g.StyleColorText, severityColor[f.Severity]).To(sel),
			g.Condition(node >= 0, g.Tooltip("Click to select and frame the node this is about"), nil),
			g.Label(f.Message+"\n"+gr.PathText()).Wrapped(true),
			g.Separator(),
		)
	}
	if len(ws) == 0 {
		return g.Label("No findings.")
	}
	return ws
}

// FindingGroup is one entry of the Findings tab: a finding, and the paths
// of the findings just like it (same severity, code and sentence, about no
// node) that follow it, which it stands for.
type FindingGroup struct {
	Finding scene.Finding
	// Node is the node the finding is about (-1 for none).
	Node int
	// Paths are the JSON pointers of the findings in the group.
	Paths []string
}

// GroupFindings merges runs of findings that differ only in their path and
// are about no node (node gives the node of a path, -1 for none): a
// KTX2 file's 19 "invalid value image/ktx2" warnings read as one entry,
// not a page that buries the rest. Findings about a node stay one entry
// each, since each selects its own node.
func GroupFindings(fs []scene.Finding, node func(path string) int) []FindingGroup {
	var out []FindingGroup
	for _, f := range fs {
		n := node(f.Path)
		if k := len(out) - 1; k >= 0 && n < 0 && out[k].Node < 0 {
			last := out[k].Finding
			if last.Severity == f.Severity && last.Code == f.Code && last.Message == f.Message {
				out[k].Paths = append(out[k].Paths, f.Path)
				continue
			}
		}
		out = append(out, FindingGroup{Finding: f, Node: n, Paths: []string{f.Path}})
	}
	return out
}

// maxGroupPaths is how many of a group's paths the Findings tab lists.
const maxGroupPaths = 3

// PathText lists the group's paths, the first few of a long group and how
// many more there are.
func (g FindingGroup) PathText() string {
	if len(g.Paths) <= maxGroupPaths+1 {
		return strings.Join(g.Paths, "\n")
	}
	return strings.Join(g.Paths[:maxGroupPaths], "\n") + fmt.Sprintf("\nand %d more", len(g.Paths)-maxGroupPaths)
}

// BySeverity returns the findings errors first, then warnings, then
// notes, each kind in the file's order: a warning is not buried under a
// page of notes.
func BySeverity(fs []scene.Finding) []scene.Finding {
	out := slices.Clone(fs)
	slices.SortStableFunc(out, func(a, b scene.Finding) int { return cmp.Compare(b.Severity, a.Severity) })
	return out
}

// findingSummary counts the findings of each severity ("" for none).
func findingSummary(fs []scene.Finding) string {
	var n [3]int
	for _, f := range fs {
		switch f.Severity {
		case scene.Error:
			n[0]++
		case scene.Warning:
			n[1]++
		default:
			n[2]++
		}
	}
	if len(fs) == 0 {
		return ""
	}
	plural := func(k int, one, many string) string {
		if k == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %s", k, many)
	}
	return plural(n[0], "error", "errors") + ", " + plural(n[1], "warning", "warnings") + ", " + plural(n[2], "note", "notes") + " (most serious first)"
}

// FindingNode returns the node a finding at JSON pointer path is about: the
// node itself for /nodes/N/..., otherwise the first node that uses the
// object (mesh, accessor, material, skin, camera, physics shape or joint
// settings); -1 when no node does.
func FindingNode(d *scene.Document, path string) int {
	if d == nil || d.GLTF == nil {
		return -1
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	index := func(k int) int {
		if k >= len(parts) {
			return -1
		}
		n, err := strconv.Atoi(parts[k])
		if err != nil {
			return -1
		}
		return n
	}
	nodes := d.GLTF.Nodes
	first := func(match func(n int) bool) int {
		for n := range nodes {
			if match(n) {
				return n
			}
		}
		return -1
	}
	is := func(p *int, v int) bool { return p != nil && *p == v }
	meshUses := func(n int, f func(pr int, m int) bool) bool {
		if nodes[n].Mesh == nil || *nodes[n].Mesh < 0 || *nodes[n].Mesh >= len(d.GLTF.Meshes) {
			return false
		}
		for pi := range d.GLTF.Meshes[*nodes[n].Mesh].Primitives {
			if f(pi, *nodes[n].Mesh) {
				return true
			}
		}
		return false
	}
	i := index(1)
	switch parts[0] {
	case "nodes":
		if i >= 0 && i < len(nodes) {
			return i
		}
	case "meshes":
		return first(func(n int) bool { return is(nodes[n].Mesh, i) })
	case "cameras":
		return first(func(n int) bool { return is(nodes[n].Camera, i) })
	case "skins":
		return first(func(n int) bool { return is(nodes[n].Skin, i) })
	case "materials":
		return first(func(n int) bool {
			return meshUses(n, func(pi, m int) bool { return is(d.GLTF.Meshes[m].Primitives[pi].Material, i) })
		})
	case "accessors":
		return first(func(n int) bool {
			return meshUses(n, func(pi, m int) bool {
				pr := d.GLTF.Meshes[m].Primitives[pi]
				if is(pr.Indices, i) {
					return true
				}
				for _, a := range pr.Attributes {
					if a == i {
						return true
					}
				}
				return false
			})
		})
	case "extensions":
		if len(parts) < 4 {
			return -1
		}
		k := index(3)
		switch {
		case parts[1] == scene.ExtShape && parts[2] == "shapes":
			return first(func(n int) bool {
				b := d.Nodes[n].Body
				return b != nil && ((b.Collider != nil && b.Collider.Shape == k) || (b.Trigger != nil && b.Trigger.Shape == k))
			})
		case parts[1] == scene.ExtJoint && parts[2] == "physicsJoints":
			return first(func(n int) bool { j := d.Nodes[n].Joint; return j != nil && j.Joint == k })
		}
	}
	return -1
}
