package scene

import "fmt"

// The material variants model (KHR_materials_variants, read and written by
// khr_variants.go): the document's variants and each primitive's mappings.

// Variant is one entry of the root KHR_materials_variants.variants array.
// Its index, not its name, is its identity.
type Variant struct {
	Name  string
	Extra Members
}

// Mapping says which material a primitive uses for some variants.
type Mapping struct {
	Material int
	Variants []int
	// Name is the optional name of the mapping.
	Name  string
	Extra Members
}

// PrimitiveRef names one mesh primitive.
type PrimitiveRef struct{ Mesh, Primitive int }

// PrimitiveVariants is a primitive's KHR_materials_variants extension.
type PrimitiveVariants struct {
	Mappings []Mapping
	Extra    Members
}

// MaterialFor returns the material the primitive uses with variant v active
// (v < 0: no variant), given its ordinary material def. The first mapping
// that lists v wins, as a duplicate index is an error anyway.
func (pv *PrimitiveVariants) MaterialFor(v, def int) int {
	if pv == nil || v < 0 {
		return def
	}
	for _, m := range pv.Mappings {
		for _, mv := range m.Variants {
			if mv == v {
				return m.Material
			}
		}
	}
	return def
}

// VariantLabel returns a name to show for variant i: its name, or "variant i"
// when the name is empty.
func (d *Document) VariantLabel(i int) string {
	if i < 0 || i >= len(d.Variants) {
		return "(default)"
	}
	if d.Variants[i].Name == "" {
		return fmt.Sprintf("variant %d", i)
	}
	return d.Variants[i].Name
}
