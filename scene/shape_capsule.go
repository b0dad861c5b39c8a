package scene

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The capsule and the cylinder: Height and the radii at +Y and -Y. They
// share how they are read (with the pre-2025 single-radius forms), written,
// validated and checked; they differ in what Height means (a capsule's mid
// height, a cylinder's full height) and in their geometry.
func init() {
	registerShapeKind(ShapeCapsule, shapeKind{
		name: "capsule",
		defaults: func(s *Shape) {
			s.Height, s.RadiusTop, s.RadiusBottom = 1, 0.5, 0.5
		},
		decode:   decodeRoundParams,
		encode:   encodeRoundParams,
		validate: validateRoundParams,
		check:    checkRoundParams,
		params: func(s Shape) string {
			return fmt.Sprintf("mid height %g, radius top %g, bottom %g (full height %g)", s.Height, s.RadiusTop, s.RadiusBottom, s.FullHeight())
		},
		distance: func(s Shape, p, _, _ mgl64.Vec3) float64 {
			return roundConeDistance(p, s.Height, s.RadiusBottom, s.RadiusTop)
		},
		bounds: func(s Shape, _, _ mgl64.Vec3) (lo, hi mgl64.Vec3) {
			r := math.Max(s.RadiusTop, s.RadiusBottom)
			return mgl64.Vec3{-r, -s.Height/2 - s.RadiusBottom, -r}, mgl64.Vec3{r, s.Height/2 + s.RadiusTop, r}
		},
		halfExtents: roundHalfExtents,
		fromExtents: func(out *Shape, h [3]float64) {
			r := math.Max(h[0], h[2])
			out.RadiusTop, out.RadiusBottom = r, r
			out.Height = math.Max(0, 2*h[1]-2*r)
		},
		fitSize: func(s *Shape, size mgl64.Vec3) {
			r := fitMin(math.Max(size[0], size[2]) / 2)
			s.RadiusTop, s.RadiusBottom = r, r
			s.Height = math.Max(size[1]-2*r, 0)
		},
		general: func(s Shape) (General, bool) {
			if s.RadiusTop == s.RadiusBottom {
				r := s.RadiusTop
				return General{Size: [3]float64{0, s.Height, 0}, Curves: []Curve{{Radii: [3]float64{r, r, r}, Exponent: 2}}}, true
			}
			rt, rb, h := s.RadiusTop, s.RadiusBottom, s.Height/2
			avg := (rt + rb) / 2
			return General{Size: [3]float64{0, s.Height, 0}, Curves: []Curve{{Radii: [3]float64{avg, avg, avg}, Exponent: 2, Taper: []Taper{
				{Position: [3]float64{0, h, 0}, Radii: [3]float64{rt, rt, rt}},
				{Position: [3]float64{0, -h, 0}, Radii: [3]float64{rb, rb, rb}},
			}}}}, true
		},
	})
	registerShapeKind(ShapeCylinder, shapeKind{
		name: "cylinder",
		defaults: func(s *Shape) {
			s.Height, s.RadiusTop, s.RadiusBottom = 2, 0.5, 0.5
		},
		decode:   decodeRoundParams,
		encode:   encodeRoundParams,
		validate: validateRoundParams,
		check:    checkRoundParams,
		params: func(s Shape) string {
			return fmt.Sprintf("height %g, radius top %g, bottom %g", s.Height, s.RadiusTop, s.RadiusBottom)
		},
		distance: func(s Shape, p, _, _ mgl64.Vec3) float64 {
			return coneDistance(p, s.Height, s.RadiusBottom, s.RadiusTop)
		},
		bounds: func(s Shape, _, _ mgl64.Vec3) (lo, hi mgl64.Vec3) {
			r := math.Max(s.RadiusTop, s.RadiusBottom)
			return mgl64.Vec3{-r, -s.Height / 2, -r}, mgl64.Vec3{r, s.Height / 2, r}
		},
		halfExtents: roundHalfExtents,
		fromExtents: func(out *Shape, h [3]float64) {
			r := math.Max(h[0], h[2])
			out.RadiusTop, out.RadiusBottom = r, r
			out.Height = 2 * h[1]
		},
		fitSize: func(s *Shape, size mgl64.Vec3) {
			r := fitMin(math.Max(size[0], size[2]) / 2)
			s.RadiusTop, s.RadiusBottom = r, r
			s.Height = fitMin(size[1])
		},
		general: func(s Shape) (General, bool) {
			if s.RadiusTop == s.RadiusBottom {
				r := s.RadiusTop
				return General{Size: [3]float64{0, s.Height, 0}, Curves: []Curve{{Radii: [3]float64{r, 0, r}, Exponent: 2}}}, true
			}
			rt, rb, h := s.RadiusTop, s.RadiusBottom, s.Height/2
			avg := (rt + rb) / 2
			return General{Size: [3]float64{0, s.Height, 0}, Curves: []Curve{{Radii: [3]float64{avg, 0, avg}, Exponent: 2, Taper: []Taper{
				{Position: [3]float64{0, h, 0}, Radii: [3]float64{rt, 0, rt}},
				{Position: [3]float64{0, -h, 0}, Radii: [3]float64{rb, 0, rb}},
			}}}}, true
		},
	})
}

