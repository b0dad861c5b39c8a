package anim

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene"
)

// Path is what a channel animates.
type Path int

// The channel targets: a node's translation, rotation, scale or morph
// weights, a mesh's default weights, or any other property a
// KHR_animation_pointer names (kept by pointer in Pose.Props).
const (
	PathTranslation Path = iota
	PathRotation
	PathScale
	PathWeights
	PathMeshWeights
	PathProperty
)

// Channel is one animated property.
type Channel struct {
	// Node is the target node (for PathMeshWeights, the mesh), -1 for a
	// PathProperty.
	Node int
	Path Path
	// Pointer is the JSON pointer of a KHR_animation_pointer channel, ""
	// for a core channel.
	Pointer string
	Sampler *Sampler
}

// Animation is one glTF animation, read and checked.
type Animation struct {
	Name     string
	Channels []Channel
	// Start and End are the earliest and latest key times of its samplers.
	Start, End float64
}

// Model is a document's animations, skins and per-primitive deformation
// data, read once.
type Model struct {
	Doc        *scene.Document
	Animations []*Animation
	// Problems lists channels and samplers that could not be read (skipped).
	Problems []string

	skins    []*skinData
	deforms  map[[2]int]*Deform
	shared   map[uint64][]*deformEntry
	unread   map[[2]int]error
	seed     maphash.Seed
	instance map[int][]mgl64.Mat4
	boxes    map[[2]int]drawnBox // by mesh and primitive (bounds.go)
}

// NewModel reads d's animations and skins. Broken channels are skipped and
// listed in Problems; it never fails.
func NewModel(d *scene.Document) *Model {
	m := &Model{Doc: d, deforms: map[[2]int]*Deform{}, shared: map[uint64][]*deformEntry{}, unread: map[[2]int]error{}, seed: maphash.MakeSeed(), instance: map[int][]mgl64.Mat4{}}
	doc := d.GLTF
	for ai, a := range doc.Animations {
		an := &Animation{Name: a.Name, Start: math.Inf(1), End: math.Inf(-1)}
		samplers := make([]*Sampler, len(a.Samplers))
		for ci, c := range a.Channels {
			ch, err := m.channel(a, c, samplers)
			if err != nil {
				m.Problems = append(m.Problems, fmt.Sprintf("animation %d channel %d: %v (skipped)", ai, ci, err))
				continue
			}
			an.Channels = append(an.Channels, ch)
			if n := len(ch.Sampler.Times); n > 0 {
				an.Start = math.Min(an.Start, ch.Sampler.Times[0])
				an.End = math.Max(an.End, ch.Sampler.Times[n-1])
			}
		}
		if an.Start > an.End {
			an.Start, an.End = 0, 0
		}
		m.Animations = append(m.Animations, an)
	}
	m.skins = make([]*skinData, len(doc.Skins))
	for i := range doc.Skins {
		s, err := readSkin(d, i)
		if err != nil {
			m.Problems = append(m.Problems, fmt.Sprintf("skin %d: %v (drawn unskinned)", i, err))
			continue
		}
		m.skins[i] = s
	}
	return m
}

// Duration returns animation a's end time, or the latest end of all for a < 0.
func (m *Model) Duration(a int) float64 {
	end := 0.0
	for i, an := range m.Animations {
		if a < 0 || a == i {
			end = math.Max(end, an.End)
		}
	}
	return end
}

