package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"physview/scene"
	cc "physview/scene/corecheck"
)

// khronosReport is a validation report in the layout of the Khronos
// glTF-Validator, so tools that read its reports read ours.
type khronosReport struct {
	URI              string       `json:"uri"`
	MimeType         string       `json:"mimeType"`
	ValidatorVersion string       `json:"validatorVersion"`
	Issues           khronosIssue `json:"issues"`
}

type khronosIssue struct {
	NumErrors   int              `json:"numErrors"`
	NumWarnings int              `json:"numWarnings"`
	NumInfos    int              `json:"numInfos"`
	NumHints    int              `json:"numHints"`
	Messages    []khronosMessage `json:"messages"`
	Truncated   bool             `json:"truncated"`
}

type khronosMessage struct {
	Code     string `json:"code"`
	Message  string `json:"message"`
	Severity int    `json:"severity"`
	Pointer  string `json:"pointer"`
}

// validation is the outcome for one file.
type validation struct {
	path     string
	findings []scene.Finding
	err      error // the file could not be read at all
}

func (v validation) report() khronosReport {
	r := khronosReport{URI: v.path, MimeType: "model/gltf+json", ValidatorVersion: "physview"}
	if strings.EqualFold(filepath.Ext(v.path), ".glb") {
		r.MimeType = "model/gltf-binary"
	}
	r.Issues.Messages = []khronosMessage{}
	if v.err != nil {
		code := scene.ErrorCode(v.err)
		if code == "" {
			code = "IO_ERROR"
		}
		r.Issues.NumErrors = 1
		r.Issues.Messages = append(r.Issues.Messages, khronosMessage{Code: code, Message: v.err.Error(), Severity: 0, Pointer: scene.ErrorPointer(v.err)})
		return r
	}
	for _, f := range v.findings {
		m := khronosMessage{Code: f.Code, Message: f.Message, Pointer: f.Path}
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
	return r
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

// cmdValidateFiles is `viewer validate [-json] FILE|DIR...`. One FILE
// without -json lists its findings; several files, or folders (searched for
// .gltf and .glb), are checked on all cores with one summary line each.
// Exit status: 2 when any file cannot be read, else 1 when any has errors.
func cmdValidateFiles(args []string, w io.Writer) error {
	flags := newFlags("validate")
	asJSON := flags.Bool("json", false, "print the report in the Khronos glTF-Validator layout (-format json)")
	format := flags.String("format", "text", "text, json (the Khronos glTF-Validator layout) or sarif (SARIF 2.1.0, for CI code scanning)")
	if err := flags.Parse(args); err != nil {
		return fail(2, "validate: %v\n%s", err, usage)
	}
	switch *format {
	case "text":
	case "json":
		*asJSON = true
	case "sarif":
		if *asJSON {
			return fail(2, "validate: -json and -format sarif exclude each other")
		}
	default:
		return fail(2, "validate: unknown -format %q (text, json or sarif)", *format)
	}
	if flags.NArg() == 0 {
		return fail(2, "validate needs FILE or DIR\n%s", usage)
	}
	paths, err := expandPaths(flags.Args())
	if err != nil {
		return fail(2, "%v", err)
	}
	single := len(paths) == 1 && flags.NArg() == 1 && !isDir(flags.Arg(0))
	if single && !*asJSON && *format != "sarif" {
		return validateFile(paths[0], w)
	}
	results := validateAll(paths)
	status := 0
	for _, v := range results {
		switch {
		case v.err != nil:
			status = 2
		case scene.HasErrors(v.findings) && status == 0:
			status = 1
		}
	}
	if *format == "sarif" {
		if err := writeSARIF(w, results); err != nil {
			return fail(2, "validate: %v", err)
		}
	} else if *asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "    ")
		enc.SetEscapeHTML(false)
		var out any
		if single {
			out = results[0].report()
		} else {
			reports := make([]khronosReport, len(results))
			for i, v := range results {
				reports[i] = v.report()
			}
			out = reports
		}
		if err := enc.Encode(out); err != nil {
			return fail(2, "validate: %v", err)
		}
	} else {
		counts := [3]int{}
		for _, v := range results {
			if v.err != nil {
				counts[2]++
				fmt.Fprintf(w, "%s: cannot be read: %v\n", v.path, trimPath(v.err, v.path))
				continue
			}
			c := scene.CountBySeverity(v.findings)
			state := "ok"
			if c[scene.Error] > 0 {
				state = "ERRORS"
				counts[1]++
			} else {
				counts[0]++
			}
			fmt.Fprintf(w, "%s: %s, %d errors, %d warnings, %d notes\n", v.path, state, c[scene.Error], c[scene.Warning], c[scene.Info])
		}
		fmt.Fprintf(w, "%d files: %d without errors, %d with errors, %d unreadable\n", len(results), counts[0], counts[1], counts[2])
	}
	if status != 0 {
		return &exitError{code: status, err: fmt.Errorf("")}
	}
	return nil
}

func trimPath(err error, path string) string {
	return strings.TrimPrefix(err.Error(), path+": ")
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// expandPaths replaces each folder by the .gltf and .glb files under it.
func expandPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if !isDir(a) {
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

// validateAll loads every file on all cores; results keep the input order.
func validateAll(paths []string) []validation {
	results := make([]validation, len(paths))
	jobs := make(chan int)
	var wg sync.WaitGroup
	workers := min(runtime.NumCPU(), len(paths))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = validateOne(paths[i])
			}
		}()
	}
	for i := range paths {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

func validateOne(path string) (v validation) {
	v.path = path
	defer func() {
		// A bug in a check must not take the other files down with it.
		if r := recover(); r != nil {
			v.err = fmt.Errorf("%s: internal error while validating: %v", path, r)
		}
	}()
	d, err := openDocument(path)
	if err != nil {
		v.err = err
		return v
	}
	v.findings = d.Findings()
	return v
}

// validateFile lists one file's findings, each with its code.
func validateFile(path string, w io.Writer) error {
	d, err := load(path)
	if err != nil {
		return err
	}
	fs := d.Findings()
	c := scene.CountBySeverity(fs)
	fmt.Fprintf(w, "%s\n", path)
	fmt.Fprintf(w, "findings: %d errors, %d warnings, %d notes\n", c[scene.Error], c[scene.Warning], c[scene.Info])
	for _, f := range fs {
		fmt.Fprintf(w, "  %-7s %s %s: %s\n", f.Severity, f.Code, f.Path, f.Message)
	}
	if scene.HasErrors(fs) {
		return &exitError{code: 1, err: fmt.Errorf("%s: has errors", path)}
	}
	return nil
}
