package corecheck

import "strings"

// ReadMinor is the newest glTF 2 minor version physview reads: 2.1, with
// the core shapes and node bounding volumes.
const ReadMinor = 1

// core21Properties are the properties glTF 2.1 adds to core objects
// (KhronosGroup/glTF draft-2.1 schemas: glTF.schema.json "shapes",
// node.schema.json "boundingVolume"); a 2.1 document may have them.
var core21Properties = map[string][]string{
	"root": {"shapes"},
	"node": {"boundingVolume"},
}

// versionPart reports whether s is one part of a glTF version: 1 to 9
// digits, no leading zero.
func versionPart(s string) bool {
	return s != "" && len(s) <= 9 && strings.Trim(s, "0123456789") == "" && (s == "0" || s[0] != '0')
}

// ParseVersion reads a glTF asset version "major.minor" as the 2.1
// specification words it; ok is false for anything else.
func ParseVersion(v string) (major, minor int, ok bool) { return parseVersion(v) }

// IsVersion21 reports whether the document tree root says glTF 2.1 or a
// newer 2.x in asset.version.
func IsVersion21(root map[string]any) bool {
	v, _ := asMap(root["asset"])["version"].(string)
	major, minor, ok := parseVersion(v)
	return ok && major == 2 && minor >= 1
}

// checkMinVersion refuses a document physview cannot read: its minVersion
// is newer than 2.1 or of another major version. A minVersion that is not
// a version at all is left to the schema pass (PATTERN_MISMATCH).
func checkMinVersion(root map[string]any) *LoadError {
	mv, ok := asMap(root["asset"])["minVersion"].(string)
	if !ok {
		return nil
	}
	major, minor, good := parseVersion(mv)
	if !good || (major == 2 && minor <= ReadMinor) {
		return nil
	}
	le := loadErr("UNSUPPORTED_MIN_VERSION", "the file needs glTF %s (asset.minVersion); physview reads glTF 2.0 and 2.%d", mv, ReadMinor)
	le.Pointer = "/asset/minVersion"
	return le
}
