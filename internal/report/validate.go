package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"physview/scene"
	cc "physview/scene/corecheck"

	"physview/internal/guard"
)

// Khronos is a validation report in the layout of the Khronos
// glTF-Validator, so tools that read its reports read ours.
type Khronos struct {
	URI              string        `json:"uri"`
	MimeType         string        `json:"mimeType"`
	ValidatorVersion string        `json:"validatorVersion"`
	Issues           KhronosIssues `json:"issues"`
}

// KhronosIssues is the counts and messages of a Khronos report.
type KhronosIssues struct {
	NumErrors   int              `json:"numErrors"`
	NumWarnings int              `json:"numWarnings"`
	NumInfos    int              `json:"numInfos"`
	NumHints    int              `json:"numHints"`
	Messages    []KhronosMessage `json:"messages"`
	Truncated   bool             `json:"truncated"`
}

// KhronosMessage is one finding of a Khronos report; Severity is 0 (error),
// 1 (warning), 2 (info) or 3 (hint). A problem with a GLB container's
// structure has its byte Offset and no pointer, as Khronos writes it.
type KhronosMessage struct {
	Code     string `json:"code"`
	Message  string `json:"message"`
	Severity int    `json:"severity"`
	Pointer  string `json:"pointer"`
	Offset   *int64 `json:"offset,omitempty"`
}

// MarshalJSON writes the pointer, or the offset when there is one.
func (m KhronosMessage) MarshalJSON() ([]byte, error) {
	type withPointer KhronosMessage
	if m.Offset == nil {
		return json.Marshal(withPointer(m))
	}
	return json.Marshal(struct {
		Code     string `json:"code"`
		Message  string `json:"message"`
		Severity int    `json:"severity"`
		Offset   int64  `json:"offset"`
	}{m.Code, m.Message, m.Severity, *m.Offset})
}

// glbOffset returns the byte offset of a finding about a GLB container's
// structure (a GLB_ code without a pointer); ok is false for the others.
func glbOffset(f scene.Finding) (offset int64, ok bool) {
	return f.Offset, f.Path == "" && strings.HasPrefix(f.Code, "GLB_")
}

// ErrorFindings returns a file that cannot be read as findings: the
// problems found before the one that stopped the reading (a GLB's chunk
// findings), then that one, an error with its Khronos code (IO_ERROR when
// it has none), pointer or GLB byte offset.
func ErrorFindings(err error) []scene.Finding {
	var out []scene.Finding
	last := scene.Finding{Severity: scene.Error, Code: errorCode(err), Path: scene.ErrorPointer(err), Message: err.Error()}
	var le *scene.LoadError
	if !errors.As(err, &le) {
		return append(out, last)
	}
	out = append(out, le.Findings...)
	last.Offset = le.Offset
	at := len(out)
	if _, ok := glbOffset(last); ok {
		// In the order Khronos finds them: by byte, and at one chunk
		// header its errors (this is the last of them) before the
		// chunk's type warning.
		for i, f := range out {
			if off, ok := glbOffset(f); ok && (off > last.Offset || off == last.Offset && f.Severity != scene.Error) {
				at = i
				break
			}
		}
	}
	return slices.Insert(out, at, last)
}

// Validation is the outcome of validating one file.
type Validation struct {
	Path     string
	Findings []scene.Finding
	// Omitted counts the findings past the bounds, by code.
	Omitted []scene.Omitted
	Err     error // the file could not be read at all
}

