package sim

import "testing"

// TestBenchEngines: PHYSVIEW_BENCH_ENGINES picks the benchmark's engines
// by name (any case, spaces allowed); empty picks every engine.
func TestBenchEngines(t *testing.T) {
	all := append(append([]string{}, Engines...), peerEngines...)
	for _, tc := range []struct {
		list string
		want []string
	}{
		{"", all},
		{"  ", all},
		{"bullet,physx", []string{"bullet", "physx"}},
		{" Bullet , HAVOK,physx ", []string{"bullet", "havok", "physx"}},
		{"ode", []string{"ode"}},
		{"box2d", nil},
	} {
		pick := benchEngines(tc.list)
		var got []string
		for _, e := range all {
			if pick(e) {
				got = append(got, e)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q picks %v, want %v", tc.list, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q picks %v, want %v", tc.list, got, tc.want)
				break
			}
		}
	}
}
