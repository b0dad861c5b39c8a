package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"physview/scene"
	"physview/scene/anim"
)

// Inspection is what `viewer inspect` prints about a document, as text
// (WriteText) or JSON (its json tags).
type Inspection struct {
	File     string          `json:"file"`
	Format   string          `json:"format"`
	Counts   map[string]int  `json:"counts"`
	Used     []string        `json:"extensionsUsed"`
	Scene    *Scene          `json:"scene,omitempty"`
	Variants []string        `json:"variants"`
	Shapes   []Shape         `json:"shapes"`
	Bodies   []Body          `json:"bodies"`
	World    *World          `json:"worldGravity,omitempty"`
	Gravity  []GravityField  `json:"gravity"`
	Joints   []Joint         `json:"joints"`
	Findings []scene.Finding `json:"findings"`
	// Omitted counts the findings past the bounds (scene.MaxFindings),
	// by code: "and N more".
	Omitted []scene.Omitted `json:"omittedFindings,omitempty"`
	// Bounds is the posed world box of every drawn vertex; the caller sets
	// it (it depends on the pose asked for).
	Bounds *Bounds `json:"bounds,omitempty"`
	// Animations lists the animations and their time ranges.
	Animations []Animation `json:"animations,omitempty"`
}

// Scene is the scene shown (inspect -scene N chooses it).
type Scene struct {
	Index     int    `json:"index"`
	Name      string `json:"name"`
	Nodes     int    `json:"nodes"`
	MeshNodes int    `json:"meshNodes"`
}

// Shape is one collision shape: its kind and its parameters in words,
// and (in JSON) the parameters as numbers in the file's object form under
// the type's name, with every default filled in, and where the shape lives
// (Source: "omi", "khr" or "gltf2.1"):
//
//	{"index": 1, "type": "capsule", "params": "...",
//	 "capsule": {"height": 1, "radiusBottom": 0.5, "radiusTop": 0.5}, "source": "gltf2.1"}
type Shape struct {
	Index  int    `json:"index"`
	Type   string `json:"type"`
	Params string `json:"params"`
	// Values is the parameters object (scene.Document.ShapeForm).
	Values json.RawMessage `json:"-"`
	Source string          `json:"source"`
}

// MarshalJSON writes the shape with its parameters object under its type.
func (s Shape) MarshalJSON() ([]byte, error) {
	type plain Shape
	b, err := json.Marshal(plain(s))
	if err != nil || len(s.Values) == 0 || s.Type == "" {
		return b, err
	}
	// Insert "<type>": values before "source" (the last member).
	key, err := json.Marshal(s.Type)
	if err != nil {
		return nil, err
	}
	i := strings.LastIndex(string(b), `,"source":`)
	if i < 0 {
		return b, nil
	}
	out := append([]byte{}, b[:i]...)
	out = append(out, ',')
	out = append(out, key...)
	out = append(out, ':')
	out = append(out, s.Values...)
	return append(out, b[i:]...), nil
}

// Body is a node with a rigid body, a collider or a trigger; Collider is
// -1 for a compound collider.
type Body struct {
	Node     int      `json:"node"`
	Name     string   `json:"name"`
	Motion   string   `json:"motion,omitempty"`
	Mass     *float64 `json:"mass,omitempty"`
	Collider *int     `json:"colliderShape,omitempty"`
	Trigger  string   `json:"trigger,omitempty"`
}

// World is the document's world gravity.
type World struct {
	Gravity   float64    `json:"gravity"`
	Direction [3]float64 `json:"direction"`
}

// GravityField is a node's gravity field.
type GravityField struct {
	Node     int     `json:"node"`
	Name     string  `json:"name"`
	Type     string  `json:"type"`
	Gravity  float64 `json:"gravity"`
	Priority int     `json:"priority"`
	Replace  bool    `json:"replace"`
	Stop     bool    `json:"stop"`
}

