package app

import (
	"fmt"
	"strings"

	"physview/scene"
)

// DescribeReload says what changed between old and d, the document before
// and after a reload: nodes added, removed and renamed, shapes resized or
// retyped, bodies added, removed or changed ("no node, shape or body
// changed" when none of these did).
func DescribeReload(old, d *scene.Document) string {
	if old == nil || d == nil {
		return "a new document"
	}
	var parts []string
	add := func(what string, list []string) {
		if len(list) == 0 {
			return
		}
		const most = 4
		more := ""
		if len(list) > most {
			more = fmt.Sprintf(" and %d more", len(list)-most)
			list = list[:most]
		}
		parts = append(parts, what+" "+strings.Join(list, ", ")+more)
	}
	on, nn := old.GLTF.Nodes, d.GLTF.Nodes
	var renamed, added, removed []string
	for i := 0; i < min(len(on), len(nn)); i++ {
		if on[i].Name != nn[i].Name {
			renamed = append(renamed, fmt.Sprintf("%s -> %s", old.NodeName(i), d.NodeName(i)))
		}
	}
	for i := len(on); i < len(nn); i++ {
		added = append(added, d.NodeName(i))
	}
	for i := len(nn); i < len(on); i++ {
		removed = append(removed, old.NodeName(i))
	}
	add("nodes added:", added)
	add("nodes removed:", removed)
	add("nodes renamed:", renamed)

	var resized, retyped []string
	for i := 0; i < min(len(old.Shapes), len(d.Shapes)); i++ {
		a, b := old.Shapes[i], d.Shapes[i]
		switch {
		case a.Type != b.Type:
			retyped = append(retyped, fmt.Sprintf("shape %d %s -> %s", i, a.Type, b.Type))
		case a.Params() != b.Params():
			resized = append(resized, fmt.Sprintf("shape %d %s (%s -> %s)", i, b.Type, a.Params(), b.Params()))
		}
	}
	if n := len(d.Shapes) - len(old.Shapes); n > 0 {
		parts = append(parts, fmt.Sprintf("%d shapes added", n))
	} else if n < 0 {
		parts = append(parts, fmt.Sprintf("%d shapes removed", -n))
	}
	add("shapes resized:", resized)
	add("shapes retyped:", retyped)

	var bodies []string
	for i := 0; i < max(len(old.Nodes), len(d.Nodes)); i++ {
		a, b := bodyText(old, i), bodyText(d, i)
		if a == b {
			continue
		}
		name := d.NodeName(i)
		if i >= len(d.Nodes) {
			name = old.NodeName(i)
		}
		switch {
		case a == "":
			bodies = append(bodies, name+" (added)")
		case b == "":
			bodies = append(bodies, name+" (removed)")
		default:
			bodies = append(bodies, name)
		}
	}
	add("bodies changed:", bodies)
	if len(parts) == 0 {
		return "no node, shape or body changed"
	}
	return strings.Join(parts, "; ")
}

// bodyText is node n's body as comparable text, "" for none.
func bodyText(d *scene.Document, n int) string {
	if n >= len(d.Nodes) || d.Nodes[n].Body == nil {
		return ""
	}
	return fmt.Sprintf("%+v", bodyValue(d.Nodes[n].Body))
}

// bodyValue dereferences a body's parts so that %+v compares values.
func bodyValue(b *scene.Body) []any {
	var out []any
	if b.Motion != nil {
		out = append(out, *b.Motion)
	}
	if b.Collider != nil {
		out = append(out, *b.Collider)
	}
	if b.Trigger != nil {
		out = append(out, *b.Trigger)
	}
	return out
}
