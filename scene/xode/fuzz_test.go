package xode

import (
	"testing"
)

// FuzzDecode: any input gives a document or an error, never a panic or a
// hang; whatever reads must write and read back.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`<xode><world><space><body name="a"><mass><mass_shape density="1"><box sizex="1" sizey="2" sizez="3"/></mass_shape></mass><geom><cappedCylinder radius="1" length="2"/></geom></body></space></world></xode>`,
		`<xode><world><space><body name="a"/><body name="b"/><joint><link1 body="a"/><link2 body="b"/><hinge><anchor x="0" y="0" z="0" absolute="true"/><axis x="0" y="1" z="0" LowStop="-1" HiStop="1"/></hinge></joint></space></world></xode>`,
		`<xode><world><transform><matrix4f m00="1" m30="5"/></transform><space><geom><plane a="0" b="1" c="0" d="2"/></geom><geom><ray length="3"/><geom><sphere radius="1"/></geom></geom></space></world></xode>`,
		`<xode><world><space><geom><trimesh><vertices><v x="0" y="0" z="0"/><v x="1" y="0" z="0"/><v x="0" y="1" z="0"/></vertices><triangles><t ia="0" ib="1" ic="2"/></triangles></trimesh></geom></space></world></xode>`,
		`<xode><world><space><body name="r"><transform><rotation><axisangle x="0" y="0" z="1" angle="90" aformat="degrees"/></rotation></transform><mass><mass_struct total="2"><centerGravity x="0" y="1" z="0"/><imatrix m00="1" m11="1" m22="1"/></mass_struct><adjust total="3"/><mass><mass_shape total="1"><sphere radius="1"/></mass_shape></mass></mass></body></space></world></xode>`,
		`<xode><world><space><body name="n"><transform><position x="NaN" y="Inf" z="1e999"/></transform></body></space></world></xode>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data)
		if err != nil {
			return
		}
		out, _, err := Encode(d)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		if _, err := Decode(out); err != nil {
			t.Fatalf("written XODE does not read back: %v\n%s", err, out)
		}
		if _, err := d.Encode("fuzz.glb"); err != nil {
			t.Fatalf("glTF encode: %v", err)
		}
	})
}
