package xode

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"physview/scene"
)

// PlaneSize and PlaneThickness size the static box an infinite XODE plane
// becomes (OMI has no plane shape).
var (
	PlaneSize      = 200.0
	PlaneThickness = 1.0
)

// Load reads an XODE file into a scene document (glTF with OMI physics).
func Load(path string) (*scene.Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d.Path = path
	return d, nil
}

// builder turns the XODE tree into glTF nodes and OMI physics.
type builder struct {
	doc      *gltf.Document
	world    []mgl64.Mat4 // world matrix of each node
	bodies   map[int]*scene.Body
	extras   map[int]map[string]any
	shapes   []scene.Shape
	byName   map[string]int // body name -> node
	joints   []pendingJoint
	settings []scene.JointSettings
	nodeJ    map[int]*scene.NodeJoint
	finds    []scene.Finding
	root     int
	lines    []int // the line of the element each node was made from
	parents  []int // the parent of each node (-1: a root)
}

type pendingJoint struct {
	e            *element
	parentNode   int    // node of the element that holds the joint
	parentBody   string // body holding the joint, if any
	link1, link2 string
}

func (b *builder) warn(e *element, format string, args ...any) {
	b.finds = append(b.finds, scene.Finding{Code: "XODE_IMPORT", Severity: scene.Warning, Path: fmt.Sprintf("xode line %d", e.Line), Message: fmt.Sprintf(format, args...)})
}

// bodyOf returns the name of the body node n is part of: n or its nearest
// ancestor with a body.
func (b *builder) bodyOf(n int) (string, bool) {
	for k := 0; n >= 0 && n < len(b.parents) && k <= len(b.parents); k++ {
		if bd := b.bodies[n]; bd != nil && bd.Motion != nil {
			return b.doc.Nodes[n].Name, true
		}
		n = b.parents[n]
	}
	return "", false
}

// addNode appends a node made from the element on line under parent (-1:
// a scene root) with a local matrix.
func (b *builder) addNode(line int, name string, parent int, local mgl64.Mat4) int {
	b.lines = append(b.lines, line)
	b.parents = append(b.parents, parent)
	n := &gltf.Node{Name: name}
	t, r, s := decompose(local)
	if t != ([3]float64{}) {
		n.Translation = t
	}
	if r != [4]float64{0, 0, 0, 1} {
		n.Rotation = r
	}
	if s != [3]float64{1, 1, 1} {
		n.Scale = s
	}
	b.doc.Nodes = append(b.doc.Nodes, n)
	i := len(b.doc.Nodes) - 1
	w := local
	if parent >= 0 {
		b.doc.Nodes[parent].Children = append(b.doc.Nodes[parent].Children, i)
		w = b.world[parent].Mul4(local)
	} else {
		b.doc.Scenes[0].Nodes = append(b.doc.Scenes[0].Nodes, i)
	}
	b.world = append(b.world, w)
	return i
}

// decompose splits a matrix without shear into translation, rotation and
// scale (scene.DecomposeTRS), snapping rotation and scale components
// within 1e-12 of an integer to it, so that axis-aligned XODE transforms
// give exact glTF values.
func decompose(m mgl64.Mat4) ([3]float64, [4]float64, [3]float64) {
	tr := scene.DecomposeTRS(m)
	round := func(v float64) float64 {
		if math.Abs(v-math.Round(v)) < 1e-12 {
			return math.Round(v)
		}
		return v
	}
	r, s := tr.Rotation, tr.Scale
	return tr.Translation, [4]float64{round(r[0]), round(r[1]), round(r[2]), round(r[3])}, [3]float64{round(s[0]), round(s[1]), round(s[2])}
}

