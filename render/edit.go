package render

// TransformsChanged re-reads the document's node transforms (after an edit
// moved a node or added one): meshes are drawn where the nodes now are.
func (r *Renderer) TransformsChanged() {
	if r.doc != nil {
		r.rebuildItems()
	}
}
