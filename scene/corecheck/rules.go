package corecheck

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
)

// Tolerances of the Khronos glTF-Validator. A unit vector read from a file
// may be off by the error of 8-bit signed quantization; weights must sum to
// 1 within float32 rounding (2e-7 per weight added).
const (
	// UnitLengthThresholdVec3 is how far the length of a unit 3-vector
	// (a normal, a tangent's xyz) may be from 1.
	UnitLengthThresholdVec3 = 0.00674
	// UnitLengthThresholdVec4 is how far the length of a unit quaternion
	// (node rotation, animation output) may be from 1.
	UnitLengthThresholdVec4 = 0.00769
	// UnitSumThresholdStep is one step of an 8-bit unsigned value.
	UnitSumThresholdStep = 0.0039216
	// WeightSumThresholdPerWeight is how far a vertex's weight sum (in
	// float32) may be from 1, per unique non-zero weight it adds: float32
	// rounding, as the Khronos validator allows.
	WeightSumThresholdPerWeight = 2e-7
)

// hostileBudget bounds the steps of the walks up the node tree a check
// makes (skins' common roots, skinned nodes' parents): linear work for any
// real file, a bounded time for a hostile one.
const hostileBudget = 1 << 24

// semanticRules are the rules of the Khronos validator that look at how
// objects are used together: nodes and skins, primitives and their
// materials, buffer view targets, unused objects and the material
// extensions' combinations.
func (l *links) semanticRules() {
	l.nodeRules()
	l.skinRoots()
	l.primitiveRules()
	l.materialRules()
	l.unusedObjects()
}

