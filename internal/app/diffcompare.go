package app

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/scene"
	"physview/scene/diff"
)

// DiffCompare is the Diff tab's state: a second file (B) opened for compare
// against the open document (A), the changes from A to B, and what the
// view shows of them.
type DiffCompare struct {
	// Path is B's file ("" when nothing is compared); Doc is B.
	Path string
	Doc  *scene.Document
	// Show says what the 3D view draws: A, B, or A with B as a ghost.
	Show CompareShow
	// Selected is the change last clicked (-1 none).
	Selected int
	// Gen changes whenever what the view draws of the comparison does (the
	// report, Show): the viewport rebuilds its lines then.
	Gen int

	report diff.Report
	// What the report was made from: a new document or an edit of A makes
	// it stale.
	madeFor *scene.Document
	madeLen int
	madeOp  string
	// awaiting is set while the file chooser picks B.
	awaiting bool
	// changedA and changedB are the nodes any change is about.
	changedA, changedB map[int]bool
	// ghost is B's wireframe, made once (the lines on top are rebuilt at
	// every hover).
	ghost    []debugdraw.Line
	ghostFor *scene.Document
}

// CompareShow is what the 3D view draws while a file is compared.
type CompareShow int

// What the view shows: A (the open document, changed nodes tinted), B (the
// compared file, read only, with the same camera), or both (A, with B's
// meshes as a wireframe ghost).
const (
	ShowA CompareShow = iota
	ShowB
	ShowBoth
)

// CompareShowNames are the toggle's labels, by CompareShow.
var CompareShowNames = []string{"A (open)", "B (compared)", "Both (B as ghost)"}

// OpenCompareDialog asks for the file to compare the open document with
// (File > Open for compare...).
type OpenCompareDialog struct{}

// CompareWith compares the open document with the file at Path.
type CompareWith struct{ Path string }

// CloseCompare ends the comparison.
type CloseCompare struct{}

// SetCompareShow sets what the view shows (Show).
type SetCompareShow struct{ Show CompareShow }

// SelectChange selects the node change Index of the report is about and
// asks the window to frame it (in B when only B has it).
type SelectChange struct{ Index int }

func (OpenCompareDialog) intent() {}
func (CompareWith) intent()       {}
func (CloseCompare) intent()      {}
func (SetCompareShow) intent()    {}
func (SelectChange) intent()      {}

// doCompare carries out the compare intents, and the chooser's answer
// while it picks B; it reports whether it took in.
func (s *Session) doCompare(in Intent) bool {
	c := &s.Compare
	switch in := in.(type) {
	case OpenCompareDialog:
		if s.Doc != nil {
			c.awaiting = true
			s.files.chooser = ChooseOpen
		}
	case FileChosen:
		if !c.awaiting || in.Save {
			return false
		}
		c.awaiting = false
		s.CompareWith(in.Path)
	case ChooserCancelled, OpenDialog, SaveAsDialog:
		// The chooser answers someone else from now on.
		c.awaiting = false
		return false
	case CompareWith:
		s.CompareWith(in.Path)
	case CloseCompare:
		*c = DiffCompare{Selected: -1, Gen: c.Gen + 1}
	case SetCompareShow:
		if c.Doc != nil && in.Show != c.Show && in.Show >= 0 && int(in.Show) < len(CompareShowNames) {
			c.Show = in.Show
			c.Gen++
			s.logf("compare shows %s", CompareShowNames[in.Show])
		}
	case SelectChange:
		r := s.CompareReport()
		if in.Index < 0 || in.Index >= len(r.Changes) {
			return true
		}
		c.Selected = in.Index
		ch := r.Changes[in.Index]
		s.Select(ch.NodeA)
	default:
		return false
	}
	return true
}

// CompareWith reads path as B and compares the open document with it. It
// reads synchronously: compare files are versions of the open one.
func (s *Session) CompareWith(path string) {
	if s.Doc == nil {
		return
	}
	d, err := OpenDocument(path)
	if err != nil {
		s.Fail(fmt.Sprintf("compare: %v", err))
		return
	}
	s.Compare = DiffCompare{Path: path, Doc: d, Selected: -1, Gen: s.Compare.Gen + 1}
	r := s.CompareReport()
	s.Notice(fmt.Sprintf("compared with %s: %s", filepath.Base(path), countText(len(r.Changes))))
	s.logf("compared with %s: %s", filepath.Base(path), countText(len(r.Changes)))
}

