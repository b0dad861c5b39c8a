package scene

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// ExtCollider is the extension name of the archived OMI_collider: read into
// the model, never written (a save writes what replaced it).
const ExtCollider = "OMI_collider"

// OMI_collider, archived: read as OMI_physics_shape shapes (appended after
// the document's own) and node colliders or triggers, never written. A file
// that required it requires what replaced it.
func init() {
	registerExtension(extensionCodec{
		Names:    []string{ExtCollider},
		Order:    orderCollider,
		Decode:   decodeColliders,
		Required: requiredColliders,
	})
}

func decodeColliders(d *Document, fs *findings) {
	colliderBase := len(d.Shapes)
	var colliderTrigger []bool
	if raw, ok := rawExt(d.GLTF.Extensions, ExtCollider); ok {
		fs.infof("OMI_LEGACY_FORM", "/extensions/"+ExtCollider, "archived OMI_collider read as OMI_physics_shape and OMI_physics_body; saved in the current form")
		if r := newReader(raw, "/extensions/"+ExtCollider, fs); r != nil {
			for i, c := range r.array("colliders") {
				p := r.at("colliders") + "/" + itoa(i)
				d.Shapes = append(d.Shapes, decodeShape(c, p, fs, true))
				var flags struct {
					IsTrigger bool `json:"isTrigger"`
				}
				_ = json.Unmarshal(c, &flags)
				colliderTrigger = append(colliderTrigger, flags.IsTrigger)
			}
		}
	}
	for i, n := range d.GLTF.Nodes {
		raw, ok := rawExt(n.Extensions, ExtCollider)
		if !ok {
			continue
		}
		base := fmt.Sprintf("/nodes/%d/extensions/%s", i, ExtCollider)
		r := newReader(raw, base, fs)
		if r == nil {
			continue
		}
		c := r.index("collider", -1)
		if c < 0 || c >= len(colliderTrigger) {
			fs.errorf("OMI_UNRESOLVED_REFERENCE", base+"/collider", "collider %d does not exist (the file has %d)", c, len(colliderTrigger))
			continue
		}
		ne := &d.Nodes[i]
		if ne.Body == nil {
			ne.Body = &Body{}
		}
		if colliderTrigger[c] {
			ne.Body.Trigger = &Trigger{Shape: colliderBase + c, CollisionFilter: -1}
		} else {
			ne.Body.Collider = &Collider{Shape: colliderBase + c, PhysicsMaterial: -1, CollisionFilter: -1}
		}
	}
}

// requiredColliders adds OMI_physics_body and OMI_physics_shape, where used,
// to an extensionsRequired that names OMI_collider.
func requiredColliders(raw json.RawMessage, used []string) ([]string, bool) {
	if !bytes.Contains(raw, []byte(`"`+ExtCollider+`"`)) {
		return nil, false
	}
	var req []string
	if json.Unmarshal(raw, &req) != nil {
		return nil, false
	}
	for _, n := range []string{ExtBody, ExtShape} {
		if slices.Contains(used, n) && !slices.Contains(req, n) {
			req = append(req, n)
		}
	}
	return req, true
}
