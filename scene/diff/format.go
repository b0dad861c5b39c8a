package diff

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteText writes the report for people: one line per change, its
// pointers below it, and a last line with the count.
func (r Report) WriteText(w io.Writer) error {
	if r.A != "" || r.B != "" {
		fmt.Fprintf(w, "--- %s\n+++ %s\n", r.A, r.B)
	}
	for _, c := range r.Changes {
		node := ""
		if c.Node != "" {
			node = fmt.Sprintf(" %q", c.Node)
		}
		fmt.Fprintf(w, "%s %s%s: %s\n", c.Category, c.Kind, node, c.Summary)
		switch {
		case c.PointerA != "" && c.PointerA == c.PointerB:
			fmt.Fprintf(w, "    A,B %s\n", c.PointerA)
		default:
			if c.PointerA != "" {
				fmt.Fprintf(w, "    A %s\n", c.PointerA)
			}
			if c.PointerB != "" {
				fmt.Fprintf(w, "    B %s\n", c.PointerB)
			}
		}
	}
	var err error
	switch n := len(r.Changes); n {
	case 0:
		_, err = fmt.Fprintln(w, "equal")
	case 1:
		_, err = fmt.Fprintln(w, "1 change")
	default:
		_, err = fmt.Fprintf(w, "%d changes\n", n)
	}
	return err
}

// WriteJSON writes the report as {"equal": bool, "changes": [...]}.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteSARIF writes the changes as SARIF 2.1.0 results (level "note", rule
// category/kind, logical location the pointer in B or else in A), for code
// review tools that show SARIF.
func (r Report) WriteSARIF(w io.Writer) error {
	type msg struct {
		Text string `json:"text"`
	}
	type logical struct {
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Kind               string `json:"kind"`
	}
	type physical struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
	}
	type location struct {
		PhysicalLocation *physical `json:"physicalLocation,omitempty"`
		LogicalLocations []logical `json:"logicalLocations"`
	}
	type result struct {
		RuleID    string     `json:"ruleId"`
		Level     string     `json:"level"`
		Message   msg        `json:"message"`
		Locations []location `json:"locations"`
	}
	results := []result{}
	rules := []map[string]any{}
	seen := map[string]bool{}
	for _, c := range r.Changes {
		id := c.Category + "/" + c.Kind
		if !seen[id] {
			seen[id] = true
			rules = append(rules, map[string]any{"id": id, "shortDescription": map[string]string{"text": c.Category + " " + c.Kind}})
		}
		p, file := c.PointerB, r.B
		if p == "" {
			p, file = c.PointerA, r.A
		}
		loc := location{LogicalLocations: []logical{{FullyQualifiedName: p, Kind: "member"}}}
		if file != "" {
			loc.PhysicalLocation = &physical{}
			loc.PhysicalLocation.ArtifactLocation.URI = file
		}
		text := c.Summary
		if c.Node != "" {
			text = fmt.Sprintf("node %q: %s", c.Node, text)
		}
		results = append(results, result{RuleID: id, Level: "note", Message: msg{text}, Locations: []location{loc}})
	}
	doc := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool":    map[string]any{"driver": map[string]any{"name": "physview diff", "informationUri": "https://github.com/KhronosGroup/glTF", "rules": rules}},
			"results": results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
