package debugdraw

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// TestJointNow: the demo wheel's joint reads its connected frame's angle
// as the view has it, and draws its velocity drive as an orange arc arrow
// about the hinge axis; turning the wheel turns the reading.
func TestJointNow(t *testing.T) {
	d := demo(t)
	n := -1
	for i := range d.GLTF.Nodes {
		if strings.HasPrefix(d.NodeName(i), "Wheel") && d.Nodes[i].Joint != nil {
			n = i
		}
	}
	if n < 0 {
		t.Fatal("the demo has no wheel joint")
	}
	world := d.WorldMatrices()
	angle, pos, ok := JointState(d.Nodes[n].Joint, n, world)
	if !ok || mgl64.Vec3(angle).Len() > 1e-9 || mgl64.Vec3(pos).Len() > 1e-9 {
		t.Fatalf("at rest: angle %v, position %v, %v", angle, pos, ok)
	}
	// Turn the wheel 0.5 rad about its axle (world +Z): the connected
	// frame (the world anchor) turns -0.5 about +Z relative to it, which
	// is +0.5 about the joint frame's Y (it points along -Z).
	wheel := d.Parent(n)
	turn := mgl64.Translate3D(-1.2, 0.8, 5.3).Mul4(mgl64.HomogRotate3DZ(0.5)).Mul4(mgl64.Translate3D(1.2, -0.8, -5.3))
	world[wheel] = turn.Mul4(world[wheel])
	world[n] = turn.Mul4(world[n])
	angle, _, _ = JointState(d.Nodes[n].Joint, n, world)
	if math.Abs(angle[1]-0.5) > 1e-9 {
		t.Errorf("wheel turned 0.5 rad: joint angle %v, want 0.5 about Y", angle)
	}
	drive := 0
	for _, l := range jointNow(d, d.Nodes[n].Joint, n, world, 0.1) {
		if l.Color == ColorDrive {
			drive++
		}
	}
	if drive < 16+2 {
		t.Errorf("%d drive lines, want an arc of 16 and an arrowhead", drive)
	}
}

// TestJointSelectionLightsBodies: selecting the demo's door hinge draws
// the door's and the post's colliders as selected; selecting something
// else puts them back.
func TestJointSelectionLightsBodies(t *testing.T) {
	d := demo(t)
	c := NewCache(d, &DocumentMeshes{Doc: d}, Options{MarkerSize: 0.1})
	c.Update()
	hinge := nodeNamed(t, d, "Hinge (joint)")
	door, post := nodeNamed(t, d, "Door (dynamic, hinged)"), nodeNamed(t, d, "Post (static)")
	crate := nodeNamed(t, d, "Crate (dynamic box)")
	colour := func(n int) [4]float32 { return c.nodes[n][Colliders][0].Color }
	c.Select(hinge)
	c.Update()
	for _, n := range []int{door, post} {
		if colour(n) != ColorSelected {
			t.Errorf("%s: colour %v with the hinge selected, want the selection's", d.NodeName(n), colour(n))
		}
	}
	if colour(crate) == ColorSelected {
		t.Error("the crate is lit too")
	}
	c.Select(crate)
	c.Update()
	if colour(door) == ColorSelected || colour(post) == ColorSelected {
		t.Error("the door or the post stayed lit after selecting the crate")
	}
}

// TestJointCone: a cone limit (angular X and Z, 0 to 30 degrees) is drawn
// as a cone about Y: a circle of 32 segments at 30 degrees from Y on the
// limit radius, and four lines from the pivot.
func TestJointCone(t *testing.T) {
	d := demo(t)
	n := nodeNamed(t, d, "Hinge (joint)")
	d.Joints[d.Nodes[n].Joint.Joint].Limits = []scene.JointLimit{{AngularAxes: []int{0, 2}, Min: 0, Max: math.Pi / 6}}
	world := d.WorldMatrices()
	f := unitFrame(world[n])
	y := f.Col(1).Vec3()
	o := f.Col(3).Vec3()
	on := 0
	for _, l := range jointNow(d, d.Nodes[n].Joint, n, world, 0.1) {
		if l.Color != axisColors[1] {
			continue
		}
		for _, p := range []mgl64.Vec3{vec(l.A), vec(l.B)} {
			r := p.Sub(o)
			if math.Abs(r.Len()-0.2) < 1e-5 && math.Abs(r.Normalize().Dot(y)-math.Cos(math.Pi/6)) < 1e-5 {
				on++
			}
		}
	}
	if on != 2*32+4 {
		t.Errorf("%d cone points at 30 degrees from Y on radius 0.2, want %d", on, 2*32+4)
	}
}

// TestJointConeSmallScene: a cone joint in a scene of fewer nodes than the
// cone has segments draws (the segment count once shadowed the node).
func TestJointConeSmallScene(t *testing.T) {
	d, err := scene.Load("../internal/app/testdata/joints/bodies.gltf")
	if err != nil {
		t.Fatal(err)
	}
	lim := [2]float64{0, math.Pi / 6}
	e, err := d.NewJointEdit(scene.NewJoint{A: 3, B: -1, Type: scene.JointCone, Limit: &lim})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scene.Apply(d, e); err != nil {
		t.Fatal(err)
	}
	jn := len(d.GLTF.Nodes) - 2
	world := d.WorldMatrices()
	white := 0
	for _, l := range NodeLines(d, jn, world, false, nil, Options{MarkerSize: 0.1})[Joints] {
		if l.Color == ColorJoint && vec(l.A).Sub(world[jn].Col(3).Vec3()).Len() < 1e-6 {
			white++
		}
	}
	if white == 0 {
		t.Error("no mark of the connected frame's axis in the cone")
	}
}