// channel reads one channel and its sampler (cached in samplers).
func (m *Model) channel(a *gltf.Animation, c *gltf.AnimationChannel, samplers []*Sampler) (Channel, error) {
	doc := m.Doc.GLTF
	ch := Channel{Node: -1}
	var ptr struct {
		Pointer string `json:"pointer"`
	}
	if rawExt(c.Target.Extensions, "KHR_animation_pointer", &ptr) && ptr.Pointer != "" {
		ch.Pointer = ptr.Pointer
		if err := ch.parsePointer(doc); err != nil {
			return ch, err
		}
	} else {
		if c.Target.Node == nil {
			return ch, fmt.Errorf("no target node")
		}
		ch.Node = *c.Target.Node
		if ch.Node < 0 || ch.Node >= len(doc.Nodes) {
			return ch, fmt.Errorf("target node %d does not exist", ch.Node)
		}
		switch c.Target.Path {
		case gltf.TRSTranslation:
			ch.Path = PathTranslation
		case gltf.TRSRotation:
			ch.Path = PathRotation
		case gltf.TRSScale:
			ch.Path = PathScale
		case gltf.TRSWeights:
			ch.Path = PathWeights
		}
	}
	if c.Sampler < 0 || c.Sampler >= len(a.Samplers) {
		return ch, fmt.Errorf("sampler %d does not exist", c.Sampler)
	}
	if s := samplers[c.Sampler]; s != nil {
		ch.Sampler = s
		return ch, nil
	}
	gs := a.Samplers[c.Sampler]
	s := &Sampler{Quat: ch.Path == PathRotation || (ch.Path == PathProperty && strings.HasSuffix(ch.Pointer, "/rotation"))}
	switch gs.Interpolation {
	case gltf.InterpolationStep:
		s.Interp = Step
	case gltf.InterpolationCubicSpline:
		s.Interp = CubicSpline
	}
	var err error
	if s.Times, _, err = readFloats(m.Doc, gs.Input); err != nil {
		return ch, fmt.Errorf("sampler %d input: %w", c.Sampler, err)
	}
	for i := 1; i < len(s.Times); i++ {
		if !(s.Times[i] > s.Times[i-1]) {
			return ch, fmt.Errorf("sampler %d input: times do not increase at key %d", c.Sampler, i)
		}
	}
	var comps int
	if s.Values, comps, err = m.Doc.AccessorFloats(gs.Output, true); err != nil {
		return ch, fmt.Errorf("sampler %d output: %w", c.Sampler, err)
	}
	keys := len(s.Times)
	if s.Interp == CubicSpline {
		keys *= 3
	}
	if keys == 0 || len(s.Values)%keys != 0 {
		return ch, fmt.Errorf("sampler %d: %d output values for %d keys", c.Sampler, len(s.Values), len(s.Times))
	}
	s.Width = len(s.Values) / keys
	switch ch.Path {
	case PathTranslation, PathScale:
		if s.Width != 3 {
			return ch, fmt.Errorf("sampler %d: %d components per key, want 3", c.Sampler, s.Width)
		}
	case PathRotation:
		if s.Width != 4 {
			return ch, fmt.Errorf("sampler %d: %d components per key, want 4", c.Sampler, s.Width)
		}
	}
	_ = comps
	samplers[c.Sampler] = s
	ch.Sampler = s
	return ch, nil
}

// parsePointer sets Node and Path from a KHR_animation_pointer pointer:
// node TRS and weights and mesh weights become their own paths; any other
// property (material factors, lights, cameras) is kept by pointer.
func (ch *Channel) parsePointer(doc *gltf.Document) error {
	p := ch.Pointer
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("pointer %q does not start with /", p)
	}
	parts := strings.Split(p[1:], "/")
	ch.Path = PathProperty
	if len(parts) == 3 && (parts[0] == "nodes" || parts[0] == "meshes") {
		i, err := strconv.Atoi(parts[1])
		if err != nil || i < 0 {
			return fmt.Errorf("pointer %q: bad index %q", p, parts[1])
		}
		if parts[0] == "nodes" {
			if i >= len(doc.Nodes) {
				return fmt.Errorf("pointer %q: node %d does not exist", p, i)
			}
			ch.Node = i
			switch parts[2] {
			case "translation":
				ch.Path = PathTranslation
			case "rotation":
				ch.Path = PathRotation
			case "scale":
				ch.Path = PathScale
			case "weights":
				ch.Path = PathWeights
			default:
				ch.Node = -1
			}
			return nil
		}
		if i >= len(doc.Meshes) {
			return fmt.Errorf("pointer %q: mesh %d does not exist", p, i)
		}
		if parts[2] == "weights" {
			ch.Node, ch.Path = i, PathMeshWeights
		}
	}
	return nil
}

// rawExt decodes extension name of exts into v.
func rawExt(exts gltf.Extensions, name string, v any) bool {
	raw, ok := exts[name]
	if !ok {
		return false
	}
	var b []byte
	switch r := raw.(type) {
	case json.RawMessage:
		b = r
	default:
		var err error
		if b, err = json.Marshal(r); err != nil {
			return false
		}
	}
	return json.Unmarshal(b, v) == nil
}
