package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"physview/internal/desktop"
)

// viewer install-desktop / uninstall-desktop (internal/desktop does the work).

func cmdInstallDesktop(args []string, w io.Writer) error {
	flags := newFlags("install-desktop")
	exe := flags.String("exec", "", "the viewer binary the entry runs (default: this one)")
	if err := parseFlags(flags, args, 0, "no arguments"); err != nil {
		return err
	}
	if *exe == "" {
		p, err := os.Executable()
		if err != nil {
			return fail(1, "install-desktop: cannot tell where this binary is (use -exec PATH): %v", err)
		}
		*exe = p
		if strings.Contains(p, string(filepath.Separator)+"go-build") {
			fmt.Fprintf(w, "note: %s is a temporary 'go run' binary; build one first (go build -o ~/.local/bin/viewer ./cmd/viewer) and run install-desktop from it, or pass -exec\n", p)
		}
	}
	abs, err := filepath.Abs(*exe)
	if err != nil {
		return fail(1, "install-desktop: %v", err)
	}
	if err := desktop.Install(abs, w); err != nil {
		return fail(1, "install-desktop: %v", err)
	}
	return nil
}

func cmdUninstallDesktop(args []string, w io.Writer) error {
	flags := newFlags("uninstall-desktop")
	if err := parseFlags(flags, args, 0, "no arguments"); err != nil {
		return err
	}
	if err := desktop.Uninstall(w); err != nil {
		return fail(1, "uninstall-desktop: %v", err)
	}
	return nil
}
