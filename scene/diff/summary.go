package diff

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strings"

	"physview/scene"
)

// WriteSummary writes document d as canonical text, one part a line, in
// an order and a form that do not depend on how the file is written:
// nodes by their name path in tree order, values as decoded numbers,
// geometry as counts, bounds and a hash of the drawn positions, images as
// a hash of their bytes. It is what git's textconv diffs (docs/diff.md),
// so a line diff of two summaries reads as a change list.
func WriteSummary(w io.Writer, d *scene.Document) error {
	c := newComparer(d, d)
	s := c.b
	bw := &errWriter{w: w}
	bw.printf("physview summary: %d nodes, %d meshes, %d materials, %d images, %d animations; physics %s\n",
		len(d.GLTF.Nodes), len(d.GLTF.Meshes), len(d.GLTF.Materials), len(d.GLTF.Images), len(d.GLTF.Animations), strings.ToUpper(d.PhysicsDialect().String()))
	if g := d.WorldGravity; g != nil {
		bw.printf("world gravity %s m/s² towards %s\n", num(g.Gravity), nums(g.Direction[:]))
	}
	var walk func(n int, path string)
	walk = func(n int, path string) {
		path += "/" + d.NodeName(n)
		node := d.GLTF.Nodes[n]
		t := d.NodeTransform(n)
		line := "node " + path
		if node.Mesh != nil {
			line += " mesh " + meshName(d, *node.Mesh)
		}
		if t.Translation != [3]float64{} {
			line += " translation " + nums(t.Translation[:])
		}
		if t.Rotation != [4]float64{0, 0, 0, 1} {
			line += " rotation " + nums(t.Rotation[:])
		}
		if t.Scale != [3]float64{1, 1, 1} {
			line += " scale " + nums(t.Scale[:])
		}
		if rest := c.nodeRest(s, n); len(rest) > 0 {
			line += " " + showValue(rest)
		}
		bw.printf("%s\n", line)
		if m := motionOf(d, n); m != nil {
			bw.printf("  motion %s, center of mass %s, inertia %s, gravity factor %s\n", motionText(m), nums(m.CenterOfMass[:]), nums(m.InertiaDiagonal[:]), num(m.GravityFactor))
		}
		if col := colliderOf(d, n); col != nil {
			bw.printf("  collider %s, material %s, filter %s\n", c.shapeText(s, col.Shape), c.materialKey(s, col.PhysicsMaterial), c.filterKey(s, col.CollisionFilter))
		}
		if tr := triggerOf(d, n); tr != nil {
			bw.printf("  trigger %s\n", c.triggerText(s, tr))
		}
		if g := d.Nodes[n].Gravity; g != nil {
			bw.printf("  gravity field %s\n", showValue(c.gravityPlain(s, g)))
		}
		if j := d.Nodes[n].Joint; j != nil {
			bw.printf("  joint %s %s\n", c.jointText(s, n, j), showValue(jointPlain(d, j)))
		}
		for _, ch := range s.children[n] {
			walk(ch, path)
		}
	}
	for _, r := range s.roots() {
		walk(r, "")
	}
	for m, mesh := range d.GLTF.Meshes {
		for p, prim := range mesh.Primitives {
			g := readGeom(d, m, p)
			if g.err != nil {
				bw.printf("mesh %s primitive %d: %v\n", meshName(d, m), p, g.err)
				continue
			}
			bw.printf("mesh %s primitive %d: %s, %s, %d corners drawn, bounds %s, material %s, positions %s\n",
				meshName(d, m), p, g.encoding, counts(g), len(g.corners), bounds(g), matName(d, optInt(prim.Material)), cornerHash(g.corners))
		}
	}
	for i := range d.GLTF.Materials {
		m, _ := c.materialJSON(s, i).(map[string]any)
		delete(m, "name")
		bw.printf("material %s %s\n", matName(d, i), showValue(m))
	}
	for i := range d.GLTF.Images {
		hash := s.imageHash(i)
		if len(hash) > 16 {
			hash = hash[:16]
		}
		bw.printf("image %s sha256 %s\n", imageName(d, i), hash)
	}
	for i, a := range d.GLTF.Animations {
		bw.printf("animation %s: %d channels\n", animName(d, i), len(a.Channels))
		for k := range a.Channels {
			_, text := c.channelTarget(s, i, k)
			bw.printf("  channel %s\n", text)
		}
	}
	for _, v := range d.Variants {
		bw.printf("variant %q\n", v.Name)
	}
	return bw.err
}

// cornerHash hashes drawn positions rounded to Tolerance, so a re-encode
// within it keeps the hash (most of the time: a value on a rounding edge
// may flip).
func cornerHash(c [][3]float32) string {
	h := sha256.New()
	var b [8]byte
	for _, v := range canonicalTriangles(c) {
		for _, x := range v {
			binary.LittleEndian.PutUint64(b[:], uint64(int64(math.Round(float64(x)/Tolerance/10))))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
