package anim

import "physview/scene"

// The extensions this package makes the viewer honour: files that use or
// require them open without a finding.
func init() {
	scene.RegisterShownExtension(ExtInstancing)
	scene.RegisterShownExtension(ExtAnimationPointer)
}

// ExtAnimationPointer is the KHR_animation_pointer extension name.
const ExtAnimationPointer = "KHR_animation_pointer"
