package app

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"physview/scene"
)

// EditCommand is one command of `viewer edit`: it turns its words into
// one undoable edit of the session's document. The commands live in one
// table (EditCommands); a new command, or a new kind of an existing one
// (`fit NODE compound`), is one more entry.
type EditCommand struct {
	// Name is the command word ("fit").
	Name string
	// Kind, when set, is the word after NODE that selects this entry over
	// the one with no Kind ("fit NODE compound").
	Kind string
	// Usage is the command's line in the help ("fit NODE box|sphere|...").
	Usage string
	// Args is how many words follow the command word before its options
	// (KEY=VALUE words, which may follow in any number).
	Args int
	// OptArgs is how many more positional words the command may take
	// (`joint-limit A [AXIS] MIN,MAX`): each is taken while it is not a
	// command word or an option.
	OptArgs int
	// Edit builds the edit from the words after the command word
	// (Args positional words, then the options).
	Edit func(s *Session, args []string) (scene.Edit, error)
	// Note, when set, is what the command says after its edit is applied
	// ("" for nothing): what the edit did that the user may not expect
	// (a shared shape's other nodes changed with it).
	Note func(s *Session, args []string) string
}

var editCommands []EditCommand

// RegisterEditCommand adds c to the table; an entry with the same Name and
// Kind replaces the earlier one.
func RegisterEditCommand(c EditCommand) {
	for i, o := range editCommands {
		if o.Name == c.Name && o.Kind == c.Kind {
			editCommands[i] = c
			return
		}
	}
	editCommands = append(editCommands, c)
}

// EditCommands lists the table in registration order.
func EditCommands() []EditCommand { return append([]EditCommand(nil), editCommands...) }

// lookupCommand finds the entry for name whose Kind is the word kind, else
// the one with no Kind.
func lookupCommand(name, kind string) (EditCommand, bool) {
	var plain *EditCommand
	for i, c := range editCommands {
		if c.Name != name {
			continue
		}
		if c.Kind != "" && c.Kind == kind {
			return c, true
		}
		if c.Kind == "" {
			plain = &editCommands[i]
		}
	}
	if plain != nil {
		return *plain, true
	}
	return EditCommand{}, false
}

// CommandError is a command of a script that could not be read or applied.
type CommandError struct {
	// Words are the command as given.
	Words []string
	Err   error
}

// Error names the command and what is wrong with it.
func (e *CommandError) Error() string {
	return fmt.Sprintf("%q: %v", strings.Join(e.Words, " "), e.Err)
}

// Unwrap returns what was wrong.
func (e *CommandError) Unwrap() error { return e.Err }

