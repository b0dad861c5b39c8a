package xode

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// Save writes d as an XODE 1.0r23 file (atomically) and returns warnings
// about what XODE cannot express (gravity fields, triggers, material
// variants, visual meshes, tapered shapes, convex hulls).
func Save(d *scene.Document, path string) ([]string, error) {
	data, warnings, err := Encode(d)
	if err != nil {
		return warnings, fmt.Errorf("%s: %w", path, err)
	}
	if err := scene.WriteFileAtomic(path, data); err != nil {
		return warnings, fmt.Errorf("%s: %w", path, err)
	}
	return warnings, nil
}

// writer emits XODE for a document.
type writer struct {
	d        *scene.Document
	world    []mgl64.Mat4
	buf      bytes.Buffer
	depth    int
	warnings []string
	warned   map[string]bool
	joints   map[int][]int // container node -> joint nodes emitted at its end
	names    map[int]string
}

func (w *writer) warn(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !w.warned[s] {
		w.warned[s] = true
		w.warnings = append(w.warnings, s)
	}
}

// Encode returns the XODE text of d and the warnings about what it left out.
func Encode(d *scene.Document) ([]byte, []string, error) {
	w := &writer{d: d, world: d.WorldMatrices(), warned: map[string]bool{}, joints: map[int][]int{}, names: map[int]string{}}
	w.checkInexpressible()
	w.buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	roots := []int{}
	for _, n := range d.SceneNodes() {
		if d.Parent(n) < 0 {
			roots = append(roots, n)
		}
	}
	// An imported file has one root node that is the xode element itself.
	if len(roots) == 1 && w.kind(roots[0]) == "xode" {
		r := roots[0]
		w.open("xode", w.attrs(r))
		w.exts(r)
		for _, c := range w.d.Children(r) {
			w.node(c, r)
		}
		w.close("xode")
		return w.buf.Bytes(), w.warnings, nil
	}
	w.open("xode", [][2]string{{"version", "1.0r23"}})
	w.open("world", nil)
	w.open("space", nil)
	for _, r := range roots {
		w.node(r, -1)
	}
	w.flushJoints(-1)
	w.close("space")
	w.close("world")
	w.close("xode")
	return w.buf.Bytes(), w.warnings, nil
}

func (w *writer) checkInexpressible() {
	d := w.d
	if d.WorldGravity != nil {
		w.warn("world gravity is not written: XODE leaves gravity to the application")
	}
	for i, ne := range d.Nodes {
		if ne.Gravity != nil {
			w.warn("gravity fields are not written: XODE has none (node %q)", d.GLTF.Nodes[i].Name)
		}
		if ne.Body != nil && ne.Body.Trigger != nil {
			w.warn("triggers are not written: XODE has none (node %q)", d.GLTF.Nodes[i].Name)
		}
	}
	if len(d.Variants) > 0 {
		w.warn("material variants are not written: XODE has no materials")
	}
	if len(d.PhysicsMaterials) > 0 || len(d.CollisionFilters) > 0 {
		w.warn("physics materials and collision filters are not written: ODE sets them per contact")
	}
}

// xodeExtras returns the node's extras.xode object from an import, or nil.
func (w *writer) xodeExtras(n int) map[string]any {
	m, ok := w.d.GLTF.Nodes[n].Extras.(map[string]any)
	if !ok {
		return nil
	}
	x, _ := m["xode"].(map[string]any)
	return x
}

// kind returns the XODE element a node is written as.
func (w *writer) kind(n int) string {
	x := w.xodeExtras(n)
	if x != nil {
		if _, ok := x["axisFor"]; ok {
			return "axis"
		}
		if _, ok := x["planeSource"]; ok {
			return "plane"
		}
		if _, ok := x["connectedOf"]; ok {
			return "connected"
		}
		if e, ok := x["element"].(string); ok {
			return e
		}
	}
	ne := w.d.Nodes[n]
	switch {
	case ne.Joint != nil:
		return "joint"
	case ne.Body != nil && ne.Body.Motion != nil:
		return "body"
	case ne.Body != nil && ne.Body.Collider != nil:
		return "geom"
	}
	return ""
}

