package debugdraw

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// Category is a kind of debug drawing the user can toggle.
type Category int

// Categories of debug lines.
const (
	Colliders Category = iota
	Triggers
	Joints
	Gravity
	Motion // centre of mass and initial velocities
	// BoundingVolumes are glTF 2.1 node bounding volumes, dashed.
	BoundingVolumes
	NumCategories
)

// String names the category for the panel.
func (c Category) String() string {
	return [...]string{"Colliders", "Triggers", "Joints", "Gravity", "Centre of mass, velocity", "Bounding volumes"}[c]
}

// Colours by role.
var (
	ColorStatic    = [4]float32{0.55, 0.75, 1, 1}
	ColorKinematic = [4]float32{1, 0.62, 0.2, 1}
	ColorDynamic   = [4]float32{0.35, 1, 0.45, 1}
	// Triggers are dimmer: they are volumes, not solids.
	ColorTrigger  = [4]float32{0.85, 0.45, 1, 0.5}
	ColorSelected = [4]float32{1, 1, 0.25, 1}
	ColorAttract  = [4]float32{0.2, 0.6, 1, 0.9}
	ColorRepel    = [4]float32{1, 0.35, 0.3, 0.9}
	ColorLinear   = [4]float32{0.2, 1, 1, 1}
	ColorAngular  = [4]float32{1, 0.35, 0.9, 1}
	ColorJoint    = [4]float32{1, 0.85, 0.65, 0.9} // warm white, apart from the selection's white
	axisColors    = [3][4]float32{{1, 0.3, 0.3, 1}, {0.3, 1, 0.3, 1}, {0.35, 0.5, 1, 1}}
	// The selection's bounds are drawn as corner brackets, not a box, in
	// white: a selected sphere collider (yellow) never looks like a box.
	ColorSelectionBox = [4]float32{1, 1, 1, 1}
	// Handles are pink squares, apart from every collider colour.
	ColorHandle = [4]float32{1, 0.25, 0.55, 1}
	// ColorHover outlines the colliders under the mouse, dimmer than the
	// selection's brackets.
	ColorHover = [4]float32{0.85, 0.85, 0.85, 0.6}
	// ColorHidden is the colour of the colliders of a node KHR_node_visibility
	// hides: still there for physics, greyed.
	ColorHidden = [4]float32{0.5, 0.5, 0.5, 0.6}
	// ColorBounds is a bounding volume's colour (dashed).
	ColorBounds = [4]float32{0.75, 0.55, 0.25, 0.8}
)

// LegendEntry is one row of the View tab's legend: what a colour and line
// style mean.
type LegendEntry struct {
	Color [4]float32
	What  string
}

// Legend lists what each colour in the view means, as the View tab shows it.
var Legend = []LegendEntry{
	{ColorStatic, "static collider (solid lines)"},
	{ColorKinematic, "kinematic collider"},
	{ColorDynamic, "dynamic collider"},
	{ColorTrigger, "trigger volume (dimmer)"},
	{ColorSelected, "the selected node's colliders"},
	{ColorSelectionBox, "the selected node's bounds (corner brackets)"},
	{ColorHandle, "handles: drag to resize (squares)"},
	{ColorHover, "colliders under the mouse"},
	{ColorAttract, "gravity pulling (9.81 m/s² fills half a grid cell, 30 three quarters)"},
	{ColorRepel, "gravity pushing"},
	{ColorJoint, "joint frame"},
	{ColorHidden, "colliders of a hidden node (KHR_node_visibility)"},
	{ColorBounds, "a node's bounding volume (glTF 2.1, dashed)"},
}

// Lines is one node's debug lines, by category.
type Lines [NumCategories][]Line

// Options size the markers: MarkerSize is the length of the centre-of-mass
// cross and joint frame axes (a small fraction of the scene's size), and
// GravitySamples the number of arrow rows per axis in a gravity volume.
type Options struct {
	MarkerSize     float64
	GravitySamples int
}

