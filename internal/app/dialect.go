package app

import (
	"strings"

	"physview/scene"
)

// ConvertPhysics makes the next save (Save, Save as) write the physics in
// dialect To: OMI, KHR (glTF 2.0) or glTF 2.1 core shapes. It is one
// undoable edit; a notice lists what To cannot hold.
type ConvertPhysics struct{ To scene.PhysicsDialect }

func (ConvertPhysics) intent() {}

// convertPhysics applies ConvertPhysics.
func (s *Session) convertPhysics(to scene.PhysicsDialect) {
	if s.Doc == nil || s.Doc.PhysicsDialect() == to {
		return
	}
	var warnings []string
	s.Edit(scene.ChangePhysicsDialect{To: to, Warnings: &warnings})
	if s.Doc.PhysicsDialect() != to {
		return // refused; Edit said why
	}
	text := "physics will be saved as " + DialectLabel(to)
	if len(warnings) > 0 {
		text += ":\n" + strings.Join(warnings, "\n")
	}
	s.Notice(text)
}

// DialectLabel names a physics dialect for the window.
func DialectLabel(p scene.PhysicsDialect) string {
	switch p {
	case scene.DialectKHR:
		return "KHR (glTF 2.0 extensions)"
	case scene.DialectGLTF21:
		return "glTF 2.1 (core shapes)"
	}
	return "OMI"
}
