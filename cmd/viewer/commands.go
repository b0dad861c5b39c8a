package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"physview/internal/app"
	"physview/scene"
	_ "physview/scene/g4mf" // registers .g4tf and .g4b with scene.FormatFor
)

// inspectReport is what inspect prints, as text or JSON.
type inspectReport struct {
	File     string          `json:"file"`
	Format   string          `json:"format"`
	Counts   map[string]int  `json:"counts"`
	Used     []string        `json:"extensionsUsed"`
	Scene    *sceneReport    `json:"scene,omitempty"`
	Variants []string        `json:"variants"`
	Shapes   []shapeReport   `json:"shapes"`
	Bodies   []bodyReport    `json:"bodies"`
	World    *worldReport    `json:"worldGravity,omitempty"`
	Gravity  []gravityReport `json:"gravity"`
	Joints   []jointReport   `json:"joints"`
	Findings []scene.Finding `json:"findings"`
	// Bounds is the posed world box of every drawn vertex (anim.go).
	Bounds *boundsReport `json:"bounds,omitempty"`
	// Animations lists the animations and their time ranges (anim.go).
	Animations []animReport `json:"animations,omitempty"`
}

// sceneReport is the scene shown (inspect -scene N chooses it).
type sceneReport struct {
	Index     int    `json:"index"`
	Name      string `json:"name"`
	Nodes     int    `json:"nodes"`
	MeshNodes int    `json:"meshNodes"`
}

type shapeReport struct {
	Index  int    `json:"index"`
	Type   string `json:"type"`
	Params string `json:"params"`
}

type bodyReport struct {
	Node     int      `json:"node"`
	Name     string   `json:"name"`
	Motion   string   `json:"motion,omitempty"`
	Mass     *float64 `json:"mass,omitempty"`
	Collider *int     `json:"colliderShape,omitempty"`
	Trigger  string   `json:"trigger,omitempty"`
}

type worldReport struct {
	Gravity   float64    `json:"gravity"`
	Direction [3]float64 `json:"direction"`
}

type gravityReport struct {
	Node     int     `json:"node"`
	Name     string  `json:"name"`
	Type     string  `json:"type"`
	Gravity  float64 `json:"gravity"`
	Priority int     `json:"priority"`
	Replace  bool    `json:"replace"`
	Stop     bool    `json:"stop"`
}

type jointReport struct {
	Node      int    `json:"node"`
	Name      string `json:"name"`
	Joint     int    `json:"joint"`
	Connected int    `json:"connectedNode"`
	Limits    int    `json:"limits"`
	Drives    int    `json:"drives"`
}

func load(path string) (*scene.Document, error) {
	d, err := openDocument(path)
	if err != nil {
		return nil, fail(2, "%v", err)
	}
	return d, nil
}

// loadForView is load for the commands that show or play the file
// (screenshot, simulate): a file that requires an extension the viewer
// cannot honour is refused (exit 2) with one line naming it.
func loadForView(path string) (*scene.Document, error) {
	d, err := load(path)
	if err != nil {
		return nil, err
	}
	if err := d.CheckRequired(); err != nil {
		return nil, fail(2, "%v", err)
	}
	return d, nil
}

// saveDocument writes .gltf or .glb, or exports .xode, and returns what
// could not be carried over.
func saveDocument(d *scene.Document, path string) ([]string, error) {
	return app.SaveDocument(d, path)
}

// openDocument reads a file of any registered format.
func openDocument(path string) (*scene.Document, error) {
	return app.OpenDocument(path)
}

func cmdInspect(args []string, w io.Writer) error {
	fs := newFlags("inspect")
	asJSON := fs.Bool("json", false, "print JSON")
	pf := addPoseFlags(fs)
	sceneIdx := fs.Int("scene", -1, "index of the scene to report (default: the file's scene)")
	if err := parseFlags(fs, args, 1, "one FILE"); err != nil {
		return err
	}
	d, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	if err := d.SetShownScene(*sceneIdx); err != nil {
		return fail(2, "%s: -scene: %v", fs.Arg(0), err)
	}
	r := buildReport(d)
	if r.Bounds, err = poseBounds(d, pf); err != nil {
		return err
	}
	r.Animations = animationReports(d)
	if *asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printReport(w, r)
	printBounds(w, r.Bounds, pf)
	return nil
}

