package anim

// The tests decode documents of every physics dialect.
import _ "physview/scene/dialects"
