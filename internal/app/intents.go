package app

import "physview/scene"

// Intent is one thing the user asked for in the panel or the window, as a
// typed value; Session.Do carries it out. The window handles the few that
// need the renderer (FrameView, ResetView, UseCamera) itself.
type Intent interface{ intent() }

// OpenFile opens Path, asking first when there are unsaved edits.
type OpenFile struct{ Path string }

// OpenDemo opens the built-in demo scene, asking first when there are
// unsaved edits.
type OpenDemo struct{}

// OpenDialog asks for a file to open (asking about unsaved edits first);
// the window shows the chooser when Session.Chooser says so.
type OpenDialog struct{}

// FileChosen is the chooser's answer: Path is opened (the unsaved prompt
// was answered before the chooser opened) or, when Save is set, the
// document is saved there.
type FileChosen struct {
	Path string
	Save bool
}

// ChooserCancelled says the chooser was closed without a file: what was to
// follow a save (closing, opening) does not happen.
type ChooserCancelled struct{}

// Save saves the document in place (the demo scene, which has no file,
// asks where through the chooser).
type Save struct{}

// SaveAsDialog asks where to save.
type SaveAsDialog struct{}

// SaveAs saves the document to Path.
type SaveAs struct{ Path string }

// Quit closes the window, asking first when there are unsaved edits.
type Quit struct{}

// CancelLoad stops the file being loaded.
type CancelLoad struct{}

// AnswerPrompt answers the pending prompt with its choice Choice (an index
// into Prompt.Choices).
type AnswerPrompt struct{ Choice int }

// ApplyEdit applies Edit through the history.
type ApplyEdit struct{ Edit scene.Edit }

// Undo undoes the last edit (or cancels a drag in progress).
type Undo struct{}

// Redo redoes the last undone edit.
type Redo struct{}

// Select selects Node (-1 for none); Frame asks the window to frame it.
// FromView is set for a pick in the 3D view.
type Select struct {
	Node     int
	Frame    bool
	FromView bool
}

// SetVariant makes Index the active material variant (-1 the default
// materials).
type SetVariant struct{ Index int }

// SetGizmo sets what the transform gizmo does.
type SetGizmo struct{ Mode GizmoMode }

// ShowError shows Text as a refused input or failed action.
type ShowError struct{ Text string }

// FrameView frames the selection, or everything (handled by the window).
type FrameView struct{}

// ResetView resets the camera (handled by the window).
type ResetView struct{}

// UseCamera views from the file's camera Index (handled by the window).
type UseCamera struct{ Index int }

// PlayToggle starts or pauses Play.
type PlayToggle struct{}

// PlayStep pauses Play and advances it by one step.
type PlayStep struct{}

// PlayReset drops the simulation and shows the document again.
type PlayReset struct{}

// SetPlaySpeed sets Play's speed to PlaySpeeds[Choice].
type SetPlaySpeed struct{ Choice int }

// SetContacts shows or hides the contact points of Play.
type SetContacts struct{ On bool }

func (OpenFile) intent()         {}
func (OpenDemo) intent()         {}
func (OpenDialog) intent()       {}
func (FileChosen) intent()       {}
func (ChooserCancelled) intent() {}
func (Save) intent()             {}
func (SaveAsDialog) intent()     {}
func (SaveAs) intent()           {}
func (Quit) intent()             {}
func (CancelLoad) intent()       {}
func (AnswerPrompt) intent()     {}
func (ApplyEdit) intent()        {}
func (Undo) intent()             {}
func (Redo) intent()             {}
func (Select) intent()           {}
func (SetVariant) intent()       {}
func (SetGizmo) intent()         {}
func (ShowError) intent()        {}
func (FrameView) intent()        {}
func (ResetView) intent()        {}
func (UseCamera) intent()        {}
func (PlayToggle) intent()       {}
func (PlayStep) intent()         {}
func (PlayReset) intent()        {}
func (SetPlaySpeed) intent()     {}
func (SetContacts) intent()      {}
