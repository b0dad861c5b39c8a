package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"io"

	"physview/internal/app"
	"physview/internal/report"
	"physview/render/imgdec"
	"physview/scene"
	"physview/scene/diff"
)

// diffUsage is the usage line of viewer diff (docs/diff.md has the rest).
const diffUsage = `  viewer diff [-json | -format text|json|sarif] A B
                                what changed from A to B: structure, values, physics, geometry, textures,
                                animations, variants; A and B may be REV:path (read with git show);
                                exit 0 equal, 1 different, 2 unreadable
  viewer diff -textconv FILE    one file as canonical text, for git's textconv (docs/diff.md)
  viewer diff PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE
                                git's external diff (GIT_EXTERNAL_DIFF, diff.<driver>.command): exit 0
  viewer compare A B            open A in the window with B compared (the Diff tab)
`

// cmdDiff compares two files (or one file for -textconv, or git's seven
// external-diff arguments).
func cmdDiff(args []string, w io.Writer) error {
	fs := newFlags("diff")
	asJSON := fs.Bool("json", false, "print the report as JSON (-format json)")
	format := fs.String("format", "text", "text, json or sarif (SARIF 2.1.0)")
	textconv := fs.Bool("textconv", false, "print one FILE as canonical text (for git's textconv)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return verbHelp(fs)
		}
		return fail(2, "diff: %v\n%s", err, diffUsage)
	}
	if *textconv {
		if fs.NArg() != 1 {
			return fail(2, "diff -textconv needs one FILE\n%s", diffUsage)
		}
		d, err := load(fs.Arg(0))
		if err != nil {
			return err
		}
		return diff.WriteSummary(w, d)
	}
	f, err := report.ParseFormat(*format, *asJSON)
	if err != nil {
		return fail(2, "diff: %v", err)
	}
	switch fs.NArg() {
	case 2:
		return diffFiles(fs.Arg(0), fs.Arg(1), f, w)
	case 7:
		return gitExternalDiff(fs, f, w)
	}
	return fail(2, "diff needs A and B (or git's seven external-diff arguments)\n%s", diffUsage)
}

// diffFiles compares files a and b (each maybe REV:path) and sets the
// exit status: 0 equal, 1 different, 2 unreadable.
func diffFiles(a, b string, f report.Format, w io.Writer) error {
	r, err := compareSpecs(a, b, a, b)
	if err != nil {
		return err
	}
	if err := writeDiff(r, f, w); err != nil {
		return err
	}
	if !r.Equal {
		return fail(1, "")
	}
	return nil
}

// compareSpecs loads both sides (a REV:path through git show) and compares
// them; nameA and nameB label the report.
func compareSpecs(a, b, nameA, nameB string) (diff.Report, error) {
	docs := make([]*scene.Document, 2)
	for i, spec := range []string{a, b} {
		file, cleanup, err := app.GitRevFile(spec)
		if err != nil {
			return diff.Report{}, fail(2, "%v", err)
		}
		d, err := load(file)
		cleanup()
		if err != nil {
			return diff.Report{}, err
		}
		docs[i] = d
	}
	r, err := diff.CompareWith(docs[0], docs[1], diff.Options{DecodeImage: decodeImage})
	if err != nil {
		return diff.Report{}, fail(exitInternal, "%v", err)
	}
	r.A, r.B = nameA, nameB
	return r, nil
}

// decodeImage is render/imgdec's decoder (KTX 2.0 and AVIF too) as the
// diff's ImageDecoder: the pixels are copied into Go memory.
func decodeImage(data []byte) (*image.NRGBA, error) {
	m, err := imgdec.Decode(data)
	if err != nil {
		return nil, err
	}
	defer m.Free()
	n := image.NewNRGBA(image.Rect(0, 0, m.Width, m.Height))
	copy(n.Pix, m.Pix)
	return n, nil
}

func writeDiff(r diff.Report, f report.Format, w io.Writer) error {
	switch f {
	case report.FormatJSON:
		return r.WriteJSON(w)
	case report.FormatSARIF:
		return r.WriteSARIF(w)
	}
	return r.WriteText(w)
}

// gitExternalDiff serves git's external diff convention: path old-file
// old-hex old-mode new-file new-hex new-mode. A file added or deleted is
// /dev/null on the other side. It exits 0 whatever it finds: git takes
// another status as the diff program failing.
func gitExternalDiff(fs *flag.FlagSet, f report.Format, w io.Writer) error {
	path, oldFile, newFile := fs.Arg(0), fs.Arg(1), fs.Arg(4)
	switch {
	case oldFile == "/dev/null" && newFile == "/dev/null":
		return nil
	case oldFile == "/dev/null" || newFile == "/dev/null":
		file, what := newFile, "new file"
		if newFile == "/dev/null" {
			file, what = oldFile, "deleted file"
		}
		fmt.Fprintf(w, "physview diff %s: %s\n", path, what)
		d, err := openDocument(file)
		if err != nil {
			fmt.Fprintf(w, "cannot read: %v\n", err)
			return nil
		}
		return diff.WriteSummary(w, d)
	}
	r, err := compareSpecs(oldFile, newFile, "a/"+path, "b/"+path)
	if err != nil {
		fmt.Fprintf(w, "physview diff %s: %v\n", path, err)
		return nil
	}
	fmt.Fprintf(w, "physview diff %s\n", path)
	return writeDiff(r, f, w)
}
