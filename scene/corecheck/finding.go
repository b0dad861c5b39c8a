package corecheck

import "fmt"

// Severity says how bad a Finding is. The zero value is not a valid severity.
type Severity int

// Severities, from least to most serious.
const (
	// Info notes something the loader changed on the way in, such as a legacy
	// form upgraded to the current one. Nothing is wrong with the file's meaning.
	Info Severity = iota + 1
	// Warning marks something another tool may read differently or that the
	// specification discourages. The file still loads as intended.
	Warning
	// Error marks a violation of a specification: a missing required value,
	// an index out of range, a value of the wrong type or outside its range.
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalText writes the severity as its name, so JSON reports read well.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name written by MarshalText.
func (s *Severity) UnmarshalText(b []byte) error {
	for _, v := range []Severity{Info, Warning, Error} {
		if v.String() == string(b) {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("unknown severity %q", b)
}

// Finding is one validation message: how serious, which rule (Code: a
// Khronos glTF-Validator issue code such as ACCESSOR_TOO_LONG, or OMI_... and
// KHR_... for the physics rules), where (a JSON pointer into the glTF
// document, e.g. /nodes/3/extensions/OMI_physics_body/collider/shape) and a
// plain sentence.
type Finding struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code,omitempty"`
	Path     string   `json:"path"`
	Message  string   `json:"message"`
	// Offset is, for a problem with a GLB container's structure (a GLB_
	// code; Path is then ""), the byte offset Khronos reports it at. The
	// header's fields are at 4 and 8 and chunks start at 12, so 0 is none.
	Offset int64 `json:"offset,omitempty"`
}

// String formats the finding as "error /path: message".
func (f Finding) String() string {
	return fmt.Sprintf("%s %s: %s", f.Severity, f.Path, f.Message)
}

// addAt adds a finding about a GLB container's structure at byte offset.
func (fs *findings) addAt(sev Severity, code string, offset int64, format string, args ...any) {
	*fs = append(*fs, Finding{Severity: sev, Code: code, Offset: offset, Message: fmt.Sprintf(format, args...)})
}

// findings collects messages while checking.
type findings []Finding

// addc adds a finding with its rule code.
func (fs *findings) addc(sev Severity, code, path, format string, args ...any) {
	*fs = append(*fs, Finding{Severity: sev, Code: code, Path: path, Message: fmt.Sprintf(format, args...)})
}

// MaxFindingsPerCode is how many findings of one code a document keeps;
// past it they are only counted (Omitted). Rules that fire once per pair
// of elements stop making findings there, which keeps their work linear.
const MaxFindingsPerCode = 1000

// Omitted counts the findings of one code that were not made.
type Omitted struct {
	Severity Severity
	Count    int
}
