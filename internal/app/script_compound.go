package app

import (
	"context"
	"fmt"
	"strconv"

	"physview/scene"
)

// `viewer edit FILE fit NODE compound [max=N] [vertices=M] [resolution=V]
// [concavity=C]`: a compound of convex hulls fitted to the node's mesh.
func init() {
	RegisterEditCommand(EditCommand{
		Name: "fit", Kind: "compound", Args: 2, Edit: compoundCommand,
		Usage: "fit NODE compound [max=N (hulls, 1-256)] [vertices=M (per hull, 4-255)] [resolution=VOXELS] [concavity=FRACTION]",
	})
}

func compoundCommand(s *Session, args []string) (scene.Edit, error) {
	n, err := FindNode(s.Doc, args[0])
	if err != nil {
		return nil, err
	}
	opts, err := options(args[2:], "max", "vertices", "resolution", "concavity")
	if err != nil {
		return nil, err
	}
	var o scene.CompoundOptions
	for key, dst := range map[string]*int{"max": &o.MaxHulls, "vertices": &o.MaxVertices, "resolution": &o.Resolution} {
		v, ok := opts[key]
		if !ok {
			continue
		}
		i, err := strconv.Atoi(v)
		if err != nil || i <= 0 {
			return nil, fmt.Errorf("%s=%s: want a whole number above 0", key, v)
		}
		*dst = i
	}
	if v, ok := opts["concavity"]; ok {
		if o.Concavity, err = number("concavity", v); err != nil {
			return nil, err
		}
		if o.Concavity <= 0 {
			return nil, fmt.Errorf("concavity=%s: want a number above 0", v)
		}
	}
	return CompoundEdit(s.Doc, n, o)
}

// CompoundEdit decomposes node n's mesh and returns the edit that fits the
// parts as its compound collider.
func CompoundEdit(d *scene.Document, n int, o scene.CompoundOptions) (scene.Edit, error) {
	res, err := d.DecomposeNode(context.Background(), n, o)
	if err != nil {
		return nil, err
	}
	return d.FitCompoundEdit(n, scene.PartHulls(res.Parts))
}
