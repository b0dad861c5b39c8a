// Command gen writes the concave fixtures to internal/concave/testdata:
// go generate ./internal/concave.
package main

import (
	"log"
	"os"
	"path/filepath"

	"physview/internal/concave"
)

func main() {
	dir := "testdata"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	for _, f := range []struct {
		file concave.File
		form string
	}{
		{concave.File{Mesh: concave.U(), Name: "u", Y: 1}, "glb"},
		{concave.File{Mesh: concave.L(), Name: "l", Y: 1}, "bin"},
		{concave.File{Mesh: concave.Torus(), Name: "torus", Y: 1}, "data"},
		{concave.File{Mesh: concave.Cup(), Name: "cup", Y: 0.5, KHR: true}, "glb"},
	} {
		switch f.form {
		case "glb":
			b, err := f.file.GLB()
			if err != nil {
				log.Fatal(err)
			}
			write(f.file.Name+".glb", b)
		case "bin":
			js, bin, err := f.file.GLTF(f.file.Name + ".bin")
			if err != nil {
				log.Fatal(err)
			}
			write(f.file.Name+".gltf", js)
			write(f.file.Name+".bin", bin)
		default:
			js, _, err := f.file.GLTF("")
			if err != nil {
				log.Fatal(err)
			}
			write(f.file.Name+".gltf", js)
		}
	}
}
