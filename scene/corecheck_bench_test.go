package scene

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/testcorpus"
	"physview/scene/corecheck"
)

// colliderScene writes a glTF with n collider nodes (box, sphere, capsule,
// cylinder on static, kinematic and dynamic bodies) and ten point-gravity
// triggers, the scene the debug-drawing benchmarks use, as a file.
func colliderScene(b *testing.B, n int) string {
	var nodes []string
	motions := []string{"static", "kinematic", "dynamic"}
	for i := 0; i < n; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"translation":[%d,0,%d],"extensions":{"OMI_physics_body":{"motion":{"type":%q},"collider":{"shape":%d}}}}`,
			i%100*2, i/100*2, motions[i%3], i%4))
	}
	for i := 0; i < 10; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"translation":[%d,5,0],"extensions":{"OMI_physics_body":{"trigger":{"shape":4}},"OMI_physics_gravity":{"type":"point","gravity":9.8,"point":{}}}}`, i*20))
	}
	js := `{"asset":{"version":"2.0"},"extensionsUsed":["OMI_physics_body","OMI_physics_gravity","OMI_physics_shape"],` +
		`"extensions":{"OMI_physics_shape":{"shapes":[{"type":"box","box":{"size":[1,1,1]}},{"type":"sphere","sphere":{"radius":0.5}},` +
		`{"type":"capsule","capsule":{"height":1,"radiusTop":0.3,"radiusBottom":0.5}},{"type":"cylinder","cylinder":{"height":1,"radiusTop":0.5,"radiusBottom":0.5}},` +
		`{"type":"sphere","sphere":{"radius":8}}]}},"nodes":[` + strings.Join(nodes, ",") + `]}`
	p := filepath.Join(b.TempDir(), "colliders.gltf")
	if err := os.WriteFile(p, []byte(js), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// validateOnly runs every check Load runs, on a document already loaded:
// the core checks (corecheck.Decode: GLB, JSON schema, links, accessor data,
// images; it decodes the typed document again) and the physics and variants
// rules.
func validateOnly(b *testing.B, d *Document, raw []byte) {
	if _, err := corecheck.Decode(raw, os.DirFS(d.source.dir), corecheck.Options{Known: knownExtension}); err != nil {
		b.Fatal(err)
	}
	d.Validate()
}

// BenchmarkValidate compares validating a document with loading it (which
// includes validating): StainedGlassLamp from the corpus, and the generated
// scene of 10,000 colliders. The ratio is reported as validate/load.
func BenchmarkValidate(b *testing.B) {
	inputs := map[string]func(b *testing.B) string{
		"StainedGlassLamp": func(b *testing.B) string { return testcorpus.File(b, benchModels["StainedGlassLamp"]) },
		"colliders10k":     func(b *testing.B) string { return colliderScene(b, 10000) },
	}
	for name, get := range inputs {
		b.Run(name, func(b *testing.B) {
			path := get(b)
			raw, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			d, err := Load(path)
			if err != nil {
				b.Fatal(err)
			}
			b.Run("Load", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := Load(path); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("Validate", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					validateOnly(b, d, raw)
				}
			})
		})
	}
}
