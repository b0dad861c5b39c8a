package render

/*
#cgo pkg-config: egl
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <stdlib.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

static EGLDisplay surfacelessDisplay(void) {
	PFNEGLGETPLATFORMDISPLAYEXTPROC get =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	if (!get) return EGL_NO_DISPLAY;
	return get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
}

static EGLContext coreContext(EGLDisplay dpy) {
	EGLint ctxAttr[] = {
		EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
		EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
		EGL_NONE };
	EGLint cfgAttr[] = { EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
	EGLConfig cfg;
	EGLint n = 0;
	if (eglChooseConfig(dpy, cfgAttr, &cfg, 1, &n) && n > 0) {
		EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctxAttr);
		if (ctx != EGL_NO_CONTEXT) return ctx;
	}
	// Surfaceless Mesa also allows a context without a config.
	return eglCreateContext(dpy, (EGLConfig)0, EGL_NO_CONTEXT, ctxAttr);
}

static void* procAddress(const char* name) { return (void*)eglGetProcAddress(name); }
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Headless is an OpenGL 3.3 core context with no window and no X server
// (EGL on Mesa's surfaceless platform), for screenshots and tests.
type Headless struct {
	dpy C.EGLDisplay
	ctx C.EGLContext
}

// NewHeadless creates the context, makes it current on the calling OS
// thread (which it locks) and initialises go-gl/gl through EGL.
func NewHeadless() (*Headless, error) {
	runtime.LockOSThread()
	dpy := C.surfacelessDisplay()
	if dpy == C.EGLDisplay(C.EGL_NO_DISPLAY) {
		return nil, errors.New("headless GL: no EGL surfaceless display (is Mesa's libegl installed?)")
	}
	var major, minor C.EGLint
	if C.eglInitialize(dpy, &major, &minor) == C.EGL_FALSE {
		return nil, fmt.Errorf("headless GL: eglInitialize failed (0x%x)", int(C.eglGetError()))
	}
	if C.eglBindAPI(C.EGL_OPENGL_API) == C.EGL_FALSE {
		return nil, errors.New("headless GL: OpenGL API not available through EGL")
	}
	ctx := C.coreContext(dpy)
	if ctx == C.EGLContext(C.EGL_NO_CONTEXT) {
		return nil, fmt.Errorf("headless GL: cannot create an OpenGL 3.3 core context (0x%x)", int(C.eglGetError()))
	}
	if C.eglMakeCurrent(dpy, C.EGLSurface(C.EGL_NO_SURFACE), C.EGLSurface(C.EGL_NO_SURFACE), ctx) == C.EGL_FALSE {
		return nil, fmt.Errorf("headless GL: eglMakeCurrent failed (0x%x)", int(C.eglGetError()))
	}
	err := gl.InitWithProcAddrFunc(func(name string) unsafe.Pointer {
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		return C.procAddress(cs)
	})
	if err != nil {
		return nil, fmt.Errorf("headless GL: %w", err)
	}
	return &Headless{dpy: dpy, ctx: ctx}, nil
}

// Close releases the context and unlocks the OS thread.
func (h *Headless) Close() {
	C.eglMakeCurrent(h.dpy, C.EGLSurface(C.EGL_NO_SURFACE), C.EGLSurface(C.EGL_NO_SURFACE), C.EGLContext(C.EGL_NO_CONTEXT))
	C.eglDestroyContext(h.dpy, h.ctx)
	runtime.UnlockOSThread()
}
