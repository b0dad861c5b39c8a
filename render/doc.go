// Package render draws a scene.Document with OpenGL 3.3 core: meshes with
// PBR metallic-roughness materials and the KHR material extensions (sheen,
// specular, ior, clearcoat, transmission, volume), image-based lighting from
// environments generated and prefiltered in code, textures decoded off the
// GL thread, line lists for the grid, axes and debug drawing, and offscreen
// rendering to an image for screenshots. It is the only package that calls
// GL.
//
// Every method of Renderer must be called on the goroutine that owns the
// current GL context (the OS thread is locked by the caller).
package render
