package scene

import (
	"encoding/json"
	"fmt"
	"math"
)

// validateJointsIn checks the joint settings and joint nodes under the
// paths and codes of dialect pp.
func (d *Document) validateJointsIn(fs *findings, pp physicsPaths) {
	for i, j := range d.Joints {
		j.validate(fmt.Sprintf("%s/%d", pp.joints, i), fs, pp)
	}
	for i, ne := range d.Nodes {
		if j := ne.Joint; j != nil {
			d.validateJoint(i, j, pp.joint(i), fs, pp)
		}
	}
	d.validateJointRules(fs, pp) // joint_rules.go
}

func (d *Document) validateJoint(n int, j *NodeJoint, path string, fs *findings, pp physicsPaths) {
	if j.Joint < 0 || j.Joint >= len(d.Joints) {
		fs.errorf(pp.code("UNRESOLVED_REFERENCE"), path+"/joint", "joint settings %d do not exist (the file has %d)", j.Joint, len(d.Joints))
	}
	if j.ConnectedNode < 0 || j.ConnectedNode >= len(d.Nodes) {
		fs.errorf(pp.code("UNRESOLVED_REFERENCE"), path+"/connectedNode", "connected node %d does not exist (the file has %d nodes)", j.ConnectedNode, len(d.Nodes))
	} else if d.bodyNode(j.ConnectedNode) < 0 && pp.prefix != "KHR_" {
		// KHR reads a connected node outside every body as the world's
		// fixed frame; OMI wants a body (a static one for the world).
		fs.warnf(pp.code("JOINT_CONNECTED_NOT_BODY"), path+"/connectedNode", "connected %s is not part of any body", d.nodeRef(j.ConnectedNode))
	} else if b := d.bodyNode(n); b >= 0 && b == d.bodyNode(j.ConnectedNode) {
		// Both frames move with one body: the engines skip such a joint.
		fs.warnf(pp.code("JOINT_SAME_BODY"), path+"/connectedNode", "connected %s is part of the joint's own body %s: the joint joins the body to itself and does nothing", d.nodeRef(j.ConnectedNode), d.nodeRef(b))
	}
	if b := d.Nodes[n].Body; b != nil {
		fs.warnf(pp.code("JOINT_NODE_HAS_BODY"), path, "a joint node should not carry a body, collider or trigger of its own")
	}
	if d.bodyMotion(n) != MotionDynamic {
		dyn := false
		if j.ConnectedNode >= 0 && j.ConnectedNode < len(d.Nodes) {
			dyn = d.bodyMotion(j.ConnectedNode) == MotionDynamic
		}
		if !dyn {
			fs.warnf(pp.code("JOINT_NO_DYNAMIC_BODY"), path, "neither the joint node nor its connected node is part of a dynamic body, so the joint has nothing to move")
		}
	}
}

// JointSettings is one entry of the document-level
// OMI_physics_joint.physicsJoints array: the limits and drives a joint node uses.
type JointSettings struct {
	Limits []JointLimit
	Drives []JointDrive
	Extra  Members
}

// JointLimit constrains some axes of the joint frame to [Min, Max]
// (metres for linear axes, radians for angular axes).
type JointLimit struct {
	// LinearAxes and AngularAxes are subsets of {0, 1, 2} (X, Y, Z of the joint node).
	LinearAxes, AngularAxes []int
	// Min and Max default to -Inf and +Inf (free); Min = Max = 0 locks the axes.
	Min, Max float64
	// Stiffness is +Inf (a hard limit) when absent.
	Stiffness float64
	Damping   float64
	Extra     Members
}

// JointDrive is a motor on one axis.
type JointDrive struct {
	// Type is "linear" or "angular"; Mode is "force" or "acceleration".
	Type, Mode string
	Axis       int
	// MaxForce is +Inf when absent.
	MaxForce float64
	// PositionTarget and VelocityTarget are nil when the drive has none.
	PositionTarget, VelocityTarget *float64
	Stiffness, Damping             float64
	Extra                          Members
}

// NodeJoint is a node's OMI_physics_joint: the node is one attachment frame
// and ConnectedNode the other.
type NodeJoint struct {
	// Joint indexes Document.Joints.
	Joint           int
	ConnectedNode   int
	EnableCollision bool
	Extra           Members
}