// Joint is a node's physics joint: its settings' limits and drives.
type Joint struct {
	Node      int    `json:"node"`
	Name      string `json:"name"`
	Joint     int    `json:"joint"`
	Connected int    `json:"connectedNode"`
	Limits    int    `json:"limits"`
	Drives    int    `json:"drives"`
}

// Inspect reports on d's shown scene: counts, extensions, variants,
// shapes, bodies, gravity, joints, animations and findings. Bounds is left
// for the caller.
func Inspect(d *scene.Document) Inspection {
	g := d.GLTF
	prims := 0
	for _, m := range g.Meshes {
		prims += len(m.Primitives)
	}
	r := Inspection{
		File:   d.Path,
		Format: formatName(d),
		Counts: map[string]int{
			"nodes": len(g.Nodes), "meshes": len(g.Meshes), "primitives": prims,
			"materials": len(g.Materials), "textures": len(g.Textures), "images": len(g.Images),
			"animations": len(g.Animations), "skins": len(g.Skins), "cameras": len(g.Cameras),
			"scenes": len(g.Scenes), "shapes": len(d.Shapes), "physicsMaterials": len(d.PhysicsMaterials),
			"collisionFilters": len(d.CollisionFilters), "physicsJoints": len(d.Joints), "variants": len(d.Variants),
		},
		Used:     g.ExtensionsUsed,
		Variants: []string{},
		Shapes:   []Shape{},
		Bodies:   []Body{},
		Gravity:  []GravityField{},
		Joints:   []Joint{},
		Findings: d.Findings(),
		Omitted:  d.Omitted(),
	}
	if s := d.ShownScene(); s >= 0 {
		sr := &Scene{Index: s, Name: d.SceneLabel(s)}
		for _, n := range d.SceneNodes() {
			sr.Nodes++
			if g.Nodes[n].Mesh != nil {
				sr.MeshNodes++
			}
		}
		r.Scene = sr
	}
	for i := range d.Variants {
		r.Variants = append(r.Variants, d.VariantLabel(i))
	}
	for i, s := range d.Shapes {
		source, typ, values := d.ShapeForm(i)
		if s.Type == 0 {
			typ, values = "unknown", nil
		}
		r.Shapes = append(r.Shapes, Shape{Index: i, Type: typ, Params: s.Params(), Values: values, Source: source})
	}
	if wg := d.WorldGravity; wg != nil {
		r.World = &World{wg.Gravity, wg.Direction}
	}
	for i, ne := range d.Nodes {
		if b := ne.Body; b != nil {
			br := Body{Node: i, Name: d.NodeName(i)}
			if b.Motion != nil {
				br.Motion = b.Motion.Type.String()
				m := b.Motion.Mass
				br.Mass = &m
			}
			if b.Collider != nil {
				s := b.Collider.Shape
				br.Collider = &s
			}
			if t := b.Trigger; t != nil {
				if t.Nodes != nil {
					br.Trigger = fmt.Sprintf("compound of nodes %v", t.Nodes)
				} else {
					br.Trigger = fmt.Sprintf("shape %d", t.Shape)
				}
			}
			r.Bodies = append(r.Bodies, br)
		}
		if gv := ne.Gravity; gv != nil {
			r.Gravity = append(r.Gravity, GravityField{i, d.NodeName(i), gv.Type.String(), gv.Gravity, gv.Priority, gv.Replace, gv.Stop})
		}
		if j := ne.Joint; j != nil {
			jr := Joint{Node: i, Name: d.NodeName(i), Joint: j.Joint, Connected: j.ConnectedNode}
			if j.Joint >= 0 && j.Joint < len(d.Joints) {
				jr.Limits, jr.Drives = len(d.Joints[j.Joint].Limits), len(d.Joints[j.Joint].Drives)
			}
			r.Joints = append(r.Joints, jr)
		}
	}
	r.Animations = animations(d)
	return r
}

// formatName names the file format d was read from.
func formatName(d *scene.Document) string {
	if f, ok := scene.FormatFor(d.Path); ok {
		return f.Name
	}
	return map[bool]string{true: "glb", false: "gltf"}[d.IsGLB()]
}

