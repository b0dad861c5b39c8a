package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"physview/internal/app"
)

// cmdEdit runs `viewer edit`: it opens FILE in a session, applies each
// command as one undoable edit and saves once at the end (to OUT with -o),
// atomically; a bad command or value exits 2 naming it and writes nothing.
func cmdEdit(args []string, stdout io.Writer) error {
	fs := newFlags("edit")
	out := fs.String("o", "", "write the result to `OUT` instead of FILE")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, app.EditUsage())
			return &exitError{0, errors.New("")}
		}
		return fail(2, "edit: %v\n%s", err, app.EditUsage())
	}
	if fs.NArg() < 2 {
		return fail(2, "edit needs FILE and at least one COMMAND\n%s", app.EditUsage())
	}
	cmds, err := app.SplitCommands(fs.Args()[1:])
	if err != nil {
		return fail(2, "edit %s: %v (nothing written)", fs.Arg(0), err)
	}
	warnings, err := app.EditFile(fs.Arg(0), *out, cmds, func(c []string, edit, note string) {
		fmt.Fprintf(stdout, "%s: %s\n", strings.Join(c, " "), edit)
		if note != "" {
			fmt.Fprintln(stdout, "note:", note)
		}
	})
	if err != nil {
		return fail(2, "%v", err)
	}
	for _, w := range warnings {
		fmt.Fprintln(stdout, "warning:", w)
	}
	fmt.Fprintf(stdout, "saved %s (%d edits)\n", cmp.Or(*out, fs.Arg(0)), len(cmds))
	return nil
}
