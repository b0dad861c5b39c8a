package scene

import (
	"cmp"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

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

// Finding is one validation message: how serious, which rule (Code: a
// Khronos glTF-Validator issue code such as ACCESSOR_TOO_LONG, or OMI_... for
// the physics rules, see codes.go), where (a JSON pointer into the glTF
// document, e.g. /nodes/3/extensions/OMI_physics_body/collider/shape) and a
// plain sentence.
type Finding struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code,omitempty"`
	Path     string   `json:"path"`
	Message  string   `json:"message"`
}

// String formats the finding as "error /path: message".
func (f Finding) String() string {
	return fmt.Sprintf("%s %s: %s", f.Severity, f.Path, f.Message)
}

// findings collects messages while decoding and validating.
type findings []Finding

func (fs *findings) add(sev Severity, path, format string, args ...any) {
	*fs = append(*fs, Finding{Severity: sev, Path: path, Message: fmt.Sprintf(format, args...)})
}

// addc adds a finding with its rule code.
func (fs *findings) addc(sev Severity, code, path, format string, args ...any) {
	*fs = append(*fs, Finding{Severity: sev, Code: code, Path: path, Message: fmt.Sprintf(format, args...)})
}

func (fs *findings) errorf(path, format string, args ...any) { fs.add(Error, path, format, args...) }
func (fs *findings) warnf(path, format string, args ...any)  { fs.add(Warning, path, format, args...) }
func (fs *findings) infof(path, format string, args ...any)  { fs.add(Info, path, format, args...) }

// sortFindings orders by path and then severity, most serious first, so
// reports are stable.
func sortFindings(fs []Finding) {
	for i := range fs {
		if fs[i].Code == "" {
			fs[i].Code = codeFor(fs[i])
		}
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if c := comparePaths(fs[i].Path, fs[j].Path); c != 0 {
			return c < 0
		}
		return fs[i].Severity > fs[j].Severity
	})
}

// comparePaths orders JSON pointers segment by segment, numbers by value, so
// /nodes/3 comes before /nodes/13.
func comparePaths(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for k := 0; k < len(as) && k < len(bs); k++ {
		if as[k] == bs[k] {
			continue
		}
		ai, aerr := strconv.Atoi(as[k])
		bi, berr := strconv.Atoi(bs[k])
		if aerr == nil && berr == nil {
			return cmp.Compare(ai, bi)
		}
		return strings.Compare(as[k], bs[k])
	}
	return cmp.Compare(len(as), len(bs))
}

// CountBySeverity returns how many findings have each severity.
func CountBySeverity(fs []Finding) map[Severity]int {
	m := map[Severity]int{}
	for _, f := range fs {
		m[f.Severity]++
	}
	return m
}

// HasErrors reports whether any finding is an Error.
func HasErrors(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == Error {
			return true
		}
	}
	return false
}

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
