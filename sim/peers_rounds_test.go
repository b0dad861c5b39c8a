package sim

import "testing"

// TestMedianRuns: each engine keeps its run of median time per step, in
// the order the engines first ran.
func TestMedianRuns(t *testing.T) {
	run := func(e string, cpu float64) peerRun { return peerRun{Engine: e, Steps: 10, CPUSeconds: cpu} }
	for _, tc := range []struct {
		name string
		runs []peerRun
		want []peerRun
	}{
		{"one round", []peerRun{run("bullet", 2), run("physx", 3)}, []peerRun{run("bullet", 2), run("physx", 3)}},
		{"three rounds", []peerRun{run("bullet", 5), run("physx", 3), run("bullet", 1), run("physx", 9), run("bullet", 2), run("physx", 4)},
			[]peerRun{run("bullet", 2), run("physx", 4)}},
		{"two rounds: the lower middle", []peerRun{run("ode", 7), run("ode", 6)}, []peerRun{run("ode", 6)}},
		{"an engine that failed later", []peerRun{run("bullet", 4), run("havok", 1), run("bullet", 3), run("bullet", 8)},
			[]peerRun{run("bullet", 4), run("havok", 1)}},
	} {
		by := map[string][]peerRun{}
		for _, r := range tc.runs {
			by[r.Engine] = append(by[r.Engine], r)
		}
		got := medianRuns(tc.runs, by)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
	if n := benchRounds(t, ""); n != 1 {
		t.Errorf("benchRounds(\"\") = %d, want 1", n)
	}
	if n := benchRounds(t, "3"); n != 3 {
		t.Errorf("benchRounds(\"3\") = %d, want 3", n)
	}
}
