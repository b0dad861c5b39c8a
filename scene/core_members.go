package scene

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene/corecheck"
	"physview/scene/internal/jsonobj"
)

// Members of core glTF objects that a codec writes (the glTF 2.1 core
// shapes, scene/gltf21.go): a codec's Patch hook puts them into its blocks
// under names beginning with "/" ("/shapes" at the root, "/boundingVolume"
// on a node, "/asset/version"), patchCoreMembers writes them, and
// recordBaseline records them under their own pointers, so an unedited save
// keeps the file's bytes.

// BoundingVolume is a glTF 2.1 node's bounding volume: a box or sphere of
// the core shapes, placed in the node's space by its own TRS.
type BoundingVolume struct {
	// Shape is the index of a box or sphere in the model's shapes.
	Shape int
	// Rotation is a unit quaternion (x, y, z, w), default identity.
	Rotation [4]float64
	// Scale and Translation default to 1, 1, 1 and 0, 0, 0.
	Scale, Translation [3]float64
	// Extra holds the keys the model does not interpret.
	Extra Members
}

// Matrix is the volume's transform in its node's space.
func (b BoundingVolume) Matrix() mgl64.Mat4 {
	q := mgl64.Quat{W: b.Rotation[3], V: mgl64.Vec3{b.Rotation[0], b.Rotation[1], b.Rotation[2]}}.Normalize()
	return mgl64.Translate3D(b.Translation[0], b.Translation[1], b.Translation[2]).
		Mul4(q.Mat4()).Mul4(mgl64.Scale3D(b.Scale[0], b.Scale[1], b.Scale[2]))
}

// Core block names: members of core objects, not extensions.
const (
	coreShapesBlock  = "/shapes"
	coreBVBlock      = "/boundingVolume"
	coreVersionBlock = "/asset/version"
)

// patchCoreMembers writes the core blocks (names beginning with "/") into
// obj, the object at pointer at: a nil block deletes the member, and what
// no edit changed keeps the file's bytes.
func (d *Document) patchCoreMembers(obj *jsonobj.Object, at string, blocks map[string]json.RawMessage) error {
	names := make([]string, 0, len(blocks))
	for name := range blocks {
		if strings.HasPrefix(name, "/") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		b := blocks[name]
		if name == coreVersionBlock {
			if err := patchVersion(obj, b); err != nil {
				return err
			}
			continue
		}
		key := name[1:]
		if b == nil {
			obj.Delete(key)
			continue
		}
		if orig, had := obj.Get(key); had {
			if b = d.faithful(orig, b, at+name); bytes.Equal(b, orig) {
				continue
			}
		}
		obj.Set(key, b)
	}
	return nil
}

// patchVersion sets asset.version to v (JSON) and drops a minVersion newer
// than it.
func patchVersion(root *jsonobj.Object, v json.RawMessage) error {
	raw, ok := root.Get("asset")
	if !ok {
		return nil
	}
	asset, err := jsonobj.Parse(raw)
	if err != nil {
		return err
	}
	var want string
	_ = json.Unmarshal(v, &want)
	if cur, ok := asset.Get("version"); ok {
		var s string
		if json.Unmarshal(cur, &s) == nil && s == want {
			return nil
		}
	}
	asset.Set("version", v)
	if mv, ok := asset.Get("minVersion"); ok {
		var s string
		_ = json.Unmarshal(mv, &s)
		_, wmin, _ := corecheck.ParseVersion(want)
		if _, min, ok := corecheck.ParseVersion(s); !ok || min > wmin {
			asset.Delete("minVersion")
		}
	}
	b, err := asset.MarshalJSON()
	if err != nil {
		return err
	}
	root.Set("asset", b)
	return nil
}
