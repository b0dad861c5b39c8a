package anim

import (
	"strings"
	"testing"

	"physview/scene"
)

// TestZeroTargetsNotRead: morph targets whose accessor has no bufferView
// are zeros and are never read into memory (issue 31: 1,000 of them on
// 100,000 vertices made inspect take 2 GB); a target with data is read.
func TestZeroTargetsNotRead(t *testing.T) {
	targets := strings.Repeat(`{"POSITION":1},`, 999) + `{"POSITION":2}`
	doc := `{"asset":{"version":"2.0"},
"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
"bufferViews":[{"buffer":0,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
{"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[0,0,0]},
{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"mode":4,"targets":[` + targets + `]}]}],
"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`
	d, err := scene.Decode([]byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	df := NewModel(d).Deform(0, 0)
	if df == nil || df.Err != nil {
		t.Fatalf("deform %+v", df)
	}
	if len(df.Targets) != 1000 {
		t.Fatalf("%d targets, want 1000", len(df.Targets))
	}
	read := 0
	for _, tg := range df.Targets[:999] {
		if tg.Position != nil {
			read++
		}
	}
	if read != 0 {
		t.Errorf("%d zero targets read into memory, want 0", read)
	}
	if p := df.Targets[999].Position; len(p) != 3 || p[1] != [3]float32{1, 0, 0} {
		t.Errorf("the target with data: %v, want its 3 positions", p)
	}
}
