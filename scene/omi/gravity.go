package omi

import (
	"encoding/json"
	"fmt"
	"math"

	"physview/scene"
)

// OMI_physics_gravity: the document's world gravity and each node's
// gravity field.
func init() {
	scene.RegisterCodec(scene.Codec{
		Names:    []string{scene.ExtGravity},
		Order:    orderGravity,
		Decode:   decodeGravities,
		Patch:    patchGravities,
		Used:     usedGravities,
		Validate: validateGravities,
	})
}

func decodeGravities(d *scene.Document, fs *scene.Findings) {
	if raw, ok := scene.RawExtension(d.GLTF.Extensions, scene.ExtGravity); ok {
		d.WorldGravity = decodeWorldGravity(raw, "/extensions/"+scene.ExtGravity, fs)
	}
	for i, n := range d.GLTF.Nodes {
		if raw, ok := scene.RawExtension(n.Extensions, scene.ExtGravity); ok {
			d.Nodes[i].Gravity = decodeGravity(raw, fmt.Sprintf("/nodes/%d/extensions/%s", i, scene.ExtGravity), fs)
		}
	}
}

func patchGravities(d *scene.Document, node int, blocks map[string]json.RawMessage) {
	if node >= 0 {
		if g := d.Nodes[node].Gravity; g != nil {
			blocks[scene.ExtGravity] = encodeGravity(g)
		}
		return
	}
	if d.WorldGravity != nil {
		blocks[scene.ExtGravity] = encodeWorldGravity(d.WorldGravity)
	}
}

func usedGravities(d *scene.Document, used []string) []string {
	has := d.WorldGravity != nil
	for _, ne := range d.Nodes {
		has = has || ne.Gravity != nil
	}
	if has {
		used = append(used, scene.ExtGravity)
	}
	return used
}

func validateGravities(d *scene.Document, fs *scene.Findings) {
	if g := d.WorldGravity; g != nil && g.Direction == [3]float64{} {
		fs.Errorf("OMI_VALUE_NOT_IN_RANGE", "/extensions/"+scene.ExtGravity+"/direction", "world gravity direction must not be the zero vector")
	}
	compoundChild := map[int]bool{}
	for i, ne := range d.Nodes {
		if ne.Body != nil && ne.Body.Trigger != nil {
			for _, c := range ne.Body.Trigger.Nodes {
				if c != i {
					compoundChild[c] = true
				}
			}
		}
	}
	for i, ne := range d.Nodes {
		g := ne.Gravity
		if g == nil {
			continue
		}
		path := fmt.Sprintf("/nodes/%d/extensions/%s", i, scene.ExtGravity)
		validateGravity(g, path, fs, len(d.Shapes))
		b := ne.Body
		switch {
		case b == nil || b.Trigger == nil:
			fs.Errorf("OMI_GRAVITY_NOT_ON_BASE_TRIGGER", path, "gravity must be on a node with a trigger (a base trigger); this node has none, so the field covers no volume")
		case b.Motion != nil || b.Collider != nil:
			fs.Errorf("OMI_GRAVITY_NOT_ON_BASE_TRIGGER", path, "gravity must be on a base trigger node without motion or collider")
		case compoundChild[i]:
			fs.Errorf("OMI_GRAVITY_NOT_ON_BASE_TRIGGER", path, "gravity must be on a base trigger, not on a part of a compound trigger")
		}
	}
}

func decodeWorldGravity(raw json.RawMessage, path string, fs *scene.Findings) *scene.WorldGravity {
	r := scene.NewReader(raw, path, fs)
	if r == nil {
		return nil
	}
	if !r.Has("gravity") {
		fs.Errorf("OMI_UNDEFINED_PROPERTY", path+"/gravity", "world gravity needs a gravity value")
	}
	g := &scene.WorldGravity{Gravity: r.Number("gravity", 9.8), Direction: r.Vec3("direction", [3]float64{0, -1, 0})}
	g.Extra = r.Rest()
	return g
}

func encodeWorldGravity(g *scene.WorldGravity) json.RawMessage {
	var w scene.Writer
	w.Set("gravity", g.Gravity)
	w.Set("direction", g.Direction)
	w.Rest(g.Extra)
	return w.Bytes()
}

