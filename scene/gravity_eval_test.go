package scene

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/testcorpus"
)

// fieldDoc is a document with one gravity node (index 0) at the origin.
func fieldDoc(t *testing.T, g Gravity, shapes ...Shape) *Document {
	t.Helper()
	d, err := Decode([]byte(`{"asset":{"version":"2.0"},"nodes":[{}],"scenes":[{"nodes":[0]}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	d.Shapes = append([]Shape{{Type: ShapeBox, Size: [3]float64{100, 100, 100}, Mesh: -1}}, shapes...)
	d.Nodes[0].Body = &Body{Trigger: &Trigger{Shape: 0, CollisionFilter: -1}}
	d.Nodes[0].Gravity = &g
	return d
}

func near(a, b mgl64.Vec3) bool { return a.Sub(b).Len() < 1e-6 }

func TestFields(t *testing.T) {
	point := DefaultGravity(GravityPoint)
	point.Gravity, point.UnitDistance = 8, 2
	disc := DefaultGravity(GravityDisc)
	disc.Gravity, disc.Radius = 3, 1
	torus := DefaultGravity(GravityTorus)
	torus.Gravity, torus.Radius = 3, 1
	line := DefaultGravity(GravityLine)
	line.Gravity, line.Points = 2, [][3]float64{{0, -1, 0}, {0, 1, 0}}
	shaped := DefaultGravity(GravityShaped)
	shaped.Gravity, shaped.Shape = 5, 1
	repel := DefaultGravity(GravityPoint)
	repel.Gravity = -4
	dir := DefaultGravity(GravityDirectional)
	dir.Gravity, dir.Direction = 2, [3]float64{0, 0, 3}
	box := Shape{Type: ShapeBox, Size: [3]float64{2, 2, 2}, Mesh: -1}
	cases := []struct {
		name string
		g    Gravity
		p    mgl64.Vec3
		want mgl64.Vec3
	}{
		{"point at unit distance", point, mgl64.Vec3{2, 0, 0}, mgl64.Vec3{-8, 0, 0}},
		{"point at twice unit distance is a quarter", point, mgl64.Vec3{0, 4, 0}, mgl64.Vec3{0, -2, 0}},
		{"point at half unit distance is four times", point, mgl64.Vec3{1, 0, 0}, mgl64.Vec3{-32, 0, 0}},
		{"point at its core's edge is sixteen times", point, mgl64.Vec3{0.5, 0, 0}, mgl64.Vec3{-128, 0, 0}},
		// Inside the core (0.5 m): 8·K·(2.5 r - 1.5 r³/0.25), K = 4/0.125.
		{"point inside its core", point, mgl64.Vec3{0.25, 0, 0}, mgl64.Vec3{-136, 0, 0}},
		{"point near its centre: nearly nothing, not 1/r²", point, mgl64.Vec3{0, 0, 0.01}, mgl64.Vec3{0, 0, -6.398464}},
		{"disc above its face pulls straight down", disc, mgl64.Vec3{0.5, 2, 0}, mgl64.Vec3{0, -3, 0}},
		{"disc beside it pulls to the rim", disc, mgl64.Vec3{4, 0, 0}, mgl64.Vec3{-3, 0, 0}},
		{"torus pulls to the ring, not the centre", torus, mgl64.Vec3{0.5, 0, 0}, mgl64.Vec3{3, 0, 0}},
		{"torus from above a ring point", torus, mgl64.Vec3{0, 2, 1}, mgl64.Vec3{0, -3, 0}},
		{"line pulls sideways to the segment", line, mgl64.Vec3{3, 0.5, 0}, mgl64.Vec3{-2, 0, 0}},
		{"line past its end pulls to the end", line, mgl64.Vec3{0, 5, 0}, mgl64.Vec3{0, -2, 0}},
		{"shaped pulls to the box face", shaped, mgl64.Vec3{3, 0.5, 0}, mgl64.Vec3{-5, 0, 0}},
		{"shaped pulls to the box corner", shaped, mgl64.Vec3{2, 2, 1}, mgl64.Vec3{-1, -1, 0}.Normalize().Mul(5)},
		{"negative gravity pushes away", repel, mgl64.Vec3{0, 0, 2}, mgl64.Vec3{0, 0, 4}},
		{"directional is normalised", dir, mgl64.Vec3{1, 1, 1}, mgl64.Vec3{0, 0, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := fieldDoc(t, c.g, box)
			got := d.Field(0, d.WorldMatrices(), c.p)
			if !near(got, c.want) {
				t.Errorf("field at %v = %v, want %v", c.p, got, c.want)
			}
		})
	}
}

// TestFieldFollowsNode: a field on a moved, rotated node acts in its frame.
func TestFieldFollowsNode(t *testing.T) {
	g := DefaultGravity(GravityDirectional)
	g.Gravity = 1
	d := fieldDoc(t, g)
	d.GLTF.Nodes[0].Translation = [3]float64{5, 0, 0}
	d.GLTF.Nodes[0].Rotation = [4]float64{0, 0, math.Sqrt(0.5), math.Sqrt(0.5)} // 90 degrees about Z
	if got := d.Field(0, d.WorldMatrices(), mgl64.Vec3{5, 0, 0}); !near(got, mgl64.Vec3{1, 0, 0}) {
		t.Errorf("local -Y rotated 90 degrees about Z should be +X, got %v", got)
	}
}

func TestNetGravityPriorities(t *testing.T) {
	type field struct {
		prio          int
		replace, stop bool
	}
	cases := []struct {
		name string
		a, b field // a pulls (0,-10,0), b pulls (5,0,0)
		p    mgl64.Vec3
		want mgl64.Vec3
	}{
		{"both add, then world", field{2, false, false}, field{1, false, false}, mgl64.Vec3{}, mgl64.Vec3{5, -19.8, 0}},
		{"lower priority replaces", field{2, false, false}, field{1, true, false}, mgl64.Vec3{}, mgl64.Vec3{5, -9.8, 0}},
		{"lower priority stops world gravity", field{2, false, false}, field{1, false, true}, mgl64.Vec3{}, mgl64.Vec3{5, -10, 0}},
		{"higher priority stops the rest", field{2, false, true}, field{1, false, false}, mgl64.Vec3{}, mgl64.Vec3{0, -10, 0}},
		{"priority order decides who replaces", field{1, true, false}, field{2, false, false}, mgl64.Vec3{}, mgl64.Vec3{0, -19.8, 0}},
		{"outside every volume: world only", field{2, false, false}, field{1, false, false}, mgl64.Vec3{50, 0, 0}, mgl64.Vec3{0, -9.8, 0}},
		{"inside only a: a and world", field{2, false, false}, field{1, false, false}, mgl64.Vec3{-3, 0, 0}, mgl64.Vec3{0, -19.8, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Decode([]byte(`{"asset":{"version":"2.0"},"nodes":[{"translation":[-2,0,0]},{"translation":[2,0,0]}],"scenes":[{"nodes":[0,1]}]}`), nil)
			if err != nil {
				t.Fatal(err)
			}
			d.Shapes = []Shape{{Type: ShapeBox, Size: [3]float64{8, 8, 8}, Mesh: -1}}
			d.WorldGravity = &WorldGravity{Gravity: 9.8, Direction: [3]float64{0, -1, 0}}
			ga := DefaultGravity(GravityDirectional)
			ga.Gravity, ga.Priority, ga.Replace, ga.Stop = 10, c.a.prio, c.a.replace, c.a.stop
			gb := DefaultGravity(GravityDirectional)
			gb.Gravity, gb.Direction, gb.Priority, gb.Replace, gb.Stop = 5, [3]float64{1, 0, 0}, c.b.prio, c.b.replace, c.b.stop
			for i, g := range []Gravity{ga, gb} {
				d.Nodes[i].Body = &Body{Trigger: &Trigger{Shape: 0, CollisionFilter: -1}}
				d.Nodes[i].Gravity = &g
			}
			if got := d.NetGravity(d.WorldMatrices(), c.p); !near(got, c.want) {
				t.Errorf("net gravity at %v = %v, want %v", c.p, got, c.want)
			}
		})
	}
}

// TestEarthSurfaceGravity: earth_millionth_scale has a point field with
// unitDistance = the Earth's radius at this scale, so g at the surface.
func TestEarthSurfaceGravity(t *testing.T) {
	d := mustLoad(t, testcorpus.File(t, "omigroup-gltf-extensions/extensions/2.0/OMI_physics_gravity/examples/earth_millionth_scale/earth_millionth_scale.gltf"))
	world := d.WorldMatrices()
	surface := mgl64.Vec3{0, 6.37814, 0}
	got := d.NetGravity(world, surface)
	if math.Abs(got.Len()-9.80665) > 1e-6 || got.Normalize().Dot(mgl64.Vec3{0, -1, 0}) < 1-1e-9 {
		t.Errorf("gravity at the surface = %v (|%g|), want 9.80665 towards the centre", got, got.Len())
	}
	// Twice as far out: a quarter.
	if got := d.NetGravity(world, surface.Mul(2)); math.Abs(got.Len()-9.80665/4) > 1e-6 {
		t.Errorf("gravity at two radii = %g, want %g", got.Len(), 9.80665/4)
	}
	// Outside the trigger sphere (radius 40) only the world gravity (0) acts.
	if got := d.NetGravity(world, mgl64.Vec3{0, 50, 0}); got.Len() > 1e-9 {
		t.Errorf("gravity outside the volume = %v", got)
	}
	// A test particle dropped from 10 units falls towards the Earth.
	path := d.Trajectory(mgl64.Vec3{0, 10, 0}, mgl64.Vec3{}, 0.01, 100)
	if len(path) != 101 || path[100][1] >= 10 {
		t.Errorf("particle path: %d points, last %v", len(path), path[len(path)-1])
	}
}

func TestShapeGeometry(t *testing.T) {
	zero := mgl64.Vec3{}
	caps := Shape{Type: ShapeCapsule, Height: 1, RadiusTop: 0.3, RadiusBottom: 0.5}
	cyl := Shape{Type: ShapeCylinder, Height: 2, RadiusTop: 0.25, RadiusBottom: 0.5}
	cases := []struct {
		s    Shape
		p    mgl64.Vec3
		want bool
	}{
		{caps, mgl64.Vec3{0, 0.5 + 0.29, 0}, true},
		{caps, mgl64.Vec3{0, 0.5 + 0.31, 0}, false},
		{caps, mgl64.Vec3{0, -0.5 - 0.49, 0}, true},
		{caps, mgl64.Vec3{0.4, 0, 0}, true}, // the cone is 0.4/cos(asin 0.2) = 0.408 wide here
		{caps, mgl64.Vec3{0.42, 0, 0}, false},
		{cyl, mgl64.Vec3{0.3, 0.9, 0}, false},
		{cyl, mgl64.Vec3{0.3, -0.9, 0}, true},
		{cyl, mgl64.Vec3{0, 1.01, 0}, false},
	}
	for _, c := range cases {
		if got := c.s.Contains(c.p, zero, zero); got != c.want {
			t.Errorf("%s contains %v = %v, want %v", c.s.Type, c.p, got, c.want)
		}
	}
	// The nearest point of a tapered capsule lies on its surface.
	q := caps.Nearest(mgl64.Vec3{2, 0.3, 0}, zero, zero)
	if d := caps.Distance(q, zero, zero); math.Abs(d) > 1e-5 {
		t.Errorf("nearest point %v is %g off the surface", q, d)
	}
}