// Decode reads XODE text.
func Decode(data []byte) (*scene.Document, error) {
	root, err := parse(data)
	if err != nil {
		return nil, err
	}
	if root.Name != "xode" {
		return nil, fmt.Errorf("line %d: the root element is <%s>, not <xode>: not an XODE file", root.Line, root.Name)
	}
	b := &builder{
		doc:    gltf.NewDocument(),
		bodies: map[int]*scene.Body{},
		extras: map[int]map[string]any{},
		byName: map[string]int{},
		nodeJ:  map[int]*scene.NodeJoint{},
	}
	b.doc.Asset.Generator = "physview XODE import"
	b.root = b.addNode(root.Line, nonEmpty(root.Attr["name"], "xode"), -1, mgl64.Ident4())
	b.keep(b.root, root)
	worlds := 0
	for _, c := range root.Children {
		switch c.Name {
		case "world":
			worlds++
			if err := b.container(c, b.root, ""); err != nil {
				return nil, err
			}
		case "ext":
			b.keep(b.root, c)
		}
	}
	if worlds == 0 {
		return nil, fmt.Errorf("line %d: <xode> has no <world>", root.Line)
	}
	if err := b.wireJoints(); err != nil {
		return nil, err
	}
	return b.document()
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// keep records what the model does not map (ext elements, body state, the
// XODE element name) in the node's extras, so it is not lost.
func (b *builder) keep(n int, e *element) {
	x := b.extras[n]
	if x == nil {
		x = map[string]any{}
		b.extras[n] = x
	}
	if e.Name == "ext" {
		exts, _ := x["ext"].([]string)
		x["ext"] = append(exts, e.Raw)
		return
	}
	x["element"] = e.Name
	// Every attribute but the name (which is the node's name), in file
	// order, so the XODE writer gives back what it was given.
	var attrs [][2]string
	for _, k := range e.Order {
		if k != "name" {
			attrs = append(attrs, [2]string{k, e.Attr[k]})
		}
	}
	if len(attrs) > 0 {
		x["attributes"] = attrs
	}
}

// container handles world, space, group and jointgroup: a node with its
// transform, holding bodies, geoms, joints and nested containers.
func (b *builder) container(e *element, parent int, body string) error {
	local, abs, _, err := transform(e.child("transform"))
	if err != nil {
		return err
	}
	b.checkRigid(e, local)
	n := b.addNode(e.Line, nonEmpty(e.Attr["name"], e.Name), parent, b.relative(parent, local, abs))
	b.keep(n, e)
	return b.children(e, n, body)
}

// checkRigid warns when a transform is not a rotation and translation (with
// at most a uniform scale): glTF nodes cannot hold shear, so what sits under
// it comes out skewed.
func (b *builder) checkRigid(e *element, m mgl64.Mat4) {
	c := [3]mgl64.Vec3{m.Col(0).Vec3(), m.Col(1).Vec3(), m.Col(2).Vec3()}
	l := c[0].Len()
	for i := 0; i < 3; i++ {
		if math.Abs(c[i].Len()-l) > 1e-6*math.Max(1, l) || math.Abs(c[i].Dot(c[(i+1)%3])) > 1e-6*math.Max(1, l*l) {
			b.warn(e, "the transform is not a rotation and translation (it shears or scales unevenly): what it holds cannot be placed exactly")
			return
		}
	}
}

// relative turns an absolute (world) transform into one local to parent.
func (b *builder) relative(parent int, local mgl64.Mat4, absolute bool) mgl64.Mat4 {
	if !absolute || parent < 0 {
		return local
	}
	return b.world[parent].Inv().Mul4(local)
}

func (b *builder) children(e *element, n int, body string) error {
	for _, c := range e.Children {
		var err error
		switch c.Name {
		case "space", "group", "jointgroup":
			err = b.container(c, n, body)
		case "body":
			err = b.body(c, n)
		case "geom":
			err = b.geom(c, n)
		case "joint":
			b.joints = append(b.joints, pendingJoint{e: c, parentNode: n, parentBody: body})
		case "ext":
			b.keep(n, c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) body(e *element, parent int) error {
	local, abs, scale, err := transform(e.child("transform"))
	if err != nil {
		return err
	}
	if scale != 1 {
		b.warn(e, "transform scale %g on a body: physics shapes should not be scaled", scale)
	} else {
		b.checkRigid(e, local)
	}
	name := nonEmpty(e.Attr["name"], fmt.Sprintf("body %d", len(b.byName)))
	n := b.addNode(e.Line, name, parent, b.relative(parent, local, abs))
	b.keep(n, e)
	if _, dup := b.byName[name]; dup {
		b.warn(e, "a second body named %q: joints link to the first", name)
	} else {
		b.byName[name] = n
	}
	mo := scene.DefaultMotion(scene.MotionDynamic)
	if e.Attr["gravitymode"] == "0" {
		mo.GravityFactor = 0
	}
	x := b.extras[n]
	for _, c := range e.Children {
		switch c.Name {
		case "linearVel", "angularVel":
			v, err := c.vec()
			if err != nil {
				return err
			}
			// ODE velocities are in world space, as OMI's.
			if c.Name == "linearVel" {
				mo.LinearVelocity = v
			} else {
				mo.AngularVelocity = v
			}
		case "torque", "force":
			v, err := c.vec()
			if err != nil {
				return err
			}
			x[c.Name] = v
		case "finiteRotation":
			x[c.Name] = c.Attr
		case "mass":
			m, err := b.mass(c)
			if err != nil {
				return err
			}
			if !finiteMass(m) {
				return fmt.Errorf("line %d: the mass of body %q is not a finite number", c.Line, name)
			}
			if !(m.m > 0) && len(c.Children) > 0 { // an empty <mass/> gives none
				b.warn(c, "the mass of body %q is %g, not positive: read as %g kg", name, m.m, mo.Mass)
			}
			if m.m > 0 {
				mo.Mass = m.m
				mo.CenterOfMass = m.c
				diag, q := m.principal()
				mo.InertiaDiagonal = diag
				mo.InertiaOrientation = [4]float64{q.V[0], q.V[1], q.V[2], q.W}
			}
		}
	}
	b.bodies[n] = &scene.Body{Motion: &mo}
	return b.children(e, n, name)
}

// mass computes a <mass> element the way ODE builds a dMass.
func (b *builder) mass(e *element) (mass, error) {
	var m mass
	for _, c := range e.Children {
		switch c.Name {
		case "mass_shape":
			if len(c.Children) == 0 {
				return m, fmt.Errorf("line %d: <mass_shape> needs a shape", c.Line)
			}
			rho, err := c.num("density", math.NaN())
			if err != nil {
				return m, err
			}
			total, err := c.num("total", math.NaN())
			if err != nil {
				return m, err
			}
			useRho := rho
			if math.IsNaN(rho) {
				useRho = 1
			}
			sm, err := shapeMass(c.Children[0], useRho)
			if err != nil {
				return m, err
			}
			if math.IsNaN(rho) && !math.IsNaN(total) {
				sm.adjust(total)
			}
			m.add(sm)
		case "mass_struct":
			total, err := c.num("total", 0)
			if err != nil {
				return m, err
			}
			s := mass{m: total}
			if cg := c.child("centerGravity"); cg != nil {
				if s.c, err = cg.vec(); err != nil {
					return m, err
				}
			}
			if im := c.child("imatrix"); im != nil {
				for i := 0; i < 3; i++ {
					for j := 0; j < 3; j++ {
						v, err := im.num(fmt.Sprintf("m%d%d", i, j), 0)
						if err != nil {
							return m, err
						}
						s.I.Set(i, j, v)
					}
				}
			}
			m.add(s)
		case "transform":
			t, _, _, err := transform(c)
			if err != nil {
				return m, err
			}
			m.rotate(t.Mat3())
			m.translate(t.Col(3).Vec3())
		case "adjust":
			total, err := c.num("total", m.m)
			if err != nil {
				return m, err
			}
			m.adjust(total)
		case "mass":
			sub, err := b.mass(c)
			if err != nil {
				return m, err
			}
			m.add(sub)
		}
	}
	return m, nil
}

// geom makes a collider node for a geom and its shape; nested geoms are
// children of it.
func (b *builder) geom(e *element, parent int) error {
	local, abs, scale, err := transform(e.child("transform"))
	if err != nil {
		return err
	}
	if scale != 1 {
		b.warn(e, "transform scale %g on a geom: the shape is drawn scaled, but physics engines may not scale it", scale)
	}
	n := b.addNode(e.Line, nonEmpty(e.Attr["name"], "geom"), parent, b.relative(parent, local, abs))
	b.keep(n, e)
	for _, c := range e.Children {
		switch c.Name {
		case "box", "sphere":
			s := scene.DefaultShape(scene.ShapeBox)
			if c.Name == "box" {
				if s.Size, err = c.vec("sizex", "sizey", "sizez"); err != nil {
					return err
				}
			} else {
				s = scene.DefaultShape(scene.ShapeSphere)
				if s.Radius, err = c.num("radius", 1); err != nil {
					return err
				}
			}
			b.collider(n, s)
		case "cappedCylinder", "capsule", "cylinder":
			r, l, err := radiusLength(c)
			if err != nil {
				return err
			}
			s := scene.DefaultShape(scene.ShapeCapsule)
			if c.Name == "cylinder" {
				s = scene.DefaultShape(scene.ShapeCylinder)
			}
			s.Height, s.RadiusTop, s.RadiusBottom = l, r, r
			// ODE's axis is local Z; OMI's is +Y: a child turned +90
			// degrees about X carries the shape.
			axis := b.addNode(e.Line, nonEmpty(e.Attr["name"], "geom")+" (Z axis)", n, mgl64.HomogRotate3DX(math.Pi/2))
			b.extras[axis] = map[string]any{"axisFor": c.Name}
			b.collider(axis, s)
		case "plane":
			p, err := c.vec("a", "b", "c")
			if err != nil {
				return err
			}
			dd, err := c.num("d", 0)
			if err != nil {
				return err
			}
			nrm := mgl64.Vec3(p)
			if nrm.Len() == 0 {
				return fmt.Errorf("line %d: <plane> has a zero normal", c.Line)
			}
			if body, ok := b.bodyOf(n); ok {
				// ODE planes are not placeable: ODE refuses one on a body.
				b.warn(c, "a plane is never on a body (ODE planes are not placeable): on body %q it is read as a %g m box that moves with it", body, float64(PlaneSize))
			}
			l := nrm.Len()
			nrm = nrm.Mul(1 / l)
			// The box's top face lies on the plane a·x = d.
			q := mgl64.QuatBetweenVectors(mgl64.Vec3{0, 1, 0}, nrm)
			centre := nrm.Mul(dd/l - PlaneThickness/2)
			pl := b.addNode(e.Line, nonEmpty(e.Attr["name"], "plane")+" (plane)", n, b.world[n].Inv().Mul4(mgl64.Translate3D(centre[0], centre[1], centre[2]).Mul4(q.Mat4())))
			b.extras[pl] = map[string]any{"planeSource": map[string]float64{"a": p[0], "b": p[1], "c": p[2], "d": dd}}
			s := scene.DefaultShape(scene.ShapeBox)
			s.Size = [3]float64{PlaneSize, PlaneThickness, PlaneSize}
			b.collider(pl, s)
		case "ray":
			b.warn(c, "ray geom %q has no OMI form: skipped", e.Attr["name"])
			b.extras[n]["ray"] = c.Attr
		case "trimesh":
			if err := b.trimesh(c, n); err != nil {
				return err
			}
		case "geom":
			if err := b.geom(c, n); err != nil {
				return err
			}
		case "ext":
			b.keep(n, c)
		}
	}
	return nil
}

func (b *builder) collider(n int, s scene.Shape) {
	b.shapes = append(b.shapes, s)
	b.bodies[n] = &scene.Body{Collider: &scene.Collider{Shape: len(b.shapes) - 1, PhysicsMaterial: -1, CollisionFilter: -1}}
}

// trimesh stores the triangles as a glTF mesh used only by the shape.
func (b *builder) trimesh(e *element, n int) error {
	var pos [][3]float32
	var idx []uint32
	if v := e.child("vertices"); v != nil {
		for _, c := range v.Children {
			p, err := c.vec()
			if err != nil {
				return err
			}
			pos = append(pos, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
		}
	}
	if t := e.child("triangles"); t != nil {
		for _, c := range t.Children {
			ix, err := c.vec("ia", "ib", "ic")
			if err != nil {
				return err
			}
			for _, i := range ix {
				if i < 0 || int(i) >= len(pos) || i != math.Trunc(i) {
					return fmt.Errorf("line %d: triangle index %g is not one of the %d vertices", c.Line, i, len(pos))
				}
				idx = append(idx, uint32(i))
			}
		}
	}
	if len(idx) == 0 {
		return fmt.Errorf("line %d: <trimesh> has no triangles", e.Line)
	}
	pa := modeler.WritePosition(b.doc, pos)
	ia := modeler.WriteIndices(b.doc, idx)
	b.doc.Meshes = append(b.doc.Meshes, &gltf.Mesh{Name: "trimesh", Primitives: []*gltf.Primitive{{Attributes: gltf.PrimitiveAttributes{gltf.POSITION: pa}, Indices: &ia}}})
	s := scene.DefaultShape(scene.ShapeTrimesh)
	s.Mesh = len(b.doc.Meshes) - 1
	b.collider(n, s)
	return nil
}

// jointAxes is the number of axis children each joint type needs.
var jointAxes = map[string]int{"ball": 0, "fixed": 0, "hinge": 1, "slider": 1, "hinge2": 2, "universal": 2, "amotor": 3}

// wireJoints places every joint once all bodies are known (a joint may link
// to a body defined later in the file).
func (b *builder) wireJoints() error {
	for _, pj := range b.joints {
		e := pj.e
		var typ *element
		for _, c := range e.Children {
			if _, ok := jointAxes[c.Name]; ok {
				typ = c
			}
		}
		if typ == nil {
			return fmt.Errorf("line %d: <joint> has no joint type (ball, hinge, hinge2, slider, universal, fixed, amotor)", e.Line)
		}
		var axes []*element
		for _, c := range typ.Children {
			if c.Name == "axis" {
				axes = append(axes, c)
			}
		}
		if len(axes) != jointAxes[typ.Name] && !(typ.Name == "amotor" && len(axes) <= 3) {
			return fmt.Errorf("line %d: a %s joint needs %d axis elements, has %d", typ.Line, typ.Name, jointAxes[typ.Name], len(axes))
		}
		link := func(name string) (string, error) {
			l := e.child(name)
			if l == nil {
				return "", nil
			}
			body := l.Attr["body"]
			if _, ok := b.byName[body]; !ok {
				return "", fmt.Errorf("line %d: <%s body=%q>: there is no such body", l.Line, name, body)
			}
			return body, nil
		}
		l1, err := link("link1")
		if err != nil {
			return err
		}
		l2, err := link("link2")
		if err != nil {
			return err
		}
		// A joint inside a body links to that body where a link is missing.
		if pj.parentBody != "" {
			if l1 == "" && l2 != pj.parentBody {
				l1 = pj.parentBody
			} else if l2 == "" && l1 != pj.parentBody {
				l2 = pj.parentBody
			}
		}
		if l1 == "" && l2 != "" {
			l1, l2 = l2, ""
		}
		if l1 == "" {
			b.warn(e, "joint %q links no body: skipped", e.Attr["name"])
			continue
		}
		if err := b.placeJoint(e, typ, axes, pj.parentNode, l1, l2); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) placeJoint(e, typ *element, axes []*element, parent int, l1, l2 string) error {
	n1 := b.byName[l1]
	anchor := b.world[n1].Col(3).Vec3()
	if a := typ.child("anchor"); a != nil {
		v, err := a.vec()
		if err != nil {
			return err
		}
		anchor = mgl64.Vec3(v)
		if a.Attr["absolute"] != "true" {
			anchor = b.world[parent].Mul4x1(anchor.Vec4(1)).Vec3()
		}
	}
	// World directions of the axes; relative axes turn with the parent.
	var dirs []mgl64.Vec3
	for _, ax := range axes {
		v, err := ax.vec()
		if err != nil {
			return err
		}
		d := mgl64.Vec3(v)
		if d.Len() == 0 {
			return fmt.Errorf("line %d: <axis> is the zero vector", ax.Line)
		}
		if ax.Attr["absolute"] != "true" {
			d = b.world[parent].Mul4x1(d.Vec4(0)).Vec3()
		}
		dirs = append(dirs, d.Normalize())
	}
	frame := jointFrame(anchor, dirs)
	name := nonEmpty(e.Attr["name"], typ.Name+" joint")
	jn := b.addNode(e.Line, name, n1, b.world[n1].Inv().Mul4(frame))
	b.keep(jn, e)
	b.extras[jn]["jointType"] = typ.Name
	twinParent := b.root
	if l2 != "" {
		twinParent = b.byName[l2]
	}
	twin := b.addNode(e.Line, name+" (connected)", twinParent, b.world[twinParent].Inv().Mul4(frame))
	b.extras[twin] = map[string]any{"connectedOf": name}
	settings, err := jointSettings(typ.Name, axes)
	if err != nil {
		return err
	}
	b.settings = append(b.settings, settings)
	b.nodeJ[jn] = &scene.NodeJoint{Joint: len(b.settings) - 1, ConnectedNode: twin}
	return nil
}

// jointFrame is a frame at anchor whose X axis is the first ODE axis and,
// for two-axis joints, whose Y axis is the second (made orthogonal).
func jointFrame(anchor mgl64.Vec3, dirs []mgl64.Vec3) mgl64.Mat4 {
	x := mgl64.Vec3{1, 0, 0}
	if len(dirs) > 0 {
		x = dirs[0]
	}
	var y mgl64.Vec3
	if len(dirs) > 1 {
		y = dirs[1].Sub(x.Mul(dirs[1].Dot(x)))
	}
	if y.Len() < 1e-9 {
		y = x.Cross(mgl64.Vec3{0, 0, 1})
		if y.Len() < 1e-6 {
			y = x.Cross(mgl64.Vec3{0, 1, 0})
		}
		y = y.Mul(-1)
	}
	y = y.Normalize()
	z := x.Cross(y)
	return mgl64.Mat4{x[0], x[1], x[2], 0, y[0], y[1], y[2], 0, z[0], z[1], z[2], 0, anchor[0], anchor[1], anchor[2], 1}
}

// jointSettings maps an ODE joint to OMI limits and drives: locked axes have
// min = max = 0, stopped axes get [LoStop, HiStop], motors (Vel, FMax)
// become drives.
func jointSettings(typ string, axes []*element) (scene.JointSettings, error) {
	lock := func(linear bool, ax ...int) scene.JointLimit {
		l := scene.JointLimit{Min: 0, Max: 0, Stiffness: math.Inf(1)}
		if linear {
			l.LinearAxes = ax
		} else {
			l.AngularAxes = ax
		}
		return l
	}
	var js scene.JointSettings
	ranged := func(i int, linear bool) error {
		if i >= len(axes) {
			return nil
		}
		a := axes[i]
		lo, err := a.num("LowStop", math.Inf(-1))
		if err != nil {
			return err
		}
		if lo, err = a.num("LoStop", lo); err != nil {
			return err
		}
		hi, err := a.num("HiStop", math.Inf(1))
		if err != nil {
			return err
		}
		if !math.IsInf(lo, 0) || !math.IsInf(hi, 0) {
			l := scene.JointLimit{Min: lo, Max: hi, Stiffness: math.Inf(1)}
			if linear {
				l.LinearAxes = []int{i}
			} else {
				l.AngularAxes = []int{i}
			}
			js.Limits = append(js.Limits, l)
		}
		if _, ok := a.Attr["Vel"]; ok {
			v, err := a.num("Vel", 0)
			if err != nil {
				return err
			}
			f, err := a.num("FMax", math.Inf(1))
			if err != nil {
				return err
			}
			kind := "angular"
			if linear {
				kind = "linear"
			}
			js.Drives = append(js.Drives, scene.JointDrive{Type: kind, Mode: "force", Axis: i, MaxForce: f, VelocityTarget: &v})
		}
		return nil
	}
	var err error
	switch typ {
	case "fixed":
		js.Limits = append(js.Limits, lock(true, 0, 1, 2), lock(false, 0, 1, 2))
	case "ball":
		js.Limits = append(js.Limits, lock(true, 0, 1, 2))
	case "hinge":
		js.Limits = append(js.Limits, lock(true, 0, 1, 2), lock(false, 1, 2))
		err = ranged(0, false)
	case "slider":
		js.Limits = append(js.Limits, lock(true, 1, 2), lock(false, 0, 1, 2))
		err = ranged(0, true)
	case "universal":
		js.Limits = append(js.Limits, lock(true, 0, 1, 2), lock(false, 2))
		if err = ranged(0, false); err == nil {
			err = ranged(1, false)
		}
	case "hinge2":
		// The suspension along axis 1 is not modelled: it is held rigid.
		js.Limits = append(js.Limits, lock(true, 0, 1, 2), lock(false, 2))
		if err = ranged(0, false); err == nil {
			err = ranged(1, false)
		}
	case "amotor":
		for i := range axes {
			if err = ranged(i, false); err != nil {
				break
			}
		}
	}
	return js, err
}

// document makes the scene document of the glTF and sets the physics
// model.
func (b *builder) document() (*scene.Document, error) {
	for n, x := range b.extras {
		if len(x) > 0 {
			b.doc.Nodes[n].Extras = map[string]any{"xode": x}
		}
	}
	// scene.New, not Decode: the glTF checks of the glTF made here would
	// judge the import, not the file.
	d, err := scene.New(b.doc)
	if err != nil {
		return nil, err
	}
	d.Shapes = b.shapes
	for n, body := range b.bodies {
		d.Nodes[n].Body = body
	}
	keys := make([]int, 0, len(b.nodeJ))
	for n := range b.nodeJ {
		keys = append(keys, n)
	}
	sort.Ints(keys)
	for _, n := range keys {
		d.Nodes[n].Joint = b.nodeJ[n]
	}
	d.Joints = b.settings
	d.AddFindings(b.finds)
	d.SetFindingMap(findingAtLine(d, b.lines))
	return d, nil
}

// findingAtLine places a finding of the physics checks on the line of the
// XODE element it is about, as the import's own findings are ("xode line
// 12"): a node's on the element it was made from, a shape's on the
// element of the first node that uses it. What no element made (a node
// added in the window) keeps its glTF path.
func findingAtLine(d *scene.Document, lines []int) func(scene.Finding) (scene.Finding, bool) {
	return func(f scene.Finding) (scene.Finding, bool) {
		node := -1
		if rest, ok := strings.CutPrefix(f.Path, "/extensions/"+scene.ExtShape+"/shapes/"); ok {
			i, _, _ := strings.Cut(rest, "/")
			if s, err := strconv.Atoi(i); err == nil {
				if users := d.ShapeUsers(s); len(users) > 0 {
					node = users[0]
				}
			}
		} else if rest, ok := strings.CutPrefix(f.Path, "/nodes/"); ok {
			i, _, _ := strings.Cut(rest, "/")
			node, _ = strconv.Atoi(i)
		}
		if node >= 0 && node < len(lines) {
			f.Path = fmt.Sprintf("xode line %d", lines[node])
		}
		return f, true
	}
}

func finiteMass(m mass) bool {
	ok := !math.IsNaN(m.m) && !math.IsInf(m.m, 0)
	for _, v := range append(m.c[:], m.I[:]...) {
		ok = ok && !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	return ok
}
