package main

import (
	"errors"
	"fmt"
	"io"

	"physview/internal/report"
	"physview/scene"
)

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
	paths, err := report.ExpandPaths(flags.Args())
	if err != nil {
		return fail(2, "%v", err)
	}
	single := len(paths) == 1 && flags.NArg() == 1 && !report.IsDir(flags.Arg(0))
	if single && !*asJSON && *format != "sarif" {
		return validateFile(paths[0], w)
	}
	results := report.Validate(paths, openDocument)
	status := validateStatus(results)
	switch {
	case *format == "sarif":
		err = report.WriteSARIF(w, results)
	case *asJSON:
		err = report.WriteKhronos(w, results, single)
	default:
		report.WriteSummary(w, results)
	}
	if err != nil {
		return fail(2, "validate: %v", err)
	}
	if status != 0 {
		return &exitError{code: status, err: fmt.Errorf("")}
	}
	return nil
}

// validateFile lists one file's findings, each with its code.
func validateFile(path string, w io.Writer) error {
	d, err := load(path)
	if err != nil {
		return err
	}
	fs := d.Findings()
	report.WriteFindings(w, path, fs)
	if scene.HasErrors(fs) {
		return &exitError{code: 1, err: fmt.Errorf("%s: has errors", path)}
	}
	return nil
}

// validateStatus is the exit status of validating several files: 3 when the
// validator itself failed on one (a recovered panic), else 2 when one
// cannot be read, else 1 when one has errors, else 0.
func validateStatus(results []report.Validation) int {
	status := 0
	for _, v := range results {
		var ie *report.InternalError
		switch {
		case errors.As(v.Err, &ie):
			status = exitInternal
		case v.Err != nil && status != exitInternal:
			status = 2
		case v.Err == nil && scene.HasErrors(v.Findings) && status == 0:
			status = 1
		}
	}
	return status
}
