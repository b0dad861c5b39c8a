package main

/*
// GLFW is linked into the binary by cimgui-go's backend (its libglfw3.a).
extern int glfwInit(void);
extern void glfwWindowHint(int hint, int value);

// noDepthStencil initialises GLFW and asks for a default framebuffer
// without depth and stencil buffers. giu's own glfwInit, which comes next,
// returns at once when GLFW is initialised and so keeps these hints.
static int noDepthStencil(void) {
	if (!glfwInit()) return 0;
	glfwWindowHint(0x00021005, 0); // GLFW_DEPTH_BITS
	glfwWindowHint(0x00021006, 0); // GLFW_STENCIL_BITS
	return 1;
}
*/
import "C"

// windowHints runs before the master window is made. The window's default
// framebuffer needs no depth or stencil buffer: the 3D view is drawn into
// a framebuffer of its own (render.View) and copied, and ImGui uses
// neither; on llvmpipe they would cost 4 to 6 MB of memory at 1280x780.
func windowHints() { C.noDepthStencil() }
