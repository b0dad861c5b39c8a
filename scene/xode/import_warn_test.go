package xode

import (
	"path/filepath"
	"slices"
	"testing"

	"physview/scene"
)

// TestImportWarnings: what the XODE reader reads in place of what ODE
// cannot take says so, at the element's line. A mass that is not positive
// was read as 1 kg without a word, and a plane inside a body (not
// placeable in ODE) as a 200 m box moving with the body.
func TestImportWarnings(t *testing.T) {
	for _, tc := range []struct {
		file   string
		want   []string           // XODE_IMPORT findings: path and message
		masses map[string]float64 // bodies' masses as read
	}{
		{"mass_not_positive.xode", []string{
			`xode line 8: the mass of body "negative" is -2, not positive: read as 1 kg`,
			`xode line 13: the mass of body "zero" is 0, not positive: read as 1 kg`,
		}, map[string]float64{"negative": 1, "zero": 1, "fine": 3}},
		{"plane_on_body.xode", []string{
			`xode line 9: a plane is never on a body (ODE planes are not placeable): on body "raft" it is read as a 200 m box that moves with it`,
		}, map[string]float64{"raft": 1}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := Load(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range d.Findings() {
				if f.Code == "XODE_IMPORT" {
					if f.Severity != scene.Warning {
						t.Errorf("%s: severity %v, want a warning", f.Message, f.Severity)
					}
					got = append(got, f.Path+": "+f.Message)
				}
			}
			// Findings come sorted by path ("xode line 13" before "8").
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("findings\n%q\nwant\n%q", got, want)
			}
			for i, ne := range d.Nodes {
				if ne.Body == nil || ne.Body.Motion == nil {
					continue
				}
				name := d.GLTF.Nodes[i].Name
				if want, ok := tc.masses[name]; !ok || ne.Body.Motion.Mass != want {
					t.Errorf("body %q: mass %g, want %g", name, ne.Body.Motion.Mass, want)
				}
			}
		})
	}
}
