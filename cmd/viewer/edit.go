package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"physview/internal/app"
)

// editUsage is `viewer edit`'s help: the commands come from the session's
// table, so a command added there shows here.
func editUsage() string {
	var b strings.Builder
	b.WriteString("usage: viewer edit [-o OUT] FILE COMMAND...\n  commands (each one undoable edit; NODE is a node name or index; \";\" may separate them):\n")
	for _, c := range app.EditCommands() {
		fmt.Fprintf(&b, "    %s\n", c.Usage)
	}
	return b.String()
}

// cmdEdit runs `viewer edit`: it opens FILE in a session, applies each
// command as one undoable edit and saves once at the end (to OUT with -o),
// atomically; a bad command or value exits 2 naming it and writes nothing.
func cmdEdit(args []string, stdout io.Writer) error {
	fs := newFlags("edit")
	out := fs.String("o", "", "write the result to `OUT` instead of FILE")
	if err := fs.Parse(args); err != nil {
		return fail(2, "edit: %v\n%s", err, editUsage())
	}
	if fs.NArg() < 2 {
		return fail(2, "edit needs FILE and at least one COMMAND\n%s", editUsage())
	}
	file := fs.Arg(0)
	cmds, err := app.SplitCommands(fs.Args()[1:])
	if err != nil {
		return fail(2, "edit: %v", err)
	}
	if _, err := os.Stat(file); err != nil {
		return fail(2, "%s: %v", file, unwrapErr(err))
	}
	s := app.New()
	if err := s.LoadNow(file); err != nil {
		return fail(2, "%v", err)
	}
	for _, c := range cmds {
		if err := s.RunCommand(c); err != nil {
			var ce *app.CommandError
			if errors.As(err, &ce) {
				return fail(2, "edit %s: %v (nothing written)", file, err)
			}
			return fail(2, "edit %s: %v", file, err)
		}
		fmt.Fprintf(stdout, "%s: %s\n", strings.Join(c, " "), s.Hist.UndoName())
	}
	target := file
	if *out != "" {
		target = *out
	}
	warnings, err := s.SaveTo(target)
	if err != nil {
		return fail(2, "edit: %v", err)
	}
	for _, w := range warnings {
		fmt.Fprintln(stdout, "warning:", w)
	}
	fmt.Fprintf(stdout, "saved %s (%d edits)\n", target, len(cmds))
	return nil
}
