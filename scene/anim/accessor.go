package anim

import (
	"fmt"
	"reflect"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"physview/scene"
)

// readFloats reads accessor i as float64 components, normalised integers
// mapped to [0, 1] or [-1, 1] as the glTF specification says. It returns
// the flat values and the number of components per element.
func readFloats(doc *gltf.Document, i int) (vals []float64, comps int, err error) {
	if i < 0 || i >= len(doc.Accessors) {
		return nil, 0, fmt.Errorf("accessor %d does not exist", i)
	}
	a := doc.Accessors[i]
	if err := checkAccessor(doc, a); err != nil {
		return nil, 0, fmt.Errorf("accessor %d: %w", i, err)
	}
	if err := checkBudget(a); err != nil {
		return nil, 0, fmt.Errorf("accessor %d: %w", i, err)
	}
	defer func() {
		// qmuntal/gltf can index out of range on malformed sparse data.
		if r := recover(); r != nil {
			vals, comps, err = nil, 0, fmt.Errorf("accessor %d: malformed data (%v)", i, r)
		}
	}()
	raw, err := modeler.ReadAccessor(doc, a, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("accessor %d: %w", i, err)
	}
	comps = a.Type.Components()
	vals = make([]float64, 0, a.Count*comps)
	norm := a.Normalized
	var flat func(v reflect.Value)
	flat = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Slice, reflect.Array:
			for k := 0; k < v.Len(); k++ {
				flat(v.Index(k))
			}
		case reflect.Float32, reflect.Float64:
			vals = append(vals, v.Float())
		case reflect.Int8:
			vals = append(vals, intNorm(float64(v.Int()), 127, norm))
		case reflect.Int16:
			vals = append(vals, intNorm(float64(v.Int()), 32767, norm))
		case reflect.Int32, reflect.Int64:
			vals = append(vals, float64(v.Int()))
		case reflect.Uint8:
			vals = append(vals, intNorm(float64(v.Uint()), 255, norm))
		case reflect.Uint16:
			vals = append(vals, intNorm(float64(v.Uint()), 65535, norm))
		case reflect.Uint32, reflect.Uint64:
			vals = append(vals, float64(v.Uint()))
		}
	}
	flat(reflect.ValueOf(raw))
	if len(vals) != a.Count*comps {
		return nil, 0, fmt.Errorf("accessor %d: read %d values, want %d", i, len(vals), a.Count*comps)
	}
	// qmuntal/gltf gives matrices as [column][row] arrays read row by row:
	// put them back in glTF's column-major order.
	if k := map[gltf.AccessorType]int{gltf.AccessorMat2: 2, gltf.AccessorMat3: 3, gltf.AccessorMat4: 4}[a.Type]; k > 0 {
		tmp := make([]float64, comps)
		for e := 0; e < a.Count; e++ {
			m := vals[e*comps : (e+1)*comps]
			for r := 0; r < k; r++ {
				for c := 0; c < k; c++ {
					tmp[c*k+r] = m[r*k+c]
				}
			}
			copy(m, tmp)
		}
	}
	return vals, comps, nil
}

func intNorm(v, max float64, norm bool) float64 {
	if !norm {
		return v
	}
	return fmaxf(v/max, -1)
}

func fmaxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

// checkBudget refuses an accessor whose values would take more memory than
// scene's budgets allow, before anything is reserved: its count alone (with
// no bufferView, a valid file may say 4 billion zeros) decides what reading
// it reserves (float64 values here, and the library's typed copy).
func checkBudget(a *gltf.Accessor) error {
	if a.Count < 0 {
		return fmt.Errorf("count %d is negative", a.Count)
	}
	if a.BufferView == nil && a.Count > scene.MaxUnbackedElements {
		return fmt.Errorf("count %d without a bufferView is over the budget of %d elements", a.Count, scene.MaxUnbackedElements)
	}
	if need := int64(a.Count) * int64(a.Type.Components()) * 8; need > scene.AccessorBudget {
		return fmt.Errorf("%d elements need %d MB, over the %d MB budget", a.Count, need>>20, scene.AccessorBudget>>20)
	}
	return nil
}

// checkAccessor rejects accessors whose data would lie outside their
// buffer view (qmuntal/gltf would index out of range).
func checkAccessor(doc *gltf.Document, a *gltf.Accessor) error {
	if a.BufferView == nil {
		return nil
	}
	v := *a.BufferView
	if v < 0 || v >= len(doc.BufferViews) {
		return fmt.Errorf("buffer view %d does not exist", v)
	}
	bv := doc.BufferViews[v]
	if bv.Buffer < 0 || bv.Buffer >= len(doc.Buffers) {
		return fmt.Errorf("buffer %d does not exist", bv.Buffer)
	}
	if bv.ByteOffset < 0 || bv.ByteLength < 0 || bv.ByteOffset+bv.ByteLength > len(doc.Buffers[bv.Buffer].Data) {
		return fmt.Errorf("buffer view %d reaches past the end of buffer %d", v, bv.Buffer)
	}
	elem := a.ComponentType.ByteSize() * a.Type.Components()
	stride := bv.ByteStride
	if stride == 0 {
		stride = elem
	}
	if a.Count > 0 && (a.ByteOffset < 0 || a.ByteOffset+stride*(a.Count-1)+elem > bv.ByteLength) {
		return fmt.Errorf("%d elements from byte %d do not fit in buffer view %d", a.Count, a.ByteOffset, v)
	}
	if s := a.Sparse; s != nil && (s.Count < 0 || s.Count > a.Count) {
		return fmt.Errorf("sparse count %d is out of range", s.Count)
	}
	return nil
}