// WriteText writes r as inspect's text: a summary line, then a section per
// kind of object the document has, then the findings (not the bounds: see
// WriteBounds).
func (r Inspection) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s (%s)\n", r.File, r.Format)
	c := r.Counts
	fmt.Fprintf(w, "  %d nodes, %d meshes (%d primitives), %d materials, %d textures, %d images, %d animations, %d skins, %d cameras\n",
		c["nodes"], c["meshes"], c["primitives"], c["materials"], c["textures"], c["images"], c["animations"], c["skins"], c["cameras"])
	if len(r.Used) > 0 {
		fmt.Fprintf(w, "  extensions: %s\n", strings.Join(r.Used, ", "))
	}
	if s := r.Scene; s != nil && c["scenes"] > 1 {
		fmt.Fprintf(w, "  scene %d (%s) of %d: %d nodes, %d with meshes\n", s.Index, s.Name, c["scenes"], s.Nodes, s.MeshNodes)
	}
	if len(r.Variants) > 0 {
		fmt.Fprintf(w, "variants (%d):\n", len(r.Variants))
		for i, v := range r.Variants {
			fmt.Fprintf(w, "  %d  %s\n", i, v)
		}
	}
	if len(r.Shapes) > 0 {
		fmt.Fprintf(w, "shapes (%d, %s):\n", len(r.Shapes), sourceNames[r.Shapes[0].Source])
		for _, s := range r.Shapes {
			fmt.Fprintf(w, "  %d  %-8s %s\n", s.Index, s.Type, s.Params)
		}
	}
	if len(r.Bodies) > 0 {
		fmt.Fprintf(w, "bodies (%d nodes):\n", len(r.Bodies))
		for _, b := range r.Bodies {
			var parts []string
			if b.Motion != "" {
				parts = append(parts, fmt.Sprintf("motion %s, mass %g", b.Motion, *b.Mass))
			}
			if b.Collider != nil {
				if *b.Collider < 0 {
					parts = append(parts, "compound collider")
				} else {
					parts = append(parts, fmt.Sprintf("collider shape %d", *b.Collider))
				}
			}
			if b.Trigger != "" {
				parts = append(parts, "trigger "+b.Trigger)
			}
			fmt.Fprintf(w, "  %d %q: %s\n", b.Node, b.Name, strings.Join(parts, "; "))
		}
	}
	if r.World != nil {
		fmt.Fprintf(w, "world gravity: %g m/s² towards %v\n", r.World.Gravity, r.World.Direction)
	}
	if len(r.Gravity) > 0 {
		fmt.Fprintf(w, "gravity fields (%d):\n", len(r.Gravity))
		for _, g := range r.Gravity {
			fmt.Fprintf(w, "  %d %q: %s %g m/s², priority %d, replace %v, stop %v\n", g.Node, g.Name, g.Type, g.Gravity, g.Priority, g.Replace, g.Stop)
		}
	}
	if len(r.Joints) > 0 {
		fmt.Fprintf(w, "joints (%d):\n", len(r.Joints))
		for _, j := range r.Joints {
			fmt.Fprintf(w, "  %d %q: settings %d (%d limits, %d drives), connected to node %d\n", j.Node, j.Name, j.Joint, j.Limits, j.Drives, j.Connected)
		}
	}
	writeFindingList(w, r.Findings, r.Omitted)
}

// sourceNames words where shapes live, for inspect's text.
var sourceNames = map[string]string{
	"omi":     "OMI_physics_shape, OMI defaults",
	"khr":     "KHR_implicit_shapes, release-candidate defaults",
	"gltf2.1": "glTF 2.1 core shapes, 2.1 defaults",
}

// writeFindingList writes a line counting the findings by severity, then
// one line per finding.
func writeFindingList(w io.Writer, fs []scene.Finding, omitted []scene.Omitted) {
	counts := scene.CountWithOmitted(fs, omitted)
	fmt.Fprintf(w, "findings: %d errors, %d warnings, %d notes\n", counts[scene.Error], counts[scene.Warning], counts[scene.Info])
	for _, f := range fs {
		fmt.Fprintf(w, "  %s\n", f)
	}
	writeOmitted(w, omitted)
}

