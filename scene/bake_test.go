package scene

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
)

// tinyAnimation moves node 0 from x 0 to x 1 over 1 s.
func tinyAnimation() NewAnimation {
	var data []byte
	for _, v := range []float32{0, 1, 0, 0, 0, 1, 0, 0} {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
	}
	v0, v1 := 0, 1
	node := 0
	return NewAnimation{
		Animation: gltf.Animation{Name: "Simulation",
			Samplers: []*gltf.AnimationSampler{{Input: 0, Output: 1}},
			Channels: []*gltf.AnimationChannel{{Sampler: 0, Target: gltf.AnimationChannelTarget{Node: &node, Path: gltf.TRSTranslation}}}},
		Data:  data,
		Views: []gltf.BufferView{{ByteOffset: 0, ByteLength: 8}, {ByteOffset: 8, ByteLength: 24}},
		Accessors: []gltf.Accessor{
			{BufferView: &v0, ComponentType: gltf.ComponentFloat, Count: 2, Type: gltf.AccessorScalar, Min: []float64{0}, Max: []float64{1}},
			{BufferView: &v1, ComponentType: gltf.ComponentFloat, Count: 2, Type: gltf.AccessorVec3},
		},
	}
}

// TestAddAnimationSaveUndo: an added animation is saved after the file's
// own entries, its data appended to the file's .bin; undone, the save is
// the file as read, byte for byte; redone, the first save again.
func TestAddAnimationSaveUndo(t *testing.T) {
	path := copyFixture(t, "l.gltf")
	orig := readAll(t, path)
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var h History
	if _, err := h.Do(d, d.AddAnimationEdit(tinyAnimation(), "Bake simulation")); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	baked := readAll(t, path)
	var saved struct {
		Animations []struct {
			Name string `json:"name"`
		} `json:"animations"`
		Accessors []json.RawMessage `json:"accessors"`
	}
	if err := json.Unmarshal(baked["l.gltf"], &saved); err != nil {
		t.Fatal(err)
	}
	if len(saved.Animations) != 1 || saved.Animations[0].Name != "Simulation" || len(baked["l.bin"]) != (len(orig["l.bin"])+3)&^3+32 {
		t.Errorf("saved: .bin %d bytes (was %d), animations %+v", len(baked["l.bin"]), len(orig["l.bin"]), saved.Animations)
	}
	// The file's own text is kept: the save only adds.
	if !strings.HasPrefix(string(baked["l.gltf"]), strings.SplitN(string(orig["l.gltf"]), "\"accessors\"", 2)[0]) {
		t.Error("the saved JSON does not start as the file did")
	}
	if _, ok := h.Undo(d); !ok {
		t.Fatal("no undo")
	}
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, path); !sameFiles(got, orig) {
		t.Error("after undo the save differs from the file as read")
	}
	if _, ok := h.Redo(d); !ok {
		t.Fatal("no redo")
	}
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, path); !sameFiles(got, baked) {
		t.Error("after redo the save differs from the first one")
	}
}

// TestAddAnimationRefusesBadIndices: a channel on a node that does not
// exist or a sampler reading an accessor not added is refused.
func TestAddAnimationRefusesBadIndices(t *testing.T) {
	d, err := Load(copyFixture(t, "l.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	bad := tinyAnimation()
	n := 99
	bad.Animation.Channels[0].Target.Node = &n
	if _, err := Apply(d, d.AddAnimationEdit(bad, "")); err == nil || len(d.GLTF.Animations) != 0 {
		t.Errorf("a channel on node 99 was applied (err %v)", err)
	}
	bad = tinyAnimation()
	bad.Animation.Samplers[0].Output = 5
	if _, err := Apply(d, d.AddAnimationEdit(bad, "")); err == nil {
		t.Error("a sampler reading accessor 5 of 2 was applied")
	}
}
