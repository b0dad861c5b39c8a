package main

/*
// GLFW is linked into the binary by cimgui-go's backend (its libglfw3.a).
extern int glfwInit(void);
extern void glfwInitHint(int hint, int value);
extern void glfwWindowHint(int hint, int value);

// noDepthStencil initialises GLFW and asks for a default framebuffer
// without depth and stencil buffers. giu's own glfwInit, which comes next,
// returns at once when GLFW is initialised and so keeps these hints.
// With x11Only set GLFW goes straight to X11 instead of trying Wayland
// first (which, with no Wayland session, makes libwayland print "error:
// XDG_RUNTIME_DIR is invalid or not set in the environment").
static int noDepthStencil(int x11Only) {
	if (x11Only) glfwInitHint(0x00050003, 0x00060004); // GLFW_PLATFORM, GLFW_PLATFORM_X11
	if (!glfwInit()) return 0;
	glfwWindowHint(0x00021005, 0); // GLFW_DEPTH_BITS
	glfwWindowHint(0x00021006, 0); // GLFW_STENCIL_BITS
	return 1;
}
*/
import "C"

import "os"

// windowHints runs before the master window is made. The window's default
// framebuffer needs no depth or stencil buffer: the 3D view is drawn into
// a framebuffer of its own (render.View) and copied, and ImGui uses
// neither; on llvmpipe they would cost 4 to 6 MB of memory at 1280x780.
// Without WAYLAND_DISPLAY, GLFW is told to use X11 at once.
func windowHints() {
	x11Only := C.int(0)
	if os.Getenv("WAYLAND_DISPLAY") == "" {
		x11Only = 1
	}
	C.noDepthStencil(x11Only)
}
