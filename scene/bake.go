package scene

import (
	"fmt"

	"github.com/qmuntal/gltf"
)

// NewAnimation is an animation to add with the data its samplers read:
// the bytes, the buffer views into them (offsets from the start of Data)
// and the accessors (BufferView indexes Views); the samplers' Input and
// Output index Accessors.
type NewAnimation struct {
	Animation gltf.Animation
	Data      []byte
	Views     []gltf.BufferView
	Accessors []gltf.Accessor
}

// AddAnimationEdit returns the edit that appends a's animation, its
// accessors and buffer views, and its bytes to the buffer the file keeps
// its data in (a .glb's BIN chunk, a .gltf's first .bin) or to a new .bin
// named after the file. Saving writes the new entries after the file's
// own; everything else stays as it was read. Undo takes them all away.
func (d *Document) AddAnimationEdit(a NewAnimation, label string) Edit {
	g := appendGeometry{data: a.Data, views: a.Views, accessors: a.Accessors, label: label}
	g.buffer, g.uri = d.dataBuffer("scene", "_animation")
	return appendAnimation{geo: g, anim: a.Animation, label: label}
}

// appendAnimation appends an animation and its data (AddAnimationEdit).
type appendAnimation struct {
	geo   appendGeometry
	anim  gltf.Animation
	label string
}

func (e appendAnimation) Name() string { return labelOr(e.label, "Add animation %q", e.anim.Name) }

func (e appendAnimation) check(d *Document) error {
	for i, s := range e.anim.Samplers {
		if s == nil || s.Input < 0 || s.Input >= len(e.geo.accessors) || s.Output < 0 || s.Output >= len(e.geo.accessors) {
			return fmt.Errorf("animation sampler %d reads an accessor that is not added", i)
		}
	}
	for i, c := range e.anim.Channels {
		if c == nil || c.Sampler < 0 || c.Sampler >= len(e.anim.Samplers) || c.Target.Node == nil || *c.Target.Node < 0 || *c.Target.Node >= len(d.GLTF.Nodes) {
			return fmt.Errorf("animation channel %d: no such sampler or node", i)
		}
	}
	return nil
}

func (e appendAnimation) apply(d *Document) (Edit, Change, error) {
	n, base := len(d.GLTF.Animations), len(d.GLTF.Accessors)
	inv, _, err := e.geo.apply(d)
	if err != nil {
		return nil, Change{}, err
	}
	a := &gltf.Animation{Name: e.anim.Name, Extras: e.anim.Extras}
	for _, s := range e.anim.Samplers {
		a.Samplers = append(a.Samplers, &gltf.AnimationSampler{Input: s.Input + base, Output: s.Output + base, Interpolation: s.Interpolation})
	}
	for _, c := range e.anim.Channels {
		node := *c.Target.Node
		a.Channels = append(a.Channels, &gltf.AnimationChannel{Sampler: c.Sampler, Target: gltf.AnimationChannelTarget{Node: &node, Path: c.Target.Path}})
	}
	d.GLTF.Animations = append(d.GLTF.Animations, a)
	return removeAnimation{index: n, geo: inv, redo: e}, Change{Structure: true}, nil
}

// removeAnimation undoes appendAnimation.
type removeAnimation struct {
	index int
	geo   Edit
	redo  appendAnimation
}

func (e removeAnimation) Name() string { return e.redo.Name() }

func (e removeAnimation) apply(d *Document) (Edit, Change, error) {
	if len(d.GLTF.Animations) != e.index+1 {
		return nil, Change{}, fmt.Errorf("the added animation is gone already")
	}
	if _, _, err := e.geo.apply(d); err != nil {
		return nil, Change{}, err
	}
	d.GLTF.Animations = d.GLTF.Animations[:e.index]
	return e.redo, Change{Structure: true}, nil
}