func decodeJointSettings(raw json.RawMessage, path string, fs *findings) JointSettings {
	var j JointSettings
	r := newReader(raw, path, fs)
	if r == nil {
		return j
	}
	for i, lraw := range r.array("limits") {
		lp := r.at("limits") + "/" + itoa(i)
		l := JointLimit{Min: math.Inf(-1), Max: math.Inf(1), Stiffness: math.Inf(1)}
		lr := newReader(lraw, lp, fs)
		if lr == nil {
			continue
		}
		l.LinearAxes, _ = lr.indices("linearAxes")
		l.AngularAxes, _ = lr.indices("angularAxes")
		l.Min = lr.number("min", l.Min)
		l.Max = lr.number("max", l.Max)
		if s := lr.optNumber("stiffness"); s != nil && *s >= 0 {
			l.Stiffness = *s
		}
		l.Damping = lr.number("damping", 0)
		l.Extra = lr.rest()
		j.Limits = append(j.Limits, l)
	}
	for i, draw := range r.array("drives") {
		dp := r.at("drives") + "/" + itoa(i)
		dr := newReader(draw, dp, fs)
		if dr == nil {
			continue
		}
		for _, k := range []string{"type", "mode", "axis"} {
			if !dr.has(k) {
				fs.errorf("OMI_UNDEFINED_PROPERTY", dp+"/"+k, "drive needs %q", k)
			}
		}
		d := JointDrive{
			Type: dr.str("type", ""), Mode: dr.str("mode", ""), Axis: dr.index("axis", 0),
			MaxForce:       dr.number("maxForce", math.Inf(1)),
			PositionTarget: dr.optNumber("positionTarget"), VelocityTarget: dr.optNumber("velocityTarget"),
			Stiffness: dr.number("stiffness", 0), Damping: dr.number("damping", 0),
		}
		d.Extra = dr.rest()
		j.Drives = append(j.Drives, d)
	}
	j.Extra = r.rest()
	return j
}

func (j JointSettings) encode() json.RawMessage {
	var w writer
	limits := make([]json.RawMessage, 0, len(j.Limits))
	for _, l := range j.Limits {
		var lw writer
		if l.LinearAxes != nil {
			lw.set("linearAxes", l.LinearAxes)
		}
		if l.AngularAxes != nil {
			lw.set("angularAxes", l.AngularAxes)
		}
		lw.finite("min", l.Min)
		lw.finite("max", l.Max)
		lw.finite("stiffness", l.Stiffness)
		lw.set("damping", l.Damping)
		lw.rest(l.Extra)
		limits = append(limits, lw.bytes())
	}
	// An empty array is left out: KHR forbids it (EMPTY_ENTITY) and both
	// drafts read a missing one as empty.
	if len(limits) > 0 {
		w.set("limits", limits)
	}
	drives := make([]json.RawMessage, 0, len(j.Drives))
	for _, d := range j.Drives {
		var dw writer
		dw.set("type", d.Type)
		dw.set("mode", d.Mode)
		dw.set("axis", d.Axis)
		dw.finite("maxForce", d.MaxForce)
		if d.PositionTarget != nil {
			dw.set("positionTarget", *d.PositionTarget)
		}
		if d.VelocityTarget != nil {
			dw.set("velocityTarget", *d.VelocityTarget)
		}
		dw.set("stiffness", d.Stiffness)
		dw.set("damping", d.Damping)
		dw.rest(d.Extra)
		drives = append(drives, dw.bytes())
	}
	if len(drives) > 0 {
		w.set("drives", drives)
	}
	w.rest(j.Extra)
	return w.bytes()
}

func (j JointSettings) validate(path string, fs *findings, pp physicsPaths) {
	for i, l := range j.Limits {
		lp := path + "/limits/" + itoa(i)
		if len(l.LinearAxes) == 0 && len(l.AngularAxes) == 0 {
			fs.errorf(pp.code("JOINT_LIMIT_NO_AXES"), lp, "limit names no axes: set linearAxes or angularAxes")
		}
		for _, axes := range [][]int{l.LinearAxes, l.AngularAxes} {
			for _, a := range axes {
				if a < 0 || a > 2 {
					fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), lp, "axis %d must be 0, 1 or 2", a)
				}
			}
		}
		if l.Min > l.Max {
			fs.errorf(pp.invalidRangeCode(), lp, "min %g is greater than max %g", l.Min, l.Max)
		}
		if l.Damping < 0 {
			fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), lp+"/damping", "damping %g must not be negative", l.Damping)
		}
	}
	for i, d := range j.Drives {
		dp := path + "/drives/" + itoa(i)
		if d.Type != "linear" && d.Type != "angular" {
			fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), dp+"/type", "drive type %q must be linear or angular", d.Type)
		}
		if d.Mode != "force" && d.Mode != "acceleration" {
			fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), dp+"/mode", "drive mode %q must be force or acceleration", d.Mode)
		}
		if d.Axis < 0 || d.Axis > 2 {
			fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), dp+"/axis", "drive axis %d must be 0, 1 or 2", d.Axis)
		}
		if d.MaxForce < 0 || d.Stiffness < 0 || d.Damping < 0 {
			fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), dp, "maxForce, stiffness and damping must not be negative")
		}
	}
}

func decodeNodeJoint(raw json.RawMessage, path string, fs *findings) *NodeJoint {
	r := newReader(raw, path, fs)
	if r == nil {
		return nil
	}
	for _, k := range []string{"joint", "connectedNode"} {
		if !r.has(k) {
			fs.errorf("OMI_UNDEFINED_PROPERTY", path+"/"+k, "joint node needs %q", k)
		}
	}
	j := &NodeJoint{Joint: r.index("joint", -1), ConnectedNode: r.index("connectedNode", -1), EnableCollision: r.boolean("enableCollision", false)}
	j.Extra = r.rest()
	return j
}

func (j *NodeJoint) encode() json.RawMessage {
	var w writer
	w.set("joint", j.Joint)
	w.ref("connectedNode", j.ConnectedNode)
	w.set("enableCollision", j.EnableCollision)
	w.rest(j.Extra)
	return w.bytes()
}