// NodeLines returns the debug lines of node n: its collider and trigger
// shapes coloured by the body that moves them, its motion's centre of mass
// and velocities, its joint and its gravity field. world is d.WorldMatrices().
func NodeLines(d *scene.Document, n int, world []mgl64.Mat4, selected bool, meshes MeshSource, opt Options) Lines {
	return nodeLines(d, n, world, selected, d.NodeHidden(n), meshes, opt)
}

// nodeLines is NodeLines with whether node n is hidden (KHR_node_visibility,
// in the file or by an animation at the pose drawn): its colliders are
// grey then.
func nodeLines(d *scene.Document, n int, world []mgl64.Mat4, selected, hidden bool, meshes MeshSource, opt Options) Lines {
	var out Lines
	ne := d.Nodes[n]
	m := world[n]
	if b := ne.Body; b != nil {
		if c := b.Collider; c != nil && c.Shape >= 0 && c.Shape < len(d.Shapes) {
			col := roleColor(d, n)
			if hidden {
				col = ColorHidden
			}
			if selected {
				col = ColorSelected
			}
			out[Colliders] = Shape(d.Shapes[c.Shape], m, col, meshes)
		}
		if t := b.Trigger; t != nil && t.Nodes == nil && t.Shape >= 0 && t.Shape < len(d.Shapes) {
			col := ColorTrigger
			if selected {
				col = ColorSelected
			}
			out[Triggers] = Shape(d.Shapes[t.Shape], m, col, meshes)
		}
		if mo := b.Motion; mo != nil {
			out[Motion] = motionLines(mo, m, opt.MarkerSize)
		}
	}
	if l, ok := xodeRay(d, n); ok {
		// XODE rays have no OMI form; the importer keeps them for display.
		// ODE rays point along local +Z: turn Ray's -Y onto it.
		col := roleColor(d, n)
		if selected {
			col = ColorSelected
		}
		out[Colliders] = append(out[Colliders], Ray(m.Mul4(mgl64.HomogRotate3DX(-math.Pi/2)), l, col)...)
	}
	if j := ne.Joint; j != nil {
		out[Joints] = jointLines(d, j, n, world, opt.MarkerSize)
	}
	if ne.Gravity != nil {
		out[Gravity] = gravityLines(d, n, world, opt)
	}
	if bv := ne.BoundingVolume; bv != nil && bv.Shape >= 0 && bv.Shape < len(d.Shapes) {
		col := ColorBounds
		if selected {
			col = ColorSelected
		}
		out[BoundingVolumes] = Dashed(Shape(d.Shapes[bv.Shape], m.Mul4(bv.Matrix()), col, nil), 0)
	}
	return out
}

// Dashed cuts lines into dashes of length dash (0: a 40th of the lines'
// extent), the gaps as long; a run of joined lines (a circle) keeps one
// pattern along it.
func Dashed(in []Line, dash float64) []Line {
	if len(in) == 0 {
		return nil
	}
	if !(dash > 0) {
		lo, hi := mgl64.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, mgl64.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
		for _, l := range in {
			for _, p := range [][3]float32{l.A, l.B} {
				for k := 0; k < 3; k++ {
					lo[k], hi[k] = math.Min(lo[k], float64(p[k])), math.Max(hi[k], float64(p[k]))
				}
			}
		}
		dash = hi.Sub(lo).Len() / 40
		if !(dash > 0) {
			return in
		}
	}
	var out []Line
	phase := 0.0 // distance walked in the current dash+gap period
	for i, l := range in {
		if i == 0 || l.A != in[i-1].B {
			phase = 0
		}
		a := mgl64.Vec3{float64(l.A[0]), float64(l.A[1]), float64(l.A[2])}
		b := mgl64.Vec3{float64(l.B[0]), float64(l.B[1]), float64(l.B[2])}
		length := b.Sub(a).Len()
		// The cap on pieces ends the walk even where rounding stalls it.
		for t, pieces := 0.0, 0; t < length && pieces < 4096; pieces++ {
			inDash, end := phase < dash, 2*dash
			if inDash {
				end = dash
			}
			step := math.Min(length-t, end-phase)
			if inDash && step > dash*1e-4 {
				p, q := a.Add(b.Sub(a).Mul(t/length)), a.Add(b.Sub(a).Mul((t+step)/length))
				out = append(out, Line{f32(p), f32(q), l.Color})
			}
			t += step
			phase = math.Mod(phase+step, 2*dash)
		}
	}
	return out
}

