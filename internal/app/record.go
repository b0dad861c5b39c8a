package app

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"physview/internal/report"
	"physview/sim"
)

// RunRecorded steps s until its time reaches t seconds as sim.Run does,
// adding each step to rec (nil: none; the state before the first step is
// added too) and, every hashEvery steps (0: never), the state's hash to
// the returned list.
func RunRecorded(s *sim.Sim, t float64, rec *sim.Recording, hashEvery int) ([]report.StepHash, error) {
	var hashes []report.StepHash
	if rec != nil {
		rec.Add(s)
	}
	for s.Time+s.StepSize()/2 < t {
		if err := s.Step(); err != nil {
			return hashes, err
		}
		if rec != nil {
			rec.Add(s)
		}
		if hashEvery > 0 && s.Steps%hashEvery == 0 {
			hashes = append(hashes, report.StepHash{Step: s.Steps, Time: s.Time, Hash: s.Hash()})
		}
	}
	return hashes, nil
}

// RecordingHeader is the first line of a recording written as CSV.
const RecordingHeader = "time,node,name,px,py,pz,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz"

// WriteRecordingCSV writes rec as CSV: RecordingHeader, then one row per
// body per frame, in world space (position of the node origin, rotation
// quaternion x, y, z, w, linear velocity of the centre of mass, angular
// velocity in rad/s), numbers in Go's shortest round-trip form.
func WriteRecordingCSV(w io.Writer, rec *sim.Recording) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(RecordingHeader + "\n")
	var line []byte
	num := func(x float64, bits int) {
		line = append(line, ',')
		line = strconv.AppendFloat(line, x, 'g', -1, bits)
	}
	for i := 0; i < rec.Len(); i++ {
		t := rec.Time(i)
		for b, node := range rec.Nodes {
			s := rec.Sample(i, b)
			line = strconv.AppendFloat(line[:0], t, 'g', -1, 64)
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(node), 10)
			line = append(line, ',')
			line = append(line, csvField(rec.Names[b])...)
			for _, x := range s.Position {
				num(x, 64)
			}
			for _, x := range []float64{s.Rotation.V[0], s.Rotation.V[1], s.Rotation.V[2], s.Rotation.W} {
				num(x, 32)
			}
			for _, x := range s.LinearVelocity {
				num(x, 32)
			}
			for _, x := range s.AngularVelocity {
				num(x, 32)
			}
			line = append(line, '\n')
			if _, err := bw.Write(line); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// csvField quotes a name that holds a comma, a quote or a line break.
func csvField(s string) string {
	for _, c := range s {
		if c == ',' || c == '"' || c == '\n' || c == '\r' {
			return strconv.Quote(s)
		}
	}
	return s
}

// RecordedBody is one body of a recording written as JSON.
type RecordedBody struct {
	Node int    `json:"node"`
	Name string `json:"name"`
	// Type is "dynamic" or "kinematic".
	Type string `json:"type"`
}

// RecordedSample is one body's state in one frame of a recording written
// as JSON: the same fields as a CSV row, plus contacts and asleep.
type RecordedSample struct {
	Time     float64    `json:"time"`
	Node     int        `json:"node"`
	Name     string     `json:"name"`
	P        [3]float64 `json:"p"`
	Q        [4]float64 `json:"q"`
	V        [3]float64 `json:"v"`
	W        [3]float64 `json:"w"`
	Contacts int        `json:"contacts"`
	Asleep   bool       `json:"asleep"`
}

// WriteRecordingJSON writes rec as one JSON object: the step, the frame
// interval, the bodies and the samples (one per body per frame, world
// space, as in the CSV: p position, q rotation x, y, z, w, v linear and w
// angular velocity), and the recording's note when it was decimated.
func WriteRecordingJSON(w io.Writer, rec *sim.Recording) error {
	bw := bufio.NewWriter(w)
	bodies := make([]RecordedBody, len(rec.Nodes))
	for b := range rec.Nodes {
		bodies[b] = RecordedBody{Node: rec.Nodes[b], Name: rec.Names[b], Type: rec.Types[b].String()}
	}
	head, err := json.Marshal(struct {
		Step   float64        `json:"step"`
		Every  int            `json:"every"`
		Note   string         `json:"note,omitempty"`
		Bodies []RecordedBody `json:"bodies"`
	}{rec.Step, rec.Every, rec.Note, bodies})
	if err != nil {
		return err
	}
	// The samples are streamed: a recording may be large.
	bw.Write(head[:len(head)-1])
	bw.WriteString(`,"samples":[`)
	first := true
	for i := 0; i < rec.Len(); i++ {
		for b := range rec.Nodes {
			s := rec.Sample(i, b)
			q := s.Rotation
			row, err := json.Marshal(RecordedSample{Time: rec.Time(i), Node: rec.Nodes[b], Name: rec.Names[b],
				P: s.Position, Q: [4]float64{short32(q.V[0]), short32(q.V[1]), short32(q.V[2]), short32(q.W)},
				V:        [3]float64{short32(s.LinearVelocity[0]), short32(s.LinearVelocity[1]), short32(s.LinearVelocity[2])},
				W:        [3]float64{short32(s.AngularVelocity[0]), short32(s.AngularVelocity[1]), short32(s.AngularVelocity[2])},
				Contacts: s.Contacts, Asleep: s.Asleep})
			if err != nil {
				return fmt.Errorf("frame %d, body %q: %w", i, rec.Names[b], err)
			}
			if !first {
				bw.WriteByte(',')
			}
			first = false
			bw.WriteString("\n")
			bw.Write(row)
		}
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}

// short32 returns the float64 nearest the shortest decimal of x as a
// float32: a value recorded in float32 is written as 0.1, not as
// 0.10000000149011612.
func short32(x float64) float64 {
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', -1, 32), 64)
	if err != nil {
		return x
	}
	return v
}
