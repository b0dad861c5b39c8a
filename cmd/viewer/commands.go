package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"physview/internal/app"
	"physview/internal/report"
	"physview/scene"
	_ "physview/scene/g4mf" // registers .g4tf and .g4b with scene.FormatFor
)

func load(path string) (*scene.Document, error) {
	d, err := openDocument(path)
	if err != nil {
		return nil, fail(2, "%v", err)
	}
	return d, nil
}

// loadForView is load for the commands that show or play the file
// (screenshot, simulate): a file that requires an extension the viewer
// cannot honour is refused (exit 2) with one line naming it.
func loadForView(path string) (*scene.Document, error) {
	d, err := load(path)
	if err != nil {
		return nil, err
	}
	if err := d.CheckRequired(); err != nil {
		return nil, fail(2, "%v", err)
	}
	return d, nil
}

// saveDocument writes .gltf or .glb, or exports .xode, and returns what
// could not be carried over.
func saveDocument(d *scene.Document, path string) ([]string, error) {
	return app.SaveDocument(d, path)
}

// openDocument reads a file of any registered format.
func openDocument(path string) (*scene.Document, error) {
	return app.OpenDocument(path)
}

func cmdInspect(args []string, w io.Writer) error {
	fs := newFlags("inspect")
	asJSON := fs.Bool("json", false, "print JSON")
	pf := addPoseFlags(fs)
	sceneIdx := fs.Int("scene", -1, "index of the scene to report (default: the file's scene)")
	if err := parseFlags(fs, args, 1, "one FILE"); err != nil {
		return err
	}
	d, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	if err := d.SetShownScene(*sceneIdx); err != nil {
		return fail(2, "%s: -scene: %v", fs.Arg(0), err)
	}
	r := report.Inspect(d)
	if r.Bounds, err = poseBounds(d, pf); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	r.WriteText(w)
	report.WriteBounds(w, r.Bounds, pf.when())
	return nil
}

func cmdConvert(args []string, w io.Writer) error {
	fs := newFlags("convert")
	physics := fs.String("physics", "", "write the physics as omi or khr (default: the dialect it was read in)")
	if err := parseFlags(fs, args, 2, "IN and OUT"); err != nil {
		return err
	}
	in, out := fs.Arg(0), fs.Arg(1)
	d, err := load(in)
	if err != nil {
		return err
	}
	var dialectWarnings []string
	if *physics != "" {
		p, ok := scene.ParsePhysicsDialect(*physics)
		if !ok {
			return fail(2, "convert: -physics %q: want omi or khr", *physics)
		}
		dialectWarnings = d.SetPhysicsDialect(p)
	}
	warnings, err := saveDocument(d, out)
	if err != nil {
		return fail(2, "%v", err)
	}
	for _, dw := range dialectWarnings {
		if !slices.Contains(warnings, dw) {
			warnings = append(warnings, dw)
		}
	}
	for _, warning := range warnings {
		fmt.Fprintf(w, "warning: %s\n", warning)
	}
	c := scene.CountBySeverity(d.Findings())
	fmt.Fprintf(w, "wrote %s (%d errors, %d warnings carried over from %s)\n", out, c[scene.Error], c[scene.Warning], in)
	return nil
}
