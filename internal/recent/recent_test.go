package recent

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/tmp/cfg")
	p, err := DefaultPath()
	if err != nil || p != "/tmp/cfg/physview/recent.json" {
		t.Errorf("DefaultPath = %q, %v", p, err)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "/home/u")
	p, err = DefaultPath()
	if err != nil || p != "/home/u/.config/physview/recent.json" {
		t.Errorf("DefaultPath without XDG_CONFIG_HOME = %q, %v", p, err)
	}
}

func TestTouchOrderAndLimit(t *testing.T) {
	dir := t.TempDir()
	l, err := Load(filepath.Join(dir, "cfg", "recent.json"))
	if err != nil || len(l.Entries) != 0 {
		t.Fatalf("Load of a missing list = %v, %v", l.Entries, err)
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := 0; i < 12; i++ {
		l.Touch(filepath.Join(dir, fmt.Sprintf("f%d.glb", i)), t0.Add(time.Duration(i)*time.Minute))
	}
	l.Remember(filepath.Join(dir, "f5.glb"), Camera{Target: [3]float64{1, 2, 3}, Distance: 4.5, Yaw: 0.25, Pitch: -0.5, FovY: 0.785, Radius: 2}, "midnight")
	l.Touch(filepath.Join(dir, "f5.glb"), t0.Add(time.Hour))
	if err := l.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := Load(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"f5", "f11", "f10", "f9", "f8", "f7", "f6", "f4", "f3", "f2"}
	if len(back.Entries) != len(want) {
		t.Fatalf("%d entries, want %d", len(back.Entries), len(want))
	}
	for i, w := range want {
		if got := filepath.Base(back.Entries[i].Path); got != w+".glb" {
			t.Errorf("entry %d = %s, want %s.glb", i, got, w)
		}
	}
	e, ok := back.Find(filepath.Join(dir, "f5.glb"))
	if !ok || e.Camera == nil || e.Camera.Distance != 4.5 || e.Camera.Target != [3]float64{1, 2, 3} || e.Variant != "midnight" || !e.Opened.Equal(t0.Add(time.Hour)) {
		t.Errorf("f5 = %+v, camera %+v", e, e.Camera)
	}
}

func TestExistsAndBrokenList(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "there.gltf")
	os.WriteFile(f, []byte("{}"), 0o644)
	cases := []struct {
		path string
		want bool
	}{{f, true}, {filepath.Join(dir, "gone.gltf"), false}, {dir, false}}
	for _, c := range cases {
		if got := (Entry{Path: c.path}).Exists(); got != c.want {
			t.Errorf("Exists(%s) = %v, want %v", c.path, got, c.want)
		}
	}
	bad := filepath.Join(dir, "recent.json")
	os.WriteFile(bad, []byte("{not json"), 0o644)
	l, err := Load(bad)
	if err == nil || l == nil || len(l.Entries) != 0 {
		t.Errorf("broken list: %v, %v", l, err)
	}
}
