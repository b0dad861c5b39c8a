// Package shaders holds the GLSL sources the renderer compiles.
package shaders

import _ "embed"

// MeshVert and MeshFrag draw glTF primitives with PBR metallic-roughness,
// the KHR material extensions and image-based lighting.
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

// SkyVert and SkyFrag draw the environment behind the scene.
var (
	//go:embed sky.vert
	SkyVert string
	//go:embed sky.frag
	SkyFrag string
)