// roleColor is the colour of a shape on node n: by the motion type of the
// body that moves it; static when none does.
func roleColor(d *scene.Document, n int) [4]float32 {
	if b := d.BodyNode(n); b >= 0 {
		switch d.Nodes[b].Body.Motion.Type {
		case scene.MotionKinematic:
			return ColorKinematic
		case scene.MotionDynamic:
			return ColorDynamic
		}
	}
	return ColorStatic
}

// Arrow draws an arrow from a to b with a head a quarter of its length.
func Arrow(a, b mgl64.Vec3, color [4]float32) []Line {
	v := b.Sub(a)
	l := v.Len()
	if l == 0 {
		return nil
	}
	dir := v.Mul(1 / l)
	side := dir.Cross(yAxis)
	if side.Len() < 1e-3 {
		side = dir.Cross(xAxis)
	}
	side = side.Normalize()
	up := side.Cross(dir)
	head := l * 0.25
	back := b.Sub(dir.Mul(head))
	out := []Line{{f32(a), f32(b), color}}
	for _, s := range []mgl64.Vec3{side, side.Mul(-1), up, up.Mul(-1)} {
		out = append(out, Line{f32(b), f32(back.Add(s.Mul(head * 0.4))), color})
	}
	return out
}

func motionLines(mo *scene.Motion, m mgl64.Mat4, size float64) []Line {
	com := m.Mul4x1(mgl64.Vec3(mo.CenterOfMass).Vec4(1)).Vec3()
	var out []Line
	for k, ax := range []mgl64.Vec3{xAxis, yAxis, zAxis} {
		h := ax.Mul(size / 2)
		out = append(out, Line{f32(com.Sub(h)), f32(com.Add(h)), axisColors[k]})
	}
	// Velocities are world-space vectors; draw what half a second would cover.
	if v := mgl64.Vec3(mo.LinearVelocity); v.Len() > 0 {
		out = append(out, Arrow(com, com.Add(v.Mul(0.5)), ColorLinear)...)
	}
	if w := mgl64.Vec3(mo.AngularVelocity); w.Len() > 0 {
		axis := w.Normalize()
		out = append(out, Arrow(com, com.Add(axis.Mul(size*(1+w.Len()/4))), ColorAngular)...)
		// A ring around the axis shows the sense of rotation.
		u := axis.Cross(yAxis)
		if u.Len() < 1e-3 {
			u = axis.Cross(xAxis)
		}
		u = u.Normalize()
		v := axis.Cross(u)
		l := &lines{m: mgl64.Ident4(), color: ColorAngular}
		c := com.Add(axis.Mul(size))
		l.arc(c, u, v, size*0.4, 0, 1.5*math.Pi, 24)
		end := c.Add(u.Mul(size * 0.4 * math.Cos(1.5*math.Pi))).Add(v.Mul(size * 0.4 * math.Sin(1.5*math.Pi)))
		tangent := u.Mul(-math.Sin(1.5 * math.Pi)).Add(v.Mul(math.Cos(1.5 * math.Pi)))
		out = append(out, l.out...)
		out = append(out, Line{f32(end), f32(end.Sub(tangent.Mul(size * 0.15)).Add(axis.Mul(size * 0.08))), ColorAngular})
		out = append(out, Line{f32(end), f32(end.Sub(tangent.Mul(size * 0.15)).Sub(axis.Mul(size * 0.08))), ColorAngular})
	}
	return out
}