// maxIndent is the deepest indentation written: past it, elements line
// up at maxIndent tabs, so that the output of n nested bodies grows with
// n, not n squared (a chain of 2,000 bodies wrote 28 MB).
const maxIndent = 32

func (w *writer) indent() { w.buf.WriteString(strings.Repeat("\t", min(w.depth, maxIndent))) }

func (w *writer) open(name string, attrs [][2]string) {
	w.indent()
	w.buf.WriteString("<" + name)
	w.writeAttrs(attrs)
	w.buf.WriteString(">\n")
	w.depth++
}

func (w *writer) close(name string) {
	w.depth--
	w.indent()
	w.buf.WriteString("</" + name + ">\n")
}

func (w *writer) empty(name string, attrs [][2]string) {
	w.indent()
	w.buf.WriteString("<" + name)
	w.writeAttrs(attrs)
	w.buf.WriteString("/>\n")
}

func (w *writer) writeAttrs(attrs [][2]string) {
	for _, a := range attrs {
		w.buf.WriteString(" " + a[0] + `="`)
		xml.EscapeText(&w.buf, []byte(a[1]))
		w.buf.WriteString(`"`)
	}
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// attrs returns the node's name and the attributes kept from import, in
// their order.
func (w *writer) attrs(n int) [][2]string {
	var out [][2]string
	if name := w.d.GLTF.Nodes[n].Name; name != "" {
		out = append(out, [2]string{"name", name})
	}
	list, _ := w.xodeExtras(n)["attributes"].([]any)
	for _, a := range list {
		if kv, ok := a.([]any); ok && len(kv) == 2 {
			out = append(out, [2]string{fmt.Sprint(kv[0]), fmt.Sprint(kv[1])})
		}
	}
	return out
}

// hasAttr reports whether attrs has key.
func hasAttr(attrs [][2]string, key string) bool {
	for _, a := range attrs {
		if a[0] == key {
			return true
		}
	}
	return false
}

// exts writes back the node's ext elements verbatim ("+retain").
func (w *writer) exts(n int) {
	x := w.xodeExtras(n)
	list, _ := x["ext"].([]any)
	for _, e := range list {
		if s, ok := e.(string); ok {
			w.indent()
			w.buf.WriteString(s + "\n")
		}
	}
}

// transform writes the node's transform relative to the emitted ancestor
// (a matrix4f in XODE's row-vector layout, or a position alone).
func (w *writer) transform(n, ancestor int, extra mgl64.Mat4) {
	m := w.world[n].Mul4(extra)
	if ancestor >= 0 {
		m = w.world[ancestor].Inv().Mul4(m)
	}
	if isIdentity(m) {
		return
	}
	w.open("transform", nil)
	if isIdentity(m.Mat3().Mat4()) {
		w.empty("position", [][2]string{{"x", num(clean(m[12]))}, {"y", num(clean(m[13]))}, {"z", num(clean(m[14]))}})
	} else {
		var attrs [][2]string
		for i := 0; i < 4; i++ {
			for j := 0; j < 4; j++ {
				attrs = append(attrs, [2]string{fmt.Sprintf("m%d%d", i, j), num(clean(m[i*4+j]))})
			}
		}
		w.empty("matrix4f", attrs)
	}
	w.close("transform")
}

// clean rounds away binary noise that matrix products leave.
func clean(f float64) float64 {
	if r := math.Round(f); math.Abs(f-r) < 1e-12 {
		return r
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	return v
}

func isIdentity(m mgl64.Mat4) bool {
	id := mgl64.Ident4()
	for i := range m {
		if math.Abs(m[i]-id[i]) > 1e-12 {
			return false
		}
	}
	return true
}

// node writes node n (and its subtree) whose nearest written ancestor is
// ancestor (-1 for the world).
func (w *writer) node(n, ancestor int) {
	d := w.d
	switch k := w.kind(n); k {
	case "world", "space", "group", "jointgroup":
		w.open(k, w.attrs(n))
		w.transform(n, ancestor, mgl64.Ident4())
		w.exts(n)
		for _, c := range d.Children(n) {
			w.node(c, n)
		}
		w.flushJoints(n)
		w.close(k)
	case "body":
		w.body(n, ancestor)
	case "geom":
		w.geom(n, ancestor)
	case "joint":
		w.joints[w.container(n)] = append(w.joints[w.container(n)], n)
	case "axis", "plane", "connected":
		// Written by their geom or joint.
	default:
		if d.GLTF.Nodes[n].Mesh != nil {
			w.warn("visual meshes are not written: XODE has no visuals")
		}
		// A node without physics of its own: its children are written
		// relative to the ancestor, its transform folded into theirs.
		for _, c := range d.Children(n) {
			w.node(c, ancestor)
		}
	}
}

// container returns the nearest ancestor written as a container (-1: the
// default space), where joints are written.
func (w *writer) container(n int) int {
	c := -1
	w.d.Ancestors(n, func(a int) bool {
		switch w.kind(a) {
		case "space", "group", "jointgroup", "world":
			c = a
			return false
		}
		return true
	})
	return c
}

func (w *writer) body(n, ancestor int) {
	d := w.d
	attrs := w.attrs(n)
	mo := d.Nodes[n].Body.Motion
	if mo != nil && mo.GravityFactor == 0 && !hasAttr(attrs, "gravitymode") {
		attrs = append(attrs, [2]string{"gravitymode", "0"})
	} else if mo != nil && mo.GravityFactor != 0 && mo.GravityFactor != 1 {
		w.warn("gravityFactor %g is written as gravitymode 1: ODE only turns gravity on or off", mo.GravityFactor)
	}
	if mo != nil && mo.Type != scene.MotionDynamic {
		w.warn("%s bodies are written as ODE bodies, which are dynamic (node %q)", mo.Type, d.GLTF.Nodes[n].Name)
	}
	w.open("body", attrs)
	w.transform(n, ancestor, mgl64.Ident4())
	x := w.xodeExtras(n)
	for _, k := range []string{"torque", "force"} {
		if v, ok := x[k].([]any); ok && len(v) == 3 {
			w.empty(k, [][2]string{{"x", fmt.Sprint(v[0])}, {"y", fmt.Sprint(v[1])}, {"z", fmt.Sprint(v[2])}})
		}
	}
	if fr, ok := x["finiteRotation"].(map[string]any); ok {
		keys := make([]string, 0, len(fr))
		for k := range fr {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var a [][2]string
		for _, k := range keys {
			a = append(a, [2]string{k, fmt.Sprint(fr[k])})
		}
		w.empty("finiteRotation", a)
	}
	if mo != nil {
		if v := mo.LinearVelocity; v != [3]float64{} {
			w.empty("linearVel", vecAttrs(v))
		}
		if v := mo.AngularVelocity; v != [3]float64{} {
			w.empty("angularVel", vecAttrs(v))
		}
		w.mass(mo)
	}
	w.exts(n)
	if d.Nodes[n].Body.Collider != nil && d.Nodes[n].Body.Collider.Shape >= 0 {
		// A shape on the body node itself: a geom at the body's origin.
		w.open("geom", nil)
		w.shape(n)
		w.close("geom")
	}
	for _, c := range d.Children(n) {
		w.node(c, n)
	}
	w.close("body")
}

func vecAttrs(v [3]float64) [][2]string {
	return [][2]string{{"x", num(v[0])}, {"y", num(v[1])}, {"z", num(v[2])}}
}

// mass writes the motion's mass as a mass_struct: total, centre of gravity
// and the inertia tensor about the body's origin, as ODE keeps it.
func (w *writer) mass(mo *scene.Motion) {
	q := mgl64.Quat{W: mo.InertiaOrientation[3], V: mgl64.Vec3{mo.InertiaOrientation[0], mo.InertiaOrientation[1], mo.InertiaOrientation[2]}}
	if q.Len() == 0 {
		q = mgl64.QuatIdent()
	}
	r := q.Normalize().Mat4().Mat3()
	dg := mo.InertiaDiagonal
	icog := r.Mul3(diag(dg[0], dg[1], dg[2])).Mul3(r.Transpose())
	i := icog.Add(pointInertia(mo.Mass, mo.CenterOfMass))
	w.open("mass", nil)
	w.open("mass_struct", [][2]string{{"total", num(mo.Mass)}})
	w.empty("centerGravity", vecAttrs(mo.CenterOfMass))
	var a [][2]string
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			a = append(a, [2]string{fmt.Sprintf("m%d%d", r, c), num(clean(i.At(r, c)))})
		}
	}
	w.empty("imatrix", a)
	w.close("mass_struct")
	w.close("mass")
}

// geom writes a collider node, folding in the importer's axis and plane
// helper children.
func (w *writer) geom(n, ancestor int) {
	d := w.d
	w.open("geom", w.attrs(n))
	w.transform(n, ancestor, mgl64.Ident4())
	if b := d.Nodes[n].Body; b != nil && b.Collider != nil && b.Collider.Shape >= 0 {
		w.shape(n)
	}
	for _, c := range d.Children(n) {
		switch w.kind(c) {
		case "axis":
			w.shape(c)
		case "plane":
			x := w.xodeExtras(c)
			ps, _ := x["planeSource"].(map[string]any)
			w.empty("plane", [][2]string{{"a", fmt.Sprint(ps["a"])}, {"b", fmt.Sprint(ps["b"])}, {"c", fmt.Sprint(ps["c"])}, {"d", fmt.Sprint(ps["d"])}})
		}
	}
	if x := w.xodeExtras(n); x != nil {
		if ray, ok := x["ray"].(map[string]any); ok {
			w.empty("ray", [][2]string{{"length", fmt.Sprint(ray["length"])}})
		}
	}
	w.exts(n)
	for _, c := range d.Children(n) {
		switch w.kind(c) {
		case "axis", "plane":
		default:
			w.node(c, n)
		}
	}
	w.close("geom")
}

// shape writes the collider shape of node n. On the importer's axis node
// (turned +90 degrees about X) a capsule or cylinder is ODE's Z-axis shape
// as it was; elsewhere it gets a geom turned back.
func (w *writer) shape(n int) {
	d := w.d
	i := d.Nodes[n].Body.Collider.Shape
	if i < 0 || i >= len(d.Shapes) {
		// A damaged file can name a shape it does not have (a finding
		// of validate): its geom is written without a shape.
		w.warn("node %q: collider shape %d does not exist (the file has %d shapes): its geom is written without a shape", d.GLTF.Nodes[n].Name, i, len(d.Shapes))
		return
	}
	s := d.Shapes[i]
	zAxis := w.kind(n) == "axis"
	if !zAxis && (s.Type == scene.ShapeCapsule || s.Type == scene.ShapeCylinder) {
		// An OMI (Y axis) capsule from glTF: ODE's runs along Z.
		w.warn("capsules and cylinders from glTF are written inside a geom turned -90 degrees about X (ODE's axis is Z)")
	}
	switch s.Type {
	case scene.ShapeBox:
		w.empty("box", [][2]string{{"sizex", num(s.Size[0])}, {"sizey", num(s.Size[1])}, {"sizez", num(s.Size[2])}})
	case scene.ShapeSphere:
		w.empty("sphere", [][2]string{{"radius", num(s.Radius)}})
	case scene.ShapeCapsule, scene.ShapeCylinder:
		r := s.RadiusTop
		if s.RadiusTop != s.RadiusBottom {
			r = (s.RadiusTop + s.RadiusBottom) / 2
			w.warn("tapered %s written with the average radius %g: ODE has no taper", s.Type, r)
		}
		name := "cappedCylinder"
		if s.Type == scene.ShapeCylinder {
			name = "cylinder"
		}
		if !zAxis {
			w.open("geom", nil)
			w.open("transform", nil)
			w.open("rotation", nil)
			w.empty("euler", [][2]string{{"x", "-90"}, {"y", "0"}, {"z", "0"}, {"aformat", "degrees"}})
			w.close("rotation")
			w.close("transform")
			w.empty(name, [][2]string{{"radius", num(r)}, {"length", num(s.Height)}})
			w.close("geom")
			return
		}
		w.empty(name, [][2]string{{"radius", num(r)}, {"length", num(s.Height)}})
	case scene.ShapeConvex, scene.ShapeTrimesh:
		if s.Type == scene.ShapeConvex {
			w.warn("convex shapes are written as trimeshes: XODE has no convex hull")
		}
		w.trimesh(s.Mesh, s.Type == scene.ShapeConvex)
	}
}

// trimesh writes the triangles of a mesh. A convex shape's mesh without
// triangles (a point cloud, which KHR allows for a hull) is written as its
// hull's triangles; a mesh with none at all is left out with a warning,
// since XODE refuses a trimesh without triangles.
func (w *writer) trimesh(mesh int, convex bool) {
	d := w.d
	if mesh < 0 || mesh >= len(d.GLTF.Meshes) {
		return
	}
	var verts [][3]float32
	var tris []uint32
	var points []mgl64.Vec3
	for p := range d.GLTF.Meshes[mesh].Primitives {
		pd, err := d.ReadPrimitive(mesh, p)
		if err != nil {
			continue
		}
		if pd.Mode != scene.DrawTriangles {
			for _, v := range pd.Positions {
				points = append(points, mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])})
			}
			continue
		}
		base := uint32(len(verts))
		verts = append(verts, pd.Positions...)
		if pd.Indices == nil {
			for i := range pd.Positions {
				tris = append(tris, base+uint32(i))
			}
		} else {
			for _, i := range pd.Indices {
				tris = append(tris, base+i)
			}
		}
	}
	if len(tris) < 3 && convex {
		if h, err := scene.ConvexHull(points); err == nil {
			for _, p := range h.Points {
				verts = append(verts, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
			}
			for _, f := range h.Faces {
				tris = append(tris, uint32(f[0]), uint32(f[1]), uint32(f[2]))
			}
		}
	}
	if len(tris) < 3 {
		w.warn("mesh %d has no triangles a trimesh can hold: its geom is written without a shape", mesh)
		return
	}
	w.open("trimesh", nil)
	w.open("vertices", nil)
	for _, v := range verts {
		w.empty("v", [][2]string{{"x", num(float64(v[0]))}, {"y", num(float64(v[1]))}, {"z", num(float64(v[2]))}})
	}
	w.close("vertices")
	w.open("triangles", nil)
	for i := 0; i+2 < len(tris); i += 3 {
		w.empty("t", [][2]string{{"ia", fmt.Sprint(tris[i])}, {"ib", fmt.Sprint(tris[i+1])}, {"ic", fmt.Sprint(tris[i+2])}})
	}
	w.close("triangles")
	w.close("trimesh")
}

