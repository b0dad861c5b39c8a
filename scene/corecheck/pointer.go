package corecheck

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/qmuntal/gltf"
)

// pointerSyntax is a JSON pointer (RFC 6901): "/"-separated tokens, "~"
// only as ~0 or ~1.
var pointerSyntax = regexp.MustCompile(`^(?:/(?:[^/~]|~0|~1)*)*$`)

// pointerKind is what a KHR_animation_pointer pointer names: nothing
// (invalid), something the validator cannot judge (an extension it does
// not model, an extras value), or an animatable property of a given type.
type pointerKind int

const (
	ptrInvalid pointerKind = iota
	ptrUnknown
	ptrExtra
	ptrAny // a property of a modelled extension: exists, type not checked
	ptrBool
	ptrScalar
	ptrScalarArray
	ptrVec2
	ptrVec3
	ptrVec4
)

// checkAnimationPointer checks the pointer of a KHR_animation_pointer
// object on the target of channel ci of animation ai (at path p): it must
// name a property of the glTF Object Model that the document defines (or
// that has a default), and the channel's output accessor must fit its
// type (KHR_animation_pointer: "the output accessor ... MUST" match the
// property's type; int and bool properties MUST use STEP interpolation).
func (l *links) checkAnimationPointer(ai, ci int, ptr, p string) {
	if ai < 0 || ai >= len(l.doc.Animations) || ci < 0 || ci >= len(l.doc.Animations[ai].Channels) {
		return
	}
	an := l.doc.Animations[ai]
	si := an.Channels[ci].Sampler
	if si < 0 || si >= len(an.Samplers) {
		return // UNRESOLVED_REFERENCE of the channel's sampler
	}
	sm := an.Samplers[si]
	out := l.acc(sm.Output)
	if out == nil {
		return
	}
	typeMismatch := func(want gltf.AccessorType) {
		if out.Type != want {
			l.fs.addc(Error, "KHR_ANIMATION_POINTER_VECTOR_SIZE_MISMATCH", p, "the property %s is %s; the output accessor is %s", ptr, want, out.Type)
		}
	}
	switch l.pointerTarget(strings.Split(ptr, "/")) {
	case ptrInvalid:
		l.fs.addc(Error, "KHR_ANIMATION_POINTER_INVALID_POINTER", p, "the pointer %q does not name a property the document defines (or one with a default)", ptr)
	case ptrUnknown:
		l.fs.addc(Info, "INCOMPLETE_EXTENSION_SUPPORT", p, "the pointer %q names a property of an extension the validator does not model", ptr)
	case ptrExtra:
		l.fs.addc(Info, "KHR_ANIMATION_POINTER_CANNOT_VALIDATE_EXTRAS", p, "the pointer %q names an extras value; what animates it is up to the application", ptr)
	case ptrBool:
		if out.ComponentType != gltf.ComponentUbyte || out.Normalized {
			l.fs.addc(Error, "KHR_ANIMATION_POINTER_COMPONENT_TYPE_MISMATCH", p, "the property %s is a bool: the output accessor must be unsigned bytes, it is %s", ptr, out.ComponentType)
		}
		typeMismatch(gltf.AccessorScalar)
		if sm.Interpolation != gltf.InterpolationStep {
			l.fs.addc(Error, "KHR_ANIMATION_POINTER_INTEGER_NON_STEP_INTERPOLATION", p, "the property %s is a bool: its sampler must use STEP interpolation", ptr)
		}
	case ptrScalar, ptrScalarArray:
		typeMismatch(gltf.AccessorScalar)
	case ptrVec2:
		typeMismatch(gltf.AccessorVec2)
	case ptrVec3:
		typeMismatch(gltf.AccessorVec3)
	case ptrVec4:
		typeMismatch(gltf.AccessorVec4)
	}
}