func countText(n int) string {
	switch n {
	case 0:
		return "equal"
	case 1:
		return "1 change"
	}
	return fmt.Sprintf("%d changes", n)
}

// CompareReport returns the changes from the open document to B, made
// again when the document was replaced or edited since.
func (s *Session) CompareReport() diff.Report {
	c := &s.Compare
	if c.Doc == nil || s.Doc == nil {
		return diff.Report{Equal: true}
	}
	if c.madeFor == s.Doc && c.madeLen == s.Hist.Len() && c.madeOp == s.Hist.UndoName()+"|"+s.Hist.RedoName() {
		return c.report
	}
	r, err := diff.Compare(s.Doc, c.Doc)
	if err != nil {
		s.Fail(err.Error())
	}
	c.report = r
	c.report.A, c.report.B = s.Name, filepath.Base(c.Path)
	c.madeFor, c.madeLen, c.madeOp = s.Doc, s.Hist.Len(), s.Hist.UndoName()+"|"+s.Hist.RedoName()
	c.changedA, c.changedB = map[int]bool{}, map[int]bool{}
	for _, ch := range c.report.Changes {
		if ch.NodeA >= 0 {
			c.changedA[ch.NodeA] = true
		}
		if ch.NodeB >= 0 {
			c.changedB[ch.NodeB] = true
		}
	}
	c.Gen++
	return c.report
}

// CompareDoc returns B when the view should draw it instead of the open
// document (Show is ShowB), else nil.
func (s *Session) CompareDoc() *scene.Document {
	if s.Compare.Doc != nil && s.Compare.Show == ShowB && s.Doc != nil {
		return s.Compare.Doc
	}
	return nil
}

// ChangedNodes returns the nodes of the open document any change is about.
func (s *Session) ChangedNodes() map[int]bool {
	s.CompareReport()
	return s.Compare.changedA
}

// ChangeFocus is the world box to frame for the selected change when the
// view cannot frame the selection by its meshes: A's node has none (a
// collider alone: its shape's box), or only B has the node (B's node's
// meshes or shape). ok is false when the selection's meshes will do.
func (s *Session) ChangeFocus() (lo, hi mgl64.Vec3, ok bool) {
	c := &s.Compare
	r := s.CompareReport()
	if c.Doc == nil || c.Selected < 0 || c.Selected >= len(r.Changes) {
		return lo, hi, false
	}
	ch := r.Changes[c.Selected]
	switch {
	case ch.NodeA >= 0 && ch.NodeA < len(s.Doc.GLTF.Nodes):
		if s.Doc.GLTF.Nodes[ch.NodeA].Mesh != nil {
			return lo, hi, false
		}
		lo, hi = nodeWorldBounds(s.Doc, ch.NodeA)
	case ch.NodeB >= 0 && ch.NodeB < len(c.Doc.GLTF.Nodes):
		lo, hi = nodeWorldBounds(c.Doc, ch.NodeB)
	default:
		return lo, hi, false
	}
	return lo, hi, true
}

// nodeWorldBounds is the world box of node n's mesh, else of its collider
// or trigger shape, else a 0.5 m box at its origin.
func nodeWorldBounds(d *scene.Document, n int) (lo, hi mgl64.Vec3) {
	w := d.WorldMatrix(n)
	node := d.GLTF.Nodes[n]
	mlo, mhi := mgl64.Vec3{-0.25, -0.25, -0.25}, mgl64.Vec3{0.25, 0.25, 0.25}
	if node.Mesh != nil && *node.Mesh >= 0 && *node.Mesh < len(d.GLTF.Meshes) {
		mlo, mhi = d.MeshBounds(*node.Mesh)
	} else if sh, ok := bodyShape(d, n); ok && !sh.Type.UsesMesh() {
		if slo, shi := sh.Bounds(mgl64.Vec3{}, mgl64.Vec3{}); shi.Sub(slo).Len() > 0 && shi.Sub(slo).Len() < 1e6 {
			mlo, mhi = slo, shi
		}
	}
	lo = mgl64.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = mgl64.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for i := range 8 {
		p := mgl64.Vec3{pick(i&1, mlo[0], mhi[0]), pick(i&2, mlo[1], mhi[1]), pick(i&4, mlo[2], mhi[2])}
		q := w.Mul4x1(p.Vec4(1)).Vec3()
		for k := range 3 {
			lo[k], hi[k] = math.Min(lo[k], q[k]), math.Max(hi[k], q[k])
		}
	}
	return lo, hi
}

