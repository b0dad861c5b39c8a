package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	g "github.com/AllenDang/giu"

	"physview/internal/app"
	"physview/internal/app/viewport"
	"physview/scene"
)

// TestFitStatusDropsWholeParts: a status bar narrower than its text loses
// whole parts, the frame time first and the variant before "modified";
// the file name, Play's state and "modified" stay.
func TestFitStatusDropsWholeParts(t *testing.T) {
	parts := []statusPart{
		{"SheenChair.gltf", 0}, {"glTF", 4}, {"20 nodes, 16 shapes, 1 body", 5},
		{"playing 2.5 s", 0}, {"modified", 0}, {"default materials", 6},
		{"auto-reload", 7}, {"59.2 ms/frame", 8},
	}
	// fits by length in characters: a font of fixed width.
	for _, c := range []struct {
		room int
		want string
	}{
		{200, "SheenChair.gltf  |  glTF  |  20 nodes, 16 shapes, 1 body  |  playing 2.5 s  |  modified  |  default materials  |  auto-reload  |  59.2 ms/frame"},
		{125, "SheenChair.gltf  |  glTF  |  20 nodes, 16 shapes, 1 body  |  playing 2.5 s  |  modified  |  default materials  |  auto-reload"},
		{110, "SheenChair.gltf  |  glTF  |  20 nodes, 16 shapes, 1 body  |  playing 2.5 s  |  modified  |  default materials"},
		{90, "SheenChair.gltf  |  glTF  |  20 nodes, 16 shapes, 1 body  |  playing 2.5 s  |  modified"},
		{60, "SheenChair.gltf  |  glTF  |  playing 2.5 s  |  modified"},
		{50, "SheenChair.gltf  |  playing 2.5 s  |  modified"},
		{10, "SheenChair.gltf  |  playing 2.5 s  |  modified"},
	} {
		got := fitStatus(parts, func(s string) bool { return len(s) <= c.room })
		if got != c.want {
			t.Errorf("room %d:\n got %q\nwant %q", c.room, got, c.want)
		}
	}
}

