package gltf21_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"physview/scene"
	"physview/scene/gltf21"
)

// TestEncodeShape: a shape is written as a 2.1 "shapes" entry under its 2.1
// type name, a plane one-sided.
func TestEncodeShape(t *testing.T) {
	for _, tc := range []struct {
		shape scene.Shape
		typ   string
		want  string
	}{
		{scene.Shape{Type: scene.ShapeSphere, Radius: 0.5, Mesh: -1}, "sphere", `{"type":"sphere","sphere":{"radius":0.5}}`},
		{scene.Shape{Type: scene.ShapeTrimesh, Mesh: 2}, "mesh", `{"type":"mesh","mesh":{"mesh":2}}`},
		{scene.Shape{Type: scene.ShapeConvex, Mesh: 0}, "convexMesh", `{"type":"convexMesh","convexMesh":{"mesh":0}}`},
		{scene.Shape{Type: scene.ShapePlane, DoubleSided: true, Mesh: -1}, "plane", `{"type":"plane","plane":{}}`},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			if got := gltf21.CoreTypeName(tc.shape.Type); got != tc.typ {
				t.Errorf("CoreTypeName = %q, want %q", got, tc.typ)
			}
			var b bytes.Buffer
			if err := json.Compact(&b, gltf21.EncodeShape(tc.shape)); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("EncodeShape = %s, want %s", b.String(), tc.want)
			}
		})
	}
}