// flushJoints writes the joints collected for a container, in node order
// (the order they were read in).
func (w *writer) flushJoints(container int) {
	sort.Ints(w.joints[container])
	for _, n := range w.joints[container] {
		w.joint(n)
	}
	delete(w.joints, container)
}

// joint writes a joint node as an ODE joint with absolute anchor and axes.
func (w *writer) joint(n int) {
	d := w.d
	j := d.Nodes[n].Joint
	bodyName := func(x int) string {
		b := d.BodyNode(x)
		if b < 0 {
			return ""
		}
		return d.GLTF.Nodes[b].Name
	}
	l1 := bodyName(n)
	l2 := ""
	if j.ConnectedNode >= 0 && j.ConnectedNode < len(d.Nodes) {
		l2 = bodyName(j.ConnectedNode)
	}
	var settings scene.JointSettings
	if j.Joint >= 0 && j.Joint < len(d.Joints) {
		settings = d.Joints[j.Joint]
	}
	typ, _ := w.xodeExtras(n)["jointType"].(string)
	if typ == "" {
		typ = inferJointType(settings)
		if typ == "" {
			w.warn("joint %q: its limits match no ODE joint type; written as a ball joint", d.GLTF.Nodes[n].Name)
			typ = "ball"
		}
	}
	w.open("joint", w.attrs(n))
	if l1 != "" {
		w.empty("link1", [][2]string{{"body", l1}})
	}
	if l2 != "" {
		w.empty("link2", [][2]string{{"body", l2}})
	}
	w.open(typ, nil)
	m := w.world[n]
	o := m.Col(3).Vec3()
	if typ != "fixed" && typ != "amotor" {
		w.empty("anchor", append(vecAttrs([3]float64{clean(o[0]), clean(o[1]), clean(o[2])}), [2]string{"absolute", "true"}))
	}
	for i := 0; i < jointAxes[typ]; i++ {
		ax := m.Col(i).Vec3().Normalize()
		attrs := append(vecAttrs([3]float64{clean(ax[0]), clean(ax[1]), clean(ax[2])}), [2]string{"absolute", "true"})
		for _, l := range settings.Limits {
			linear := typ == "slider"
			axes := l.AngularAxes
			if linear {
				axes = l.LinearAxes
			}
			if len(axes) == 1 && axes[0] == i && !(l.Min == 0 && l.Max == 0) {
				if !math.IsInf(l.Min, 0) {
					attrs = append(attrs, [2]string{"LowStop", num(l.Min)})
				}
				if !math.IsInf(l.Max, 0) {
					attrs = append(attrs, [2]string{"HiStop", num(l.Max)})
				}
			}
		}
		for _, dr := range settings.Drives {
			if dr.Axis == i && dr.VelocityTarget != nil {
				attrs = append(attrs, [2]string{"Vel", num(*dr.VelocityTarget)})
				if !math.IsInf(dr.MaxForce, 0) {
					attrs = append(attrs, [2]string{"FMax", num(dr.MaxForce)})
				}
			}
		}
		w.empty("axis", attrs)
	}
	w.close(typ)
	w.exts(n)
	w.close("joint")
}

// inferJointType names the ODE joint whose constraints an OMI joint's limits
// describe, or "" if none does.
func inferJointType(js scene.JointSettings) string {
	locked := map[string]bool{}
	for _, l := range js.Limits {
		if l.Min == 0 && l.Max == 0 {
			for _, a := range l.LinearAxes {
				locked[fmt.Sprint("l", a)] = true
			}
			for _, a := range l.AngularAxes {
				locked[fmt.Sprint("a", a)] = true
			}
		}
	}
	all := func(prefix string, axes ...int) bool {
		for _, a := range axes {
			if !locked[fmt.Sprint(prefix, a)] {
				return false
			}
		}
		return true
	}
	switch {
	case all("l", 0, 1, 2) && all("a", 0, 1, 2):
		return "fixed"
	case all("l", 0, 1, 2) && all("a", 1, 2):
		return "hinge"
	case all("l", 0, 1, 2) && all("a", 2):
		return "universal"
	case all("l", 0, 1, 2):
		return "ball"
	case all("l", 1, 2) && all("a", 0, 1, 2):
		return "slider"
	}
	return ""
}
