package app

import "physview/scene"

// NodeName is d.NodeName(n): the node's name, or "node N".
//
// Deprecated: use scene.Document.NodeName (kept for code written against
// the first app layer commit).
func NodeName(d *scene.Document, n int) string { return d.NodeName(n) }

// RoundSig is scene.RoundSig.
//
// Deprecated: use scene.RoundSig (kept for code written against the first
// app layer commit).
func RoundSig(v float64, digits int) float64 { return scene.RoundSig(v, digits) }
