package omi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"physview/scene"
)

// decodeColliders reads the archived OMI_collider, never written: its
// colliders are appended after the document's shapes, and a node that
// names one gets it as its collider or, for an isTrigger one, its trigger.
// A file that required OMI_collider requires what replaced it
// (requiredColliders).
func decodeColliders(d *scene.Document, fs *scene.Findings) {
	colliderBase := len(d.Shapes)
	var colliderTrigger []bool
	if raw, ok := scene.RawExtension(d.GLTF.Extensions, scene.ExtCollider); ok {
		fs.Infof("OMI_LEGACY_FORM", "/extensions/"+scene.ExtCollider, "archived OMI_collider read as OMI_physics_shape and OMI_physics_body; saved in the current form")
		if r := scene.NewReader(raw, "/extensions/"+scene.ExtCollider, fs); r != nil {
			for i, c := range r.Array("colliders") {
				p := r.At("colliders") + "/" + strconv.Itoa(i)
				d.Shapes = append(d.Shapes, scene.DecodeShape(c, p, fs, true))
				var flags struct {
					IsTrigger bool `json:"isTrigger"`
				}
				_ = json.Unmarshal(c, &flags)
				colliderTrigger = append(colliderTrigger, flags.IsTrigger)
			}
		}
	}
	for i, n := range d.GLTF.Nodes {
		raw, ok := scene.RawExtension(n.Extensions, scene.ExtCollider)
		if !ok {
			continue
		}
		base := fmt.Sprintf("/nodes/%d/extensions/%s", i, scene.ExtCollider)
		r := scene.NewReader(raw, base, fs)
		if r == nil {
			continue
		}
		c := r.Index("collider", -1)
		if c < 0 || c >= len(colliderTrigger) {
			fs.Errorf("OMI_UNRESOLVED_REFERENCE", base+"/collider", "collider %d does not exist (the file has %d)", c, len(colliderTrigger))
			continue
		}
		ne := &d.Nodes[i]
		if ne.Body == nil {
			ne.Body = &scene.Body{}
		}
		if colliderTrigger[c] {
			ne.Body.Trigger = &scene.Trigger{Shape: colliderBase + c, CollisionFilter: -1}
		} else {
			ne.Body.Collider = &scene.Collider{Shape: colliderBase + c, PhysicsMaterial: -1, CollisionFilter: -1}
		}
	}
}

// requiredColliders adds OMI_physics_body and OMI_physics_shape, where used,
// to an extensionsRequired that names OMI_collider.
func requiredColliders(raw json.RawMessage, used []string) ([]string, bool) {
	if !bytes.Contains(raw, []byte(`"`+scene.ExtCollider+`"`)) {
		return nil, false
	}
	var req []string
	if json.Unmarshal(raw, &req) != nil {
		return nil, false
	}
	for _, n := range []string{scene.ExtBody, scene.ExtShape} {
		if slices.Contains(used, n) && !slices.Contains(req, n) {
			req = append(req, n)
		}
	}
	return req, true
}
