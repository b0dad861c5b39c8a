package scene

// ChangePhysicsDialect makes the next save write the document's physics in
// To (OMI, KHR or glTF 2.1 core shapes): Save as in another dialect, as an
// undoable edit. Warnings, when set, receives one line per thing To cannot
// hold (SetPhysicsDialect).
type ChangePhysicsDialect struct {
	To       PhysicsDialect
	Warnings *[]string
}

// Name says what the edit does.
func (e ChangePhysicsDialect) Name() string { return "Write physics as " + e.To.String() }

func (e ChangePhysicsDialect) apply(d *Document) (Edit, Change, error) {
	old := d.khr
	w := d.SetPhysicsDialect(e.To)
	if e.Warnings != nil {
		*e.Warnings = w
	}
	return restoreDialect{st: old, name: e.Name()}, Change{Structure: true}, nil
}

// restoreDialect puts the dialect state back (undo, redo).
type restoreDialect struct {
	st   *khrState
	name string
}

func (e restoreDialect) Name() string { return e.name }

func (e restoreDialect) apply(d *Document) (Edit, Change, error) {
	cur := d.khr
	d.khr = e.st
	return restoreDialect{st: cur, name: e.name}, Change{Structure: true}, nil
}