// Khronos returns v in the Khronos glTF-Validator layout; a file that could
// not be read is the findings made before it stopped (ErrorFindings) and
// one error with its Khronos code (IO_ERROR when it has none).
func (v Validation) Khronos() Khronos {
	r := Khronos{URI: v.Path, MimeType: "model/gltf+json", ValidatorVersion: "physview"}
	if strings.EqualFold(filepath.Ext(v.Path), ".glb") {
		r.MimeType = "model/gltf-binary"
	}
	r.Issues.Messages = []KhronosMessage{}
	findings := v.Findings
	if v.Err != nil {
		findings = ErrorFindings(v.Err)
	}
	for _, f := range findings {
		m := KhronosMessage{Code: f.Code, Message: f.Message, Pointer: f.Path}
		if off, ok := glbOffset(f); ok {
			m.Offset = &off
		}
		switch f.Severity {
		case scene.Error:
			m.Severity = 0
			r.Issues.NumErrors++
		case scene.Warning:
			m.Severity = 1
			r.Issues.NumWarnings++
		case scene.Info:
			if isHint(f.Code) {
				m.Severity = 3
				r.Issues.NumHints++
				break
			}
			fallthrough
		default:
			m.Severity = 2
			r.Issues.NumInfos++
		}
		r.Issues.Messages = append(r.Issues.Messages, m)
	}
	// Past the bounds: counted, not listed, as Khronos's maxIssues does.
	for _, o := range v.Omitted {
		r.Issues.Truncated = true
		switch {
		case o.Severity == scene.Error:
			r.Issues.NumErrors += o.Count
		case o.Severity == scene.Warning:
			r.Issues.NumWarnings += o.Count
		case isHint(o.Code):
			r.Issues.NumHints += o.Count
		default:
			r.Issues.NumInfos += o.Count
		}
	}
	return r
}

// errorCode is the Khronos code of a file that could not be read.
func errorCode(err error) string {
	if code := scene.ErrorCode(err); code != "" {
		return code
	}
	return "IO_ERROR"
}

// isHint reports whether the Khronos validator's severity of code is Hint
// (physview's Info), so the Khronos layout writes it as 3.
func isHint(code string) bool {
	for _, k := range cc.KhronosCodes {
		if k.Code == code {
			return k.Hint
		}
	}
	return false
}

// WriteKhronos writes the Khronos layout of results as indented JSON: one
// report when single, else an array of them.
func WriteKhronos(w io.Writer, results []Validation, single bool) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "    ")
	enc.SetEscapeHTML(false)
	var out any
	if single {
		out = results[0].Khronos()
	} else {
		reports := make([]Khronos, len(results))
		for i, v := range results {
			reports[i] = v.Khronos()
		}
		out = reports
	}
	return enc.Encode(out)
}

// WriteSummary writes one line per file (ok or ERRORS with its counts, or
// why it cannot be read) and a last line counting the files of each kind.
func WriteSummary(w io.Writer, results []Validation) {
	counts := [3]int{}
	for _, v := range results {
		if v.Err != nil {
			counts[2]++
			fmt.Fprintf(w, "%s: cannot be read: %v\n", v.Path, strings.TrimPrefix(v.Err.Error(), v.Path+": "))
			continue
		}
		c := scene.CountWithOmitted(v.Findings, v.Omitted)
		state := "ok"
		if c[scene.Error] > 0 {
			state = "ERRORS"
			counts[1]++
		} else {
			counts[0]++
		}
		fmt.Fprintf(w, "%s: %s, %d errors, %d warnings, %d notes\n", v.Path, state, c[scene.Error], c[scene.Warning], c[scene.Info])
	}
	fmt.Fprintf(w, "%d files: %d without errors, %d with errors, %d unreadable\n", len(results), counts[0], counts[1], counts[2])
}

// WriteFindings lists one file's findings, each with its code, under a line
// counting them, and then those past the bounds (omitted) by code.
func WriteFindings(w io.Writer, path string, fs []scene.Finding, omitted ...scene.Omitted) {
	c := scene.CountWithOmitted(fs, omitted)
	fmt.Fprintf(w, "%s\n", path)
	fmt.Fprintf(w, "findings: %d errors, %d warnings, %d notes\n", c[scene.Error], c[scene.Warning], c[scene.Info])
	for _, f := range fs {
		at := f.Path
		if off, ok := glbOffset(f); ok {
			at = fmt.Sprintf("byte %d", off)
		}
		fmt.Fprintf(w, "  %-7s %s %s: %s\n", f.Severity, f.Code, at, f.Message)
	}
	writeOmitted(w, omitted)
}

