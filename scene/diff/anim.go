package diff

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"physview/scene"
)

// Animations are matched by name (then in order), their channels by
// target node identity and path; samplers are compared by their decoded
// keyframes. Skins by name, their joints by node identity. Variants by
// name, with the material each primitive uses for each.

func animName(d *scene.Document, i int) string {
	if n := d.GLTF.Animations[i].Name; n != "" {
		return fmt.Sprintf("%q", n)
	}
	return fmt.Sprint(i)
}

func (c *comparer) compareAnimations() {
	a, b := c.a.d, c.b.d
	la, lb := a.GLTF.Animations, b.GLTF.Animations
	ab, ba := map[int]int{}, map[int]int{}
	pairBy(len(la), len(lb), ab, ba, func(i int) string { return la[i].Name }, func(j int) string { return lb[j].Name })
	pairInOrder(len(la), len(lb), ab, ba, func(i int) bool { return la[i].Name == "" }, func(j int) bool { return lb[j].Name == "" })
	for i := range la {
		j, ok := ab[i]
		if !ok {
			c.addDoc(Animation, Removed, ptr("animations", i), "", "animation %s removed (%d channels)", animName(a, i), len(la[i].Channels))
			continue
		}
		c.compareAnimation(i, j)
	}
	for j := range lb {
		if _, ok := ba[j]; !ok {
			c.addDoc(Animation, Added, "", ptr("animations", j), "animation %s added (%d channels)", animName(b, j), len(lb[j].Channels))
		}
	}
}

// channelKey is a channel's target: node identity and path.
func (c *comparer) channelKey(s *side, anim, ch int) string {
	t := s.d.GLTF.Animations[anim].Channels[ch].Target
	return c.nodeID(s, optInt(t.Node)) + " " + t.Path.String()
}

func (c *comparer) channelTarget(s *side, anim, ch int) (node int, text string) {
	t := s.d.GLTF.Animations[anim].Channels[ch].Target
	n := optInt(t.Node)
	return n, fmt.Sprintf("%s of %q", t.Path, s.d.NodeName(n))
}

func (c *comparer) compareAnimation(i, j int) {
	a, b := c.a.d, c.b.d
	aa, ab := a.GLTF.Animations[i], b.GLTF.Animations[j]
	name := "animation " + animName(b, j)
	chAB, chBA := map[int]int{}, map[int]int{}
	pairBy(len(aa.Channels), len(ab.Channels), chAB, chBA, func(k int) string { return c.channelKey(c.a, i, k) }, func(k int) string { return c.channelKey(c.b, j, k) })
	for k := range aa.Channels {
		na, text := c.channelTarget(c.a, i, k)
		l, ok := chAB[k]
		if !ok {
			c.addNode(Animation, Removed, na, c.nodeABor(na), ptr("animations", i, "channels", k), "", "%s: channel %s removed", name, text)
			continue
		}
		nb, _ := c.channelTarget(c.b, j, l)
		sa, sb := aa.Channels[k].Sampler, ab.Channels[l].Sampler
		if sa < 0 || sb < 0 || sa >= len(aa.Samplers) || sb >= len(ab.Samplers) {
			continue
		}
		if why := c.samplerDiff(aa.Samplers[sa].Input, ab.Samplers[sb].Input, aa.Samplers[sa].Output, ab.Samplers[sb].Output); why != "" || aa.Samplers[sa].Interpolation != ab.Samplers[sb].Interpolation {
			if why == "" {
				why = fmt.Sprintf("interpolation %s → %s", aa.Samplers[sa].Interpolation, ab.Samplers[sb].Interpolation)
			}
			c.addNode(Animation, Changed, na, nb, ptr("animations", i, "samplers", sa), ptr("animations", j, "samplers", sb), "%s: channel %s: %s", name, text, why)
		}
	}
	for l := range ab.Channels {
		if _, ok := chBA[l]; !ok {
			nb, text := c.channelTarget(c.b, j, l)
			c.addNode(Animation, Added, c.nodeBAor(nb), nb, "", ptr("animations", j, "channels", l), "%s: channel %s added", name, text)
		}
	}
}

func (c *comparer) nodeABor(n int) int {
	if m, ok := c.nodeAB[n]; ok {
		return m
	}
	return -1
}

func (c *comparer) nodeBAor(n int) int {
	if m, ok := c.nodeBA[n]; ok {
		return m
	}
	return -1
}

// samplerDiff says how two samplers' keyframes differ, "" when they do not.
func (c *comparer) samplerDiff(inA, inB, outA, outB int) string {
	ta, _, errA := c.a.d.AccessorFloats(inA, true)
	tb, _, errB := c.b.d.AccessorFloats(inB, true)
	if errA != nil || errB != nil {
		return ""
	}
	if len(ta) != len(tb) {
		return fmt.Sprintf("%d keyframes → %d", len(ta), len(tb))
	}
	if d := maxAbs(ta, tb); d > Tolerance {
		return fmt.Sprintf("key times moved by up to %s s", num(d))
	}
	va, _, errA := c.a.d.AccessorFloats(outA, true)
	vb, _, errB := c.b.d.AccessorFloats(outB, true)
	if errA != nil || errB != nil {
		return ""
	}
	if len(va) != len(vb) {
		return fmt.Sprintf("%d values → %d", len(va), len(vb))
	}
	if d := maxAbs(va, vb); d > Tolerance {
		return fmt.Sprintf("values changed by up to %s", num(d))
	}
	return ""
}

