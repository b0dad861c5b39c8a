// Command xclose asks an X window to close the way a window manager's
// close button does (a WM_DELETE_WINDOW client message), for the window
// tests: xdotool 3.2016 (Debian 12) can only destroy or kill a window.
//
//	xclose WINDOW-ID
package main

/*
#cgo pkg-config: x11
#include <X11/Xlib.h>
#include <stdlib.h>

static int closeWindow(unsigned long w) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return 1;
	XEvent ev = {0};
	ev.xclient.type = ClientMessage;
	ev.xclient.window = (Window)w;
	ev.xclient.message_type = XInternAtom(d, "WM_PROTOCOLS", False);
	ev.xclient.format = 32;
	ev.xclient.data.l[0] = XInternAtom(d, "WM_DELETE_WINDOW", False);
	ev.xclient.data.l[1] = CurrentTime;
	Status s = XSendEvent(d, (Window)w, False, NoEventMask, &ev);
	XFlush(d);
	XCloseDisplay(d);
	return s ? 0 : 2;
}
*/
import "C"

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: xclose WINDOW-ID")
		os.Exit(2)
	}
	id, err := strconv.ParseUint(os.Args[1], 0, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "xclose:", err)
		os.Exit(2)
	}
	if rc := C.closeWindow(C.ulong(id)); rc != 0 {
		fmt.Fprintf(os.Stderr, "xclose: cannot reach the X server or window (%d)\n", rc)
		os.Exit(1)
	}
}
