// Package app is the viewer's session without a window: the open document
// and its history, the selection and active variant, the view state that is
// not GL (camera values, drawing options), the files (open, load progress,
// save, save as, live reload, the unsaved-changes prompt as a pending-action
// value), Play's stepping and clock, and the handle-drag protocol.
//
// The window (cmd/viewer) turns input into calls on a Session and the
// panel (ui) returns typed intents (OpenFile, ApplyEdit, Undo, PlayStep ...)
// that Session.Do carries out; what changed reaches the renderer and the
// debug-draw cache through the View interface. Nothing here imports GL,
// giu or imgui (TestNoGLOrGUI checks it), so every workflow of the window
// is a plain Go test of this package.
package app