func maxAbs(a, b []float32) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(float64(a[i]-b[i])))
	}
	return m
}

func (c *comparer) compareSkins() {
	a, b := c.a.d, c.b.d
	matched := map[int]bool{}
	for i := range a.GLTF.Skins {
		j, ok := c.skinAB[i]
		if !ok {
			continue
		}
		matched[j] = true
		sa, sb := a.GLTF.Skins[i], b.GLTF.Skins[j]
		name := fmt.Sprintf("skin %d", j)
		if sb.Name != "" {
			name = fmt.Sprintf("skin %q", sb.Name)
		}
		var ja, jb []string
		for _, n := range sa.Joints {
			ja = append(ja, c.nodeID(c.a, n))
		}
		for _, n := range sb.Joints {
			jb = append(jb, c.nodeID(c.b, n))
		}
		if !slices.Equal(ja, jb) {
			c.addDoc(Animation, Changed, ptr("skins", i, "joints"), ptr("skins", j, "joints"), "%s: joints changed (%d → %d)", name, len(ja), len(jb))
		}
		if sa.InverseBindMatrices != nil && sb.InverseBindMatrices != nil {
			va, _, errA := a.AccessorFloats(*sa.InverseBindMatrices, false)
			vb, _, errB := b.AccessorFloats(*sb.InverseBindMatrices, false)
			if errA == nil && errB == nil && (len(va) != len(vb) || maxAbs(va, vb) > Tolerance) {
				c.addDoc(Animation, Changed, ptr("skins", i, "inverseBindMatrices"), ptr("skins", j, "inverseBindMatrices"), "%s: inverse bind matrices changed", name)
			}
		} else if (sa.InverseBindMatrices == nil) != (sb.InverseBindMatrices == nil) {
			c.addDoc(Animation, Changed, ptr("skins", i), ptr("skins", j), "%s: inverse bind matrices added or removed", name)
		}
	}
	for i := range a.GLTF.Skins {
		if _, ok := c.skinAB[i]; !ok {
			c.addDoc(Animation, Removed, ptr("skins", i), "", "skin %d removed (%d joints)", i, len(a.GLTF.Skins[i].Joints))
		}
	}
	for j := range b.GLTF.Skins {
		if !matched[j] {
			c.addDoc(Animation, Added, "", ptr("skins", j), "skin %d added (%d joints)", j, len(b.GLTF.Skins[j].Joints))
		}
	}
}

// variantMaterials lists, for each variant name of s, the material each
// primitive of each matched mesh uses.
func (c *comparer) compareVariants() {
	a, b := c.a.d, c.b.d
	names := func(d *scene.Document) []string {
		var r []string
		for _, v := range d.Variants {
			r = append(r, v.Name)
		}
		return r
	}
	na, nb := names(a), names(b)
	extPtr := ptr("extensions", scene.ExtVariants, "variants")
	for i, n := range na {
		if !slices.Contains(nb, n) {
			c.addDoc(Variant, Removed, extPtr+fmt.Sprintf("/%d", i), "", "variant %q removed", n)
		}
	}
	for j, n := range nb {
		if !slices.Contains(na, n) {
			c.addDoc(Variant, Added, "", extPtr+fmt.Sprintf("/%d", j), "variant %q added", n)
		}
	}
	for mi := range a.GLTF.Meshes {
		mj, ok := c.meshAB[mi]
		if !ok {
			continue
		}
		for p := range min(len(a.GLTF.Meshes[mi].Primitives), len(b.GLTF.Meshes[mj].Primitives)) {
			var parts []string
			defA := optInt(a.GLTF.Meshes[mi].Primitives[p].Material)
			defB := optInt(b.GLTF.Meshes[mj].Primitives[p].Material)
			pvA := a.Primitives[scene.PrimitiveRef{Mesh: mi, Primitive: p}]
			pvB := b.Primitives[scene.PrimitiveRef{Mesh: mj, Primitive: p}]
			for vi, n := range na {
				vj := slices.Index(nb, n)
				if vj < 0 {
					continue
				}
				ma, mb := pvA.MaterialFor(vi, defA), pvB.MaterialFor(vj, defB)
				if c.matID(c.a, ma) != c.matID(c.b, mb) {
					parts = append(parts, fmt.Sprintf("%q: %s → %s", n, matName(a, ma), matName(b, mb)))
				}
			}
			if len(parts) > 0 {
				pp := fmt.Sprintf("/meshes/%%d/primitives/%d/extensions/%s", p, scene.ExtVariants)
				c.addDoc(Variant, Changed, fmt.Sprintf(pp, mi), fmt.Sprintf(pp, mj), "mesh %s primitive %d: %s", meshName(b, mj), p, strings.Join(parts, ", "))
			}
		}
	}
}
