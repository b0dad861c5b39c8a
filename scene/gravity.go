package scene

// GravityType is the kind of a gravity field. The zero value means "not set".
type GravityType int

// Gravity types of OMI_physics_gravity.
const (
	GravityDirectional GravityType = iota + 1
	GravityPoint
	GravityDisc
	GravityTorus
	GravityLine
	GravityShaped
)

var gravityTypeNames = map[GravityType]string{
	GravityDirectional: "directional", GravityPoint: "point", GravityDisc: "disc",
	GravityTorus: "torus", GravityLine: "line", GravityShaped: "shaped",
}

// GravityTypes lists every gravity type, in a fixed order.
func GravityTypes() []GravityType {
	return []GravityType{GravityDirectional, GravityPoint, GravityDisc, GravityTorus, GravityLine, GravityShaped}
}

// String returns the name as written in OMI_physics_gravity.
func (t GravityType) String() string {
	if s, ok := gravityTypeNames[t]; ok {
		return s
	}
	return "unknown"
}

// ParseGravityType reads a gravity type name.
func ParseGravityType(s string) (GravityType, bool) {
	for k, v := range gravityTypeNames {
		if v == s {
			return k, true
		}
	}
	return 0, false
}

// WorldGravity is the document-level gravity: always directional.
type WorldGravity struct {
	// Gravity is the acceleration in m/s²; 0 and negative values are allowed.
	Gravity float64
	// Direction is the unit direction gravity pulls towards (default 0, -1, 0).
	Direction [3]float64
	Extra     Members
}

// Gravity is a node's gravity field. It acts inside the node's trigger
// shapes; the node must be a base trigger.
type Gravity struct {
	Type GravityType
	// Gravity is the acceleration in m/s² (at UnitDistance, for fields that
	// fall off). Negative values push away.
	Gravity float64
	// Priority orders overlapping fields, higher first; world gravity is last.
	Priority int
	// Replace discards what higher-priority fields added; Stop skips every
	// lower-priority field and the world gravity.
	Replace, Stop bool
	// Direction is the directional field's direction in node space (default 0, -1, 0).
	Direction [3]float64
	// UnitDistance is where a point/disc/torus/line/shaped field has its
	// full strength; 0 means constant, > 0 means inverse-square falloff.
	UnitDistance float64
	// Radius is the disc or torus circle radius in the node's XZ plane (default 1).
	Radius float64
	// Points are the line field's polyline vertices in node space.
	Points [][3]float64
	// Shape is the OMI_physics_shape index a shaped field pulls towards, -1 for none.
	Shape    int
	Extra    Members
	SubExtra Members
}

// DefaultGravity returns a field of type t with the spec defaults and 9.8 m/s².
func DefaultGravity(t GravityType) Gravity {
	return Gravity{Type: t, Gravity: 9.8, Direction: [3]float64{0, -1, 0}, Radius: 1, Shape: -1}
}
