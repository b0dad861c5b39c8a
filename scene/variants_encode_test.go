package scene

import (
	"strings"
	"testing"
)

// TestMappingWithoutMaterial: a KHR_materials_variants mapping the file
// gave no material is written without one when its block is written anew
// (an edit elsewhere in it), not as the invalid index -1.
func TestMappingWithoutMaterial(t *testing.T) {
	var fs findings
	var names []string
	pv := decodePrimitiveVariants([]byte(`{"mappings":[{},{"material":1,"variants":[0]}]}`), "/p", &fs, &names)
	pv.Mappings[1].Variants = []int{0, 1} // the edit
	got := string(pv.encode())
	if strings.Contains(got, "-1") || !strings.Contains(got, `"material":1`) {
		t.Errorf("encoded %s", got)
	}
}