// SplitCommands splits words into commands: each starts with a command
// word and takes its entry's Args words, then any KEY=VALUE options. A
// word ";" (or a word ending in ";") also ends a command.
func SplitCommands(words []string) ([][]string, error) {
	var groups [][]string
	var cur []string
	for _, w := range words {
		end := strings.HasSuffix(w, ";")
		if w = strings.TrimSuffix(w, ";"); w != "" {
			cur = append(cur, w)
		}
		if end && len(cur) > 0 {
			groups, cur = append(groups, cur), nil
		}
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	var out [][]string
	for _, g := range groups {
		for i := 0; i < len(g); {
			if g[i] == ";" {
				i++
				continue
			}
			c, ok := lookupCommand(g[i], "")
			if !ok && strings.ContainsAny(g[i], " \t") {
				// A whole command quoted as one word ("fit Chair compound"),
				// as many users type it: its words, in its place.
				words := strings.Fields(strings.ReplaceAll(g[i], ";", " ; "))
				g = append(append(append([]string(nil), g[:i]...), words...), g[i+1:]...)
				continue
			}
			if !ok {
				return nil, &CommandError{Words: g[i:], Err: fmt.Errorf("unknown command %q (the commands are %s)", g[i], commandNames())}
			}
			j := i + 1 + c.Args
			if j <= len(g) && slices.Contains(g[i+1:j], ";") {
				j = len(g) + 1 // a ";" where an argument belongs
			}
			if j > len(g) {
				return nil, &CommandError{Words: g[i:], Err: fmt.Errorf("usage: %s", c.Usage)}
			}
			for k := 0; k < c.OptArgs && j < len(g) && !strings.Contains(g[j], "=") && !isCommand(g[j]); k++ {
				j++
			}
			for j < len(g) && strings.Contains(g[j], "=") {
				j++
			}
			out = append(out, g[i:j])
			i = j
		}
	}
	return out, nil
}

// isCommand reports whether w is a command word.
func isCommand(w string) bool {
	_, ok := lookupCommand(w, "")
	return ok
}

func commandNames() string {
	var names []string
	seen := map[string]bool{}
	for _, c := range editCommands {
		if !seen[c.Name] {
			seen[c.Name] = true
			names = append(names, c.Name)
		}
	}
	return strings.Join(names, ", ")
}

// RunCommand applies one command (its words, command word first) to the
// document as one undoable edit.
func (s *Session) RunCommand(words []string) error {
	if len(words) == 0 {
		return nil
	}
	if s.Doc == nil {
		return &CommandError{Words: words, Err: fmt.Errorf("no document open")}
	}
	kind := ""
	if len(words) > 2 {
		kind = words[2]
	}
	c, ok := lookupCommand(words[0], kind)
	if !ok {
		return &CommandError{Words: words, Err: fmt.Errorf("unknown command (the commands are %s)", commandNames())}
	}
	if len(words)-1 < c.Args {
		return &CommandError{Words: words, Err: fmt.Errorf("usage: %s", c.Usage)}
	}
	s.cmdNote = ""
	e, err := c.Edit(s, words[1:])
	if err == nil {
		err = s.Apply(e)
	}
	if err != nil {
		return &CommandError{Words: words, Err: err}
	}
	s.Hist.Seal() // each command is a step of its own
	if c.Note != nil {
		s.cmdNote = c.Note(s, words[1:])
	}
	return nil
}

// CommandNote is what the last command RunCommand applied says about its
// edit ("" for nothing): `viewer edit` prints it after the command.
func (s *Session) CommandNote() string { return s.cmdNote }

// Apply applies e through the history and returns why it was refused.
func (s *Session) Apply(e scene.Edit) error {
	if s.Doc == nil || e == nil {
		return fmt.Errorf("nothing to edit")
	}
	nodes, variants := len(s.Doc.GLTF.Nodes), len(s.Doc.Variants)
	ch, err := s.Hist.Do(s.Doc, e)
	if err != nil {
		return err
	}
	if len(s.Doc.GLTF.Nodes) > nodes {
		// A collider fitted on a new child node: show that node, with
		// its handles.
		s.Selected = len(s.Doc.GLTF.Nodes) - 1
		// A joint added with its frames: show the joint (the node
		// after it is its connected frame).
		for i := nodes; i < len(s.Doc.GLTF.Nodes); i++ {
			if s.Doc.Nodes[i].Joint != nil {
				s.Selected = i
			}
		}
		for _, v := range s.Views {
			v.SelectionChanged(s.Selected)
		}
		// Say so: the Inspector now shows another node than the one the
		// user chose (a compound's Apply says its own).
		s.Notice(fmt.Sprintf("%s: on the new child node %q, now selected", e.Name(), s.Doc.NodeName(s.Selected)))
	} else if strings.HasPrefix(e.Name(), "Fit ") {
		s.Notice(e.Name()) // what the fit made ("... (64 vertices)")
	} else if !s.msg.Error {
		// The last step's note ("on the new child node ...") is not
		// about this one.
		s.msg = Message{}
	}
	if len(s.Doc.Variants) > variants {
		s.Variant = len(s.Doc.Variants) - 1 // a variant just added is shown
	}
	s.changed(ch)
	return nil
}

// FindNode resolves a node given by name or by index.
func FindNode(d *scene.Document, ref string) (int, error) {
	for i, n := range d.GLTF.Nodes {
		if n.Name == ref {
			return i, nil
		}
	}
	if i, err := strconv.Atoi(ref); err == nil {
		if i >= 0 && i < len(d.GLTF.Nodes) {
			return i, nil
		}
		return -1, fmt.Errorf("node %d does not exist (the file has %d nodes)", i, len(d.GLTF.Nodes))
	}
	return -1, fmt.Errorf("no node is called %q", ref)
}

// options reads KEY=VALUE words into a map, refusing keys not in allowed.
func options(words []string, allowed ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return nil, fmt.Errorf("%q is not KEY=VALUE", w)
		}
		found := false
		for _, a := range allowed {
			if strings.EqualFold(a, k) {
				k, found = a, true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown key %q (the keys are %s)", k, strings.Join(allowed, ", "))
		}
		if _, twice := out[k]; twice {
			return nil, fmt.Errorf("%s is given twice", k)
		}
		out[k] = v
	}
	return out, nil
}

// number reads a finite number as typed (0.35 stays 0.35 when written).
func number(key, v string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s=%s: not a finite number", key, v)
	}
	return f, nil
}

