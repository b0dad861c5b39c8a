// Package desktop installs and removes the viewer's desktop integration: a
// desktop entry, an icon, the glTF MIME types and the default-application
// associations in the user's XDG folders, so that a double-click on a
// .gltf or .glb opens the viewer.
package desktop

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// desktopID is the desktop entry's file name.
const desktopID = "physview.desktop"

// desktopMIMETypes are the types the entry opens.
var desktopMIMETypes = []string{"model/gltf+json", "model/gltf-binary"}

// xdgDir is $env when it is an absolute path, else ~/fallback.
func xdgDir(env, fallback string) (string, error) {
	if d := os.Getenv(env); filepath.IsAbs(d) {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no %s and no home folder: %w", env, err)
	}
	return filepath.Join(home, fallback), nil
}

// desktopFiles are the paths install-desktop writes.
type desktopFiles struct {
	entry, icon, mimePackage, mimeapps string
	dataDir                            string
}

func desktopPaths() (desktopFiles, error) {
	data, err := xdgDir("XDG_DATA_HOME", ".local/share")
	if err != nil {
		return desktopFiles{}, err
	}
	config, err := xdgDir("XDG_CONFIG_HOME", ".config")
	if err != nil {
		return desktopFiles{}, err
	}
	return desktopFiles{
		entry:       filepath.Join(data, "applications", desktopID),
		icon:        filepath.Join(data, "icons", "hicolor", "scalable", "apps", "physview.svg"),
		mimePackage: filepath.Join(data, "mime", "packages", "physview.xml"),
		mimeapps:    filepath.Join(config, "mimeapps.list"),
		dataDir:     data,
	}, nil
}

// desktopEntry is the .desktop file for the viewer at exe.
func desktopEntry(exe string) string {
	return `[Desktop Entry]
Type=Application
Name=physview
GenericName=glTF Physics Viewer
Comment=View and fix physics-enabled glTF scenes (OMI physics, material variants, XODE)
Exec=` + desktopQuote(exe) + ` %f
TryExec=` + exe + `
Icon=physview
Terminal=false
Categories=Graphics;3DGraphics;Viewer;
MimeType=` + strings.Join(desktopMIMETypes, ";") + `;
Keywords=glTF;GLB;physics;collider;OMI;XODE;
StartupNotify=true
`
}

// desktopQuote quotes an Exec argument when it needs it (the desktop entry
// spec's rules: double quotes, with ", `, $ and \ escaped).
func desktopQuote(s string) string {
	if !strings.ContainsAny(s, " \t\n\"'\\><~|&;$*?#()`") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\\\`, `"`, `\\"`, "`", "\\\\`", `$`, `\\$`)
	return `"` + r.Replace(s) + `"`
}

// mimePackage declares the glTF types for systems whose shared-mime-info
// predates them.
const mimePackage = `<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="model/gltf+json">
    <comment>glTF scene</comment>
    <sub-class-of type="application/json"/>
    <glob pattern="*.gltf"/>
  </mime-type>
  <mime-type type="model/gltf-binary">
    <comment>glTF binary scene</comment>
    <magic priority="60">
      <match type="string" value="glTF" offset="0"/>
    </magic>
    <glob pattern="*.glb"/>
  </mime-type>
</mime-info>
`

// desktopIcon is the application icon: a wireframe box over a ground line.
const desktopIcon = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
  <rect x="4" y="4" width="120" height="120" rx="20" fill="#2b2f38"/>
  <path d="M20 100 H108" stroke="#7f8aa3" stroke-width="4" stroke-linecap="round"/>
  <g fill="none" stroke="#5fd068" stroke-width="5" stroke-linejoin="round">
    <path d="M40 52 L64 38 L88 52 L88 84 L64 98 L40 84 Z"/>
    <path d="M40 52 L64 66 L88 52 M64 66 V98"/>
  </g>
  <circle cx="64" cy="24" r="7" fill="#b47cf0"/>
</svg>
`

func writeFileMkdir(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// editMimeapps adds (or removes) physview.desktop as the default for the
// glTF types in mimeapps.list, leaving every other line as it was.
func editMimeapps(path string, add bool) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	isOurs := map[string]bool{}
	for _, t := range desktopMIMETypes {
		isOurs[t] = true
	}
	// others are the other applications already listed for our types;
	// they stay, after physview.
	others := map[string][]string{}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		trim := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(trim, "[") {
			section = trim
		} else if k, v, ok := strings.Cut(trim, "="); ok && section == "[Default Applications]" && isOurs[strings.TrimSpace(k)] {
			for _, app := range strings.Split(v, ";") {
				if app = strings.TrimSpace(app); app != "" && app != desktopID {
					others[strings.TrimSpace(k)] = append(others[strings.TrimSpace(k)], app)
				}
			}
		}
	}
	var out []string
	section, inserted := "", false
	insert := func() {
		if add && !inserted {
			for _, t := range desktopMIMETypes {
				out = append(out, t+"="+strings.Join(append([]string{desktopID}, others[t]...), ";")+";")
			}
			inserted = true
		}
	}
	sc = bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "[") {
			if section == "[Default Applications]" {
				insert()
			}
			section = trim
			out = append(out, line)
			if section == "[Default Applications]" {
				insert()
			}
			continue
		}
		if section == "[Default Applications]" {
			if k, _, ok := strings.Cut(trim, "="); ok && isOurs[strings.TrimSpace(k)] {
				// Drop our entry; keep any other application listed for the type.
				if rest := others[strings.TrimSpace(k)]; len(rest) > 0 && !add {
					out = append(out, strings.TrimSpace(k)+"="+strings.Join(rest, ";")+";")
				}
				continue
			}
		}
		out = append(out, line)
	}
	if add && !inserted {
		if len(out) > 0 && out[len(out)-1] != "" {
			out = append(out, "")
		}
		out = append(out, "[Default Applications]")
		insert()
	}
	text := strings.Join(out, "\n") + "\n"
	return writeFileMkdir(path, []byte(text))
}