// nodeRules: NODE_EMPTY, NODE_MATRIX_DEFAULT, NODE_MATRIX_NON_TRS and the
// skinned-mesh rules.
func (l *links) nodeRules() {
	joint := map[int]bool{}
	for _, s := range l.doc.Skins {
		for _, j := range s.Joints {
			joint[j] = true
		}
	}
	parent := make([]int, len(l.doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	// listed: some node lists it as a child, itself included (a node that
	// is its own child is not a root either; parent leaves that out, so
	// walks up the tree end).
	listed := make([]bool, len(l.doc.Nodes))
	for i, n := range l.doc.Nodes {
		for _, c := range n.Children {
			if c >= 0 && c < len(parent) {
				listed[c] = true
			}
			if c >= 0 && c < len(parent) && parent[c] < 0 && c != i {
				parent[c] = i
			}
		}
	}
	skinAncestors := map[int]map[int]bool{}
	budget := hostileBudget
	for i, n := range l.doc.Nodes {
		p := fmt.Sprintf("/nodes/%d", i)
		raw := l.rawObj("nodes", i)
		if raw == nil {
			continue
		}
		// Empty: no mesh or camera that exists, no children, extensions or
		// extras (a name, a transform, a skin or weights alone do not
		// count), and not a joint.
		empty := !joint[i] && len(n.Children) == 0
		if n.Mesh != nil && *n.Mesh >= 0 && *n.Mesh < len(l.doc.Meshes) {
			empty = false
		}
		if n.Camera != nil && *n.Camera >= 0 && *n.Camera < len(l.doc.Cameras) {
			empty = false
		}
		if _, ok := raw["extensions"]; ok {
			empty = false
		}
		// extras: null is no extras.
		if v, ok := raw["extras"]; ok && v != nil {
			empty = false
		}
		if empty {
			l.fs.addc(Info, "NODE_EMPTY", p, "empty node: no mesh, camera, children or extensions")
		}
		if _, has := raw["matrix"]; has {
			m := n.Matrix
			if isIdentityMatrix(m) {
				l.fs.addc(Info, "NODE_MATRIX_DEFAULT", p+"/matrix", "the default (identity) matrix need not be written")
			} else if !decomposable(m) {
				l.fs.addc(Error, "NODE_MATRIX_NON_TRS", p+"/matrix", "the matrix cannot be decomposed into translation, rotation and scale")
			}
		}
		if n.Mesh == nil || *n.Mesh < 0 || *n.Mesh >= len(l.doc.Meshes) {
			continue
		}
		skinnedMesh := false
		for _, pr := range l.doc.Meshes[*n.Mesh].Primitives {
			if _, ok := pr.Attributes["JOINTS_0"]; ok {
				skinnedMesh = true
			}
		}
		if !skinnedMesh {
			continue
		}
		if n.Skin == nil {
			l.fs.addc(Warning, "NODE_SKINNED_MESH_WITHOUT_SKIN", p, "the node's mesh is skinned (JOINTS_0) but the node has no skin")
			continue
		}
		if hasTransform(raw) {
			l.fs.addc(Warning, "NODE_SKINNED_MESH_LOCAL_TRANSFORMS", p, "the node's local transform does not affect its skinned mesh")
		}
		if listed[i] && budget > 0 {
			// A parent's transform is lost unless it also moves the joints.
			jointAncestor := skinAncestors[*n.Skin]
			if jointAncestor == nil {
				jointAncestor = map[int]bool{}
				if *n.Skin >= 0 && *n.Skin < len(l.doc.Skins) {
					for _, j := range l.doc.Skins[*n.Skin].Joints {
						// Stop at a node already marked: its ancestors are too.
						for a, steps := j, 0; a >= 0 && a < len(parent) && steps <= len(parent) && !jointAncestor[a]; a, steps = parent[a], steps+1 {
							jointAncestor[a] = true
							budget--
						}
					}
				}
				skinAncestors[*n.Skin] = jointAncestor
			}
			moved := false
			for a, steps := parent[i], 0; a >= 0 && steps <= len(parent) && budget > 0; a, steps = parent[a], steps+1 {
				budget--
				if !jointAncestor[a] && hasTransform(l.rawObj("nodes", a)) {
					moved = true
					break
				}
			}
			l.fs.addc(Info, "NODE_SKINNED_MESH_NON_ROOT", p, "the node with a skinned mesh is not a root node")
			if moved {
				l.fs.addc(Warning, "NODE_SKINNED_MESH_PARENT_TRANSFORMS", p, "the node's parents have transforms, which do not affect its skinned mesh")
			}
		}
	}
}

// hasTransform reports whether a node's JSON sets a transform other than
// the identity.
func hasTransform(raw map[string]any) bool {
	for _, k := range []string{"matrix", "translation", "rotation", "scale"} {
		v, ok := raw[k].([]any)
		if !ok {
			continue
		}
		def := map[string][]float64{
			"matrix":      {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
			"translation": {0, 0, 0}, "rotation": {0, 0, 0, 1}, "scale": {1, 1, 1},
		}[k]
		for i, x := range v {
			f, _, _ := numberValue(x)
			if i >= len(def) || f != def[i] {
				return true
			}
		}
	}
	return false
}

// decomposable reports whether a node matrix is a translation, rotation
// and scale, as the Khronos validator decides it (utils.dart
// isTrsDecomposable, with vector_math's Matrix4.decompose): the last row is
// 0 0 0 1, the determinant is not 0, and the matrix rebuilt from its
// translation, rotation (the quaternion of its columns divided by their
// lengths, the first length negated for a negative determinant) and scale
// is within 0.00005 of it, by the largest column sum of absolute
// differences. A shear or non-orthogonal columns do not rebuild.
func decomposable(m [16]float64) bool {
	if m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1 {
		return false
	}
	det := mgl64.Mat4(m).Det()
	if det == 0 {
		return false
	}
	sx := math.Sqrt(m[0]*m[0] + m[1]*m[1] + m[2]*m[2])
	sy := math.Sqrt(m[4]*m[4] + m[5]*m[5] + m[6]*m[6])
	sz := math.Sqrt(m[8]*m[8] + m[9]*m[9] + m[10]*m[10])
	if det < 0 {
		sx = -sx
	}
	r := [9]float64{m[0] / sx, m[1] / sx, m[2] / sx, m[4] / sy, m[5] / sy, m[6] / sy, m[8] / sz, m[9] / sz, m[10] / sz}
	x, y, z, w := quatFromRotation(r)
	x2, y2, z2 := x+x, y+y, z+z
	xx, xy, xz := x*x2, x*y2, x*z2
	yy, yz, zz := y*y2, y*z2, z*z2
	wx, wy, wz := w*x2, w*y2, w*z2
	rebuilt := [16]float64{
		(1 - (yy + zz)) * sx, (xy + wz) * sx, (xz - wy) * sx, 0,
		(xy - wz) * sy, (1 - (xx + zz)) * sy, (yz + wx) * sy, 0,
		(xz + wy) * sz, (yz - wx) * sz, (1 - (xx + yy)) * sz, 0,
		m[12], m[13], m[14], 1,
	}
	worst := 0.0
	for c := 0; c < 4; c++ {
		sum := 0.0
		for i := 4 * c; i < 4*c+4; i++ {
			sum += math.Abs(rebuilt[i] - m[i])
		}
		worst = max(worst, sum)
	}
	return worst < 0.00005
}

// quatFromRotation returns the quaternion (x, y, z, w) of a 3x3 rotation
// matrix r (column-major), by the largest of the trace and the diagonal
// (Shepperd's method), without normalizing: a matrix that is not a
// rotation gives a quaternion that does not rebuild it.
func quatFromRotation(r [9]float64) (x, y, z, w float64) {
	at := func(row, col int) float64 { return r[col*3+row] }
	if tr := r[0] + r[4] + r[8]; tr > 0 {
		s := math.Sqrt(tr + 1)
		w = s * 0.5
		s = 0.5 / s
		return (at(2, 1) - at(1, 2)) * s, (at(0, 2) - at(2, 0)) * s, (at(1, 0) - at(0, 1)) * s, w
	}
	i := 0
	if r[0] < r[4] {
		i = 1
		if r[4] < r[8] {
			i = 2
		}
	} else if r[0] < r[8] {
		i = 2
	}
	j, k := (i+1)%3, (i+2)%3
	var q [4]float64
	s := math.Sqrt(at(i, i) - at(j, j) - at(k, k) + 1)
	q[i] = s * 0.5
	s = 0.5 / s
	q[3] = (at(k, j) - at(j, k)) * s
	q[j] = (at(j, i) + at(i, j)) * s
	q[k] = (at(k, i) + at(i, k)) * s
	return q[0], q[1], q[2], q[3]
}

// skinRoots: SKIN_NO_COMMON_ROOT and SKIN_SKELETON_INVALID.
func (l *links) skinRoots() {
	n := len(l.doc.Nodes)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
	}
	for i, nd := range l.doc.Nodes {
		for _, c := range nd.Children {
			if c >= 0 && c < n && parent[c] < 0 && c != i {
				parent[c] = i
			}
		}
	}
	// Each joint's ancestors are stamped with the joint's turn; the common
	// roots are those every turn stamped. The walks share a budget, so a
	// hostile file (a long chain, many joints) costs a bounded time: past
	// it the remaining skins are not checked.
	stamp := make([]int, n)
	turn := 0
	budget := hostileBudget
	for si, s := range l.doc.Skins {
		// Unresolved joints (UNRESOLVED_REFERENCE) take no part; a skin
		// none of whose joints resolves has no common root.
		var common []int
		ok, first := true, true
		for _, j := range s.Joints {
			if j < 0 || j >= n {
				continue
			}
			if budget <= 0 {
				ok = false
				break
			}
			turn++
			for a, steps := j, 0; a >= 0 && steps <= n; a, steps = parent[a], steps+1 {
				stamp[a] = turn
				if first {
					common = append(common, a)
				}
				budget--
			}
			if !first {
				common = slices.DeleteFunc(common, func(a int) bool { return stamp[a] != turn })
			}
			first = false
		}
		if !ok {
			continue
		}
		p := fmt.Sprintf("/skins/%d", si)
		if len(s.Joints) == 0 {
			// No joints (EMPTY_ENTITY): no common root to check, and none
			// a skeleton could be (skin.dart link).
			if s.Skeleton != nil && *s.Skeleton >= 0 && *s.Skeleton < n {
				l.fs.addc(Error, "SKIN_SKELETON_INVALID", p+"/skeleton", "skeleton node %d is not a common root: the skin has no joints", *s.Skeleton)
			}
			continue
		}
		if len(common) == 0 {
			l.fs.addc(Error, "SKIN_NO_COMMON_ROOT", p+"/joints", "the joints do not have a common root")
		}
		if s.Skeleton != nil && *s.Skeleton >= 0 && *s.Skeleton < n && !slices.Contains(common, *s.Skeleton) {
			l.fs.addc(Error, "SKIN_SKELETON_INVALID", p+"/skeleton", "skeleton node %d is not a common root of the joints", *s.Skeleton)
		}
	}
}

// primitiveRules: MESH_PRIMITIVE_INCOMPATIBLE_MODE, UNUSED_MESH_TANGENT,
// MESH_PRIMITIVE_GENERATED_TANGENT_SPACE,
// UNUSED_MESH_WEIGHTS and ANIMATION_CHANNEL_TARGET_NODE_SKIN.
func (l *links) primitiveRules() {
	usage := map[int]string{}
	use := func(ai int, how, p string) {
		if ai < 0 || ai >= len(l.doc.Accessors) {
			return
		}
		if first, ok := usage[ai]; ok && first != how {
			l.fs.addc(Error, "ACCESSOR_USAGE_OVERRIDE", p, "accessor %d was first used as %s, now as %s", ai, first, how)
			return
		}
		usage[ai] = how
	}
	// In the Khronos validator's order (gltf.dart links meshes, then
	// skins, then animations; a primitive's attributes, indices, then
	// morph targets): the later use is the override.
	for mi, m := range l.doc.Meshes {
		for pi, pr := range m.Primitives {
			pp := fmt.Sprintf("/meshes/%d/primitives/%d", mi, pi)
			for _, sem := range sortedAttrKeys(pr.Attributes) {
				use(pr.Attributes[sem], "vertex attribute", pp+"/attributes/"+jsonPointerEscape(sem))
			}
			if pr.Indices != nil {
				use(*pr.Indices, "indices", pp+"/indices")
			}
			for ti, t := range l.targets(mi, pi) {
				for _, sem := range sortedAttrKeys(t) {
					use(t[sem], "vertex attribute", fmt.Sprintf("%s/targets/%d/%s", pp, ti, jsonPointerEscape(sem)))
				}
			}
		}
	}
	for si, s := range l.doc.Skins {
		if s.InverseBindMatrices != nil {
			use(*s.InverseBindMatrices, "inverse bind matrices", fmt.Sprintf("/skins/%d/inverseBindMatrices", si))
		}
	}
	// An accessor is an animation input or an output, not both (the
	// input's keyframe times are not the output's values).
	for ai, an := range l.doc.Animations {
		for si, sm := range an.Samplers {
			sp := fmt.Sprintf("/animations/%d/samplers/%d", ai, si)
			use(sm.Input, "animation input", sp+"/input")
			use(sm.Output, "animation output", sp+"/output")
		}
	}
	for mi, m := range l.doc.Meshes {
		for pi, pr := range m.Primitives {
			pp := fmt.Sprintf("/meshes/%d/primitives/%d", mi, pi)
			count := -1
			if pr.Indices != nil && *pr.Indices >= 0 && *pr.Indices < len(l.doc.Accessors) {
				count = l.doc.Accessors[*pr.Indices].Count
			} else if a, ok := pr.Attributes["POSITION"]; ok && a >= 0 && a < len(l.doc.Accessors) {
				count = l.doc.Accessors[a].Count
			}
			// A count below 1 is the accessor's VALUE_NOT_IN_RANGE; the
			// validator reads it as unknown and checks no mode with it.
			if count >= 1 && !modeFits(pr.Mode, count) {
				l.fs.addc(Warning, "MESH_PRIMITIVE_INCOMPATIBLE_MODE", pp, "%d vertices or indices do not fit drawing mode %s", count, modeNames[pr.Mode])
			}
			_, hasTangent := pr.Attributes["TANGENT"]
			_, hasNormal := pr.Attributes["NORMAL"]
			var mat map[string]any
			if pr.Material != nil {
				mat = l.rawObj("materials", *pr.Material)
			}
			_, normalTex := mat["normalTexture"]
			usedTC := materialTexCoords(mat)
			// The materials KHR_materials_variants maps to this primitive
			// read its texture coordinates too.
			for _, vm := range l.variantMaterials(mi, pi) {
				for tc := range materialTexCoords(l.rawObj("materials", vm)) {
					usedTC[tc] = true
				}
			}
			for k := 0; ; k++ {
				sem := fmt.Sprintf("TEXCOORD_%d", k)
				if _, ok := pr.Attributes[sem]; !ok {
					break
				}
				if !usedTC[k] {
					l.fs.addc(Info, "UNUSED_OBJECT", pp+"/attributes/"+sem, "no texture of the material reads %s", sem)
				}
			}
			if hasTangent && !needsTangent(mat) {
				l.fs.addc(Info, "UNUSED_MESH_TANGENT", pp+"/attributes/TANGENT", "tangents are not used: the material has no normal texture")
			}
			// A tangent space needs both NORMAL and TANGENT; without them
			// a renderer generates one from the normal map (MikkTSpace),
			// which may differ between implementations. Without a normal
			// map it cannot: MESH_PRIMITIVE_NO_TANGENT_SPACE (links).
			if !(hasTangent && hasNormal) && normalTex && needsTangent(mat) {
				l.fs.addc(Warning, "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE", pp+"/material", "the material needs a tangent space the primitive does not give; a generated one may differ between implementations")
			}
		}
		if len(m.Weights) > 0 {
			users, override := 0, 0
			for _, n := range l.doc.Nodes {
				if n.Mesh != nil && *n.Mesh == mi {
					users++
					if len(n.Weights) > 0 {
						override++
					}
				}
			}
			if users > 0 && users == override {
				l.fs.addc(Info, "UNUSED_MESH_WEIGHTS", fmt.Sprintf("/meshes/%d/weights", mi), "every node using the mesh sets its own weights")
			}
		}
	}
	for ai, an := range l.doc.Animations {
		for ci, ch := range an.Channels {
			if ch.Target.Node == nil || *ch.Target.Node < 0 || *ch.Target.Node >= len(l.doc.Nodes) || ch.Target.Path == gltf.TRSWeights {
				continue
			}
			if nd := l.doc.Nodes[*ch.Target.Node]; nd.Skin != nil && nd.Mesh != nil {
				l.fs.addc(Warning, "ANIMATION_CHANNEL_TARGET_NODE_SKIN", fmt.Sprintf("/animations/%d/channels/%d/target/path", ai, ci), "animated TRS properties do not affect a skinned mesh")
			}
		}
	}
}

// materialTexCoords returns the texture coordinate sets a material's
// texture infos read, its extensions' included.
func materialTexCoords(mat map[string]any) map[int]bool {
	out := map[int]bool{}
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch v := v.(type) {
		case map[string]any:
			if strings.HasSuffix(key, "Texture") {
				for _, tc := range textureTexCoords(v) {
					out[tc] = true
				}
			}
			for k, c := range v {
				walk(c, k)
			}
		case []any:
			for _, c := range v {
				walk(c, key)
			}
		}
	}
	walk(mat, "")
	return out
}

// variantMaterials returns the materials the KHR_materials_variants
// mappings of primitive pi of mesh mi name, when the root variants list
// they refer to exists.
func (l *links) variantMaterials(mi, pi int) []int {
	if _, ok := asMap(asMap(l.sc.root["extensions"])["KHR_materials_variants"])["variants"]; !ok {
		return nil
	}
	prims, _ := asMap(l.rawObj("meshes", mi))["primitives"].([]any)
	if pi < 0 || pi >= len(prims) {
		return nil
	}
	ext := asMap(asMap(asMap(prims[pi])["extensions"])["KHR_materials_variants"])
	var out []int
	for _, m := range asAnySlice(ext["mappings"]) {
		if f, ok, _ := numberValue(asMap(m)["material"]); ok && f >= 0 && f < float64(len(l.doc.Materials)) && f == float64(int(f)) {
			out = append(out, int(f))
		}
	}
	return out
}

// clearcoatNormal reports whether a material has a clearcoat normal texture
// (which, like the normal texture, reads the tangents).
// needsTangent reports whether a material samples a texture in tangent
// space: a normal, clearcoat normal or anisotropy texture (an anisotropy
// strength alone is along the tangent too, but Khronos counts the textures).
func needsTangent(mat map[string]any) bool {
	if _, ok := mat["normalTexture"]; ok {
		return true
	}
	exts, _ := mat["extensions"].(map[string]any)
	cc, _ := exts["KHR_materials_clearcoat"].(map[string]any)
	if _, ok := cc["clearcoatNormalTexture"]; ok {
		return true
	}
	an, _ := exts["KHR_materials_anisotropy"].(map[string]any)
	_, anisoTex := an["anisotropyTexture"]
	return anisoTex
}

// modeNames are the drawing modes' glTF names (qmuntal/gltf numbers them
// its own way: triangles is its zero value).
var modeNames = map[gltf.PrimitiveMode]string{
	gltf.PrimitivePoints: "POINTS", gltf.PrimitiveLines: "LINES", gltf.PrimitiveLineLoop: "LINE_LOOP",
	gltf.PrimitiveLineStrip: "LINE_STRIP", gltf.PrimitiveTriangles: "TRIANGLES",
	gltf.PrimitiveTriangleStrip: "TRIANGLE_STRIP", gltf.PrimitiveTriangleFan: "TRIANGLE_FAN",
}

// modeFits reports whether count vertices or indices make whole primitives
// of the drawing mode.
func modeFits(mode gltf.PrimitiveMode, count int) bool {
	switch mode {
	case gltf.PrimitivePoints:
		return count > 0
	case gltf.PrimitiveLines:
		return count > 0 && count%2 == 0
	case gltf.PrimitiveLineLoop, gltf.PrimitiveLineStrip:
		return count >= 2
	case gltf.PrimitiveTriangles:
		return count > 0 && count%3 == 0
	case gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
		return count >= 3
	}
	return true
}

// materialRules: the KHR_materials_* combination rules, MULTIPLE_EXTENSIONS
// and TEXTURE_INVALID_IMAGE_MIME_TYPE.
func (l *links) materialRules() {
	mats, _ := l.sc.root["materials"].([]any)
	for i, v := range mats {
		m, _ := v.(map[string]any)
		exts, _ := m["extensions"].(map[string]any)
		if len(exts) == 0 {
			continue
		}
		p := fmt.Sprintf("/materials/%d/extensions/", i)
		if es, ok := exts["KHR_materials_emissive_strength"].(map[string]any); ok {
			// Only a valid strength that is set can be without effect.
			strength, set, _ := numberValue(es["emissiveStrength"])
			zero := set && strength >= 0
			if ef, ok := m["emissiveFactor"].([]any); ok {
				for _, x := range ef {
					if f, _, _ := numberValue(x); f != 0 {
						zero = false
					}
				}
			}
			if zero {
				l.fs.addc(Warning, "KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR", p+"KHR_materials_emissive_strength", "emissive strength has no effect when the emissive factor is zero or undefined")
			}
		}
		if vol, ok := exts["KHR_materials_volume"].(map[string]any); ok {
			// Transmission, or an extension corecheck does not know (which
			// may transmit light).
			transmits := false
			for k := range exts {
				_, known := extensionKinds[k]
				transmits = transmits || k == "KHR_materials_transmission" || k == "KHR_materials_diffuse_transmission" || !known
			}
			if !transmits {
				l.fs.addc(Warning, "KHR_MATERIALS_VOLUME_NO_TRANSMISSION", p+"KHR_materials_volume", "the volume extension needs an extension that lets light through the surface")
			}
			// A thickness of 0 (the default) is a thin-walled surface, which
			// may be double-sided; a volume has an inside and an outside.
			thickness, _, _ := numberValue(vol["thicknessFactor"])
			if ds, _ := m["doubleSided"].(bool); ds && thickness > 0 {
				l.fs.addc(Warning, "KHR_MATERIALS_VOLUME_DOUBLE_SIDED", p+"KHR_materials_volume", "the volume extension should not be used with a double-sided material")
			}
		}
		if _, ok := exts["KHR_materials_dispersion"].(map[string]any); ok {
			if _, vol := exts["KHR_materials_volume"]; !vol {
				l.fs.addc(Warning, "KHR_MATERIALS_DISPERSION_NO_VOLUME", p+"KHR_materials_dispersion", "the dispersion extension needs the volume extension")
			}
		}
		if ir, ok := exts["KHR_materials_iridescence"].(map[string]any); ok {
			_, tex := ir["iridescenceThicknessTexture"]
			lo, hasLo := ir["iridescenceThicknessMinimum"]
			loF := 100.0
			if hasLo {
				loF, _, _ = numberValue(lo)
			}
			hiF := 400.0
			if hi, ok := ir["iridescenceThicknessMaximum"]; ok {
				hiF, _, _ = numberValue(hi)
			}
			if hasLo && !tex {
				l.fs.addc(Info, "KHR_MATERIALS_IRIDESCENCE_THICKNESS_RANGE_WITHOUT_TEXTURE", p+"KHR_materials_iridescence/iridescenceThicknessMinimum", "the thickness minimum has no effect without a thickness texture")
			}
			if tex && loF == hiF {
				l.fs.addc(Info, "KHR_MATERIALS_IRIDESCENCE_THICKNESS_TEXTURE_UNUSED", p+"KHR_materials_iridescence/iridescenceThicknessTexture", "the thickness texture has no effect when minimum and maximum are equal")
			}
		}
		normalTC, hasNormal := texCoord(m["normalTexture"])
		if an, ok := exts["KHR_materials_anisotropy"].(map[string]any); ok && hasNormal {
			if tc, has := texCoord(an["anisotropyTexture"]); has && tc != normalTC {
				l.fs.addc(Warning, "KHR_MATERIALS_ANISOTROPY_ANISOTROPY_TEXTURE_TEXCOORD", p+"KHR_materials_anisotropy/anisotropyTexture", "the normal and anisotropy textures should use the same texture coordinates")
			}
		}
		if cc, ok := exts["KHR_materials_clearcoat"].(map[string]any); ok && hasNormal {
			if tc, has := texCoord(cc["clearcoatNormalTexture"]); has && tc != normalTC {
				l.fs.addc(Warning, "KHR_MATERIALS_CLEARCOAT_CLEARCOAT_NORMAL_TEXTURE_TEXCOORD", p+"KHR_materials_clearcoat/clearcoatNormalTexture", "the normal and clearcoat normal textures should use the same texture coordinates")
			}
		}
		// A standalone extension (one that replaces the material model)
		// beside any other extension object: reported at the standalone
		// one, when it is declared (glTF-Validator reads only declared
		// extensions; an undeclared one is reported as such).
		for _, solo := range []string{"KHR_materials_unlit", "KHR_materials_pbrSpecularGlossiness"} {
			if _, ok := exts[solo]; ok && len(exts) > 1 && l.used[solo] {
				l.fs.addc(Warning, "MULTIPLE_EXTENSIONS", p+solo, "%s may be incompatible with the other extensions of this material", solo)
			}
		}
	}
	texs, _ := l.sc.root["textures"].([]any)
	for i, v := range texs {
		t, _ := v.(map[string]any)
		src, ok := t["source"]
		if !ok {
			continue
		}
		si, _, _ := numberValue(src)
		if int(si) < 0 || int(si) >= len(l.doc.Images) {
			continue
		}
		mt := imageMime(l.doc, int(si))
		if mt != "" && mt != "image/png" && mt != "image/jpeg" {
			l.fs.addc(Error, "TEXTURE_INVALID_IMAGE_MIME_TYPE", fmt.Sprintf("/textures/%d/source", i), "invalid MIME type %q for a texture source: image/png or image/jpeg (others through an extension)", mt)
		}
	}
	// EXT_texture_webp's source must be a WebP image (the extension's
	// specification: "the image ... MUST be image/webp").
	for i, v := range texs {
		t, _ := v.(map[string]any)
		w, _ := asMap(t["extensions"])["EXT_texture_webp"].(map[string]any)
		src, ok := w["source"]
		if !ok {
			continue
		}
		si, _, _ := numberValue(src)
		if int(si) < 0 || int(si) >= len(l.doc.Images) {
			continue
		}
		if mt := imageMime(l.doc, int(si)); mt != "" && mt != "image/webp" {
			l.fs.addc(Error, "TEXTURE_INVALID_IMAGE_MIME_TYPE", fmt.Sprintf("/textures/%d/extensions/EXT_texture_webp/source", i), "invalid MIME type %q for an EXT_texture_webp source: image/webp", mt)
		}
	}
}

// imageMime is image i's MIME type: its mimeType, else what its URI says
// (a data URI's media type, a file name's extension).
func imageMime(doc *gltf.Document, i int) string {
	if mt := doc.Images[i].MimeType; mt != "" {
		return mt
	}
	return sniffMime(doc, i)
}

// sniffMime names the format of image i from its URI's file extension, or
// "" when it cannot tell.
func sniffMime(doc *gltf.Document, i int) string {
	uri := strings.ToLower(doc.Images[i].URI)
	if strings.HasPrefix(uri, "data:") {
		mt, _, _ := strings.Cut(strings.TrimPrefix(uri, "data:"), ";")
		return mt
	}
	switch {
	case strings.HasSuffix(uri, ".png"):
		return "image/png"
	case strings.HasSuffix(uri, ".jpg"), strings.HasSuffix(uri, ".jpeg"):
		return "image/jpeg"
	case strings.HasSuffix(uri, ".webp"):
		return "image/webp"
	case strings.HasSuffix(uri, ".ktx2"):
		return "image/ktx2"
	}
	return ""
}

// texCoord reads textureInfo.texCoord (default 0); has is false when v is
// not a texture info.
func texCoord(v any) (tc int, has bool) {
	t, ok := v.(map[string]any)
	if !ok {
		return 0, false
	}
	if n, ok := t["texCoord"]; ok {
		f, _, _ := numberValue(n)
		return int(f), true
	}
	return 0, true
}

// unusedObjects: UNUSED_OBJECT for accessors, buffer views, cameras,
// images, materials, meshes, nodes, samplers, skins and textures that
// nothing refers to. A reference from any extension object counts: an
// index property named after the collection ("mesh", "material",
// "source"...) anywhere under "extensions".
func (l *links) unusedObjects() {
	doc := l.doc
	used := map[string]map[int]bool{}
	mark := func(coll string, i int) {
		if used[coll] == nil {
			used[coll] = map[int]bool{}
		}
		used[coll][i] = true
	}
	markp := func(coll string, i *int) {
		if i != nil {
			mark(coll, *i)
		}
	}
	// A scene's root nodes, and every node another node lists as a child,
	// whether or not that parent is in a scene (glTF-Validator marks a
	// node used when a reference to it resolves).
	for _, s := range doc.Scenes {
		for _, n := range s.Nodes {
			mark("nodes", n)
		}
	}
	for _, n := range doc.Nodes {
		for _, c := range n.Children {
			mark("nodes", c)
		}
	}
	for _, s := range doc.Skins {
		for _, j := range s.Joints {
			mark("nodes", j)
		}
		// The skeleton only names the root the joints hang from; it does
		// not use the node (Khronos does not count it).
		markp("accessors", s.InverseBindMatrices)
	}
	for _, an := range doc.Animations {
		for _, ch := range an.Channels {
			markp("nodes", ch.Target.Node)
		}
		for _, sm := range an.Samplers {
			mark("accessors", sm.Input)
			mark("accessors", sm.Output)
		}
	}
	for _, n := range doc.Nodes {
		markp("meshes", n.Mesh)
		markp("cameras", n.Camera)
		markp("skins", n.Skin)
	}
	for mi, m := range doc.Meshes {
		for pi, pr := range m.Primitives {
			for _, a := range pr.Attributes {
				mark("accessors", a)
			}
			markp("accessors", pr.Indices)
			markp("materials", pr.Material)
			for _, t := range l.targets(mi, pi) {
				for _, a := range t {
					mark("accessors", a)
				}
			}
		}
	}
	for _, a := range doc.Accessors {
		markp("bufferViews", a.BufferView)
		if sp := a.Sparse; sp != nil {
			mark("bufferViews", sp.Indices.BufferView)
			mark("bufferViews", sp.Values.BufferView)
		}
	}
	for _, im := range doc.Images {
		markp("bufferViews", im.BufferView)
	}
	for _, bv := range doc.BufferViews {
		mark("buffers", bv.Buffer)
	}
	for _, t := range doc.Textures {
		markp("images", t.Source)
		markp("samplers", t.Sampler)
	}
	// Texture infos in materials, and indices inside extension objects.
	// A primitive's variant mappings are read only with the root variants
	// list they index (glTF-Validator links them only then).
	_, rootVariants := asMap(asMap(l.sc.root["extensions"])["KHR_materials_variants"])["variants"]
	var scan func(v any, inExt bool, key string)
	scan = func(v any, inExt bool, key string) {
		switch v := v.(type) {
		case map[string]any:
			if inExt && key == "KHR_materials_variants" && !rootVariants {
				return
			}
			if strings.HasSuffix(key, "Texture") || key == "texture" {
				if n, ok := v["index"]; ok {
					f, _, _ := numberValue(n)
					mark("textures", int(f))
				}
			}
			for k, c := range v {
				// An undeclared extension is not read (UNDECLARED_EXTENSION
				// is all it gets), so nothing it names is used.
				if key == "extensions" && !l.used[k] {
					continue
				}
				ext := inExt || k == "extensions"
				if ext && k != "extensions" {
					if coll := refCollection[k]; coll != "" {
						if f, ok, _ := numberValue(c); ok {
							mark(coll, int(f))
						}
					}
				}
				scan(c, ext, k)
			}
		case []any:
			for _, c := range v {
				if inExt {
					if coll := refCollection[key]; coll != "" {
						if f, ok, _ := numberValue(c); ok {
							mark(coll, int(f))
						}
					}
				}
				scan(c, inExt, key)
			}
		}
	}
	scan(l.sc.root, false, "")
	// Animation samplers no channel of their animation uses.
	for ai, an := range doc.Animations {
		usedSampler := map[int]bool{}
		for ci, ch := range an.Channels {
			// A channel without a sampler (UNDEFINED_PROPERTY) uses none;
			// the typed document reads it as sampler 0.
			if _, ok := asMap(l.rawChannelObj(ai, ci))["sampler"]; ok {
				usedSampler[ch.Sampler] = true
			}
		}
		for si := range an.Samplers {
			if !usedSampler[si] {
				l.fs.addc(Info, "UNUSED_OBJECT", fmt.Sprintf("/animations/%d/samplers/%d", ai, si), "no channel uses this sampler")
			}
		}
	}
	// KHR_materials_variants variants no primitive maps.
	if variants, ok := asMap(asMap(l.sc.root["extensions"])["KHR_materials_variants"])["variants"].([]any); ok {
		usedVariant := map[int]bool{}
		for _, m := range asAnySlice(l.sc.root["meshes"]) {
			for _, pr := range asAnySlice(asMap(m)["primitives"]) {
				for _, mp := range asAnySlice(asMap(asMap(asMap(pr)["extensions"])["KHR_materials_variants"])["mappings"]) {
					for _, v := range asAnySlice(asMap(mp)["variants"]) {
						f, _, _ := numberValue(v)
						usedVariant[int(f)] = true
					}
				}
			}
		}
		for i := range variants {
			if !usedVariant[i] {
				l.fs.addc(Info, "UNUSED_OBJECT", fmt.Sprintf("/extensions/KHR_materials_variants/variants/%d", i), "no primitive maps a material to this variant")
			}
		}
	}
	// KHR_lights_punctual lights are used by nodes' {"light": i}.
	if lights, ok := asMap(asMap(l.sc.root["extensions"])["KHR_lights_punctual"])["lights"].([]any); ok {
		usedLight := map[int]bool{}
		for _, n := range asAnySlice(l.sc.root["nodes"]) {
			if lt, ok := asMap(asMap(asMap(n)["extensions"])["KHR_lights_punctual"])["light"]; ok {
				f, _, _ := numberValue(lt)
				usedLight[int(f)] = true
			}
		}
		for i := range lights {
			if !usedLight[i] {
				l.fs.addc(Info, "UNUSED_OBJECT", fmt.Sprintf("/extensions/KHR_lights_punctual/lights/%d", i), "no node uses this light")
			}
		}
	}
	for _, coll := range []string{"accessors", "buffers", "bufferViews", "cameras", "images", "materials", "meshes", "nodes", "samplers", "skins", "textures"} {
		items, _ := l.sc.root[coll].([]any)
		if coll == "nodes" && len(doc.Scenes) == 0 {
			// Khronos flags every node when there is no scene at all.
		}
		for i := range items {
			if !used[coll][i] {
				l.fs.addc(Info, "UNUSED_OBJECT", fmt.Sprintf("/%s/%d", coll, i), "this object may be unused")
			}
		}
	}
}

func asAnySlice(v any) []any {
	a, _ := v.([]any)
	return a
}

// refCollection maps property names that extensions use for indices to the
// root collection they index.
var refCollection = map[string]string{
	"mesh": "meshes", "material": "materials", "source": "images", "node": "nodes", "nodes": "nodes",
	"accessor": "accessors", "bufferView": "bufferViews", "camera": "cameras", "sampler": "samplers",
	"skin": "skins", "texture": "textures", "connectedNode": "nodes", "buffer": "buffers",
	"TRANSLATION": "accessors", "ROTATION": "accessors", "SCALE": "accessors",
}

// checkMoreData checks accessor contents the Khronos validator checks by
// semantic: unit normals and tangents (ACCESSOR_VECTOR3_NON_UNIT), the
// tangent sign (ACCESSOR_INVALID_SIGN), inverse bind matrices
// (ACCESSOR_INVALID_IBM), degenerate triangles and the joints and weights
// of each vertex taken together (ACCESSOR_JOINTS_USED_ZERO_WEIGHT,
// ACCESSOR_WEIGHTS_NON_NORMALIZED with its tolerance).
func checkMoreData(doc *gltf.Document, fs *findings) {
	done := map[int]bool{}
	// skinned is each skinned mesh's smallest joint count over the skins
	// drawing it: a joint index past it has no joint.
	skinned := map[int]int{}
	for _, n := range doc.Nodes {
		if n.Mesh != nil && n.Skin != nil && *n.Skin >= 0 && *n.Skin < len(doc.Skins) && len(doc.Skins[*n.Skin].Joints) > 0 {
			j := len(doc.Skins[*n.Skin].Joints)
			if prev, ok := skinned[*n.Mesh]; !ok || j < prev {
				skinned[*n.Mesh] = j
			}
		}
	}
	for mi, m := range doc.Meshes {
		for pi, pr := range m.Primitives {
			for _, sem := range []string{"NORMAL", "TANGENT"} {
				ai, ok := pr.Attributes[sem]
				if !ok || done[ai] {
					continue
				}
				done[ai] = true
				if v := dataView(doc, ai); v != nil && v.comps >= 3 {
					checkUnitVectors(v, fmt.Sprintf("/meshes/%d/primitives/%d/attributes/%s", mi, pi, sem), sem == "TANGENT", fs)
				}
			}
			if pr.Indices != nil && pr.Mode == gltf.PrimitiveTriangles {
				if v := dataView(doc, *pr.Indices); v != nil && v.comps == 1 {
					checkDegenerate(v, fmt.Sprintf("/meshes/%d/primitives/%d/indices", mi, pi), fs)
				}
			}
			if joints, ok := skinned[mi]; ok {
				checkInfluences(doc, pr, fmt.Sprintf("/meshes/%d/primitives/%d/attributes", mi, pi), joints, fs)
			}
		}
	}
	for si, s := range doc.Skins {
		if s.InverseBindMatrices == nil || done[*s.InverseBindMatrices] {
			continue
		}
		done[*s.InverseBindMatrices] = true
		if v := dataView(doc, *s.InverseBindMatrices); v != nil && v.comps == 16 {
			p := fmt.Sprintf("/skins/%d/inverseBindMatrices", si)
		ibm:
			for e := 0; e < v.a.Count; e++ {
				for c, want := range map[int]float64{3: 0, 7: 0, 11: 0, 15: 1} {
					if x := v.raw(e, c); x != want {
						fs.addc(Error, "ACCESSOR_INVALID_IBM", p, "matrix element at index %d (component %d) is %g; the last row of an inverse bind matrix is 0 0 0 1", e*16+c, c, x)
						break ibm
					}
				}
			}
		}
	}
}

func checkUnitVectors(v *accessorView, p string, tangent bool, fs *findings) {
	badLen, badSign := false, false
	for e := 0; e < v.a.Count && !(badLen && badSign); e++ {
		x, y, z := v.value(e, 0), v.value(e, 1), v.value(e, 2)
		l := math.Sqrt(x*x + y*y + z*z)
		if !badLen && math.Abs(l-1) > UnitLengthThresholdVec3 {
			fs.addc(Error, "ACCESSOR_VECTOR3_NON_UNIT", p, "vector3 at element %d is not of unit length: %g", e, l)
			badLen = true
		}
		if tangent && v.comps == 4 && !badSign {
			if w := v.value(e, 3); w != 1 && w != -1 {
				fs.addc(Error, "ACCESSOR_INVALID_SIGN", p, "tangent %d has w %g; must be 1 or -1", e, w)
				badSign = true
			}
		}
	}
}

func checkDegenerate(v *accessorView, p string, fs *findings) {
	tris := v.a.Count / 3
	degen := 0
	for t := 0; t < tris; t++ {
		a, b, c := v.raw(3*t, 0), v.raw(3*t+1, 0), v.raw(3*t+2, 0)
		if a == b || b == c || a == c {
			degen++
		}
	}
	if degen > 0 {
		fs.addc(Info, "ACCESSOR_INDEX_TRIANGLE_DEGENERATE", p, "the indices hold %d degenerate triangles (of %d)", degen, tris)
	}
}

// checkInfluences walks a primitive's JOINTS_n and WEIGHTS_n together, as
// the Khronos validator does: a joint with weight 0 must be 0, a joint with
// a non-zero weight must not repeat in the vertex, and the
// weights of the unique joints of a vertex sum to 1 within
// WeightSumThresholdPerWeight per weight. A joint index past the skin's
// joints (ACCESSOR_JOINTS_INDEX_OOB) adds no weight.
func checkInfluences(doc *gltf.Document, pr *gltf.Primitive, ap string, jointCount int, fs *findings) {
	var joints, weights []*accessorView
	for k := 0; ; k++ {
		ja, jok := pr.Attributes[fmt.Sprintf("JOINTS_%d", k)]
		wa, wok := pr.Attributes[fmt.Sprintf("WEIGHTS_%d", k)]
		if !jok || !wok {
			break
		}
		jv, wv := dataView(doc, ja), dataView(doc, wa)
		if jv == nil || wv == nil || jv.comps != 4 || wv.comps != 4 || jv.a.Count != wv.a.Count {
			return
		}
		if len(joints) > 0 && jv.a.Count != joints[0].a.Count {
			return
		}
		joints, weights = append(joints, jv), append(weights, wv)
	}
	if len(joints) == 0 {
		return
	}
	zero, sum, dup := false, false, false
	var seen []float64
	for e := 0; e < joints[0].a.Count && !(zero && sum); e++ {
		total := float32(0)
		added := 0
		seen = seen[:0]
		for k := range joints {
			for c := 0; c < 4; c++ {
				j, w := joints[k].raw(e, c), weights[k].value(e, c)
				if j >= float64(jointCount) {
					continue
				}
				if w == 0 {
					if j != 0 && !zero {
						fs.addc(Warning, "ACCESSOR_JOINTS_USED_ZERO_WEIGHT", fmt.Sprintf("%s/JOINTS_%d", ap, k), "joint element %d (component %d) is used with weight 0 but is %d, not 0", e*4+c, c, int64(j))
						zero = true
					}
					continue
				}
				if slices.Contains(seen, j) {
					if !dup {
						fs.addc(Error, "ACCESSOR_JOINTS_INDEX_DUPLICATE", fmt.Sprintf("%s/JOINTS_%d", ap, k), "joint element %d (component %d) repeats joint %d of the same vertex, with a non-zero weight", e*4+c, c, int64(j))
						dup = true
					}
					continue
				}
				seen = append(seen, j)
				if w > 0 {
					total += float32(w)
					added++
				}
			}
		}
		threshold := WeightSumThresholdPerWeight * float64(added)
		if math.Abs(float64(total)-1) > threshold && !sum {
			// Reported on every WEIGHTS_n set of the vertex.
			for k := range weights {
				fs.addc(Error, "ACCESSOR_WEIGHTS_NON_NORMALIZED", fmt.Sprintf("%s/WEIGHTS_%d", ap, k), "the weights of vertex %d sum to %g, not 1", e, total)
			}
			sum = true
		}
	}
}

// textureTexCoords are the texture coordinate sets a texture info names:
// its texCoord (default 0) and its KHR_texture_transform's texCoord when it
// sets one. The transform's overrides the other when drawing, but Khronos
// requires both sets to exist (and counts both as used).
func textureTexCoords(t map[string]any) []int {
	tc, _ := texCoord(t)
	out := []int{tc}
	if tt, ok := asMap(asMap(t["extensions"])["KHR_texture_transform"])["texCoord"]; ok {
		f, _, _ := numberValue(tt)
		out = append(out, int(f))
	}
	return out
}
