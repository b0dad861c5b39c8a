package scene

import "fmt"

// ShownScene returns the index of the scene that is shown: the one chosen
// with SetShownScene, else the file's `scene`, else 0; -1 when the file has
// no scenes (then every root node is shown).
func (d *Document) ShownScene() int {
	g := d.GLTF
	if g == nil || len(g.Scenes) == 0 {
		return -1
	}
	if d.shownScene > 0 && d.shownScene <= len(g.Scenes) {
		return d.shownScene - 1
	}
	if g.Scene != nil && *g.Scene >= 0 && *g.Scene < len(g.Scenes) {
		return *g.Scene
	}
	return 0
}

// SetShownScene chooses scene i to show (SceneNodes, drawing, bounds,
// picking and simulation follow it); -1 goes back to the file's own. It
// does not change the file: saving keeps its `scene`.
func (d *Document) SetShownScene(i int) error {
	n := 0
	if d.GLTF != nil {
		n = len(d.GLTF.Scenes)
	}
	if i < -1 || i >= n {
		return fmt.Errorf("scene %d does not exist (the file has %d)", i, n)
	}
	d.shownScene = i + 1
	return nil
}

// SceneLabel is the name of scene i for lists ("Scene 2" when unnamed).
func (d *Document) SceneLabel(i int) string {
	if d.GLTF != nil && i >= 0 && i < len(d.GLTF.Scenes) && d.GLTF.Scenes[i].Name != "" {
		return d.GLTF.Scenes[i].Name
	}
	return fmt.Sprintf("Scene %d", i)
}