// IsDir reports whether p is a folder.
func IsDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// ExpandPaths replaces each folder in args by the .gltf and .glb files
// under it; files stay as given, in order.
func ExpandPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if !IsDir(a) {
			out = append(out, a)
			continue
		}
		err := filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			ext := strings.ToLower(filepath.Ext(p))
			if !d.IsDir() && (ext == ".gltf" || ext == ".glb") {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("validate: %w", err)
		}
	}
	return out, nil
}

// Validate reads every file with open (the viewer passes
// app.OpenDocument, which knows every registered format) on all cores and
// collects its findings; the results keep the order of paths. A file that
// cannot be read, or whose checks panic, has Err set and does not stop the
// others.
func Validate(paths []string, open func(path string) (*scene.Document, error)) []Validation {
	results := make([]Validation, len(paths))
	guard.Each(len(paths), runtime.NumCPU(), func(i int) {
		results[i] = validateOne(paths[i], open)
	})
	return results
}

func validateOne(path string, open func(string) (*scene.Document, error)) (v Validation) {
	v.Path = path
	defer func() {
		// A bug in a check must not take the other files down with it.
		if r := recover(); r != nil {
			v.Err = &InternalError{Path: path, Value: r}
		}
	}()
	d, err := open(path)
	if err != nil {
		v.Err = err
		return v
	}
	v.Findings, v.Omitted = d.Findings(), d.Omitted()
	return v
}

// InternalError is a Validation's Err when the validator itself failed on
// the file (a recovered panic): not a file that cannot be read, so callers
// give it another exit status.
type InternalError struct {
	// Path is the file; Value what the panic carried.
	Path  string
	Value any
}

// Error names the file and says it is the validator's fault.
func (e *InternalError) Error() string {
	return fmt.Sprintf("%s: internal error while validating: %v", e.Path, e.Value)
}

// Status is the exit status of validating results: 3 when the validator
// itself failed on a file (an InternalError), else 2 when a file cannot be
// read, else 1 when a file has errors, else 0.
func Status(results []Validation) int {
	status := 0
	for _, v := range results {
		var ie *InternalError
		switch {
		case errors.As(v.Err, &ie):
			status = 3
		case v.Err != nil && status != 3:
			status = 2
		case v.Err == nil && scene.HasErrors(v.Findings) && status == 0:
			status = 1
		}
	}
	return status
}

// Format is a layout of validate's report.
type Format string

// The layouts: the summary lines (one file alone lists its findings), the
// Khronos glTF-Validator JSON, SARIF 2.1.0.
const (
	FormatText  Format = "text"
	FormatJSON  Format = "json"
	FormatSARIF Format = "sarif"
)

// ParseFormat reads validate's -format value with its -json flag (the
// same as -format json): an unknown format, or -json with sarif, is an
// error naming the flags.
func ParseFormat(format string, asJSON bool) (Format, error) {
	switch f := Format(format); {
	case f != FormatText && f != FormatJSON && f != FormatSARIF:
		return "", fmt.Errorf("unknown -format %q (text, json or sarif)", format)
	case f == FormatSARIF && asJSON:
		return "", errors.New("-json and -format sarif exclude each other")
	case asJSON:
		return FormatJSON, nil
	default:
		return f, nil
	}
}

// Write writes results in layout f: WriteSARIF's, WriteKhronos' (single:
// one file's report, not a list of them) or WriteSummary's.
func (f Format) Write(w io.Writer, results []Validation, single bool) error {
	switch f {
	case FormatSARIF:
		return WriteSARIF(w, results)
	case FormatJSON:
		return WriteKhronos(w, results, single)
	}
	WriteSummary(w, results)
	return nil
}
