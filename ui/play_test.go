package ui

import "testing"

func TestPlayHistory(t *testing.T) {
	p := &PlayState{}
	for i := 0; i < PlayHistory+10; i++ {
		p.AddSample(float64(i), 1, 2, 3)
	}
	if len(p.T) != PlayHistory || len(p.Height) != PlayHistory || len(p.Speed) != PlayHistory || len(p.Energy) != PlayHistory {
		t.Fatalf("kept %d samples, want %d", len(p.T), PlayHistory)
	}
	if p.T[0] != 10 || p.T[len(p.T)-1] != float64(PlayHistory+9) {
		t.Errorf("kept t from %g to %g, want the last %d (10 to %d)", p.T[0], p.T[len(p.T)-1], PlayHistory, PlayHistory+9)
	}
	p.ClearSamples()
	if len(p.T) != 0 {
		t.Error("ClearSamples left samples")
	}
}
