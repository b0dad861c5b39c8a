// Package shaders holds the GLSL sources the renderer compiles.
package shaders

import _ "embed"

// MeshVert and MeshFrag draw glTF primitives with PBR metallic-roughness.
var (
	//go:embed mesh.vert
	MeshVert string
	//go:embed mesh.frag
	MeshFrag string
)

// LineVert and LineFrag draw coloured line lists (grid, axes, debug shapes).
var (
	//go:embed line.vert
	LineVert string
	//go:embed line.frag
	LineFrag string
)
