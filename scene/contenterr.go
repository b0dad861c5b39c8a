package scene

// ContentError is a save that failed on what the document holds (a buffer
// view that does not fit its buffer, bytes that were never read), not on
// the file being written: a fault of the input. Messages name the source
// file, so that `convert` does not blame its output for it.
type ContentError struct {
	// Source is the file the document was read from ("" for one built in
	// memory).
	Source string
	Err    error
}

func (e *ContentError) Error() string { return e.Err.Error() }

func (e *ContentError) Unwrap() error { return e.Err }
