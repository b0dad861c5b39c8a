package anim

import (
	"fmt"

	"physview/scene"
)

// readFloats reads accessor i as float64 components, normalised integers
// mapped to [0, 1] or [-1, 1] as the glTF specification says. It returns
// the flat values (matrices column-major, as glTF stores them) and the
// number of components per element. It reads through the document's own
// reader, so data decoded from KHR_draco_mesh_compression and
// EXT_meshopt_compression, quantized, sparse and zero-filled accessors all
// read as they draw, within scene.AccessorBudget.
func readFloats(d *scene.Document, i int) (vals []float64, comps int, err error) {
	f, comps, err := d.AccessorFloats(i, true)
	if err != nil {
		return nil, 0, err
	}
	if len(f) > scene.AccessorBudget/8 {
		return nil, 0, fmt.Errorf("accessor %d: %d values as float64 are over the %d MB budget", i, len(f), scene.AccessorBudget>>20)
	}
	vals = make([]float64, len(f))
	for k, v := range f {
		vals[k] = float64(v)
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