// pointerTarget resolves a pointer split at "/" against the document (the
// JSON tree, so "defined" means written in the file).
func (l *links) pointerTarget(parts []string) pointerKind {
	root := l.sc.root
	if len(parts) < 3 || parts[0] != "" {
		return ptrInvalid
	}
	if parts[1] == "extensions" || parts[1] == "extras" {
		return extOrExtra(root, parts, 1)
	}
	if len(parts) < 4 {
		return ptrInvalid
	}
	if parts[1] == "asset" {
		return extOrExtra(asMap(root["asset"]), parts, 2)
	}
	obj, ok := element(root[parts[1]], parts[2])
	if !ok {
		return ptrInvalid
	}
	item := parts[3]
	has := func(o map[string]any, k string) bool { _, ok := o[k]; return ok }
	switch parts[1] {
	case "accessors":
		if item == "sparse" && len(parts) > 5 {
			sp, ok := obj["sparse"].(map[string]any)
			if !ok {
				return ptrInvalid
			}
			if sub, ok := sp[parts[4]].(map[string]any); ok && (parts[4] == "indices" || parts[4] == "values") {
				return extOrExtra(sub, parts, 5)
			}
			if parts[4] == "indices" || parts[4] == "values" {
				return ptrInvalid
			}
			return extOrExtra(sp, parts, 4)
		}
	case "animations":
		if len(parts) > 6 && (item == "channels" || item == "samplers") {
			sub, ok := element(obj[item], parts[4])
			if !ok {
				return ptrInvalid
			}
			if item == "channels" && parts[5] == "target" {
				t, ok := sub["target"].(map[string]any)
				if !ok {
					return ptrInvalid
				}
				return extOrExtra(t, parts, 6)
			}
			return extOrExtra(sub, parts, 5)
		}
	case "cameras":
		if len(parts) < 5 {
			return ptrInvalid
		}
		if item == "orthographic" || item == "perspective" {
			proj, ok := obj[item].(map[string]any)
			if !ok {
				return ptrInvalid
			}
			props := []string{"xmag", "ymag", "zfar", "znear"}
			if item == "perspective" {
				props = []string{"aspectRatio", "yfov", "zfar", "znear"}
			}
			// Camera properties have no defaults: only written ones
			// can be animated.
			if slices.Contains(props, parts[4]) && has(proj, parts[4]) {
				return ptrScalar
			}
			return extOrExtra(proj, parts, 4)
		}
	case "materials":
		switch item {
		case "alphaCutoff":
			return ptrScalar
		case "emissiveFactor":
			return ptrVec3
		}
		if len(parts) < 5 {
			return ptrInvalid
		}
		sub := parts[4]
		switch item {
		case "emissiveTexture", "normalTexture", "occlusionTexture":
			t, ok := obj[item].(map[string]any)
			if !ok {
				return ptrInvalid
			}
			if (item == "normalTexture" && sub == "scale") || (item == "occlusionTexture" && sub == "strength") {
				return ptrScalar
			}
			return extOrExtra(t, parts, 4)
		case "pbrMetallicRoughness":
			pbr, ok := obj[item].(map[string]any)
			if !ok {
				return ptrInvalid
			}
			switch sub {
			case "baseColorFactor":
				return ptrVec4
			case "metallicFactor", "roughnessFactor":
				return ptrScalar
			case "baseColorTexture", "metallicRoughnessTexture":
				t, ok := pbr[sub].(map[string]any)
				if !ok {
					return ptrInvalid
				}
				return extOrExtra(t, parts, 5)
			}
			return extOrExtra(pbr, parts, 4)
		}
	case "meshes":
		switch item {
		case "primitives":
			if len(parts) < 7 {
				return ptrInvalid
			}
			prim, ok := element(obj["primitives"], parts[4])
			if !ok {
				return ptrInvalid
			}
			return extOrExtra(prim, parts, 5)
		case "weights":
			return weightsTarget(obj, parts)
		}
	case "nodes":
		if len(parts) == 4 {
			switch item {
			case "translation", "scale":
				return ptrVec3
			case "rotation":
				return ptrVec4
			}
		}
		if item == "weights" {
			return weightsTarget(obj, parts)
		}
	case "buffers", "bufferViews", "images", "samplers", "scenes", "skins", "textures":
	default:
		return ptrInvalid
	}
	return extOrExtra(obj, parts, 3)
}

// element returns element tok (a decimal index) of the JSON array v.
func element(v any, tok string) (map[string]any, bool) {
	a, _ := v.([]any)
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || i >= len(a) {
		return nil, false
	}
	o, ok := a[i].(map[string]any)
	return o, ok
}

// weightsTarget is a mesh's or node's weights array, or one of its
// written elements.
func weightsTarget(obj map[string]any, parts []string) pointerKind {
	switch len(parts) {
	case 4:
		return ptrScalarArray
	case 5:
		w, _ := obj["weights"].([]any)
		i, err := strconv.Atoi(parts[4])
		if err == nil && i >= 0 && i < len(w) {
			return ptrScalar
		}
	}
	return ptrInvalid
}

// extOrExtra resolves the part of a pointer below object o, which starts
// at parts[d]: only o's extensions and extras remain to be named.
func extOrExtra(o map[string]any, parts []string, d int) pointerKind {
	if o == nil || len(parts) < d+2 {
		return ptrInvalid
	}
	switch parts[d] {
	case "extensions":
		return extensionTarget(o, parts, d)
	case "extras":
		if x, ok := o["extras"].(map[string]any); ok {
			if _, ok := x[parts[d+1]]; ok {
				return ptrExtra
			}
		}
	}
	return ptrInvalid
}

// extensionTarget resolves parts[d:] = "extensions", name, ... below o. An
// extension the validator does not know is unknown; a known one must be
// on o, name one of its properties, and every object on the way must be
// written. The last property may be missing only right under the
// extension object (it has a default there); deeper, the validator does
// not model the extension's defaults and says it cannot tell.
func extensionTarget(o map[string]any, parts []string, d int) pointerKind {
	name := parts[d+1]
	if _, known := extensionKinds[name]; !known {
		return ptrUnknown
	}
	cur, ok := asMap(o["extensions"])[name].(map[string]any)
	if !ok || len(parts) < d+3 {
		return ptrInvalid
	}
	first := parts[d+2]
	if allowed, ok := extensionProperties[name]; ok && !slices.Contains(allowed, first) {
		return ptrInvalid
	}
	if name == "KHR_node_visibility" {
		if len(parts) == d+3 && first == "visible" {
			return ptrBool
		}
		return ptrInvalid
	}
	var v any = cur
	for i := d + 2; i < len(parts)-1; i++ {
		next, ok := childOf(v, parts[i])
		if !ok {
			return ptrInvalid
		}
		v = next
	}
	if _, ok := childOf(v, parts[len(parts)-1]); ok || len(parts) == d+3 {
		return ptrAny
	}
	return ptrUnknown
}

// childOf is member tok of a JSON object or element tok of an array.
func childOf(v any, tok string) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		c, ok := t[tok]
		return c, ok
	case []any:
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(t) {
			return nil, false
		}
		return t[i], true
	}
	return nil, false
}

// channelOf parses the animation and channel indices of a target's
// extension path, /animations/A/channels/C/target/extensions/NAME.
func channelOf(path string) (ai, ci int, ok bool) {
	n, err := fmt.Sscanf(path, "/animations/%d/channels/%d/target/", &ai, &ci)
	return ai, ci, err == nil && n == 2
}
