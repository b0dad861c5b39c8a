package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstallDesktop(t *testing.T) {
	data, config := t.TempDir(), t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("XDG_CONFIG_HOME", config)
	mimeapps := filepath.Join(config, "mimeapps.list")
	// Someone else's associations must survive install and uninstall.
	before := "[Default Applications]\ntext/plain=gedit.desktop;\nmodel/gltf-binary=f3d.desktop;\n\n[Added Associations]\nimage/png=eog.desktop;\n"
	os.WriteFile(mimeapps, []byte(before), 0o644)

	exe := "/opt/phys view/viewer"
	code, out, errOut := runCLI("install-desktop", "-exec", exe)
	if code != 0 {
		t.Fatalf("install-desktop: exit %d: %s", code, errOut)
	}
	entry := filepath.Join(data, "applications", "physview.desktop")
	for _, p := range []string{entry, filepath.Join(data, "icons/hicolor/scalable/apps/physview.svg"), filepath.Join(data, "mime/packages/physview.xml")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("not written: %v", err)
		}
		if !strings.Contains(out, "wrote "+p) {
			t.Errorf("output does not name %s:\n%s", p, out)
		}
	}
	text, _ := os.ReadFile(entry)
	for _, want := range []string{"MimeType=model/gltf+json;model/gltf-binary;", `Exec="/opt/phys view/viewer" %f`, "Icon=physview"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("desktop entry lacks %q:\n%s", want, text)
		}
	}
	if _, err := exec.LookPath("desktop-file-validate"); err != nil {
		t.Log("desktop-file-validate is not installed (apt-get install desktop-file-utils): entry not validated")
	} else if b, err := exec.Command("desktop-file-validate", entry).CombinedOutput(); err != nil || len(b) > 0 {
		t.Errorf("desktop-file-validate: %v\n%s", err, b)
	}
	got, _ := os.ReadFile(mimeapps)
	wantApps := "[Default Applications]\nmodel/gltf+json=physview.desktop;\nmodel/gltf-binary=physview.desktop;f3d.desktop;\ntext/plain=gedit.desktop;\n\n[Added Associations]\nimage/png=eog.desktop;\n"
	if string(got) != wantApps {
		t.Errorf("mimeapps.list after install:\n%s\nwant:\n%s", got, wantApps)
	}
	// Installing twice changes nothing.
	runCLI("install-desktop", "-exec", exe)
	if again, _ := os.ReadFile(mimeapps); string(again) != wantApps {
		t.Errorf("mimeapps.list after a second install:\n%s", again)
	}

	code, out, errOut = runCLI("uninstall-desktop")
	if code != 0 {
		t.Fatalf("uninstall-desktop: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(entry); !os.IsNotExist(err) || !strings.Contains(out, "removed "+entry) {
		t.Errorf("entry still there (%v) or not reported:\n%s", err, out)
	}
	got, _ = os.ReadFile(mimeapps)
	if want := "[Default Applications]\nmodel/gltf-binary=f3d.desktop;\ntext/plain=gedit.desktop;\n\n[Added Associations]\nimage/png=eog.desktop;\n"; string(got) != want {
		t.Errorf("mimeapps.list after uninstall:\n%s\nwant:\n%s", got, want)
	}
}
