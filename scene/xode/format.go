package xode

import "physview/scene"

// init registers XODE with the scene model's formats, so that whoever
// imports this package opens and saves .xode files through scene.FormatFor
// and lists them in the file choosers.
func init() {
	scene.RegisterFormat(scene.Format{Name: "XODE", Exts: []string{".xode"}, Load: Load, Save: Save})
}
