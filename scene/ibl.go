package scene

import "encoding/json"

// ImageBasedLight returns the index of the EXT_lights_image_based light
// (the file's own lighting environment) the shown scene uses, or -1 when
// it uses none or the index is not in the file's list.
func (d *Document) ImageBasedLight() int {
	if d == nil || d.GLTF == nil {
		return -1
	}
	s := d.ShownScene()
	if s < 0 || s >= len(d.GLTF.Scenes) {
		return -1
	}
	var ref struct {
		Light *int `json:"light"`
	}
	var defs struct {
		Lights []json.RawMessage `json:"lights"`
	}
	if !decodeExt(d.GLTF.Scenes[s].Extensions["EXT_lights_image_based"], &ref) || ref.Light == nil ||
		!decodeExt(d.GLTF.Extensions["EXT_lights_image_based"], &defs) || *ref.Light < 0 || *ref.Light >= len(defs.Lights) {
		return -1
	}
	return *ref.Light
}

// decodeExt decodes an extension's value (raw JSON or already decoded)
// into v, reporting whether there was one that decoded.
func decodeExt(raw any, v any) bool {
	if raw == nil {
		return false
	}
	b, ok := raw.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(raw); err != nil {
			return false
		}
	}
	return json.Unmarshal(b, v) == nil
}