// refreshDesktopCaches runs update-mime-database and
// update-desktop-database when they are installed, so file managers see
// the change at once.
func refreshDesktopCaches(p desktopFiles, w io.Writer) {
	for _, c := range [][]string{
		{"update-mime-database", filepath.Join(p.dataDir, "mime")},
		{"update-desktop-database", filepath.Join(p.dataDir, "applications")},
	} {
		if _, err := exec.LookPath(c[0]); err != nil {
			continue
		}
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			fmt.Fprintf(w, "note: %s: %v %s\n", c[0], err, bytes.TrimSpace(out))
		} else {
			fmt.Fprintln(w, "ran", strings.Join(c, " "))
		}
	}
}

// Executable returns the absolute path of the viewer binary the entry
// should run: exe, or this binary when exe is "" (saying on w when that is
// a temporary 'go run' build, which the entry would outlive).
func Executable(exe string, w io.Writer) (string, error) {
	if exe == "" {
		p, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("cannot tell where this binary is (use -exec PATH): %v", err)
		}
		exe = p
		if strings.Contains(p, string(filepath.Separator)+"go-build") {
			fmt.Fprintf(w, "note: %s is a temporary 'go run' binary; build one first (go build -o ~/.local/bin/viewer ./cmd/viewer) and run install-desktop from it, or pass -exec\n", p)
		}
	}
	return filepath.Abs(exe)
}

// Install writes the entry (running exe, an absolute path), the icon and
// the MIME package, makes the entry the default for the glTF types, and
// refreshes the desktop's caches, saying on w what it wrote.
func Install(exe string, w io.Writer) error {
	paths, err := desktopPaths()
	if err != nil {
		return err
	}
	for _, f := range []struct{ path, text string }{
		{paths.entry, desktopEntry(exe)},
		{paths.icon, desktopIcon},
		{paths.mimePackage, mimePackage},
	} {
		if err := writeFileMkdir(f.path, []byte(f.text)); err != nil {
			return err
		}
		fmt.Fprintln(w, "wrote", f.path)
	}
	if err := editMimeapps(paths.mimeapps, true); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s (%s opens %s)\n", paths.mimeapps, desktopID, strings.Join(desktopMIMETypes, ", "))
	refreshDesktopCaches(paths, w)
	return nil
}

// Uninstall removes what Install wrote and the entry's associations
// (other applications' stay), saying on w what it removed.
func Uninstall(w io.Writer) error {
	paths, err := desktopPaths()
	if err != nil {
		return err
	}
	for _, p := range []string{paths.entry, paths.icon, paths.mimePackage} {
		switch err := os.Remove(p); {
		case err == nil:
			fmt.Fprintln(w, "removed", p)
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
	}
	if err := editMimeapps(paths.mimeapps, false); err != nil {
		return err
	}
	fmt.Fprintf(w, "removed %s from %s\n", desktopID, paths.mimeapps)
	refreshDesktopCaches(paths, w)
	return nil
}
