package shot

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
)

// WritePNG writes img to path as a PNG, compressed for speed (a screenshot
// is written once and often large). Errors name the file.
func WritePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err // *os.PathError: it names the file
	}
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %v", path, err)
	}
	return f.Close()
}

// OutputPath is the default PNG for a screenshot of file: its path with
// the last ending (".gltf", ".glb" ...) replaced by ".png". A dot in a
// folder's name is no ending.
func OutputPath(file string) string {
	if i := strings.LastIndexByte(file, '.'); i > strings.LastIndexByte(file, '/') {
		file = file[:i]
	}
	return file + ".png"
}
