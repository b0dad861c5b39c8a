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
	for i, f := range fs {
		node := FindingNode(s.S.Doc, f.Path)
		head := fmt.Sprintf("%-7s %s", f.Severity, f.Code)
		if node >= 0 {
			head += "   -> " + s.S.Doc.NodeName(node)
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
			g.Label(f.Message+"\n"+f.Path).Wrapped(true),
			g.Separator(),
		)
	}
	if len(ws) == 0 {
		return g.Label("No findings.")
	}
	return ws
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