// frame draws the three axes of matrix m, size long.
func frame(m mgl64.Mat4, size float64) []Line {
	o := m.Col(3).Vec3()
	var out []Line
	for k := 0; k < 3; k++ {
		ax := m.Col(k).Vec3()
		if ax.Len() == 0 {
			continue
		}
		out = append(out, Line{f32(o), f32(o.Add(ax.Normalize().Mul(size))), axisColors[k]})
	}
	return out
}

// jointLines draws both attachment frames, a line between them, and the
// limits in the joint node's frame: an arc for a ranged angular axis, a
// segment for a ranged linear axis.
func jointLines(d *scene.Document, j *scene.NodeJoint, n int, world []mgl64.Mat4, size float64) []Line {
	m := world[n]
	out := frame(m, size*1.5)
	o := m.Col(3).Vec3()
	if c := j.ConnectedNode; c >= 0 && c < len(world) {
		out = append(out, frame(world[c], size)...)
		out = append(out, Line{f32(o), f32(world[c].Col(3).Vec3()), ColorJoint})
	}
	if j.Joint < 0 || j.Joint >= len(d.Joints) {
		return out
	}
	// The frame without scale, so limits are in metres and radians.
	rot := mgl64.Mat4{}
	for k := 0; k < 3; k++ {
		ax := m.Col(k).Vec3()
		if ax.Len() > 0 {
			ax = ax.Normalize()
		}
		rot.SetCol(k, ax.Vec4(0))
	}
	rot.SetCol(3, o.Vec4(1))
	l := &lines{m: rot}
	axes := []mgl64.Vec3{xAxis, yAxis, zAxis}
	for _, lim := range d.Joints[j.Joint].Limits {
		for _, a := range lim.AngularAxes {
			if a < 0 || a > 2 || (lim.Min == 0 && lim.Max == 0) || len(lim.AngularAxes) == 2 {
				continue // two axes limit a cone (joints.go)
			}
			lo, hi := math.Max(lim.Min, -math.Pi), math.Min(lim.Max, math.Pi)
			u, v := axes[(a+1)%3], axes[(a+2)%3]
			l.color = axisColors[a]
			l.arc(mgl64.Vec3{}, u, v, size*2, lo, hi, 32)
			// Spokes at the two ends of the range.
			for _, t := range []float64{lo, hi} {
				l.seg(mgl64.Vec3{}, u.Mul(size*2*math.Cos(t)).Add(v.Mul(size*2*math.Sin(t))))
			}
		}
		for _, a := range lim.LinearAxes {
			if a < 0 || a > 2 || lim.Min == lim.Max {
				continue
			}
			lo, hi := math.Max(lim.Min, -size*20), math.Min(lim.Max, size*20)
			l.color = axisColors[a]
			l.seg(axes[a].Mul(lo), axes[a].Mul(hi))
			for _, t := range []float64{lo, hi} {
				p := axes[a].Mul(t)
				q := axes[(a+1)%3].Mul(size * 0.3)
				l.seg(p.Sub(q), p.Add(q))
			}
		}
	}
	out = append(out, l.out...)
	return append(out, jointNow(d, j, n, world, size)...) // joints.go
}

// StandardGravity is the acceleration an arrow of half a grid cell shows.
const StandardGravity = 9.80665

// ArrowFraction is the length of a gravity arrow, as a fraction of its
// field's grid cell, for an acceleration of a m/s²: a / (a + 9.80665), so
// standard gravity fills half a cell, 30 m/s² three quarters, and no field
// overflows its cell. The scale is the same for every field, so two fields
// compare by their arrows (they were normalised per field: 9.81 and 30
// looked the same).
func ArrowFraction(a float64) float64 {
	switch {
	case math.IsInf(a, 1):
		return 1
	case !(a > 0): // 0 or NaN
		return 0
	}
	return a / (a + StandardGravity)
}