func decodeGravity(raw json.RawMessage, path string, fs *scene.Findings) *scene.Gravity {
	r := scene.NewReader(raw, path, fs)
	if r == nil {
		return nil
	}
	name := r.String("type", "")
	t, ok := scene.ParseGravityType(name)
	if !ok {
		if name == "" {
			fs.Errorf("OMI_UNDEFINED_PROPERTY", path+"/type", "gravity type is required")
		} else {
			fs.Errorf("OMI_VALUE_NOT_IN_RANGE", path+"/type", "unknown gravity type %q", name)
		}
		return nil
	}
	g := scene.DefaultGravity(t)
	if !r.Has("gravity") {
		fs.Errorf("OMI_UNDEFINED_PROPERTY", path+"/gravity", "gravity value is required")
	}
	g.Gravity = r.Number("gravity", g.Gravity)
	prio := r.Number("priority", 0)
	if prio != math.Round(prio) {
		fs.Warnf("OMI_TYPE_MISMATCH", path+"/priority", "priority %g must be an integer: rounded to %g", prio, math.Round(prio))
	}
	g.Priority = int(math.Round(prio))
	g.Replace = r.Bool("replace", false)
	g.Stop = r.Bool("stop", false)

	p := r.Object(name)
	if p == nil && r.Has(name) {
		r.Use(name) // a sub-object of the wrong type: defaults replace it
	}
	if p == nil {
		if t == scene.GravityLine || t == scene.GravityShaped {
			fs.Errorf("OMI_UNDEFINED_PROPERTY", path+"/"+name, "%s gravity needs a %q sub-object", name, name)
		} else {
			fs.Warnf("OMI_UNDEFINED_PROPERTY", path, "no %q sub-object: the defaults are used (the schema requires the sub-object)", name)
		}
		g.Extra = r.Rest()
		return &g
	}
	switch t {
	case scene.GravityDirectional:
		g.Direction = p.Vec3("direction", g.Direction)
	case scene.GravityPoint:
		g.UnitDistance = p.Number("unitDistance", 0)
	case scene.GravityDisc, scene.GravityTorus:
		g.Radius = p.Number("radius", g.Radius)
		g.UnitDistance = p.Number("unitDistance", 0)
	case scene.GravityLine:
		g.UnitDistance = p.Number("unitDistance", 0)
		pts, ok := p.Numbers("points")
		if !ok && !p.Has("points") {
			fs.Errorf("OMI_UNDEFINED_PROPERTY", p.At("points"), "line gravity needs points")
		}
		if len(pts)%3 != 0 {
			fs.Errorf("OMI_TYPE_MISMATCH", p.At("points"), "points has %d numbers, not a multiple of 3", len(pts))
		}
		for i := 0; i+2 < len(pts); i += 3 {
			g.Points = append(g.Points, [3]float64{pts[i], pts[i+1], pts[i+2]})
		}
		if ok && len(g.Points) < 2 {
			fs.Errorf("OMI_UNDEFINED_PROPERTY", p.At("points"), "line gravity needs at least 2 points, has %d", len(g.Points))
		}
	case scene.GravityShaped:
		g.UnitDistance = p.Number("unitDistance", 0)
		if !p.Has("shape") {
			fs.Errorf("OMI_UNDEFINED_PROPERTY", p.At("shape"), "shaped gravity needs a shape")
		}
		g.Shape = p.Index("shape", -1)
	}
	g.SubExtra = p.Rest()
	g.Extra = r.Rest()
	return &g
}

func encodeGravity(g *scene.Gravity) json.RawMessage {
	var w scene.Writer
	w.Set("type", g.Type.String())
	w.Set("gravity", g.Gravity)
	w.Set("priority", g.Priority)
	w.Set("replace", g.Replace)
	w.Set("stop", g.Stop)
	var p scene.Writer
	switch g.Type {
	case scene.GravityDirectional:
		p.Set("direction", g.Direction)
	case scene.GravityPoint:
		p.Set("unitDistance", g.UnitDistance)
	case scene.GravityDisc, scene.GravityTorus:
		p.Set("radius", g.Radius)
		p.Set("unitDistance", g.UnitDistance)
	case scene.GravityLine:
		flat := make([]float64, 0, 3*len(g.Points))
		for _, pt := range g.Points {
			flat = append(flat, pt[0], pt[1], pt[2])
		}
		p.Set("points", flat)
		p.Set("unitDistance", g.UnitDistance)
	case scene.GravityShaped:
		p.Set("shape", g.Shape)
		p.Set("unitDistance", g.UnitDistance)
	}
	p.Rest(g.SubExtra)
	w.Raw(g.Type.String(), p.Bytes())
	w.Rest(g.Extra)
	return w.Bytes()
}

func validateGravity(g *scene.Gravity, path string, fs *scene.Findings, shapeCount int) {
	sub := path + "/" + g.Type.String()
	if g.UnitDistance < 0 {
		fs.Errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/unitDistance", "unitDistance %g must not be negative", g.UnitDistance)
	}
	switch g.Type {
	case scene.GravityDirectional:
		if g.Direction == [3]float64{} {
			fs.Errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/direction", "direction must not be the zero vector")
		}
	case scene.GravityDisc, scene.GravityTorus:
		if g.Radius < 0 {
			fs.Errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/radius", "radius %g must not be negative", g.Radius)
		}
	case scene.GravityShaped:
		if g.Shape >= shapeCount || g.Shape < -1 {
			fs.Errorf("OMI_UNRESOLVED_REFERENCE", sub+"/shape", "shape %d does not exist (the file has %d shapes)", g.Shape, shapeCount)
		} else if g.Shape == -1 {
			fs.Errorf("OMI_UNDEFINED_PROPERTY", sub+"/shape", "shaped gravity has no shape")
		}
	}
}
