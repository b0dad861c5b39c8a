package render

import "sync/atomic"

// wakeHook is called from background goroutines when something a frame
// should show has become ready: a decoded image, a prefiltered environment.
var wakeHook atomic.Pointer[func()]

// SetWake sets the function called, from any goroutine, when a decoded
// image or a prefiltered environment is ready for Poll. A window that
// sleeps until its next event uses it to post one (nil: no call).
func SetWake(fn func()) {
	if fn == nil {
		wakeHook.Store(nil)
		return
	}
	wakeHook.Store(&fn)
}

func wake() {
	if fn := wakeHook.Load(); fn != nil {
		(*fn)()
	}
}