func pick(bit int, a, b float64) float64 {
	if bit != 0 {
		return b
	}
	return a
}

// Colours of the comparison's lines.
var (
	changedColor = [4]float32{1, 0.45, 0.1, 1}    // a changed node of A
	ghostColor   = [4]float32{0.3, 0.85, 1, 1}    // B's meshes over A
	addedColor   = [4]float32{0.35, 1, 0.35, 0.9} // a node only B has
)

// maxGhostLines caps B's wireframe: beyond it the ghost shows boxes.
const maxGhostLines = 400000

// CompareLines are the lines the view draws on top for the comparison:
// the boxes of A's changed nodes (orange), B's added nodes (green) and,
// with ShowBoth, B's meshes as a wireframe ghost.
func (s *Session) CompareLines() []debugdraw.Line {
	c := &s.Compare
	if c.Doc == nil || s.Doc == nil || c.Show == ShowB {
		return nil
	}
	r := s.CompareReport()
	var out []debugdraw.Line
	for n := range c.changedA {
		if n < len(s.Doc.GLTF.Nodes) {
			lo, hi := nodeWorldBounds(s.Doc, n)
			out = append(out, debugdraw.BoxLines(lo, hi, changedColor)...)
		}
	}
	for _, ch := range r.Changes {
		if ch.NodeA < 0 && ch.NodeB >= 0 && ch.NodeB < len(c.Doc.GLTF.Nodes) {
			lo, hi := nodeWorldBounds(c.Doc, ch.NodeB)
			out = append(out, debugdraw.BoxLines(lo, hi, addedColor)...)
		}
	}
	if c.Show == ShowBoth {
		if c.ghostFor != c.Doc {
			c.ghost, c.ghostFor = ghostLines(c.Doc), c.Doc
		}
		out = append(out, c.ghost...)
	}
	return out
}

// bodyShape is the shape of node n's collider, else of its trigger.
func bodyShape(d *scene.Document, n int) (scene.Shape, bool) {
	b := d.Nodes[n].Body
	if b == nil {
		return scene.Shape{}, false
	}
	i := -1
	if b.Collider != nil {
		i = b.Collider.Shape
	} else if b.Trigger != nil && b.Trigger.Nodes == nil {
		i = b.Trigger.Shape
	}
	if i < 0 || i >= len(d.Shapes) {
		return scene.Shape{}, false
	}
	return d.Shapes[i], true
}

// ghostLines are the triangle edges of every mesh node of d and the
// wireframes of its colliders and triggers (but mesh shapes), in the world.
func ghostLines(d *scene.Document) []debugdraw.Line {
	world := d.WorldMatrices()
	var out []debugdraw.Line
	for n := range d.GLTF.Nodes {
		if sh, ok := bodyShape(d, n); ok && !sh.Type.UsesMesh() && n < len(world) {
			out = append(out, debugdraw.Shape(sh, world[n], ghostColor, nil)...)
		}
	}
	for n, node := range d.GLTF.Nodes {
		if node == nil || node.Mesh == nil || *node.Mesh < 0 || *node.Mesh >= len(d.GLTF.Meshes) {
			continue
		}
		verts, tris, err := d.MeshTriangles(*node.Mesh)
		if err != nil {
			continue
		}
		if len(out)+3*len(tris) > maxGhostLines {
			lo, hi := nodeWorldBounds(d, n)
			out = append(out, debugdraw.BoxLines(lo, hi, ghostColor)...)
			continue
		}
		m := world[n]
		w := make([][3]float32, len(verts))
		for i, v := range verts {
			p := m.Mul4x1(v.Vec4(1))
			w[i] = [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
		}
		for _, t := range tris {
			for k := range 3 {
				a, b := t[k], t[(k+1)%3]
				if int(a) < len(w) && int(b) < len(w) {
					out = append(out, debugdraw.Line{A: w[a], B: w[b], Color: ghostColor})
				}
			}
		}
	}
	return out
}
