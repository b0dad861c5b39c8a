package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// Simulation is what `viewer simulate` prints after running a scene: the
// clock, the gravity used and every dynamic body's final state.
type Simulation struct {
	Time     float64 // seconds simulated
	Steps    int     // steps taken
	StepSize float64 // seconds per step
	Gravity  [3]float64
	// DefaultGravity is true when the file has no world gravity and the
	// simulation used the default one.
	DefaultGravity bool
	Bodies         []BodyState
	// Joints are the played joints' final angles or positions.
	Joints []JointState
	// Hash is the digest of the final state (sim.Sim.Hash); Hashes the
	// digests every -hash-every steps ("" and nil when not asked for).
	Hash   string
	Hashes []StepHash
}

// JointState is one joint's final state: Angle (degrees) for a hinge and
// the joints whose frames turn, Position (m) for a slider or piston.
type JointState struct {
	Node     int      `json:"node"`
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Angle    *float64 `json:"angle,omitempty"`
	Position *float64 `json:"position,omitempty"`
}

// StepHash is the state's digest after a step.
type StepHash struct {
	Step int     `json:"step"`
	Time float64 `json:"time"`
	Hash string  `json:"hash"`
}

// BodyState is one dynamic body's final state; Rotation is a quaternion
// x, y, z, w.
type BodyState struct {
	Node            int        `json:"node"`
	Name            string     `json:"name"`
	Position        [3]float64 `json:"position"`
	Rotation        [4]float64 `json:"rotation"`
	LinearVelocity  [3]float64 `json:"linearVelocity"`
	AngularVelocity [3]float64 `json:"angularVelocity"`
}

// WriteJSON writes the gravity and the bodies as indented JSON (an empty
// list when there are none).
func (r Simulation) WriteJSON(w io.Writer) error {
	bodies := r.Bodies
	if bodies == nil {
		bodies = []BodyState{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Gravity        [3]float64   `json:"gravity"`
		DefaultGravity bool         `json:"defaultGravity"`
		Bodies         []BodyState  `json:"bodies"`
		Joints         []JointState `json:"joints,omitempty"`
		Hash           string       `json:"hash,omitempty"`
		Hashes         []StepHash   `json:"hashes,omitempty"`
	}{r.Gravity, r.DefaultGravity, bodies, r.Joints, r.Hash, r.Hashes})
}

// WriteText writes a line for the clock, one for the gravity and one per
// body.
func (r Simulation) WriteText(w io.Writer) {
	fmt.Fprintf(w, "t = %.4g s (%d steps of %.4g s), %d dynamic bodies\n", r.Time, r.Steps, r.StepSize, len(r.Bodies))
	g := r.Gravity
	source := "the file's world gravity"
	if r.DefaultGravity {
		source = "default: the file has no world gravity"
	}
	fmt.Fprintf(w, "gravity (%.6g, %.6g, %.6g) m/s² (%s)\n", g[0], g[1], g[2], source)
	for _, b := range r.Bodies {
		fmt.Fprintf(w, "node %d %q: position (%.4f, %.4f, %.4f) rotation (%.4f, %.4f, %.4f, %.4f) velocity (%.4f, %.4f, %.4f) angular (%.4f, %.4f, %.4f)\n",
			b.Node, b.Name, b.Position[0], b.Position[1], b.Position[2], b.Rotation[0], b.Rotation[1], b.Rotation[2], b.Rotation[3],
			b.LinearVelocity[0], b.LinearVelocity[1], b.LinearVelocity[2], b.AngularVelocity[0], b.AngularVelocity[1], b.AngularVelocity[2])
	}
	for _, j := range r.Joints {
		switch {
		case j.Angle != nil:
			fmt.Fprintf(w, "joint node %d %q (%s): angle %.3f°\n", j.Node, j.Name, j.Type, *j.Angle)
		case j.Position != nil:
			fmt.Fprintf(w, "joint node %d %q (%s): position %.4f m\n", j.Node, j.Name, j.Type, *j.Position)
		}
	}
	for _, h := range r.Hashes {
		fmt.Fprintf(w, "hash at step %d (t = %.6g s): %s\n", h.Step, h.Time, h.Hash)
	}
	if r.Hash != "" {
		fmt.Fprintf(w, "hash: %s\n", r.Hash)
	}
}

// Write writes the report as WriteJSON does when asJSON, else as
// WriteText does.
func (r Simulation) Write(w io.Writer, asJSON bool) error {
	if asJSON {
		return r.WriteJSON(w)
	}
	r.WriteText(w)
	return nil
}
