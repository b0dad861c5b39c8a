package omi

import (
	"encoding/json"
	"fmt"
	"strconv"

	"physview/scene"
)

// legacyDecode is what the forms before September 2023 leave for
// wireLegacy while a document is decoded, per node: the legacy body type
// and the node-level shape index (-1 for none).
type legacyDecode struct {
	body  []string
	shape []int
}

// newLegacyDecode returns an empty legacy state for the document's nodes.
func newLegacyDecode(d *scene.Document) *legacyDecode {
	n := len(d.GLTF.Nodes)
	st := &legacyDecode{body: make([]string, n), shape: make([]int, n)}
	for i := range st.shape {
		st.shape[i] = -1
	}
	return st
}

func decodeBodies(d *scene.Document, fs *scene.Findings, st *legacyDecode) {
	if raw, ok := scene.RawExtension(d.GLTF.Extensions, scene.ExtBody); ok {
		if r := scene.NewReader(raw, "/extensions/"+scene.ExtBody, fs); r != nil {
			for i, m := range r.Array("physicsMaterials") {
				d.PhysicsMaterials = append(d.PhysicsMaterials, scene.DecodePhysicsMaterial(m, r.At("physicsMaterials")+"/"+strconv.Itoa(i), fs))
			}
			for i, c := range r.Array("collisionFilters") {
				d.CollisionFilters = append(d.CollisionFilters, scene.DecodeCollisionFilter(c, r.At("collisionFilters")+"/"+strconv.Itoa(i), fs))
			}
			d.SetRootExtra(scene.ExtBody, r.Rest())
		}
	}
	for i, n := range d.GLTF.Nodes {
		if raw, ok := scene.RawExtension(n.Extensions, scene.ExtBody); ok {
			var legacy string
			d.Nodes[i].Body, legacy = scene.DecodeBody(raw, fmt.Sprintf("/nodes/%d/extensions/%s", i, scene.ExtBody), fs)
			if legacy != "" {
				st.body[i] = legacy
			}
		}
	}
}

// wireLegacy turns the node shapes and bodies of before September 2023
// into the current form. It runs once every node is read, because a
// shape's meaning depends on its ancestors; a legacy trigger body becomes
// the compound of its descendant triggers.
func wireLegacy(d *scene.Document, st *legacyDecode) {
	legacyBody, legacyShape := st.body, st.shape
	var compounds []int
	for i, shape := range legacyShape {
		if shape < 0 && legacyBody[i] == "" {
			continue
		}
		ne := &d.Nodes[i]
		if shape >= 0 {
			// The body on this node or the nearest ancestor says what kind of shape this is.
			kind := legacyBody[i]
			if kind == "" {
				d.Ancestors(i, func(a int) bool {
					kind = legacyBody[a]
					return kind == ""
				})
			}
			if ne.Body == nil {
				ne.Body = &scene.Body{}
			}
			if kind == "trigger" {
				ne.Body.Trigger = &scene.Trigger{Shape: shape, CollisionFilter: -1}
			} else if ne.Body.Collider == nil {
				ne.Body.Collider = &scene.Collider{Shape: shape, PhysicsMaterial: -1, CollisionFilter: -1}
			}
		}
		if legacyBody[i] == "trigger" && ne.Body != nil && ne.Body.Trigger == nil {
			ne.Body.Trigger = &scene.Trigger{Shape: -1, CollisionFilter: -1}
			compounds = append(compounds, i)
		}
	}
	// Every legacy shape is wired before a compound lists its parts.
	for _, i := range compounds {
		d.Nodes[i].Body.Trigger.Nodes = d.DescendantTriggers(i)
	}
}

func patchBodies(d *scene.Document, node int, blocks map[string]json.RawMessage) {
	if !isOMI(d) {
		return
	}
	if node >= 0 {
		if b := d.Nodes[node].Body; b != nil {
			blocks[scene.ExtBody] = scene.EncodeBody(b)
		}
		return
	}
	if len(d.PhysicsMaterials) > 0 || len(d.CollisionFilters) > 0 || len(d.RootExtra(scene.ExtBody)) > 0 {
		var w scene.Writer
		if len(d.PhysicsMaterials) > 0 {
			scene.WriteList(&w, "physicsMaterials", d.PhysicsMaterials)
		}
		if len(d.CollisionFilters) > 0 {
			scene.WriteList(&w, "collisionFilters", d.CollisionFilters)
		}
		w.Rest(d.RootExtra(scene.ExtBody))
		blocks[scene.ExtBody] = w.Bytes()
	}
}

func usedBodies(d *scene.Document, used []string) []string {
	if !isOMI(d) {
		return used
	}
	has := len(d.PhysicsMaterials) > 0 || len(d.CollisionFilters) > 0
	for _, ne := range d.Nodes {
		has = has || ne.Body != nil
	}
	if has {
		used = append(used, scene.ExtBody)
	}
	return used
}

func validateBodies(d *scene.Document, fs *scene.Findings) {
	if isOMI(d) {
		d.ValidateBodies(fs, scene.DialectOMI)
	}
}
