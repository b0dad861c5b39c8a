// Command gen writes the built-in demo scene, assets/demo.glb: meshes with
// real materials, four material variants (the fourth, Iridescent, shows
// KHR_materials_iridescence and KHR_materials_anisotropy), colliders of
// every OMI shape type on static, kinematic and dynamic bodies, G4MF general
// shapes (rounded box, superellipsoid, cone, tapered capsule), a plane, a
// ray and a heightmap, a compound collider, a concave bracket whose collider
// is a compound of convex hulls fitted by the real decomposition
// (scene.Document.DecomposeNode and FitCompoundEdit), triggers, a gravity
// volume of each of the six types and a hinge joint.
//
// Run it with `go generate ./assets` from the repository root.
package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"physview/internal/concave"
	"physview/scene"
)

func main() {
	out := "demo.glb"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	data, err := build()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// geometry is an indexed triangle mesh; tan, when set, holds a tangent per
// vertex (written only for meshes whose material needs one: anisotropy).
type geometry struct {
	pos, nrm [][3]float32
	tan      [][4]float32
	idx      []uint32
}

func (g *geometry) vertex(p, n [3]float32) uint32 {
	g.pos = append(g.pos, p)
	g.nrm = append(g.nrm, n)
	return uint32(len(g.pos) - 1)
}

func box(sx, sy, sz float32) geometry {
	var g geometry
	h := [3]float32{sx / 2, sy / 2, sz / 2}
	faces := []struct{ n, u, v [3]float32 }{
		{[3]float32{1, 0, 0}, [3]float32{0, 0, -1}, [3]float32{0, 1, 0}},
		{[3]float32{-1, 0, 0}, [3]float32{0, 0, 1}, [3]float32{0, 1, 0}},
		{[3]float32{0, 1, 0}, [3]float32{1, 0, 0}, [3]float32{0, 0, -1}},
		{[3]float32{0, -1, 0}, [3]float32{1, 0, 0}, [3]float32{0, 0, 1}},
		{[3]float32{0, 0, 1}, [3]float32{1, 0, 0}, [3]float32{0, 1, 0}},
		{[3]float32{0, 0, -1}, [3]float32{-1, 0, 0}, [3]float32{0, 1, 0}},
	}
	for _, f := range faces {
		var base uint32
		for k, c := range [][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			var p [3]float32
			for a := 0; a < 3; a++ {
				p[a] = (f.n[a] + c[0]*f.u[a] + c[1]*f.v[a]) * h[a]
			}
			i := g.vertex(p, f.n)
			if k == 0 {
				base = i
			}
		}
		g.idx = append(g.idx, base, base+1, base+2, base, base+2, base+3)
	}
	return g
}

// lathe revolves a profile (radius, y) about +Y; normals come from the
// profile's direction, tangents go around the axis.
func lathe(profile [][2]float64, segs int) geometry {
	var g geometry
	rings := len(profile)
	for i, p := range profile {
		// Profile tangent for the normal.
		a, b := profile[max(i-1, 0)], profile[min(i+1, rings-1)]
		tr, ty := b[0]-a[0], b[1]-a[1]
		nr, ny := ty, -tr
		l := math.Hypot(nr, ny)
		if l == 0 {
			nr, ny, l = 1, 0, 1
		}
		nr, ny = nr/l, ny/l
		for s := 0; s <= segs; s++ {
			th := 2 * math.Pi * float64(s) / float64(segs)
			c, sn := math.Cos(th), math.Sin(th)
			g.vertex([3]float32{float32(p[0] * c), float32(p[1]), float32(p[0] * sn)}, [3]float32{float32(nr * c), float32(ny), float32(nr * sn)})
			// Around the axis (the brushed material turns it along the
			// profile).
			g.tan = append(g.tan, [4]float32{float32(-sn), 0, float32(c), 1})
		}
	}
	w := uint32(segs + 1)
	for i := 0; i+1 < rings; i++ {
		for s := 0; s < segs; s++ {
			a := uint32(i)*w + uint32(s)
			b := a + w
			g.idx = append(g.idx, a, b, a+1, a+1, b, b+1)
		}
	}
	return g
}

// supportMesh is the surface of a convex general shape: a latitude and
// longitude grid of directions, each mapped to the shape's support point,
// with the direction as the normal.
func supportMesh(gs scene.General) geometry {
	var g geometry
	const lat, lon = 24, 48
	for i := 0; i <= lat; i++ {
		phi := math.Pi * float64(i) / lat
		for k := 0; k <= lon; k++ {
			th := 2 * math.Pi * float64(k) / lon
			d := mgl64.Vec3{math.Sin(phi) * math.Cos(th), -math.Cos(phi), math.Sin(phi) * math.Sin(th)}
			p, _ := gs.Support(d)
			g.vertex([3]float32{float32(p[0]), float32(p[1]), float32(p[2])}, [3]float32{float32(d[0]), float32(d[1]), float32(d[2])})
		}
	}
	w := uint32(lon + 1)
	for i := 0; i < lat; i++ {
		for k := 0; k < lon; k++ {
			a := uint32(i)*w + uint32(k)
			b := a + w
			g.idx = append(g.idx, a, b, a+1, a+1, b, b+1)
		}
	}
	return g
}

// heightGrid is a heightmap's surface, samples one metre apart, centred.
func heightGrid(s scene.Shape) geometry {
	var g geometry
	nx, nz := int(s.Size[0]), int(s.Size[2])
	for k := 0; k < nz; k++ {
		for i := 0; i < nx; i++ {
			p := s.HeightmapPoint(i, k)
			g.vertex([3]float32{float32(p[0]), float32(p[1]), float32(p[2])}, [3]float32{0, 1, 0})
		}
	}
	for k := 0; k+1 < nz; k++ {
		for i := 0; i+1 < nx; i++ {
			a := uint32(k*nx + i)
			b := a + uint32(nx)
			g.idx = append(g.idx, a, b, a+1, a+1, b, b+1)
		}
	}
	return g
}

// The G4MF shapes of the demo, placed in build.
var (
	roundedCrate = scene.General{Size: [3]float64{0.6, 0.6, 0.6}, Curves: []scene.Curve{{Radii: [3]float64{0.2, 0.2, 0.2}, Exponent: 2}}}
	superEgg     = scene.General{Curves: []scene.Curve{{Radii: [3]float64{0.6, 0.4, 0.45}, Exponent: 4}}}
	generalCone  = scene.General{Size: [3]float64{0, 1.4, 0}, Curves: []scene.Curve{{Radii: [3]float64{0.25, 0, 0.25}, Exponent: 2, Taper: []scene.Taper{
		{Position: [3]float64{0, 0.7, 0}},
		{Position: [3]float64{0, -0.7, 0}, Radii: [3]float64{0.5, 0, 0.5}},
	}}}}
	generalCapsule = scene.General{Size: [3]float64{0, 0.9, 0}, Curves: []scene.Curve{{Radii: [3]float64{0.3, 0.3, 0.3}, Exponent: 2, Taper: []scene.Taper{
		{Position: [3]float64{0, 0.45, 0}, Radii: [3]float64{0.2, 0.2, 0.2}},
		{Position: [3]float64{0, -0.45, 0}, Radii: [3]float64{0.4, 0.4, 0.4}},
	}}}}
	hills = scene.Shape{Type: scene.ShapeHeightmap, Mesh: -1, Size: [3]float64{4, 1, 4}, Heights: []float64{
		0.05, 0.1, 0.1, 0.05,
		0.1, 0.4, 0.3, 0.1,
		0.1, 0.3, 0.5, 0.1,
		0.05, 0.1, 0.1, 0.05,
	}}
)

func sphere(r float64) geometry {
	var prof [][2]float64
	for i := 0; i <= 16; i++ {
		phi := math.Pi * float64(i) / 16
		prof = append(prof, [2]float64{r * math.Sin(phi), -r * math.Cos(phi)})
	}
	return lathe(prof, 32)
}

// capsule follows OMI: mid height between the cap centres, radii per end.
func capsule(mid, rTop, rBottom float64) geometry {
	var prof [][2]float64
	for i := 0; i <= 8; i++ {
		phi := math.Pi / 2 * float64(i) / 8
		prof = append(prof, [2]float64{rBottom * math.Sin(phi), -mid/2 - rBottom*math.Cos(phi)})
	}
	for i := 0; i <= 8; i++ {
		phi := math.Pi/2 + math.Pi/2*float64(i)/8
		prof = append(prof, [2]float64{rTop * math.Sin(phi), mid/2 - rTop*math.Cos(phi)})
	}
	return lathe(prof, 32)
}

func cylinder(h, rTop, rBottom float64) geometry {
	return lathe([][2]float64{{0, -h / 2}, {rBottom, -h / 2}, {rBottom, -h / 2}, {rTop, h / 2}, {rTop, h / 2}, {0, h / 2}}, 32)
}

// tetra is a convex hull source with flat faces (vertices per face).
func tetra(s float32) geometry {
	v := [][3]float32{{-s, 0, -s}, {s, 0, -s}, {0, 0, s}, {0, 1.5 * s, 0}}
	return flatFaces(v, [][3]int{{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}})
}

// flatFaces makes a mesh of triangles (counter-clockwise seen from
// outside), each with its own vertices and face normal.
func flatFaces(v [][3]float32, faces [][3]int) geometry {
	var g geometry
	for _, f := range faces {
		a, b, c := v[f[0]], v[f[1]], v[f[2]]
		n := normal(a, b, c)
		i := g.vertex(a, n)
		g.vertex(b, n)
		g.vertex(c, n)
		g.idx = append(g.idx, i, i+1, i+2)
	}
	return g
}

// ramp is a wedge for the trimesh collider.
func ramp(w, h, l float32) geometry {
	v := [][3]float32{{-w / 2, 0, -l / 2}, {w / 2, 0, -l / 2}, {w / 2, 0, l / 2}, {-w / 2, 0, l / 2}, {-w / 2, h, -l / 2}, {w / 2, h, -l / 2}}
	// Bottom, slope, back, two sides.
	return flatFaces(v, [][3]int{{0, 1, 2}, {0, 2, 3}, {3, 5, 4}, {3, 2, 5}, {0, 5, 1}, {0, 4, 5}, {0, 3, 4}, {1, 5, 2}})
}

// bracket is a U-shaped bracket (internal/concave's U scaled by s: 1.5 s
// wide and tall, 0.5 s deep, standing on y = 0), flat shaded.
func bracket(s float64) geometry {
	u := concave.U()
	v := make([][3]float32, len(u.Pos))
	for i, p := range u.Pos {
		v[i] = [3]float32{float32(p[0] * s), float32(p[1] * s), float32(p[2] * s)}
	}
	faces := make([][3]int, len(u.Tris))
	for i, t := range u.Tris {
		faces[i] = [3]int{int(t[0]), int(t[1]), int(t[2])}
	}
	return flatFaces(v, faces)
}

// centroid is the centre of the solid a closed mesh bounds (the sum of the
// tetrahedra from the origin to each triangle, weighted by volume).
func centroid(g geometry) [3]float64 {
	var c [3]float64
	vol := 0.0
	for i := 0; i+2 < len(g.idx); i += 3 {
		var p [3][3]float64
		for k := 0; k < 3; k++ {
			for a := 0; a < 3; a++ {
				p[k][a] = float64(g.pos[g.idx[i+k]][a])
			}
		}
		v := (p[0][0]*(p[1][1]*p[2][2]-p[1][2]*p[2][1]) - p[0][1]*(p[1][0]*p[2][2]-p[1][2]*p[2][0]) + p[0][2]*(p[1][0]*p[2][1]-p[1][1]*p[2][0])) / 6
		vol += v
		for a := 0; a < 3; a++ {
			c[a] += v * (p[0][a] + p[1][a] + p[2][a]) / 4
		}
	}
	for a := range c {
		// To the micrometre: float32 positions leave noise (1e-17 for 0).
		c[a] = math.Round(c[a]/vol*1e6)/1e6 + 0 // + 0: -0 becomes 0
	}
	return c
}

func normal(a, b, c [3]float32) [3]float32 {
	u := [3]float32{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
	v := [3]float32{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
	n := [3]float32{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]}
	l := float32(math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])))
	return [3]float32{n[0] / l, n[1] / l, n[2] / l}
}

