package scene

import (
	"os"
	"path/filepath"
	"testing"

	"physview/internal/testcorpus"
)

// benchModels are the load and save benchmark inputs: the largest complete
// Khronos sample (~39 MB of PNG textures, variants) and the OMI example with
// every gravity type (55 nodes, 18 shapes).
var benchModels = map[string]string{
	"StainedGlassLamp":     "gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp.gltf",
	"moon_petavius_crater": "omigroup-gltf-extensions/extensions/2.0/OMI_physics_gravity/examples/moon_petavius_crater/moon_petavius_crater.gltf",
}

// jsonAndBuffers returns the bytes Load must read: the .gltf and its buffers.
func jsonAndBuffers(b *testing.B, path string) int64 {
	d, err := Load(path)
	if err != nil {
		b.Fatal(err)
	}
	n := int64(len(d.source.json))
	for _, buf := range d.GLTF.Buffers {
		n += int64(len(buf.Data))
	}
	return n
}

// BenchmarkReadFiles is the floor for Load: reading the .gltf and its
// buffers with os.ReadFile and nothing else.
func BenchmarkReadFiles(b *testing.B) {
	for name, rel := range benchModels {
		b.Run(name, func(b *testing.B) {
			path := testcorpus.File(b, rel)
			d, err := Load(path)
			if err != nil {
				b.Fatal(err)
			}
			files := []string{path}
			for _, buf := range d.GLTF.Buffers {
				files = append(files, filepath.Join(filepath.Dir(path), buf.URI))
			}
			b.SetBytes(jsonAndBuffers(b, path))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, f := range files {
					if _, err := os.ReadFile(f); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkLoad reads the document, its buffers and its extensions and
// validates it. Images stay encoded, so texture size does not count.
func BenchmarkLoad(b *testing.B) {
	for name, rel := range benchModels {
		b.Run(name, func(b *testing.B) {
			path := testcorpus.File(b, rel)
			b.SetBytes(jsonAndBuffers(b, path))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Load(path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSave saves in place as .gltf: the JSON is patched and written
// atomically; buffers and images are not touched.
func BenchmarkSave(b *testing.B) {
	for name, rel := range benchModels {
		b.Run(name, func(b *testing.B) {
			d, err := Load(testcorpus.File(b, rel))
			if err != nil {
				b.Fatal(err)
			}
			target := filepath.Join(b.TempDir(), "out.gltf")
			// Pretend the document came from the temporary folder so that
			// only the main file is written, as in a save in place.
			d.source.dir = filepath.Dir(target)
			b.SetBytes(int64(len(d.source.json)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := d.Save(target); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSaveGLB converts to .glb: every buffer and image is packed into
// the binary chunk and written atomically.
func BenchmarkSaveGLB(b *testing.B) {
	for name, rel := range benchModels {
		b.Run(name, func(b *testing.B) {
			d, err := Load(testcorpus.File(b, rel))
			if err != nil {
				b.Fatal(err)
			}
			target := filepath.Join(b.TempDir(), "out.glb")
			if err := d.Save(target); err != nil {
				b.Fatal(err)
			}
			st, err := os.Stat(target)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := d.Save(target); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteFloor is the floor for Save and SaveGLB: writing already
// encoded bytes atomically (temporary file, fsync, rename), no encoding.
func BenchmarkWriteFloor(b *testing.B) {
	for name, rel := range benchModels {
		for _, ext := range []string{".gltf", ".glb"} {
			b.Run(name+ext, func(b *testing.B) {
				d, err := Load(testcorpus.File(b, rel))
				if err != nil {
					b.Fatal(err)
				}
				target := filepath.Join(b.TempDir(), "out"+ext)
				files, err := d.Encode(target)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(files[0].Data)))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := WriteFileAtomic(target, files[0].Data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
