package khr

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"physview/scene"
	"physview/scene/corecheck"
	"physview/scene/gltf21"
)

// validateKHR checks a document whose physics is in the Khronos drafts
// (KHR_implicit_shapes, KHR_physics_rigid_bodies): the rules the OMI
// dialect has, under KHR paths with KHR_ codes (shapes, physics materials,
// collision filters, bodies, compound triggers, joints and their limits and
// drives), and the drafts' own: degenerate shapes and collision systems no
// filter declares. What geometry names (neither or both of shape and mesh)
// is checked where it is read (khr_physics.go).
func validateKHR(d *scene.Document, fs *scene.Findings) {
	if !d.PhysicsDialect().KHRBodies() {
		return
	}
	shapes := shapesPath
	if d.PhysicsDialect() == scene.DialectGLTF21 {
		gltf21.Validate(d, fs, func(sub scene.Findings) scene.Findings {
			return withoutImplicitShapeFindings(d, sub, gltf21.ShapesBlock)
		})
		shapes = gltf21.ShapesBlock
	} else {
		var sub scene.Findings
		d.ValidateShapes(&sub, scene.DialectKHR)
		*fs = append(*fs, withoutImplicitShapeFindings(d, sub, shapesPath)...)
	}
	d.ValidateBodies(fs, scene.DialectKHR)
	d.ValidateJoints(fs, scene.DialectKHR)
	khrModelRules(d, fs) // the KHR fork's rules on the model (khr_fork.go)
	for i, s := range d.Shapes {
		if khrOf(d) != nil && khrOf(d).khrIndexOf(i) < 0 {
			continue // a mesh named by geometry, not a listed shape
		}
		p := fmt.Sprintf("%s/%d/%s", shapes, i, s.Type)
		switch s.Type {
		case scene.ShapeCapsule, scene.ShapeCylinder:
			// One radius 0 is a cone or a tapered capsule, which the draft
			// allows; a shape whose size sums to about nothing is not.
			if s.RadiusTop >= 0 && s.RadiusBottom >= 0 && s.Height >= 0 &&
				s.Height+s.RadiusTop+s.RadiusBottom < corecheck.UnitSumThresholdStep && (s.RadiusTop > 0 || s.RadiusBottom > 0) {
				fs.Warnf("KHR_DEGENERATE_SHAPE", p, "the %s's height and radii (%g, %g, %g) sum to almost nothing", s.Type, s.Height, s.RadiusTop, s.RadiusBottom)
			}
			if s.Type == scene.ShapeCapsule && s.Height == 0 {
				fs.Warnf("KHR_DEGENERATE_SHAPE", p+"/height", "a capsule of height 0 is a sphere; write a sphere")
			}
		}
	}
	declared := map[string]bool{}
	for _, c := range d.CollisionFilters {
		for _, s := range c.CollisionSystems {
			declared[s] = true
		}
	}
	for i, c := range d.CollisionFilters {
		for key, list := range map[string][]string{"collideWithSystems": c.CollideWithSystems, "notCollideWithSystems": c.NotCollideWithSystems} {
			for k, s := range list {
				if !declared[s] {
					fs.Warnf("KHR_COLLISION_SYSTEM_UNKNOWN", fmt.Sprintf("%s/%d/%s/%d", filtersPath, i, key, k), "collision system %q is in no filter's collisionSystems, so it matches nothing", s)
				}
			}
		}
		if len(c.CollisionSystems) > 1 {
			sorted := slices.Clone(c.CollisionSystems)
			slices.Sort(sorted)
			if len(slices.Compact(sorted)) != len(c.CollisionSystems) {
				fs.Warnf("KHR_COLLISION_SYSTEM_DUPLICATE", fmt.Sprintf("%s/%d/collisionSystems", filtersPath, i), "a collision system is listed twice")
			}
		}
	}
}

// khrIndexOf returns model shape s's index in KHR_implicit_shapes as read
// (shapes are read first, in order, then mesh geometry is appended), or -1
// for a shape made from geometry.mesh or geometry.node.
func (st *khrState) khrIndexOf(s int) int {
	if _, ok := st.geomNode[s]; ok {
		return -1
	}
	if st.meshShape[s] {
		return -1
	}
	return s
}

// withoutImplicitShapeFindings drops the model's range checks of the
// implicit shapes (box, sphere, capsule, cylinder, plane) under the list at
// shapes: the fork's rules check those (khrShapeSchema).
func withoutImplicitShapeFindings(d *scene.Document, fs scene.Findings, shapes string) scene.Findings {
	out := fs[:0]
	for _, f := range fs {
		if rest, ok := strings.CutPrefix(f.Path, shapes+"/"); ok {
			i, _, _ := strings.Cut(rest, "/")
			if n, err := strconv.Atoi(i); err == nil && n < len(d.Shapes) && isKHRShape(d.Shapes[n].Type) {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}