// FullHeight returns the extent of a capsule or cylinder along Y.
func (s Shape) FullHeight() float64 {
	if s.Type == ShapeCapsule {
		return s.Height + s.RadiusTop + s.RadiusBottom
	}
	return s.Height
}

func decodeRoundParams(s *Shape, p *reader, path string, fs *findings, collider bool) {
	t := s.Type
	single, hasSingle := p.optNumber("radius"), p.has("radius")
	hasNew := p.has("radiusTop") || p.has("radiusBottom")
	fallback := 0.5
	if single != nil {
		fallback = *single
	}
	s.RadiusTop = p.number("radiusTop", fallback)
	s.RadiusBottom = p.number("radiusBottom", fallback)
	legacyCapsule := t == ShapeCapsule && (collider || (hasSingle && !hasNew))
	if legacyCapsule {
		full := p.number("height", 2)
		mid := RoundSig(full-s.RadiusTop-s.RadiusBottom, 12)
		if mid < 0 {
			fs.warnf("OMI_LEGACY_FORM", p.at("height"), "legacy capsule full height %g is less than twice the radius %g; the straight part is taken as 0", full, *ptrOr(single, s.RadiusTop))
			mid = 0
		}
		s.Height = mid
		if !collider {
			fs.infof("OMI_LEGACY_FORM", path, "pre-2025 capsule (single radius, full height %g) read as mid height %g", full, mid)
		}
	} else {
		s.Height = p.number("height", s.Height)
		if hasSingle && !hasNew {
			fs.infof("OMI_LEGACY_FORM", p.at("radius"), "legacy single radius read as radiusTop and radiusBottom")
		}
	}
}

func encodeRoundParams(s Shape, p *writer) {
	p.set("height", s.Height)
	p.set("radiusBottom", s.RadiusBottom)
	p.set("radiusTop", s.RadiusTop)
}

func validateRoundParams(s Shape, sub string, fs *findings, _ int) {
	if s.Type == ShapeCylinder && s.Height <= 0 {
		fs.errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/height", "cylinder height %g must be greater than 0", s.Height)
	}
	if s.Type == ShapeCapsule && s.Height < 0 {
		fs.errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/height", "capsule height %g must not be negative", s.Height)
	}
	if s.RadiusTop < 0 || s.RadiusBottom < 0 || (s.RadiusTop == 0 && s.RadiusBottom == 0) {
		fs.errorf("OMI_VALUE_NOT_IN_RANGE", sub, "radii (top %g, bottom %g) must not be negative and not both 0", s.RadiusTop, s.RadiusBottom)
	}
	if s.RadiusTop != s.RadiusBottom {
		fs.infof("OMI_TAPERED_SHAPE", sub, "tapered %s (radiusTop %g, radiusBottom %g): some engines average the radii", s.Type, s.RadiusTop, s.RadiusBottom)
	}
}

func checkRoundParams(s Shape, _ int) error {
	if err := checkPositive(s, "height", s.Height, s.Type == ShapeCapsule); err != nil {
		return err
	}
	if err := checkPositive(s, "top radius", s.RadiusTop, true); err != nil {
		return err
	}
	if err := checkPositive(s, "bottom radius", s.RadiusBottom, true); err != nil {
		return err
	}
	if s.RadiusTop == 0 && s.RadiusBottom == 0 {
		return fmt.Errorf("%s radii must not both be 0", s.Type)
	}
	return nil
}

func roundHalfExtents(s Shape) [3]float64 {
	r := math.Max(s.RadiusTop, s.RadiusBottom)
	return [3]float64{r, s.FullHeight() / 2, r}
}
