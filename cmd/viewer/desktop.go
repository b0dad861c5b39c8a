package main

import (
	"io"

	"physview/internal/desktop"
)

// viewer install-desktop / uninstall-desktop (internal/desktop does the work).

func cmdInstallDesktop(args []string, w io.Writer) error {
	flags := newFlags("install-desktop")
	exe := flags.String("exec", "", "the viewer binary the entry runs (default: this one)")
	if err := parseFlags(flags, args, 0, "no arguments"); err != nil {
		return err
	}
	abs, err := desktop.Executable(*exe, w)
	if err == nil {
		err = desktop.Install(abs, w)
	}
	if err != nil {
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
