package omi

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"physview/scene"
)

// The findings of an OMI document with the codes of the core glTF
// validator where a fault is a schema-level one, as KHR blocks get them
// (scene/khr/fork.go): an unresolved index is UNRESOLVED_REFERENCE, a
// missing required property UNDEFINED_PROPERTY, a value outside its range
// VALUE_NOT_IN_RANGE (at the array element when one is out), an unknown
// enum string VALUE_NOT_IN_LIST (a warning), a vector of the wrong length
// ARRAY_LENGTH_NOT_IN_LIST, a value of the wrong JSON type TYPE_MISMATCH,
// a non-unit quaternion ROTATION_NON_UNIT and an empty array EMPTY_ENTITY,
// each pointing at the member. The OMI_ codes stay for OMI's own semantic
// rules (gravity on a base trigger, joint rules, legacy forms, ...), and
// each fault is reported once.

var (
	reArrayLen  = regexp.MustCompile(`^must have (\d+) numbers, has (\d+)`)
	reElement   = regexp.MustCompile(`(\w+)\[(\d+)\] = `)
	reSubObject = regexp.MustCompile(`^no "(\w+)" sub-object`)
	// enumKeys are the members whose value is one of a list of strings.
	enumKeys = map[string]bool{"type": true, "mode": true, "frictionCombine": true, "restitutionCombine": true}
)

// isOMIPath reports whether a finding's pointer lies in an OMI block.
func isOMIPath(p string) bool {
	return strings.Contains(p, "/extensions/OMI_physics_") || strings.Contains(p, "/extensions/"+scene.ExtCollider)
}

// alignFindings rewrites the findings in the OMI blocks of an OMI document
// and drops repeats of a core code (same code, path and severity).
func alignFindings(d *scene.Document, all []scene.Finding) []scene.Finding {
	if !isOMI(d) {
		return all
	}
	// Where a required property is missing, its index is not also
	// unresolved.
	undefined := map[string]bool{}
	for _, f := range all {
		if f.Code == "OMI_UNDEFINED_PROPERTY" && isOMIPath(f.Path) {
			undefined[f.Path] = true
		}
	}
	out := all[:0:0]
	seen := map[string]bool{}
	for _, f := range all {
		if isOMIPath(f.Path) {
			if f.Code == "OMI_UNRESOLVED_REFERENCE" && undefined[f.Path] {
				continue
			}
			f = alignFinding(f)
			// A core code says one fault per member; OMI's own codes
			// may note several things at one pointer (legacy forms).
			key := f.Code + " " + f.Path + " " + f.Severity.String()
			if seen[key] && !strings.HasPrefix(f.Code, "OMI_") {
				continue
			}
			seen[key] = true
		}
		out = append(out, f)
	}
	return out
}

// alignFinding gives one finding in an OMI block its core code.
func alignFinding(f scene.Finding) scene.Finding {
	last := f.Path[strings.LastIndex(f.Path, "/")+1:]
	switch f.Code {
	case "OMI_UNRESOLVED_REFERENCE":
		f.Code = "UNRESOLVED_REFERENCE"
	case "OMI_UNDEFINED_PROPERTY":
		f.Code = "UNDEFINED_PROPERTY"
		if m := reSubObject.FindStringSubmatch(f.Message); m != nil && m[1] != last {
			f.Path += "/" + m[1] // at the missing member, as the others
		}
	case "OMI_TYPE_MISMATCH":
		switch m := reArrayLen.FindStringSubmatch(f.Message); {
		case m != nil:
			f.Code, f.Message = "ARRAY_LENGTH_NOT_IN_LIST", fmt.Sprintf("invalid array length %s; valid lengths are: (%s)", m[2], m[1])
		case strings.HasPrefix(f.Message, "must "):
			f.Code = "TYPE_MISMATCH" // the member reader's: a value of the wrong JSON type
		case strings.Contains(f.Message, "unit quaternion"):
			f.Code = "ROTATION_NON_UNIT"
		}
	case "OMI_VALUE_NOT_IN_RANGE":
		switch {
		case strings.Contains(f.Message, "zero vector"), f.Severity == scene.Warning:
			// OMI's own: a direction of no length; an engine limit.
		case enumKeys[last]:
			f.Code, f.Severity = "VALUE_NOT_IN_LIST", scene.Warning
		default:
			f.Code = "VALUE_NOT_IN_RANGE"
			if m := reElement.FindStringSubmatch(f.Message); m != nil && m[1] == last {
				f.Path += "/" + m[2]
			}
		}
	}
	return f
}

// emptyArrays adds EMPTY_ENTITY for each array of the OMI blocks that the
// schemas want to hold at least one element.
func emptyArrays(d *scene.Document, fs *scene.Findings) {
	root := map[string][]string{
		scene.ExtShape:    {"shapes"},
		scene.ExtBody:     {"physicsMaterials", "collisionFilters"},
		scene.ExtJoint:    {"physicsJoints"},
		scene.ExtCollider: {"colliders"},
	}
	for _, ext := range []string{scene.ExtShape, scene.ExtBody, scene.ExtJoint, scene.ExtCollider} {
		raw, ok := scene.RawExtension(d.GLTF.Extensions, ext)
		if !ok {
			continue
		}
		obj := members(raw)
		for _, key := range root[ext] {
			emptyArray(obj, "/extensions/"+ext, key, fs)
		}
		if ext == scene.ExtJoint {
			for i, j := range elements(obj["physicsJoints"]) {
				js := members(j)
				at := fmt.Sprintf("/extensions/%s/physicsJoints/%d", ext, i)
				emptyArray(js, at, "limits", fs)
				emptyArray(js, at, "drives", fs)
			}
		}
	}
	for i, n := range d.GLTF.Nodes {
		if raw, ok := scene.RawExtension(n.Extensions, scene.ExtBody); ok {
			at := fmt.Sprintf("/nodes/%d/extensions/%s/trigger", i, scene.ExtBody)
			emptyArray(members(members(raw)["trigger"]), at, "nodes", fs)
		}
	}
}

// members returns the members of a JSON object, or nil when raw is none
// (the member reader reports that).
func members(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	return m
}

// elements returns the elements of a JSON array, or nil.
func elements(raw json.RawMessage) []json.RawMessage {
	var l []json.RawMessage
	_ = json.Unmarshal(raw, &l)
	return l
}

func emptyArray(obj map[string]json.RawMessage, at, key string, fs *scene.Findings) {
	if v, ok := obj[key]; ok && elements(v) != nil && len(elements(v)) == 0 {
		fs.Errorf("EMPTY_ENTITY", at+"/"+key, "%s is an empty array; leave it out", key)
	}
}
