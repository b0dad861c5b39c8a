package scene

import (
	"encoding/json"
	"fmt"
)

// ExtVariants is the extension name. Like every owned
// extension it is read into typed values and written back in its current
// form; everything else in the file is kept as is.
const ExtVariants = "KHR_materials_variants"

// KHR_materials_variants: the root variants list and each primitive's
// material mappings, including the draft form that names variants instead
// of indexing them.
func init() {
	registerExtension(extensionCodec{
		Names:          []string{ExtVariants},
		Order:          orderVariants,
		Decode:         decodeVariants,
		Patch:          patchVariants,
		PatchPrimitive: patchPrimitiveVariants,
		Used: func(d *Document, used []string) []string {
			if len(d.Variants) > 0 || len(d.Primitives) > 0 {
				used = append(used, ExtVariants)
			}
			return used
		},
		Validate: validateVariants,
	})
}

func decodeVariants(d *Document, fs *findings) {
	doc := d.GLTF
	if raw, ok := rawExt(doc.Extensions, ExtVariants); ok {
		if r := newReader(raw, "/extensions/"+ExtVariants, fs); r != nil {
			for i, v := range r.array("variants") {
				vr := newReader(v, r.at("variants")+"/"+itoa(i), fs)
				if vr == nil {
					d.Variants = append(d.Variants, Variant{})
					continue
				}
				d.Variants = append(d.Variants, Variant{Name: vr.str("name", "")})
				d.Variants[i].Extra = vr.rest()
			}
			d.setRootExtra(ExtVariants, r.rest())
		}
	}

	var draftNames []string
	for mi, m := range doc.Meshes {
		for pi, p := range m.Primitives {
			if raw, ok := rawExt(p.Extensions, ExtVariants); ok {
				path := fmt.Sprintf("/meshes/%d/primitives/%d/extensions/%s", mi, pi, ExtVariants)
				if pv := decodePrimitiveVariants(raw, path, fs, &draftNames); pv != nil {
					d.Primitives[PrimitiveRef{mi, pi}] = pv
				}
			}
		}
	}
	if len(draftNames) > 0 {
		if len(d.Variants) > 0 {
			fs.errorf("OMI_LEGACY_FORM", "/extensions/"+ExtVariants, "both draft name mappings and a root variants list: draft names are matched to the list by name")
		}
		// Name-based mappings index draftNames; map them onto the root list,
		// adding names it lacks.
		remap := make([]int, len(draftNames))
		for i, name := range draftNames {
			remap[i] = -1
			for vi, v := range d.Variants {
				if v.Name == name {
					remap[i] = vi
					break
				}
			}
			if remap[i] < 0 {
				d.Variants = append(d.Variants, Variant{Name: name})
				remap[i] = len(d.Variants) - 1
			}
		}
		for _, pv := range d.Primitives {
			for mi := range pv.Mappings {
				for vi, v := range pv.Mappings[mi].Variants {
					if v >= 0 && v < len(remap) {
						pv.Mappings[mi].Variants[vi] = remap[v]
					}
				}
			}
		}
		// Draft mappings all came through the "mapping" key; make sure a
		// leftover key does not stay in Extra.
		for _, pv := range d.Primitives {
			pv.Extra = withoutKey(pv.Extra, "mapping")
		}
	}
}

func withoutKey(m Members, key string) Members {
	out := m[:0:0]
	for _, mem := range m {
		if mem.Key != key {
			out = append(out, mem)
		}
	}
	return out
}

func patchVariants(d *Document, node int, blocks map[string]json.RawMessage) {
	if node >= 0 || len(d.Variants) == 0 {
		return
	}
	var w writer
	vs := make([]json.RawMessage, len(d.Variants))
	for i, v := range d.Variants {
		var vw writer
		vw.set("name", v.Name)
		vw.rest(v.Extra)
		vs[i] = vw.bytes()
	}
	w.set("variants", vs)
	w.rest(d.rootExtra[ExtVariants])
	blocks[ExtVariants] = w.bytes()
}