// writeOmitted writes one "and N more" line per code past the bounds.
func writeOmitted(w io.Writer, omitted []scene.Omitted) {
	for _, o := range omitted {
		fmt.Fprintf(w, "  ... and %d more %s %s findings not listed\n", o.Count, o.Severity, o.Code)
	}
}

// WriteBounds writes inspect's text line for the posed bounds b (nothing
// when b is nil); when names the pose ("rest pose", "animation 0 at 1 s").
func WriteBounds(w io.Writer, b *Bounds, when string) {
	if b == nil {
		return
	}
	fmt.Fprintf(w, "bounds (%s): min (%.4g, %.4g, %.4g) max (%.4g, %.4g, %.4g)\n", when, b.Min[0], b.Min[1], b.Min[2], b.Max[0], b.Max[1], b.Max[2])
	if b.LeftOut > 0 {
		fmt.Fprintf(w, "  %d primitive uses left out of the bounds, their vertices not read; the first: %s\n", b.LeftOut, b.Why)
	}
}

// Bounds is the posed world box of every drawn vertex.
type Bounds struct {
	Min [3]float64 `json:"min"`
	Max [3]float64 `json:"max"`
	// LeftOut counts the uses (a node's primitive) whose vertices could
	// not be read (over the read budget, an index out of range); Why is
	// the first one's reason.
	LeftOut int    `json:"leftOut,omitempty"`
	Why     string `json:"leftOutWhy,omitempty"`
}

// Animation is one animation in inspect's report.
type Animation struct {
	Index    int     `json:"index"`
	Name     string  `json:"name"`
	Start    float64 `json:"start"`
	End      float64 `json:"end"`
	Channels int     `json:"channels"`
}

// animations lists d's animations with their time ranges and the
// channels that can be played.
func animations(d *scene.Document) []Animation {
	if d.GLTF == nil || len(d.GLTF.Animations) == 0 {
		return nil
	}
	m := anim.NewModel(d)
	out := make([]Animation, len(m.Animations))
	for i, a := range m.Animations {
		out[i] = Animation{Index: i, Name: a.Name, Start: a.Start, End: a.End, Channels: len(a.Channels)}
	}
	return out
}

// PosedBounds returns the world box of every vertex drawn in d's shown
// scene in the pose anim's PoseAt(a, t) gives (the rest pose for a NaN t);
// nil when nothing is drawn. Errors are PoseAt's.
func PosedBounds(d *scene.Document, a int, t float64) (*Bounds, error) {
	if d.GLTF == nil {
		return nil, nil
	}
	m := anim.NewModel(d)
	p, err := m.PoseAt(a, t)
	if err != nil {
		return nil, err
	}
	lo, hi, ok := m.Bounds(p)
	if !ok {
		return nil, nil
	}
	b := &Bounds{Min: lo, Max: hi}
	doc := d.GLTF
	for _, n := range d.SceneNodes() {
		if mesh := doc.Nodes[n].Mesh; mesh != nil && *mesh >= 0 && *mesh < len(doc.Meshes) {
			for prim := range doc.Meshes[*mesh].Primitives {
				if err := m.Unread(*mesh, prim); err != nil {
					if b.LeftOut == 0 {
						b.Why = err.Error()
					}
					b.LeftOut++
				}
			}
		}
	}
	return b, nil
}

// WriteJSON writes the report as indented JSON, inspect -json's output.
//
// JSON has no infinity or NaN: bounds that overflowed (a node scaled by
// 1e308) are left out, as when there is nothing to bound, rather than
// failing with "json: unsupported value"; any other failure names the file.
func (r Inspection) WriteJSON(w io.Writer) error {
	if b := r.Bounds; b != nil && (!finite(b.Min[:]) || !finite(b.Max[:])) {
		r.Bounds = nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("%s: the report cannot be written as JSON: %w", r.File, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func finite(v []float64) bool {
	for _, x := range v {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return false
		}
	}
	return true
}
