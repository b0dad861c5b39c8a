package omi

import (
	"encoding/json"
	"fmt"
	"strconv"

	"physview/scene"
)

// OMI_physics_joint: the document's joint settings and each joint node.
func init() {
	scene.RegisterCodec(scene.Codec{
		Names:    []string{scene.ExtJoint},
		Order:    orderJoint,
		Decode:   decodeJoints,
		Patch:    patchJoints,
		Used:     usedJoints,
		Validate: validateJoints,
	})
}

func decodeJoints(d *scene.Document, fs *scene.Findings) {
	if raw, ok := scene.RawExtension(d.GLTF.Extensions, scene.ExtJoint); ok {
		if r := scene.NewReader(raw, "/extensions/"+scene.ExtJoint, fs); r != nil {
			for i, j := range r.Array("physicsJoints") {
				d.Joints = append(d.Joints, scene.DecodeJointSettings(j, r.At("physicsJoints")+"/"+strconv.Itoa(i), fs))
			}
			d.SetRootExtra(scene.ExtJoint, r.Rest())
		}
	}
	for i, n := range d.GLTF.Nodes {
		if raw, ok := scene.RawExtension(n.Extensions, scene.ExtJoint); ok {
			d.Nodes[i].Joint = scene.DecodeNodeJoint(raw, fmt.Sprintf("/nodes/%d/extensions/%s", i, scene.ExtJoint), fs)
		}
	}
}

func patchJoints(d *scene.Document, node int, blocks map[string]json.RawMessage) {
	if !isOMI(d) {
		return
	}
	if node >= 0 {
		if j := d.Nodes[node].Joint; j != nil {
			blocks[scene.ExtJoint] = scene.EncodeNodeJoint(j)
		}
		return
	}
	if len(d.Joints) > 0 {
		var w scene.Writer
		scene.WriteList(&w, "physicsJoints", d.Joints)
		w.Rest(d.RootExtra(scene.ExtJoint))
		blocks[scene.ExtJoint] = w.Bytes()
	}
}

func usedJoints(d *scene.Document, used []string) []string {
	if !isOMI(d) {
		return used
	}
	has := len(d.Joints) > 0
	for _, ne := range d.Nodes {
		has = has || ne.Joint != nil
	}
	if has {
		used = append(used, scene.ExtJoint)
	}
	return used
}

func validateJoints(d *scene.Document, fs *scene.Findings) {
	if isOMI(d) {
		d.ValidateJoints(fs, scene.DialectOMI)
	}
}