func patchPrimitiveVariants(d *Document, ref PrimitiveRef, blocks map[string]json.RawMessage) {
	if pv := d.Primitives[ref]; pv != nil {
		blocks[ExtVariants] = pv.encode()
	}
}

func validateVariants(d *Document, fs *findings) {
	for ref, pv := range d.Primitives {
		path := fmt.Sprintf("/meshes/%d/primitives/%d/extensions/%s", ref.Mesh, ref.Primitive, ExtVariants)
		pv.validate(path, fs, len(d.Variants), len(d.GLTF.Materials))
	}
	names := map[string]int{}
	for i, v := range d.Variants {
		path := fmt.Sprintf("/extensions/%s/variants/%d", ExtVariants, i)
		if v.Name == "" {
			fs.warnf("OMI_VARIANTS_NAME", path+"/name", "variant %d has no name; shown as %q", i, d.VariantLabel(i))
		} else if first, dup := names[v.Name]; dup {
			fs.warnf("OMI_VARIANTS_NAME", path+"/name", "variant name %q is also used by variant %d", v.Name, first)
		} else {
			names[v.Name] = i
		}
	}
	if len(d.Primitives) > 0 && len(d.Variants) == 0 {
		fs.errorf("UNSATISFIED_DEPENDENCY", "/extensions/"+ExtVariants, "primitives map materials to variants, but the root variants list is missing")
	}
}

// decodePrimitiveVariants reads a primitive's mappings. The 2020 draft form
// (mapping: [{material, variants: ["name"]}]) is read with names, which the
// caller turns into indices of the root list (names gives the draft names
// found, in order).
func decodePrimitiveVariants(raw json.RawMessage, path string, fs *findings, draftNames *[]string) *PrimitiveVariants {
	r := newReader(raw, path, fs)
	if r == nil {
		return nil
	}
	pv := &PrimitiveVariants{}
	key := "mappings"
	draft := false
	if !r.has("mappings") && r.has("mapping") {
		key, draft = "mapping", true
		fs.warnf("OMI_LEGACY_FORM", path+"/mapping", "pre-ratification draft form (variant names, no root list): upgraded to indices into a root variants list")
	}
	for i, mraw := range r.array(key) {
		mp := r.at(key) + "/" + itoa(i)
		mr := newReader(mraw, mp, fs)
		if mr == nil {
			continue
		}
		if !mr.has("material") {
			fs.errorf("UNDEFINED_PROPERTY", mp+"/material", "mapping needs a material")
		}
		m := Mapping{Material: mr.index("material", -1), Name: mr.str("name", "")}
		if draft {
			for _, name := range mr.strings("variants") {
				m.Variants = append(m.Variants, internName(draftNames, name))
			}
		} else {
			if !mr.has("variants") {
				fs.errorf("UNDEFINED_PROPERTY", mp+"/variants", "mapping needs variants")
			}
			m.Variants, _ = mr.indices("variants")
		}
		m.Extra = mr.rest()
		pv.Mappings = append(pv.Mappings, m)
	}
	pv.Extra = r.rest()
	return pv
}

func internName(names *[]string, name string) int {
	for i, n := range *names {
		if n == name {
			return i
		}
	}
	*names = append(*names, name)
	return len(*names) - 1
}

func (pv *PrimitiveVariants) encode() json.RawMessage {
	var w writer
	ms := make([]json.RawMessage, 0, len(pv.Mappings))
	for _, m := range pv.Mappings {
		var mw writer
		if m.Material >= 0 {
			// A mapping the file gave no material keeps none: -1 would be
			// an invalid index the file did not have.
			mw.set("material", m.Material)
		}
		mw.set("variants", nonNilInts(m.Variants))
		if m.Name != "" {
			mw.set("name", m.Name)
		}
		mw.rest(m.Extra)
		ms = append(ms, mw.bytes())
	}
	w.set("mappings", ms)
	w.rest(pv.Extra)
	return w.bytes()
}