// vector3 reads "X,Y,Z".
func vector3(key, v string) ([3]float64, error) {
	parts := strings.Split(v, ",")
	if len(parts) != 3 {
		return [3]float64{}, fmt.Errorf("%s=%s: want three numbers X,Y,Z", key, v)
	}
	var out [3]float64
	for i, p := range parts {
		f, err := number(key, p)
		if err != nil {
			// The whole value, so that "size=2,,1" is not reported as "size=".
			return out, fmt.Errorf("%s=%s: number %d (%q) is not a finite number", key, v, i+1, p)
		}
		out[i] = f
	}
	return out, nil
}

// nodeShape is the shape of node n's collider, else of its trigger.
func nodeShape(d *scene.Document, n int) (int, error) {
	if b := d.Nodes[n].Body; b != nil {
		if b.Collider != nil && b.Collider.Shape >= 0 && b.Collider.Shape < len(d.Shapes) {
			return b.Collider.Shape, nil
		}
		if b.Trigger != nil && b.Trigger.Nodes == nil && b.Trigger.Shape >= 0 && b.Trigger.Shape < len(d.Shapes) {
			return b.Trigger.Shape, nil
		}
	}
	return -1, fmt.Errorf("node %s has no collider or trigger shape", d.NodeName(n))
}

func init() {
	for _, c := range []EditCommand{
		{Name: "fit", Usage: "fit NODE box|sphere|capsule|cylinder|convex|trimesh|compound (convex: [vertices=M], at most M hull vertices, default 64, 4-255)", Args: 2, Edit: fitCommand},
		{Name: "shape", Usage: "shape NODE KEY=VALUE... (size=X,Y,Z radius= radiusTop= radiusBottom= height= mesh=)", Args: 1, Edit: shapeCommand, Note: shapeCommandNote},
		{Name: "motion", Usage: "motion NODE static|kinematic|dynamic [mass=M]", Args: 2, Edit: motionCommand},
		{Name: "rename", Usage: "rename NODE NEW", Args: 2, Edit: renameCommand},
		{Name: "gravity", Usage: "gravity X,Y,Z (world gravity, m/s²)", Args: 1, Edit: gravityCommand},
		{Name: "remove-collider", Usage: "remove-collider NODE", Args: 1, Edit: removeColliderCommand},
		{Name: "make-single", Usage: "make-single NODE [collider|trigger] (the node's own copy of a shared shape)", Args: 1, OptArgs: 1, Edit: makeSingleCommand},
	} {
		RegisterEditCommand(c)
	}
}

func fitCommand(s *Session, args []string) (scene.Edit, error) {
	n, err := FindNode(s.Doc, args[0])
	if err != nil {
		return nil, err
	}
	t, legacy, ok := scene.ParseShapeType(args[1])
	if !ok || legacy {
		return nil, fmt.Errorf("unknown shape type %q (box, sphere, capsule, cylinder, convex, trimesh or compound)", args[1])
	}
	if t == scene.ShapeConvex {
		opts, err := options(args[2:], "vertices")
		if err != nil {
			return nil, err
		}
		max := 0
		if v, ok := opts["vertices"]; ok {
			if max, err = strconv.Atoi(v); err != nil || max < 4 || max > 255 {
				return nil, fmt.Errorf("vertices=%s: want a whole number from 4 to 255", v)
			}
		}
		return s.Doc.FitConvexEdit(n, max, false)
	}
	if _, err := options(args[2:]); err != nil {
		return nil, err
	}
	return s.Doc.FitColliderEdit(n, t, false)
}

