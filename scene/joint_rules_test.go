package scene

import (
	"strings"
	"testing"
)

// omiJointDoc is an OMI document with a dynamic box (node 0), its joint
// frame (node 1, connected to node 2, a static box) and the given joint
// settings (raw JSON).
func omiJointDoc(settings string) []byte {
	return []byte(`{"asset":{"version":"2.0"},"extensionsUsed":["OMI_physics_shape","OMI_physics_body","OMI_physics_joint"],` +
		`"extensions":{"OMI_physics_shape":{"shapes":[{"type":"box","box":{"size":[1,1,1]}}]},"OMI_physics_joint":{"physicsJoints":[` + settings + `]}},` +
		`"nodes":[{"children":[1],"extensions":{"OMI_physics_body":{"motion":{"type":"dynamic"},"collider":{"shape":0}}}},` +
		`{"extensions":{"OMI_physics_joint":{"joint":0,"connectedNode":2}}},` +
		`{"translation":[0,2,0],"extensions":{"OMI_physics_body":{"motion":{"type":"static"},"collider":{"shape":0}}}}],` +
		`"scenes":[{"nodes":[0,2]}],"scene":0}`)
}

// TestJointRules checks each joint rule in both dialects at its boundary:
// settings that keep it give no finding of its code, settings that break
// it give it at its path.
func TestJointRules(t *testing.T) {
	hinge := `{"linearAxes":[0,1,2],"min":0,"max":0},{"angularAxes":[0,2],"min":0,"max":0}`
	cases := []struct {
		name, settings, code, path string // code without its OMI_/KHR_ prefix unless it is a Khronos one
		want                       bool
	}{
		{"hinge_ok", `{"limits":[` + hinge + `,{"angularAxes":[1],"min":0,"max":1}]}`, "JOINT_AXIS_LIMITED_TWICE", "", false},
		{"limited_twice", `{"limits":[` + hinge + `,{"angularAxes":[0],"min":0,"max":1}]}`, "JOINT_AXIS_LIMITED_TWICE", "/limits/2/angularAxes/0", true},
		{"empty", `{}`, "JOINT_SETTINGS_EMPTY", "", true},
		{"unbounded", `{"limits":[{"linearAxes":[1]}]}`, "JOINT_LIMIT_UNBOUNDED", "/limits/0", true},
		{"bounded_one_side", `{"limits":[{"linearAxes":[1],"max":1}]}`, "JOINT_LIMIT_UNBOUNDED", "", false},
		{"drive_ok", `{"limits":[` + hinge + `],"drives":[{"type":"angular","mode":"force","axis":1,"velocityTarget":1,"damping":1}]}`, "JOINT_DRIVE_LOCKED_AXIS", "", false},
		{"drive_locked", `{"limits":[` + hinge + `],"drives":[{"type":"angular","mode":"force","axis":0,"velocityTarget":1,"damping":1}]}`, "JOINT_DRIVE_LOCKED_AXIS", "/drives/0", true},
		{"drive_twice", `{"drives":[{"type":"linear","mode":"force","axis":2,"velocityTarget":1,"damping":1},{"type":"linear","mode":"force","axis":2,"positionTarget":1,"stiffness":1}]}`, "JOINT_DRIVE_TWICE", "/drives/1", true},
		{"drive_no_target", `{"drives":[{"type":"linear","mode":"force","axis":2,"damping":1}]}`, "JOINT_DRIVE_NO_TARGET", "/drives/0", true},
		{"drive_no_stiffness", `{"drives":[{"type":"linear","mode":"force","axis":2,"positionTarget":1}]}`, "JOINT_DRIVE_NO_GAIN", "/drives/0/stiffness", true},
		{"drive_no_damping", `{"drives":[{"type":"linear","mode":"force","axis":2,"velocityTarget":1}]}`, "JOINT_DRIVE_NO_GAIN", "/drives/0/damping", true},
		{"drive_no_force", `{"drives":[{"type":"linear","mode":"force","axis":2,"velocityTarget":1,"damping":1,"maxForce":0}]}`, "JOINT_DRIVE_NO_GAIN", "/drives/0/maxForce", true},
	}
	for _, dialect := range []string{"OMI", "KHR"} {
		for _, c := range cases {
			t.Run(dialect+"/"+c.name, func(t *testing.T) {
				data := omiJointDoc(c.settings)
				base := "/extensions/OMI_physics_joint/physicsJoints/0"
				if dialect == "KHR" {
					data = khrDoc(`{"type":"box","box":{"size":[1,1,1]}}`, `"physicsJoints":[`+c.settings+`]`,
						body(`{"motion":{"mass":1},"collider":{"geometry":{"shape":0}},"joint":{"connectedNode":0,"joint":0}}`))
					base = "/extensions/KHR_physics_rigid_bodies/physicsJoints/0"
				}
				d, err := Decode(data, nil)
				if err != nil {
					t.Fatal(err)
				}
				code := dialect + "_" + c.code
				got := false
				for _, f := range d.Findings() {
					if f.Code == code && (c.path == "" || f.Path == base+c.path) {
						got = true
					}
				}
				if got != c.want {
					t.Errorf("%s at %q: found %v, want %v; findings:\n%v", code, base+c.path, got, c.want, d.Findings())
				}
			})
		}
	}
}

// TestJointRulesKHRSchema: KHR's schema rules on limits, with the codes
// the Khronos validator's fork gives them.
func TestJointRulesKHRSchema(t *testing.T) {
	cases := []struct{ limit, code, path string }{
		{`{"linearAxes":[0],"angularAxes":[1],"min":0,"max":0}`, "ONE_OF_MISMATCH", "/limits/0"},
		{`{"linearAxes":[0,0],"min":0,"max":0}`, "DUPLICATE_ELEMENTS", "/limits/0/linearAxes/1"},
		{`{"linearAxes":[0],"min":2,"max":-2}`, "KHR_RIGID_BODIES_JOINT_INVALID_RANGE", "/limits/0"},
	}
	for _, c := range cases {
		data := khrDoc(`{"type":"box","box":{"size":[1,1,1]}}`, `"physicsJoints":[{"limits":[`+c.limit+`]}]`,
			body(`{"motion":{"mass":1},"collider":{"geometry":{"shape":0}},"joint":{"connectedNode":0,"joint":0}}`))
		d, err := Decode(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := "/extensions/KHR_physics_rigid_bodies/physicsJoints/0" + c.path
		var got []string
		for _, f := range d.Findings() {
			if f.Code == c.code && f.Path == want && f.Severity == Error {
				got = append(got, f.Message)
			}
		}
		if len(got) != 1 {
			t.Errorf("%s: %d errors %s at %s; findings: %v", c.limit, len(got), c.code, want, d.Findings())
		}
		// In OMI a limit may name both kinds (the OMI weld example does).
		if c.code == "ONE_OF_MISMATCH" {
			od, err := Decode(omiJointDoc(`{"limits":[`+c.limit+`]}`), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range od.Findings() {
				if f.Severity >= Warning && !strings.Contains(f.Code, "NO_DYNAMIC") {
					t.Errorf("OMI limit with both kinds: %v", f)
				}
			}
		}
	}
}
