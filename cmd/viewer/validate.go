package main

import (
	"errors"
	"flag"
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
		if errors.Is(err, flag.ErrHelp) {
			return verbHelp(flags)
		}
		return fail(2, "validate: %v\n%s", err, usage)
	}
	f, err := report.ParseFormat(*format, *asJSON)
	if err != nil {
		return fail(2, "validate: %v", err)
	}
	if flags.NArg() == 0 {
		return fail(2, "validate needs FILE or DIR\n%s", usage)
	}
	paths, err := report.ExpandPaths(flags.Args())
	if err != nil {
		return fail(2, "%v", err)
	}
	single := len(paths) == 1 && flags.NArg() == 1 && !report.IsDir(flags.Arg(0))
	if single && f == report.FormatText {
		return validateFile(paths[0], w)
	}
	results := report.Validate(paths, openDocument)
	if err := f.Write(w, results, single); err != nil {
		return fail(2, "validate: %v", err)
	}
	if status := report.Status(results); status != 0 {
		return &exitError{code: status, err: fmt.Errorf("")}
	}
	return nil
}

// validateFile lists one file's findings, each with its code.
func validateFile(path string, w io.Writer) error {
	d, err := openDocument(path)
	if err != nil {
		// A GLB may have several problems before the one that stops it.
		if fs := report.ErrorFindings(err); len(fs) > 1 {
			report.WriteFindings(w, path, fs)
		}
		return fail(2, "%v", err)
	}
	fs := d.Findings()
	report.WriteFindings(w, path, fs, d.Omitted()...)
	if scene.HasErrors(fs) {
		return &exitError{code: 1, err: fmt.Errorf("%s: has errors", path)}
	}
	return nil
}