// TestStatusTextCountsInTheSingular: one body is "1 body".
func TestStatusTextCountsInTheSingular(t *testing.T) {
	ss := app.New()
	ss.OpenDemo()
	s := &State{S: ss}
	if got := StatusText(s); !strings.Contains(got, "39 nodes, 27 shapes, 18 bodies") {
		t.Errorf("demo: %q", got)
	}
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 bodies"}, {1, "1 body"}, {2, "2 bodies"}} {
		if got := plural(c.n, "body", "bodies"); got != c.want {
			t.Errorf("plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestMeshNodesForVariants: the Variants tab offers the nodes with a mesh
// (not the empty ones, nor one whose mesh index is out of range), capped.
func TestMeshNodesForVariants(t *testing.T) {
	ss := app.New()
	ss.OpenDemo()
	d := ss.Doc
	var want []int
	for i, n := range d.GLTF.Nodes {
		if n.Mesh != nil {
			want = append(want, i)
		}
	}
	if len(want) < 5 || len(want) == len(d.GLTF.Nodes) {
		t.Fatalf("the demo has %d mesh nodes of %d: no test", len(want), len(d.GLTF.Nodes))
	}
	got, more := meshNodes(d, 100)
	if len(got) != len(want) || more != 0 {
		t.Fatalf("meshNodes = %v (+%d), want %v", got, more, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("meshNodes = %v, want %v", got, want)
		}
	}
	got, more = meshNodes(d, 3)
	if len(got) != 3 || got[2] != want[2] || more != len(want)-3 {
		t.Errorf("meshNodes(3) = %v +%d, want %v +%d", got, more, want[:3], len(want)-3)
	}
	bad := 99
	d2 := &scene.Document{GLTF: d.GLTF}
	nodes := append(d.GLTF.Nodes[:0:0], d.GLTF.Nodes...)
	nodes[want[0]].Mesh = &bad
	g2 := *d.GLTF
	g2.Nodes = nodes
	d2.GLTF = &g2
	if got, _ := meshNodes(d2, 100); len(got) != len(want)-1 || got[0] == want[0] {
		t.Errorf("with mesh 99 on node %d: %v", want[0], got)
	}
}

// TestHelpListsEveryShortcut: every key the view's shortcuts answer to is
// in the Help menu's list, and the list names no single key the view
// ignores.
func TestHelpListsEveryShortcut(t *testing.T) {
	listed := map[string]bool{}
	for _, s := range Shortcuts {
		for _, k := range strings.Split(s.Keys, ", ") {
			for _, k := range strings.Split(k, " / ") {
				listed[k] = true
			}
		}
	}
	names := map[viewport.Key]string{
		viewport.KeyF: "F", viewport.KeyHome: "Home", viewport.KeyW: "W", viewport.KeyE: "E",
		viewport.KeyR: "R", viewport.KeyQ: "Q", viewport.KeySpace: "Space",
		viewport.KeyComma: "Comma", viewport.KeyPeriod: "Period",
	}
	for k := viewport.Key(0); k < viewport.NumKeys; k++ {
		var p [viewport.NumKeys]bool
		p[k] = true
		plain := viewport.Shortcut(viewport.Keys{Pressed: p})
		if plain != nil && !listed[names[k]] {
			t.Errorf("key %d (%q) does %T but Help does not list it", k, names[k], plain)
		}
		if plain == nil && listed[names[k]] && names[k] != "" {
			t.Errorf("Help lists %q, which the view ignores", names[k])
		}
	}
	for _, k := range []string{"Ctrl+Z", "Ctrl+Y", "Ctrl+Shift+Z", "Ctrl+S", "Ctrl+Shift+S", "Ctrl+O", "Ctrl+Q", "Esc"} {
		if !listed[k] {
			t.Errorf("Help does not list %s", k)
		}
	}
}

// TestGroupFindings: runs of findings that differ only in their path, about
// no node, are one entry listing the paths; one about a node, or with
// another sentence, starts a new entry.
func TestGroupFindings(t *testing.T) {
	ktx := func(i int) scene.Finding {
		return scene.Finding{Severity: scene.Warning, Code: "VALUE_NOT_IN_LIST", Path: fmt.Sprintf("/images/%d/mimeType", i),
			Message: `invalid value "image/ktx2"; valid values are image/jpeg, image/png`}
	}
	var fs []scene.Finding
	for i := 0; i < 19; i++ {
		fs = append(fs, ktx(i))
	}
	empty := func(n int) scene.Finding {
		return scene.Finding{Severity: scene.Info, Code: "NODE_EMPTY", Path: fmt.Sprintf("/nodes/%d", n), Message: "empty node"}
	}
	fs = append(fs, empty(2), empty(4), ktx(19))
	node := func(path string) int {
		var n int
		if _, err := fmt.Sscanf(path, "/nodes/%d", &n); err == nil {
			return n
		}
		return -1
	}
	got := GroupFindings(fs, node)
	if len(got) != 4 {
		t.Fatalf("%d groups, want 4: %+v", len(got), got)
	}
	if len(got[0].Paths) != 19 || got[0].Node != -1 || got[0].Paths[18] != "/images/18/mimeType" {
		t.Errorf("group 0: node %d, %d paths %v", got[0].Node, len(got[0].Paths), got[0].Paths)
	}
	if want := "/images/0/mimeType\n/images/1/mimeType\n/images/2/mimeType\nand 16 more"; got[0].PathText() != want {
		t.Errorf("PathText = %q, want %q", got[0].PathText(), want)
	}
	for i, n := range []int{2, 4} {
		if g := got[1+i]; g.Node != n || len(g.Paths) != 1 {
			t.Errorf("group %d: node %d, paths %v; want node %d alone", 1+i, g.Node, g.Paths, n)
		}
	}
	if g := got[3]; len(g.Paths) != 1 || g.PathText() != "/images/19/mimeType" {
		t.Errorf("the ktx2 warning after the nodes: %+v", g)
	}
	// Four paths are listed whole rather than "and 1 more".
	if txt := GroupFindings(fs[:4], node)[0].PathText(); strings.Count(txt, "\n") != 3 || strings.Contains(txt, "more") {
		t.Errorf("four paths: %q", txt)
	}
}

// TestPickOnVariantsStaysOnVariants: a pick in the 3D view brings the
// Inspector forward, except over the Variants tab, which then shows the
// picked node's materials.
func TestPickOnVariantsStaysOnVariants(t *testing.T) {
	ss := app.New()
	ss.OpenDemo()
	s := &State{S: ss}
	ss.Do(app.Select{Node: 1, FromView: true})
	if f := tabFlagsOver(s, "Inspector", true); f != 0 {
		t.Errorf("pick over the Variants tab: flags %v, want it kept", f)
	}
	ss.Do(app.Select{Node: 2, FromView: true})
	if f := tabFlagsOver(s, "Inspector", false); f != g.TabItemFlagsSetSelected {
		t.Errorf("pick over another tab: flags %v, want the Inspector", f)
	}
}

// TestMiddleEllipsis: a long file name gives way in its middle, keeping
// its start and its extension, to the width asked for; a short one stays.
func TestMiddleEllipsis(t *testing.T) {
	fits := func(n int) func(string) bool { return func(s string) bool { return len([]rune(s)) <= n } }
	name := "warehouse_shelving_collision_pass_final_v3.glb"
	for _, tc := range []struct {
		max  int
		want string
	}{
		{100, name},
		{20, "warehouse...l_v3.glb"},
		{8, "war...lb"},
	} {
		got := MiddleEllipsis(name, fits(tc.max))
		if got != tc.want || len([]rune(got)) > tc.max {
			t.Errorf("fit in %d: %q, want %q", tc.max, got, tc.want)
		}
	}
	// In the status bar, the name shortens only once every droppable part is gone.
	parts := []statusPart{{name, 0}, {"modified", 0}, {"59.2 ms/frame", 8}}
	got := fitStatus(parts, fits(40))
	if len(got) > 40 || !strings.HasSuffix(got, ".glb"+statusSep+"modified") || !strings.HasPrefix(got, "warehouse") {
		t.Errorf("status in 40: %q", got)
	}
}

// TestBrowserDoubleClick: two clicks on one entry soon after each other
// open it, in time or, in a slowly drawn window, within a few frames; a
// click on another entry, a late click or a click after a new listing
// does not.
func TestBrowserDoubleClick(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	b := &FileBrowser{}
	if b.Clicked(0, t0) {
		t.Error("a first click on entry 0 is a double-click")
	}
	if !b.Clicked(0, t0.Add(200*time.Millisecond)) {
		t.Error("two clicks 0.2 s apart are no double-click")
	}
	if b.Clicked(0, t0.Add(300*time.Millisecond)) {
		t.Error("a third click is a double-click too")
	}
	b.frame += 10
	b.Clicked(1, t0.Add(2*time.Second))
	if b.Clicked(2, t0.Add(2100*time.Millisecond)) {
		t.Error("clicks on two entries are a double-click")
	}
	b.frame += 10
	if b.Clicked(2, t0.Add(5*time.Second)) {
		t.Error("clicks 3 s and 10 frames apart are a double-click")
	}
	// Slow frames: 0.84 s apart but 3 frames.
	b.frame += 3
	if !b.Clicked(2, t0.Add(5840*time.Millisecond)) {
		t.Error("clicks 3 frames apart in a slow window are no double-click")
	}
	b.Clicked(4, t0.Add(9*time.Second))
	b.Dir = t.TempDir()
	b.List()
	if b.Clicked(4, t0.Add(9100*time.Millisecond)) {
		t.Error("a click in a new listing pairs with one in the old")
	}
}