func nodeName(d *scene.Document, i int) string { return d.NodeName(i) }

func buildReport(d *scene.Document) inspectReport {
	g := d.GLTF
	prims := 0
	for _, m := range g.Meshes {
		prims += len(m.Primitives)
	}
	r := inspectReport{
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
		Shapes:   []shapeReport{},
		Bodies:   []bodyReport{},
		Gravity:  []gravityReport{},
		Joints:   []jointReport{},
		Findings: d.Findings(),
	}
	if s := d.ShownScene(); s >= 0 {
		sr := &sceneReport{Index: s, Name: d.SceneLabel(s)}
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
		r.Shapes = append(r.Shapes, shapeReport{i, s.Type.String(), shapeParams(s)})
	}
	if wg := d.WorldGravity; wg != nil {
		r.World = &worldReport{wg.Gravity, wg.Direction}
	}
	for i, ne := range d.Nodes {
		if b := ne.Body; b != nil {
			br := bodyReport{Node: i, Name: nodeName(d, i)}
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
			r.Gravity = append(r.Gravity, gravityReport{i, nodeName(d, i), gv.Type.String(), gv.Gravity, gv.Priority, gv.Replace, gv.Stop})
		}
		if j := ne.Joint; j != nil {
			jr := jointReport{Node: i, Name: nodeName(d, i), Joint: j.Joint, Connected: j.ConnectedNode}
			if j.Joint >= 0 && j.Joint < len(d.Joints) {
				jr.Limits, jr.Drives = len(d.Joints[j.Joint].Limits), len(d.Joints[j.Joint].Drives)
			}
			r.Joints = append(r.Joints, jr)
		}
	}
	return r
}

// formatName names the file format d was read from.
func formatName(d *scene.Document) string {
	if f, ok := scene.FormatFor(d.Path); ok {
		return f.Name
	}
	return map[bool]string{true: "glb", false: "gltf"}[d.IsGLB()]
}

func shapeParams(s scene.Shape) string { return s.Params() }

func printReport(w io.Writer, r inspectReport) {
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
		fmt.Fprintf(w, "shapes (%d):\n", len(r.Shapes))
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
	printFindings(w, r.Findings)
}

func printFindings(w io.Writer, fs []scene.Finding) {
	counts := scene.CountBySeverity(fs)
	fmt.Fprintf(w, "findings: %d errors, %d warnings, %d notes\n", counts[scene.Error], counts[scene.Warning], counts[scene.Info])
	for _, f := range fs {
		fmt.Fprintf(w, "  %s\n", f)
	}
}

func cmdConvert(args []string, w io.Writer) error {
	fs := newFlags("convert")
	physics := fs.String("physics", "", "write the physics as omi or khr (default: the dialect it was read in)")
	if err := parseFlags(fs, args, 2, "IN and OUT"); err != nil {
		return err
	}
	in, out := fs.Arg(0), fs.Arg(1)
	d, err := load(in)
	if err != nil {
		return err
	}
	var dialectWarnings []string
	if *physics != "" {
		p, ok := scene.ParsePhysicsDialect(*physics)
		if !ok {
			return fail(2, "convert: -physics %q: want omi or khr", *physics)
		}
		dialectWarnings = d.SetPhysicsDialect(p)
	}
	warnings, err := saveDocument(d, out)
	if err != nil {
		return fail(2, "%v", err)
	}
	for _, dw := range dialectWarnings {
		if !slices.Contains(warnings, dw) {
			warnings = append(warnings, dw)
		}
	}
	for _, warning := range warnings {
		fmt.Fprintf(w, "warning: %s\n", warning)
	}
	c := scene.CountBySeverity(d.Findings())
	fmt.Fprintf(w, "wrote %s (%d errors, %d warnings carried over from %s)\n", out, c[scene.Error], c[scene.Warning], in)
	return nil
}
