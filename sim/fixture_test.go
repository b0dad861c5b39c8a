package sim

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"physview/scene"
)

// tnode is one node of a test scene.
type tnode struct {
	name     string
	t        [3]float64
	children []int
	// ext is the node's "extensions" object body (without braces), raw JSON.
	ext string
}

// tscene is a small glTF scene written as JSON, decoded through scene.Decode
// like any file.
type tscene struct {
	shapes    []string // raw JSON of each shape
	materials []string
	filters   []string
	joints    []string
	gravity   string // raw JSON of the world gravity, "" for none
	nodes     []tnode
}

func (ts tscene) json() string {
	var exts []string
	used := map[string]bool{}
	if len(ts.shapes) > 0 {
		exts = append(exts, fmt.Sprintf(`"OMI_physics_shape": {"shapes": [%s]}`, strings.Join(ts.shapes, ",")))
		used["OMI_physics_shape"] = true
	}
	var body []string
	if len(ts.materials) > 0 {
		body = append(body, fmt.Sprintf(`"physicsMaterials": [%s]`, strings.Join(ts.materials, ",")))
	}
	if len(ts.filters) > 0 {
		body = append(body, fmt.Sprintf(`"collisionFilters": [%s]`, strings.Join(ts.filters, ",")))
	}
	if len(body) > 0 {
		exts = append(exts, fmt.Sprintf(`"OMI_physics_body": {%s}`, strings.Join(body, ",")))
	}
	if ts.gravity != "" {
		exts = append(exts, fmt.Sprintf(`"OMI_physics_gravity": %s`, ts.gravity))
	}
	if len(ts.joints) > 0 {
		exts = append(exts, fmt.Sprintf(`"OMI_physics_joint": {"physicsJoints": [%s]}`, strings.Join(ts.joints, ",")))
	}
	child := map[int]bool{}
	for _, n := range ts.nodes {
		for _, c := range n.children {
			child[c] = true
		}
	}
	var roots []string
	var nodes []string
	for i, n := range ts.nodes {
		if !child[i] {
			roots = append(roots, fmt.Sprint(i))
		}
		parts := []string{fmt.Sprintf(`"name": %q`, n.name), fmt.Sprintf(`"translation": [%g, %g, %g]`, n.t[0], n.t[1], n.t[2])}
		if len(n.children) > 0 {
			cs, _ := json.Marshal(n.children)
			parts = append(parts, `"children": `+string(cs))
		}
		if n.ext != "" {
			parts = append(parts, `"extensions": {`+n.ext+`}`)
			for _, e := range []string{"OMI_physics_body", "OMI_physics_gravity", "OMI_physics_joint"} {
				if strings.Contains(n.ext, e) {
					used[e] = true
				}
			}
		}
		nodes = append(nodes, "{"+strings.Join(parts, ",")+"}")
	}
	if len(ts.materials)+len(ts.filters) > 0 {
		used["OMI_physics_body"] = true
	}
	if ts.gravity != "" {
		used["OMI_physics_gravity"] = true
	}
	if len(ts.joints) > 0 {
		used["OMI_physics_joint"] = true
	}
	var u []string
	for e := range used {
		u = append(u, fmt.Sprintf("%q", e))
	}
	return fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": [%s], "extensions": {%s}, "scene": 0, "scenes": [{"nodes": [%s]}], "nodes": [%s]}`,
		strings.Join(u, ","), strings.Join(exts, ","), strings.Join(roots, ","), strings.Join(nodes, ","))
}

func (ts tscene) doc(t testing.TB) *scene.Document {
	t.Helper()
	d, err := scene.Decode([]byte(ts.json()), nil)
	if err != nil {
		t.Fatalf("decode test scene: %v\n%s", err, ts.json())
	}
	for _, f := range d.Findings() {
		if f.Severity == scene.Error {
			t.Fatalf("test scene has an error finding: %v", f)
		}
	}
	return d
}

// dynamic returns a node extension for a dynamic body with collider shape
// (-1 for none) and extra motion keys.
func dynamic(mass float64, shape int, motion string) string {
	col := ""
	if shape >= 0 {
		col = fmt.Sprintf(`, "collider": {"shape": %d}`, shape)
	}
	if motion != "" {
		motion = ", " + motion
	}
	return fmt.Sprintf(`"OMI_physics_body": {"motion": {"type": "dynamic", "mass": %g%s}%s}`, mass, motion, col)
}

func static(shape int, extra string) string {
	return fmt.Sprintf(`"OMI_physics_body": {"collider": {"shape": %d%s}}`, shape, extra)
}

const earth = `{"gravity": 9.81, "direction": [0, -1, 0]}`

func sphere(r float64) string { return fmt.Sprintf(`{"type": "sphere", "sphere": {"radius": %g}}`, r) }

func box(x, y, z float64) string {
	return fmt.Sprintf(`{"type": "box", "box": {"size": [%g, %g, %g]}}`, x, y, z)
}
