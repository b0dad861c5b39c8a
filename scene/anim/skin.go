package anim

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// skinData is one skin's joints and inverse bind matrices.
type skinData struct {
	joints []int
	ibm    []mgl64.Mat4
}

func readSkin(d *scene.Document, i int) (*skinData, error) {
	doc := d.GLTF
	sk := doc.Skins[i]
	s := &skinData{joints: sk.Joints, ibm: make([]mgl64.Mat4, len(sk.Joints))}
	for k, j := range sk.Joints {
		if j < 0 || j >= len(doc.Nodes) {
			return nil, fmt.Errorf("joint %d: node %d does not exist", k, j)
		}
		s.ibm[k] = mgl64.Ident4()
	}
	if sk.InverseBindMatrices != nil {
		vals, comps, err := readFloats(d, *sk.InverseBindMatrices)
		if err != nil {
			return nil, fmt.Errorf("inverseBindMatrices: %w", err)
		}
		if comps != 16 || len(vals) < 16*len(sk.Joints) {
			return nil, fmt.Errorf("inverseBindMatrices: %d values for %d joints", len(vals), len(sk.Joints))
		}
		for k := range s.ibm {
			copy(s.ibm[k][:], vals[16*k:16*k+16])
		}
	}
	return s, nil
}

// Joints returns the joint nodes of skin i (nil when it is invalid).
func (m *Model) Joints(skin int) []int {
	if skin < 0 || skin >= len(m.skins) || m.skins[skin] == nil {
		return nil
	}
	return m.skins[skin].joints
}

// JointMatrices returns skin i's joint matrices in pose p: each joint's
// world transform times its inverse bind matrix, so a skinned vertex goes
// straight to world space (the mesh node's own transform is not applied,
// as the glTF specification says). nil when the skin is invalid.
func (m *Model) JointMatrices(p *Pose, skin int, out []mgl64.Mat4) []mgl64.Mat4 {
	if skin < 0 || skin >= len(m.skins) || m.skins[skin] == nil {
		return nil
	}
	s := m.skins[skin]
	out = out[:0]
	for k, j := range s.joints {
		out = append(out, p.World[j].Mul4(s.ibm[k]))
	}
	return out
}

// SkinOf returns the skin node n is drawn with, or -1: a skinned node
// whose skin is valid and whose mesh's primitives carry joints.
func (m *Model) SkinOf(n int) int {
	node := m.Doc.GLTF.Nodes[n]
	if node.Skin == nil || node.Mesh == nil {
		return -1
	}
	s := *node.Skin
	if s < 0 || s >= len(m.skins) || m.skins[s] == nil {
		return -1
	}
	return s
}
