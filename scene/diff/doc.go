// Package diff compares two glTF documents the way a reviewer reads them:
// by what they mean, not by their bytes.
//
// Compare loads nothing itself: it takes two scene.Documents (read with
// scene.Load or app.OpenDocument) and returns a Report, a list of Changes
// each with a category (structure, value, physics, geometry, texture,
// animation, variant), a kind (added, removed, changed, moved, encoding),
// the JSON pointers of what changed on both sides and a one-line summary.
//
// Structure is matched by identity before anything is compared: nodes by
// their name under their matched parent (then by content, so a rename is one
// change, then by kind, so a rename with a resized collider is the rename and
// its changes), meshes and materials by name then content, images by the hash of
// their bytes, animations and skins by name. An inserted node or a reordered
// array is therefore one change, not one per shifted index. Values are
// compared as decoded numbers, so formatting, key order and number spelling
// (1.0 and 1) never show; accessors, buffer views and buffers are never
// compared as such: what they hold is, through the geometry (positions
// after decoding Draco, meshopt and quantization), the animations and the
// skins. Textures are decoded (Go's decoders by default; the command line
// passes render/imgdec's) and compared pixel by pixel, so a lossless
// re-encode is told from a repaint.
// Physics is compared in the scene model, so the same physics written in
// OMI and in KHR extensions is equal and the dialect change is one change.
//
// Summary writes one document as canonical text: what git's textconv shows.
package diff