func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func (pv *PrimitiveVariants) validate(path string, fs *findings, variantCount, materialCount int) {
	seen := map[int]int{}
	for i, m := range pv.Mappings {
		mp := fmt.Sprintf("%s/mappings/%d", path, i)
		if m.Material < 0 || m.Material >= materialCount {
			fs.errorf("UNRESOLVED_REFERENCE", mp+"/material", "material %d does not exist (the file has %d materials)", m.Material, materialCount)
		}
		for _, v := range m.Variants {
			if v < 0 || v >= variantCount {
				fs.errorf("UNRESOLVED_REFERENCE", mp+"/variants", "variant %d does not exist (the file has %d variants)", v, variantCount)
				continue
			}
			if first, dup := seen[v]; dup {
				fs.errorf("KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT", mp+"/variants", "variant %d is already mapped by mapping %d of this primitive; the first mapping is used", v, first)
				continue
			}
			seen[v] = i
		}
	}
}

// addVariant appends a variant named name and returns its index (through
// AddVariantEdit: nothing changes the model outside the History).
func (d *Document) addVariant(name string) int {
	d.Variants = append(d.Variants, Variant{Name: name})
	return len(d.Variants) - 1
}

// removeVariant deletes variant v (RemoveVariantEdit): mappings drop it, higher indices move
// down by one, and mappings left with no variant are removed.
func (d *Document) removeVariant(v int) error {
	if v < 0 || v >= len(d.Variants) {
		return fmt.Errorf("variant %d does not exist", v)
	}
	d.Variants = append(d.Variants[:v], d.Variants[v+1:]...)
	for ref, pv := range d.Primitives {
		var kept []Mapping
		for _, m := range pv.Mappings {
			var vs []int
			for _, x := range m.Variants {
				switch {
				case x < v:
					vs = append(vs, x)
				case x > v:
					vs = append(vs, x-1)
				}
			}
			if len(vs) > 0 {
				m.Variants = vs
				kept = append(kept, m)
			}
		}
		pv.Mappings = kept
		if len(kept) == 0 && len(pv.Extra) == 0 {
			delete(d.Primitives, ref)
		}
	}
	return nil
}

// setVariantMaterial (SetVariantMaterialEdit) makes primitive ref use material mat when variant v is
// active; mat < 0 makes it use its ordinary material again. A mapping that
// already uses mat takes the variant; the variant leaves any other mapping.
func (d *Document) setVariantMaterial(ref PrimitiveRef, v, mat int) error {
	if v < 0 || v >= len(d.Variants) {
		return fmt.Errorf("variant %d does not exist", v)
	}
	if ref.Mesh < 0 || ref.Mesh >= len(d.GLTF.Meshes) || ref.Primitive < 0 || ref.Primitive >= len(d.GLTF.Meshes[ref.Mesh].Primitives) {
		return fmt.Errorf("mesh %d primitive %d does not exist", ref.Mesh, ref.Primitive)
	}
	if mat >= len(d.GLTF.Materials) {
		return fmt.Errorf("material %d does not exist", mat)
	}
	pv := d.Primitives[ref]
	if pv == nil {
		pv = &PrimitiveVariants{}
		d.Primitives[ref] = pv
	}
	var kept []Mapping
	placed := false
	for _, m := range pv.Mappings {
		var vs []int
		for _, x := range m.Variants {
			if x != v {
				vs = append(vs, x)
			}
		}
		if m.Material == mat && mat >= 0 {
			vs = append(vs, v)
			placed = true
		}
		if len(vs) > 0 {
			m.Variants = vs
			kept = append(kept, m)
		}
	}
	if !placed && mat >= 0 {
		kept = append(kept, Mapping{Material: mat, Variants: []int{v}})
	}
	pv.Mappings = kept
	if len(kept) == 0 && len(pv.Extra) == 0 {
		delete(d.Primitives, ref)
	}
	return nil
}