func ptr[T any](v T) *T { return &v }

// quat is q as glTF's x, y, z, w.
func quat(q mgl64.Quat) [4]float64 { return [4]float64{q.V[0], q.V[1], q.V[2], q.W} }

func pbr(name string, rgb [3]float64, metal, rough float64) *gltf.Material {
	return &gltf.Material{
		Name: name,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorFactor: &[4]float64{rgb[0], rgb[1], rgb[2], 1},
			MetallicFactor:  ptr(metal), RoughnessFactor: ptr(rough),
		},
	}
}

func build() ([]byte, error) {
	doc := gltf.NewDocument()
	doc.Asset.Generator = "physview assets/gen"
	doc.Materials = []*gltf.Material{
		pbr("Ground", [3]float64{0.22, 0.24, 0.22}, 0, 0.9),         // 0
		pbr("Crate", [3]float64{0.8, 0.45, 0.15}, 0, 0.6),           // 1
		pbr("Steel", [3]float64{0.8, 0.82, 0.85}, 1, 0.3),           // 2
		pbr("Rubber", [3]float64{0.15, 0.5, 0.85}, 0, 0.5),          // 3
		pbr("Stone", [3]float64{0.55, 0.5, 0.46}, 0, 0.8),           // 4
		pbr("CrateNight", [3]float64{0.1, 0.15, 0.4}, 0, 0.5),       // 5
		pbr("Gold", [3]float64{1.0, 0.77, 0.34}, 1, 0.25),           // 6
		pbr("RubberNight", [3]float64{0.6, 0.1, 0.5}, 0, 0.4),       // 7
		pbr("Glass", [3]float64{0.6, 0.85, 0.95}, 0, 0.05),          // 8
		pbr("Iridescent", [3]float64{0.25, 0.25, 0.27}, 1, 0.15),    // 9
		pbr("BrushedSteel", [3]float64{0.9, 0.9, 0.92}, 1, 0.25),    // 10
		pbr("BracketPaint", [3]float64{0.75, 0.2, 0.12}, 0.2, 0.45), // 11
	}
	doc.Materials[8].AlphaMode = gltf.AlphaBlend
	doc.Materials[8].PBRMetallicRoughness.BaseColorFactor[3] = 0.35
	// A thin film over metal: the colour turns with the angle of view.
	doc.Materials[9].Extensions = gltf.Extensions{"KHR_materials_iridescence": map[string]any{
		"iridescenceFactor": 1, "iridescenceIor": 1.6, "iridescenceThicknessMaximum": 480,
	}}
	// Brushed along the capsule's length: its tangents go around the axis,
	// the rotation turns the direction a quarter turn.
	doc.Materials[10].Extensions = gltf.Extensions{"KHR_materials_anisotropy": map[string]any{
		"anisotropyStrength": 0.9, "anisotropyRotation": math.Pi / 2,
	}}
	doc.ExtensionsUsed = []string{"KHR_materials_anisotropy", "KHR_materials_iridescence"}

	// addMeshT writes a mesh, its tangents only when tangents is set
	// (16 bytes a vertex: only where a material needs them); addMesh
	// writes none.
	addMeshT := func(name string, g geometry, mat int, tangents bool) int {
		pos := modeler.WritePosition(doc, g.pos)
		nrm := modeler.WriteNormal(doc, g.nrm)
		attr := gltf.PrimitiveAttributes{gltf.POSITION: pos, gltf.NORMAL: nrm}
		if tangents {
			attr[gltf.TANGENT] = modeler.WriteTangent(doc, g.tan)
		}
		idx := modeler.WriteIndices(doc, g.idx)
		doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: name, Primitives: []*gltf.Primitive{{
			Attributes: attr, Indices: ptr(idx), Material: ptr(mat),
		}}})
		return len(doc.Meshes) - 1
	}
	addMesh := func(name string, g geometry, mat int) int { return addMeshT(name, g, mat, false) }
	mGround := addMesh("Ground", box(14, 0.4, 12), 0)
	mCrate := addMesh("Crate", box(1, 1, 1), 1)
	mBall := addMesh("Ball", sphere(0.5), 3)
	mCapsule := addMeshT("TaperedCapsule", capsule(1, 0.3, 0.5), 2, true) // brushed in the Iridescent variant
	mCylinder := addMesh("Cone", cylinder(1.5, 0.3, 0.6), 4)
	mTetra := addMesh("Tetra", tetra(0.6), 4)
	mWheel := addMesh("Wheel", cylinder(0.15, 0.5, 0.5), 2)
	mRamp := addMesh("Ramp", ramp(2, 1, 3), 4)
	mBell := addMesh("Bell", sphere(0.35), 2)
	mBar := addMesh("Bar", cylinder(1.2, 0.08, 0.08), 2)
	mPost := addMesh("Post", box(0.2, 2.2, 0.2), 4)
	mDoor := addMesh("Door", box(1.2, 1.8, 0.08), 8)
	mRounded := addMesh("RoundedCrate", supportMesh(roundedCrate), 1)
	mEgg := addMesh("Superellipsoid", supportMesh(superEgg), 6)
	mGCone := addMesh("GeneralCone", supportMesh(generalCone), 4)
	mGCapsule := addMesh("GeneralTaperedCapsule", supportMesh(generalCapsule), 3)
	mHills := addMesh("Hills", heightGrid(hills), 0)
	bracketGeo := bracket(0.7)
	mBracket := addMesh("Bracket", bracketGeo, 11)

	var nodes []*gltf.Node
	add := func(name string, mesh int, t [3]float64) int {
		n := &gltf.Node{Name: name, Translation: t}
		if mesh >= 0 {
			n.Mesh = ptr(mesh)
		}
		nodes = append(nodes, n)
		return len(nodes) - 1
	}
	child := func(parent, c int) { nodes[parent].Children = append(nodes[parent].Children, c) }
	s45 := math.Sqrt(0.5)

	ground := add("Ground", mGround, [3]float64{0, -0.2, 0})
	crate := add("Crate (dynamic box)", mCrate, [3]float64{-2.5, 0.5, 0})
	ball := add("Ball (dynamic sphere)", mBall, [3]float64{-1.5, 0.5, 2})
	platform := add("Platform (kinematic tapered capsule)", mCapsule, [3]float64{0, 1.0, -3})
	cone := add("Cone (static tapered cylinder)", mCylinder, [3]float64{2.5, 0.75, -3})
	hull := add("Tetra (dynamic convex hull)", mTetra, [3]float64{3, 0, 2})
	rampN := add("Ramp (static trimesh)", mRamp, [3]float64{5, 0, 0})
	bell := add("Dumbbell (dynamic compound collider)", -1, [3]float64{0, 0.35, 3})
	bellA := add("Dumbbell end A", mBell, [3]float64{-0.6, 0, 0})
	bellB := add("Dumbbell end B", mBell, [3]float64{0.6, 0, 0})
	bar := add("Dumbbell bar", mBar, [3]float64{0, 0, 0})
	nodes[bar].Rotation = [4]float64{0, 0, s45, s45} // cylinder axis along X
	child(bell, bellA)
	child(bell, bellB)
	child(bell, bar)
	checkpoint := add("Checkpoint (trigger)", -1, [3]float64{-5.5, 1, -1.5})
	finish := add("Finish (compound trigger)", -1, [3]float64{-5.5, 1, 2.5})
	finishA := add("Finish gate A", -1, [3]float64{-0.75, 0, 0})
	finishB := add("Finish gate B", -1, [3]float64{0.75, 0, 0})
	child(finish, finishA)
	child(finish, finishB)
	post := add("Post (static)", mPost, [3]float64{1, 1.1, 4.5})
	door := add("Door (dynamic, hinged)", mDoor, [3]float64{1.7, 1.0, 4.5})
	hinge := add("Hinge (joint)", -1, [3]float64{-0.7, 0, 0})
	nodes[hinge].Rotation = [4]float64{0, 0, s45, s45} // joint X axis = world Y
	anchor := add("Hinge anchor", -1, [3]float64{0.1, -0.1, 0})
	nodes[anchor].Rotation = [4]float64{0, 0, s45, s45}
	child(door, hinge)
	child(post, anchor)
	// A wheel on an axle along Z, driven at 2 rad/s (joint added below).
	wheel := add("Wheel (dynamic, driven hinge)", mWheel, [3]float64{-1.2, 0.8, 5.3})
	nodes[wheel].Rotation = [4]float64{s45, 0, 0, s45} // cylinder axis along Z
	gravityNames := []string{"Updraft (directional gravity)", "Planetoid (point gravity)", "Disc gravity", "Torus gravity", "Line gravity", "Shaped gravity (towards a box)"}
	var gravityNodes []int
	for i, name := range gravityNames {
		gravityNodes = append(gravityNodes, add(name, -1, [3]float64{-5.5 + 2.2*float64(i), 1.5, -4.5}))
	}
	rounded := add("Rounded crate (dynamic general: rounded box)", mRounded, [3]float64{-1, 0.5, -1.2})
	egg := add("Superellipsoid (dynamic general, exponent 4)", mEgg, [3]float64{0.6, 0.4, -1})
	gCone := add("General cone (static, tapered curve)", mGCone, [3]float64{-3.5, 0.7, -3})
	gCapsule := add("General tapered capsule (dynamic)", mGCapsule, [3]float64{5, 0.9, 3.5})
	hillsN := add("Hills (static heightmap)", mHills, [3]float64{5, 0.02, -2.5})
	probe := add("Probe (ray trigger)", -1, [3]float64{-2.5, 2.5, 0})
	killPlane := add("Kill plane (plane trigger)", -1, [3]float64{0, -1, 0})
	// The bracket starts tilted 15 degrees, its low corner 0.86 m up, in
	// the free front-left corner: in Play it falls on the corner and rocks
	// back onto its base.
	bracketN := add("Bracket (dynamic compound of convex hulls)", mBracket, [3]float64{-3.2, 1, 4.2})
	nodes[bracketN].Rotation = quat(mgl64.QuatRotate(0.35, mgl64.Vec3{0, 1, 0}).Mul(mgl64.QuatRotate(0.26, mgl64.Vec3{0, 0, 1})))
	roots := []int{ground, crate, ball, platform, cone, hull, rampN, bell, checkpoint, finish, post, door,
		rounded, egg, gCone, gCapsule, hillsN, probe, killPlane, bracketN, wheel}
	roots = append(roots, gravityNodes...)

	// The kinematic platform slides 1.5 m along X and back in 3 s: the
	// Animation tab plays it, and in Play it carries what rests on it.
	tIn := modeler.WriteAccessor(doc, gltf.TargetNone, []float32{0, 1.5, 3})
	doc.Accessors[tIn].Min, doc.Accessors[tIn].Max = []float64{0}, []float64{3}
	p0 := nodes[platform].Translation
	at := func(dx float64) [3]float32 { return [3]float32{float32(p0[0] + dx), float32(p0[1]), float32(p0[2])} }
	tOut := modeler.WriteAccessor(doc, gltf.TargetNone, [][3]float32{at(0), at(1.5), at(0)})
	doc.Animations = append(doc.Animations, &gltf.Animation{
		Name:     "Platform slides",
		Samplers: []*gltf.AnimationSampler{{Input: tIn, Output: tOut, Interpolation: gltf.InterpolationLinear}},
		Channels: []*gltf.AnimationChannel{{Sampler: 0, Target: gltf.AnimationChannelTarget{Node: gltf.Index(platform), Path: gltf.TRSTranslation}}},
	})
	doc.Nodes = nodes
	doc.Scenes[0].Nodes = roots
	doc.Scenes[0].Name = "Demo"

	var buf bytes.Buffer
	enc := gltf.NewEncoder(&buf)
	enc.AsBinary = true
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	d, err := scene.Decode(buf.Bytes(), nil)
	if err != nil {
		return nil, err
	}

	// Shapes.
	shape := func(s scene.Shape) int {
		d.Shapes = append(d.Shapes, s)
		return len(d.Shapes) - 1
	}
	boxShape := func(x, y, z float64) int {
		s := scene.DefaultShape(scene.ShapeBox)
		s.Size = [3]float64{x, y, z}
		return shape(s)
	}
	sphereShape := func(r float64) int {
		s := scene.DefaultShape(scene.ShapeSphere)
		s.Radius = r
		return shape(s)
	}
	sGround := boxShape(14, 0.4, 12)
	sCrate := boxShape(1, 1, 1)
	sBall := sphereShape(0.5)
	caps := scene.DefaultShape(scene.ShapeCapsule)
	caps.Height, caps.RadiusTop, caps.RadiusBottom = 1, 0.3, 0.5
	sCapsule := shape(caps)
	cyl := scene.DefaultShape(scene.ShapeCylinder)
	cyl.Height, cyl.RadiusTop, cyl.RadiusBottom = 1.5, 0.3, 0.6
	sCone := shape(cyl)
	convex := scene.DefaultShape(scene.ShapeConvex)
	convex.Mesh = mTetra
	sHull := shape(convex)
	tri := scene.DefaultShape(scene.ShapeTrimesh)
	tri.Mesh = mRamp
	sRamp := shape(tri)
	sBell := sphereShape(0.35)
	bc := scene.DefaultShape(scene.ShapeCylinder)
	bc.Height, bc.RadiusTop, bc.RadiusBottom = 1.2, 0.08, 0.08
	sBar := shape(bc)
	sPost := boxShape(0.2, 2.2, 0.2)
	sDoor := boxShape(1.2, 1.8, 0.08)
	sTriggerBox := boxShape(2, 2, 2)
	sGate := boxShape(0.5, 2, 0.5)
	sGravitySphere := sphereShape(1)
	sGravityBox := boxShape(1.8, 3, 1.8)
	sTarget := boxShape(0.6, 0.6, 0.6)
	sRounded := shape(scene.NewGeneralShape(roundedCrate))
	sEgg := shape(scene.NewGeneralShape(superEgg))
	sGCone := shape(scene.NewGeneralShape(generalCone))
	sGCapsule := shape(scene.NewGeneralShape(generalCapsule))
	sHills := shape(hills)
	ray := scene.DefaultShape(scene.ShapeRay)
	ray.Length = 1.5
	sRay := shape(ray)
	sPlane := shape(scene.DefaultShape(scene.ShapePlane))
	wc := scene.DefaultShape(scene.ShapeCylinder)
	wc.Height, wc.RadiusTop, wc.RadiusBottom = 0.15, 0.5, 0.5
	sWheel := shape(wc)

	d.PhysicsMaterials = []scene.PhysicsMaterial{{StaticFriction: 0.05, DynamicFriction: 0.03, Restitution: 0.8, FrictionCombine: "minimum", RestitutionCombine: "maximum"}}
	d.CollisionFilters = []scene.CollisionFilter{{CollisionSystems: []string{"props"}, NotCollideWithSystems: []string{"triggers"}}}
	d.WorldGravity = &scene.WorldGravity{Gravity: 9.81, Direction: [3]float64{0, -1, 0}}

	motion := func(t scene.MotionType, mass float64) *scene.Motion {
		m := scene.DefaultMotion(t)
		m.Mass = mass
		return &m
	}
	collider := func(s int) *scene.Collider {
		return &scene.Collider{Shape: s, PhysicsMaterial: -1, CollisionFilter: -1}
	}
	trigger := func(s int) *scene.Trigger { return &scene.Trigger{Shape: s, CollisionFilter: -1} }
	set := func(n int, b scene.Body) { d.Nodes[n].Body = &b }

	set(ground, scene.Body{Collider: collider(sGround)})
	set(crate, scene.Body{Motion: motion(scene.MotionDynamic, 20), Collider: collider(sCrate)})
	ballMotion := motion(scene.MotionDynamic, 2)
	ballMotion.LinearVelocity = [3]float64{2, 0, -1}
	ballMotion.AngularVelocity = [3]float64{0, 0, -4}
	ballCollider := collider(sBall)
	ballCollider.PhysicsMaterial, ballCollider.CollisionFilter = 0, 0
	set(ball, scene.Body{Motion: ballMotion, Collider: ballCollider})
	platMotion := motion(scene.MotionKinematic, 1)
	platMotion.AngularVelocity = [3]float64{0, 1, 0}
	set(platform, scene.Body{Motion: platMotion, Collider: collider(sCapsule)})
	set(cone, scene.Body{Motion: motion(scene.MotionStatic, 1), Collider: collider(sCone)})
	hullMotion := motion(scene.MotionDynamic, 5)
	hullMotion.CenterOfMass = [3]float64{0, 0.25, 0}
	set(hull, scene.Body{Motion: hullMotion, Collider: collider(sHull)})
	set(rampN, scene.Body{Collider: collider(sRamp)})
	set(bell, scene.Body{Motion: motion(scene.MotionDynamic, 8), Collider: collider(-1)})
	set(bellA, scene.Body{Collider: collider(sBell)})
	set(bellB, scene.Body{Collider: collider(sBell)})
	set(bar, scene.Body{Collider: collider(sBar)})
	set(checkpoint, scene.Body{Trigger: trigger(sTriggerBox)})
	set(finish, scene.Body{Trigger: &scene.Trigger{Shape: -1, Nodes: []int{finishA, finishB}, CollisionFilter: -1}})
	set(finishA, scene.Body{Trigger: trigger(sGate)})
	set(finishB, scene.Body{Trigger: trigger(sGate)})
	set(post, scene.Body{Motion: motion(scene.MotionStatic, 1), Collider: collider(sPost)})
	set(door, scene.Body{Motion: motion(scene.MotionDynamic, 10), Collider: collider(sDoor)})
	set(rounded, scene.Body{Motion: motion(scene.MotionDynamic, 15), Collider: collider(sRounded)})
	set(egg, scene.Body{Motion: motion(scene.MotionDynamic, 3), Collider: collider(sEgg)})
	set(gCone, scene.Body{Motion: motion(scene.MotionStatic, 1), Collider: collider(sGCone)})
	set(gCapsule, scene.Body{Motion: motion(scene.MotionDynamic, 4), Collider: collider(sGCapsule)})
	set(hillsN, scene.Body{Collider: collider(sHills)})
	set(probe, scene.Body{Trigger: trigger(sRay)})
	set(killPlane, scene.Body{Trigger: trigger(sPlane)})
	// The bracket's body has the motion, centred on its solid (the origin
	// is the middle of its base's underside); its colliders are the hulls.
	bracketMotion := motion(scene.MotionDynamic, 6)
	bracketMotion.CenterOfMass = centroid(bracketGeo)
	set(bracketN, scene.Body{Motion: bracketMotion})

	// One gravity volume of each type, each a base trigger.
	for i, n := range gravityNodes {
		t := scene.GravityTypes()[i]
		g := scene.DefaultGravity(t)
		ts := sGravityBox
		switch t {
		case scene.GravityDirectional:
			g.Gravity, g.Direction, g.Priority, g.Replace = 12, [3]float64{0, 1, 0}, 1, true
		case scene.GravityPoint:
			ts, g.UnitDistance = sGravitySphere, 1
		case scene.GravityDisc:
			g.Radius, g.UnitDistance = 0.8, 0
		case scene.GravityTorus:
			g.Radius = 0.8
		case scene.GravityLine:
			g.Points = [][3]float64{{0, -1, 0}, {0, 0.5, 0}, {0.8, 1.2, 0}}
		case scene.GravityShaped:
			g.Shape, g.Stop = sTarget, true
		}
		set(n, scene.Body{Trigger: trigger(ts)})
		d.Nodes[n].Gravity = &g
	}

	// A hinge about the joint node's X axis (world Y), +-70 degrees.
	d.Joints = []scene.JointSettings{{
		Limits: []scene.JointLimit{
			{LinearAxes: []int{0, 1, 2}, Min: 0, Max: 0, Stiffness: math.Inf(1)},
			{AngularAxes: []int{1, 2}, Min: 0, Max: 0, Stiffness: math.Inf(1)},
			{AngularAxes: []int{0}, Min: -1.22, Max: 1.22, Stiffness: math.Inf(1)},
		},
	}}
	d.Nodes[hinge].Joint = &scene.NodeJoint{Joint: 0, ConnectedNode: anchor}

	// The wheel: a hinge to the world about +Z and a velocity drive, made
	// as `viewer edit demo.glb "joint WHEEL world hinge axis=0,0,1"
	// "joint-drive WHEEL velocity=2 maxForce=50"` makes them.
	set(wheel, scene.Body{Motion: motion(scene.MotionDynamic, 3), Collider: collider(sWheel)})
	var jh scene.History
	wj, err := d.NewJointEdit(scene.NewJoint{A: wheel, B: -1, Type: scene.JointHinge, Axis: [3]float64{0, 0, 1}})
	if err != nil {
		return nil, fmt.Errorf("wheel: %w", err)
	}
	if _, err := jh.Do(d, wj); err != nil {
		return nil, fmt.Errorf("wheel: %w", err)
	}
	wheelJoint := len(d.GLTF.Nodes) - 2
	two := 2.0
	driven, err := d.Joints[d.Nodes[wheelJoint].Joint.Joint].WithDrive(scene.JointDrive{Type: "angular", Mode: "acceleration", Axis: 1, MaxForce: 50, VelocityTarget: &two, Damping: 10})
	if err != nil {
		return nil, fmt.Errorf("wheel: %w", err)
	}
	de, err := d.SetJointEdit(wheelJoint, driven, "Drive wheel")
	if err != nil {
		return nil, fmt.Errorf("wheel: %w", err)
	}
	if _, err := jh.Do(d, de); err != nil {
		return nil, fmt.Errorf("wheel: %w", err)
	}

	// Variants: Day uses the ordinary materials; Night and Gold swap the
	// crate's and the ball's; Iridescent shows the Khronos thin-film and
	// anisotropy materials.
	d.Variants = []scene.Variant{{Name: "Day"}, {Name: "Night"}, {Name: "Gold"}, {Name: "Iridescent"}}
	d.Primitives[scene.PrimitiveRef{Mesh: mCrate, Primitive: 0}] = &scene.PrimitiveVariants{Mappings: []scene.Mapping{
		{Material: 1, Variants: []int{0}}, {Material: 5, Variants: []int{1}}, {Material: 6, Variants: []int{2}},
	}}
	d.Primitives[scene.PrimitiveRef{Mesh: mBall, Primitive: 0}] = &scene.PrimitiveVariants{Mappings: []scene.Mapping{
		{Material: 7, Variants: []int{1}}, {Material: 6, Variants: []int{2}}, {Material: 9, Variants: []int{3}},
	}}
	// Iridescent: a thin film on the ball and the superellipsoid, brushed
	// steel on the platform.
	d.Primitives[scene.PrimitiveRef{Mesh: mEgg, Primitive: 0}] = &scene.PrimitiveVariants{Mappings: []scene.Mapping{
		{Material: 9, Variants: []int{3}},
	}}
	d.Primitives[scene.PrimitiveRef{Mesh: mCapsule, Primitive: 0}] = &scene.PrimitiveVariants{Mappings: []scene.Mapping{
		{Material: 10, Variants: []int{3}},
	}}

	// The bracket's compound: decomposed and fitted as the window's "Fit
	// compound of convex hulls" does it, one edit.
	res, err := d.DecomposeNode(context.Background(), bracketN, scene.CompoundOptions{MaxHulls: 8, MaxVertices: 16})
	if err != nil {
		return nil, err
	}
	fit, err := d.FitCompoundEdit(bracketN, scene.PartHulls(res.Parts))
	if err != nil {
		return nil, err
	}
	var h scene.History
	if _, err := h.Do(d, fit); err != nil {
		return nil, fmt.Errorf("bracket: %s: %w", fit.Name(), err)
	}

	if fs := d.Validate(); scene.HasErrors(fs) {
		return nil, fmt.Errorf("demo scene has errors: %v", fs)
	}
	files, err := d.Encode("demo.glb")
	if err != nil {
		return nil, err
	}
	return files[0].Data, nil
}
