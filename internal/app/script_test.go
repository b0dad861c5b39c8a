package app

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"physview/scene"
)

func TestSplitCommands(t *testing.T) {
	tests := []struct {
		words []string
		want  [][]string
		err   string
	}{
		{[]string{"fit", "Crate", "box", "shape", "Ball", "radius=0.35", "size=1,1,1", "gravity", "0,-9.81,0"},
			[][]string{{"fit", "Crate", "box"}, {"shape", "Ball", "radius=0.35", "size=1,1,1"}, {"gravity", "0,-9.81,0"}}, ""},
		// A node called like a command is taken by position.
		{[]string{"rename", "fit", "shape", "remove-collider", "rename"},
			[][]string{{"rename", "fit", "shape"}, {"remove-collider", "rename"}}, ""},
		{[]string{"motion", "A", "dynamic;", "motion", "B", "static", ";", "rename", "C", "D;"},
			[][]string{{"motion", "A", "dynamic"}, {"motion", "B", "static"}, {"rename", "C", "D"}}, ""},
		{[]string{"rename", "A", ";", "gravity", "0,0,0"}, nil, "usage: rename NODE NEW"},
		{[]string{"frobnicate", "A"}, nil, `unknown command "frobnicate"`},
		// A command quoted as one word, as many users type it.
		{[]string{"fit Chair compound"}, [][]string{{"fit", "Chair", "compound"}}, ""},
		{[]string{"fit Chair box; rename Chair Seat", "gravity", "0,-9.81,0"},
			[][]string{{"fit", "Chair", "box"}, {"rename", "Chair", "Seat"}, {"gravity", "0,-9.81,0"}}, ""},
		{[]string{"fit  Chair\tcompound max=4"}, [][]string{{"fit", "Chair", "compound", "max=4"}}, ""},
		// A quoted word in an argument's place stays one word (a name with spaces).
		{[]string{"rename", "Dumbbell end A", "shape 1"}, [][]string{{"rename", "Dumbbell end A", "shape 1"}}, ""},
		{[]string{"rename A; gravity 0,0,0"}, nil, "usage: rename NODE NEW"},
		{[]string{"frobnicate A B"}, nil, `unknown command "frobnicate"`},
	}
	for _, tc := range tests {
		got, err := SplitCommands(tc.words)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: err %v, want %q", tc.words, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: %q, %v; want %q", tc.words, got, err, tc.want)
		}
	}
}

// TestEditCommandKinds: an entry with a Kind takes the commands whose word
// after NODE is that kind; the others keep the plain entry. Each command
// is one undo step.
func TestEditCommandKinds(t *testing.T) {
	saved := editCommands
	t.Cleanup(func() { editCommands = saved })
	var got []string
	RegisterEditCommand(EditCommand{Name: "fit", Kind: "blob", Usage: "fit NODE blob [max=N]", Args: 2,
		Edit: func(s *Session, args []string) (scene.Edit, error) {
			got = append(got, strings.Join(args, " "))
			return scene.SetNodeName{Node: 0, To: "blobbed"}, nil
		}})
	s := New()
	s.OpenDemo()
	cmds, err := SplitCommands([]string{"fit", "Crate (dynamic box)", "blob", "max=4", "fit", "0", "sphere"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if err := s.RunCommand(c); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(got, "|") != "Crate (dynamic box) blob max=4" || s.Hist.Len() != 2 || s.Doc.GLTF.Nodes[0].Name != "blobbed" {
		t.Errorf("blob entry got %q; %d steps", got, s.Hist.Len())
	}
	err = s.RunCommand([]string{"fit", "Nobody", "box"})
	var ce *CommandError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), `"fit Nobody box": no node is called "Nobody"`) || s.Hist.Len() != 2 {
		t.Errorf("bad node: %v", err)
	}
}

// TestMotionMassZero: `motion NODE dynamic mass=0` is refused in an OMI
// document (no engine moves a body of no mass) and taken in a KHR one,
// where a mass of 0 is infinite.
func TestMotionMassZero(t *testing.T) {
	for _, c := range []struct {
		dialect scene.PhysicsDialect
		ok      bool
	}{{scene.DialectOMI, false}, {scene.DialectKHR, true}} {
		s := New()
		s.OpenDemo()
		if c.dialect == scene.DialectKHR {
			s.Doc.SetPhysicsDialect(c.dialect)
		}
		err := s.RunCommand([]string{"motion", "Crate (dynamic box)", "dynamic", "mass=0"})
		if (err == nil) != c.ok {
			t.Errorf("dialect %v: %v; want accepted %v", c.dialect, err, c.ok)
		}
		if !c.ok && !strings.Contains(fmt.Sprint(err), "a dynamic body needs a mass above 0") {
			t.Errorf("dialect %v: %v", c.dialect, err)
		}
		n, _ := FindNode(s.Doc, "Crate (dynamic box)")
		if got := s.Doc.Nodes[n].Body.Motion.Mass; (got == 0) != c.ok {
			t.Errorf("dialect %v: mass %v after the command", c.dialect, got)
		}
	}
}