func shapeCommand(s *Session, args []string) (scene.Edit, error) {
	d := s.Doc
	n, err := FindNode(d, args[0])
	if err != nil {
		return nil, err
	}
	i, err := nodeShape(d, n)
	if err != nil {
		return nil, err
	}
	opts, err := options(args[1:], "size", "radius", "radiusTop", "radiusBottom", "height", "mesh")
	if err != nil {
		return nil, err
	}
	if len(opts) == 0 {
		return nil, fmt.Errorf("say what to change: KEY=VALUE (size, radius, radiusTop, radiusBottom, height, mesh)")
	}
	sh := d.Shapes[i]
	params := sh.ParamNames()
	for _, k := range []string{"size", "radius", "radiusTop", "radiusBottom", "height", "mesh"} {
		v, ok := opts[k]
		if !ok {
			continue
		}
		// A key the shape's kind does not have would change nothing in
		// the file ("radius" sets both radii of a capsule or cylinder).
		twoRadii := k == "radius" && slices.Contains(params, "radiusTop")
		if !slices.Contains(params, k) && !twoRadii {
			return nil, fmt.Errorf("%s=%s: a %s has no %s (its parameters: %s)", k, v, sh.Type, k, paramList(params))
		}
		switch k {
		case "size":
			if sh.Size, err = vector3(k, v); err != nil {
				return nil, err
			}
		case "mesh":
			m, err := strconv.Atoi(v)
			if err != nil {
				return nil, fmt.Errorf("mesh=%s: not a mesh index", v)
			}
			sh.Mesh = m
		default:
			f, err := number(k, v)
			if err != nil {
				return nil, err
			}
			switch k {
			case "radius":
				if sh.Type == scene.ShapeCapsule || sh.Type == scene.ShapeCylinder {
					sh.RadiusTop, sh.RadiusBottom = f, f
				} else {
					sh.Radius = f
				}
			case "radiusTop":
				sh.RadiusTop = f
			case "radiusBottom":
				sh.RadiusBottom = f
			case "height":
				sh.Height = f
			}
		}
	}
	return scene.SetShape{Index: i, Shape: sh, Label: "Edit " + sh.Type.String() + " of " + d.NodeName(n)}, nil
}

// paramList names a kind's parameters for a message.
func paramList(ps []string) string {
	if len(ps) == 0 {
		return "none"
	}
	return strings.Join(ps, ", ")
}

func motionCommand(s *Session, args []string) (scene.Edit, error) {
	d := s.Doc
	n, err := FindNode(d, args[0])
	if err != nil {
		return nil, err
	}
	t, ok := scene.ParseMotionType(args[1])
	if !ok {
		return nil, fmt.Errorf("unknown motion type %q (static, kinematic or dynamic)", args[1])
	}
	opts, err := options(args[2:], "mass")
	if err != nil {
		return nil, err
	}
	m := scene.DefaultMotion(t)
	if b := d.Nodes[n].Body; b != nil && b.Motion != nil {
		m = *b.Motion
		m.Type = t
	}
	if v, ok := opts["mass"]; ok {
		if m.Mass, err = number("mass", v); err != nil {
			return nil, err
		}
		if m.Mass < 0 {
			return nil, fmt.Errorf("mass=%s: a mass cannot be negative", v)
		}
		if m.Mass == 0 && t == scene.MotionDynamic && !d.PhysicsDialect().KHRBodies() {
			// In KHR a mass of 0 is infinite, in OMI it is no body at all.
			return nil, fmt.Errorf("mass=%s: a dynamic body needs a mass above 0", v)
		}
	}
	return d.SetMotionEdit(n, &m, "Set motion of "+d.NodeName(n)), nil
}

func renameCommand(s *Session, args []string) (scene.Edit, error) {
	n, err := FindNode(s.Doc, args[0])
	if err != nil {
		return nil, err
	}
	if _, err := options(args[2:]); err != nil {
		return nil, err
	}
	return scene.SetNodeName{Node: n, To: args[1]}, nil
}

func gravityCommand(s *Session, args []string) (scene.Edit, error) {
	if _, err := options(args[1:]); err != nil {
		return nil, err
	}
	v, err := vector3("gravity", args[0])
	if err != nil {
		return nil, err
	}
	g := &scene.WorldGravity{Direction: [3]float64{0, -1, 0}}
	if s.Doc.WorldGravity != nil {
		g.Extra = s.Doc.WorldGravity.Extra
	}
	if l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]); l > 0 {
		g.Gravity = l
		g.Direction = [3]float64{v[0] / l, v[1] / l, v[2] / l}
		// An axis-aligned vector keeps the numbers as typed: 0,-9.81,0 is
		// 9.81 along 0,-1,0.
		for i, c := range v {
			if math.Abs(c) == l {
				g.Direction = [3]float64{}
				g.Direction[i] = math.Copysign(1, c)
			}
		}
	}
	return scene.SetWorldGravity{Gravity: g}, nil
}

func removeColliderCommand(s *Session, args []string) (scene.Edit, error) {
	d := s.Doc
	n, err := FindNode(d, args[0])
	if err != nil {
		return nil, err
	}
	if _, err := options(args[1:]); err != nil {
		return nil, err
	}
	if b := d.Nodes[n].Body; b == nil || b.Collider == nil {
		return nil, fmt.Errorf("node %s has no collider", d.NodeName(n))
	}
	return d.RemoveColliderEdit(n), nil
}
