package corecheck

import "github.com/qmuntal/gltf"

// fillNil replaces every nil element of the document's arrays of objects
// (a JSON null the schema pass reported as TYPE_MISMATCH) with an empty
// object, so that the link checks and every verb after them index the
// arrays without meeting a nil. The schema pass already gives the typed
// decoder empty objects for them; this is the guard for any path that
// reaches the typed document another way.
func fillNil(doc *gltf.Document) {
	fill(doc.Accessors)
	fill(doc.Animations)
	for _, a := range doc.Animations {
		fill(a.Channels)
		fill(a.Samplers)
	}
	fill(doc.Buffers)
	fill(doc.BufferViews)
	fill(doc.Cameras)
	fill(doc.Images)
	fill(doc.Materials)
	fill(doc.Meshes)
	for _, m := range doc.Meshes {
		fill(m.Primitives)
	}
	fill(doc.Nodes)
	fill(doc.Samplers)
	fill(doc.Scenes)
	fill(doc.Skins)
	fill(doc.Textures)
}

// fill points each nil element of s at a new zero T.
func fill[T any](s []*T) {
	for i, v := range s {
		if v == nil {
			s[i] = new(T)
		}
	}
}