// gravityLines samples node n's field on a grid inside each of its trigger
// shapes and draws an arrow at each sample, pointing as the field pulls,
// its length ArrowFraction of a grid cell.
func gravityLines(d *scene.Document, n int, world []mgl64.Mat4, opt Options) []Line {
	k := opt.GravitySamples
	if k <= 0 {
		k = 5
	}
	g := d.Nodes[n].Gravity
	type sample struct{ p, f mgl64.Vec3 }
	var samples []sample
	var spacing float64
	for _, ns := range d.VolumeShapes(n) {
		s := d.Shapes[ns[1]]
		var mlo, mhi mgl64.Vec3
		if s.Type == scene.ShapeConvex || s.Type == scene.ShapeTrimesh {
			mlo, mhi = d.MeshBounds(s.Mesh)
		}
		lo, hi := s.Bounds(mlo, mhi)
		ext := hi.Sub(lo)
		step := math.Max(ext[0], math.Max(ext[1], ext[2])) / float64(k)
		if step <= 0 {
			continue
		}
		spacing = math.Max(spacing, step)
		m := world[ns[0]]
		for x := lo[0] + step/2; x < hi[0]; x += step {
			for y := lo[1] + step/2; y < hi[1]; y += step {
				for z := lo[2] + step/2; z < hi[2]; z += step {
					p := mgl64.Vec3{x, y, z}
					if !s.Contains(p, mlo, mhi) {
						continue
					}
					wp := m.Mul4x1(p.Vec4(1)).Vec3()
					samples = append(samples, sample{wp, d.Field(n, world, wp)})
				}
			}
		}
	}
	col := ColorAttract
	if g.Gravity < 0 {
		col = ColorRepel
	}
	var out []Line
	for _, s := range samples {
		l := ArrowFraction(s.f.Len()) * spacing
		if l < spacing*0.05 {
			continue
		}
		out = append(out, Arrow(s.p, s.p.Add(s.f.Normalize().Mul(l)), col)...)
	}
	return out
}

// WorldGravity draws the document's world gravity as an arrow of length
// size starting at origin, or nothing when there is none.
func WorldGravity(d *scene.Document, origin mgl64.Vec3, size float64) []Line {
	w := d.WorldGravity
	if w == nil || w.Gravity == 0 || mgl64.Vec3(w.Direction).Len() == 0 {
		return nil
	}
	dir := mgl64.Vec3(w.Direction).Normalize()
	if w.Gravity < 0 {
		dir = dir.Mul(-1)
	}
	return Arrow(origin, origin.Add(dir.Mul(size)), [4]float32{1, 1, 1, 0.8})
}

// ColorProbe is the colour of the gravity probe's arrow and path.
var ColorProbe = [4]float32{1, 0.85, 0.3, 1}

// Probe draws the net gravity at world point p as an arrow (length scale per
// m/s²) and the path of a test particle released there at rest, integrated
// through the scene's fields for steps steps of dt seconds.
func Probe(d *scene.Document, p mgl64.Vec3, scale, dt float64, steps int) []Line {
	world := d.WorldMatrices()
	g := d.NetGravity(world, p)
	var out []Line
	h := scale * 0.5
	for _, ax := range []mgl64.Vec3{xAxis, yAxis, zAxis} {
		out = append(out, Line{f32(p.Sub(ax.Mul(h))), f32(p.Add(ax.Mul(h))), ColorProbe})
	}
	out = append(out, Arrow(p, p.Add(g.Mul(scale)), ColorProbe)...)
	path := d.Trajectory(p, mgl64.Vec3{}, dt, steps)
	dim := ColorProbe
	dim[3] = 0.6
	for i := 1; i < len(path); i++ {
		out = append(out, Line{f32(path[i-1]), f32(path[i]), dim})
	}
	return out
}

// xodeRay returns the length of a ray geom an XODE import kept on node n.
func xodeRay(d *scene.Document, n int) (float64, bool) {
	m, ok := d.GLTF.Nodes[n].Extras.(map[string]any)
	if !ok {
		return 0, false
	}
	x, _ := m["xode"].(map[string]any)
	ray, ok := x["ray"].(map[string]any)
	if !ok {
		return 0, false
	}
	var l float64
	if _, err := fmt.Sscan(fmt.Sprint(ray["length"]), &l); err != nil || l <= 0 {
		return 0, false
	}
	return l, true
}
