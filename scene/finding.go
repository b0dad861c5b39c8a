package scene

import (
	"cmp"
	"fmt"
	"physview/scene/corecheck"
	"sort"
	"strconv"
	"strings"
)

// Severity says how bad a Finding is (corecheck.Severity).
type Severity = corecheck.Severity

// Severities, from least to most serious.
const (
	// Info notes something the loader changed on the way in.
	Info = corecheck.Info
	// Warning marks something another tool may read differently.
	Warning = corecheck.Warning
	// Error marks a violation of a specification.
	Error = corecheck.Error
)

// Finding is one validation message (corecheck.Finding): severity, code,
// JSON pointer and sentence.
type Finding = corecheck.Finding

// LoadError is input that cannot be read at all (corecheck.LoadError).
type LoadError = corecheck.LoadError

// ErrorCode returns the Khronos issue code of a load error, or "" when err
// is not a LoadError.
func ErrorCode(err error) string { return corecheck.ErrorCode(err) }

// ErrorPointer returns the JSON pointer of a load error, or "".
func ErrorPointer(err error) string { return corecheck.ErrorPointer(err) }

func loadErr(code, format string, args ...any) *LoadError {
	return &LoadError{Code: code, Err: fmt.Errorf(format, args...)}
}

// Findings collects messages while decoding and validating: the sink a
// registered Codec reports to. Every finding is made with its code
// (codes.go lists the physics and variants codes).
type Findings []Finding

// findings is the package's own name for Findings.
type findings = Findings

// addc adds a finding with its rule code.
func (fs *findings) addc(sev Severity, code, path, format string, args ...any) {
	*fs = append(*fs, Finding{Severity: sev, Code: code, Path: path, Message: fmt.Sprintf(format, args...)})
}

func (fs *findings) errorf(code, path, format string, args ...any) {
	fs.addc(Error, code, path, format, args...)
}
func (fs *findings) warnf(code, path, format string, args ...any) {
	fs.addc(Warning, code, path, format, args...)
}
func (fs *findings) infof(code, path, format string, args ...any) {
	fs.addc(Info, code, path, format, args...)
}

// sortFindings orders by path, then (a GLB container's, without a path) by
// byte offset, then severity, most serious first, so reports are stable.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if c := comparePaths(fs[i].Path, fs[j].Path); c != 0 {
			return c < 0
		}
		if fs[i].Offset != fs[j].Offset {
			return fs[i].Offset < fs[j].Offset
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
