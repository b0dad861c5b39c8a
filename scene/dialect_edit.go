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
	old := restoreDialect{dialect: d.dialect, state: d.codecState, name: e.Name()}
	w := d.SetPhysicsDialect(e.To)
	if e.Warnings != nil {
		*e.Warnings = w
	}
	return old, Change{Structure: true}, nil
}

// restoreDialect puts the dialect state back (undo, redo).
type restoreDialect struct {
	dialect PhysicsDialect
	state   map[string]any
	name    string
}

func (e restoreDialect) Name() string { return e.name }

func (e restoreDialect) apply(d *Document) (Edit, Change, error) {
	cur := restoreDialect{dialect: d.dialect, state: d.codecState, name: e.name}
	d.dialect, d.codecState = e.dialect, e.state
	return cur, Change{Structure: true}, nil
}
