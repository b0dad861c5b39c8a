package main

import (
	"fmt"
	"testing"
	"time"

	"physview/internal/app"
	"physview/scene"
)

// frameCount returns how many frames the viewer reported so far.
func frameCount(l *viewerLog) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.frames
}

// TestWindowSleepsWhenIdle checks that the window draws only when there is
// something to show: a few frames a second at most while nothing happens
// (the backend's loop alone would draw 30), and frames again at once when
// the mouse moves.
func TestWindowSleepsWhenIdle(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a window")
	}
	t.Setenv("PHYSVIEW_LOG_FRAMES", "1")
	display := startXvfb(t)
	log := startEditor(t, display)
	time.Sleep(time.Second) // the frames that follow the first ones
	before := frameCount(log)
	const idle = 3 * time.Second
	time.Sleep(idle)
	idleFrames := frameCount(log) - before
	if limit := int(idle/idleTimeout) + 2; idleFrames > limit {
		t.Errorf("%d frames in %v without input, want at most %d", idleFrames, idle, limit)
	}
	before = frameCount(log)
	xdo(t, display, "mousemove", "700", "400")
	time.Sleep(200 * time.Millisecond)
	xdo(t, display, "mousemove", "720", "410")
	// The event and the frames after it: at least 4, paced at the frame
	// interval rather than one an idle timeout. They are timed by the
	// viewer's clock, less each frame's work, so that a loaded machine
	// (slow frames, a test that looks late) does not count.
	for end := time.Now().Add(windowWait); frameCount(log)-before < 4 && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	frames := reportedFrames(log)
	if moved := len(frames) - before; moved < 4 {
		t.Fatalf("%d frames after moving the mouse, want at least 4 (an event and the frames after it)", moved)
	}
	for i := before + 1; i < before+4; i++ {
		if wait := frames[i][0] - frames[i-1][0] - frames[i][1]; wait > float64(idleTimeout/time.Millisecond)/2 {
			t.Errorf("frame %d after moving the mouse came %.0f ms after the one before it (less its work), want the frame interval (%v), not the idle timeout (%v)", i-before+1, wait, frameInterval, idleTimeout)
		}
	}
	t.Logf("%d frames in %v idle", idleFrames, idle)
}

// reportedFrames returns when each frame the viewer reported ended and how
// long its work took (ms on the viewer's clock).
func reportedFrames(l *viewerLog) [][2]float64 {
	var out [][2]float64
	for _, s := range l.all() {
		var n int
		var at, work float64
		if _, err := fmt.Sscanf(s, "viewer: frame %d at %f ms, work %f ms", &n, &at, &work); err == nil {
			out = append(out, [2]float64{at, work})
		}
	}
	return out
}

// TestNextDeadline checks the pacing of frames while something moves: one
// interval after the last deadline (a late wake-up shortens the next
// wait), and at once, starting the schedule over, after a frame that ran
// past it.
func TestNextDeadline(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := time.Millisecond
	for _, c := range []struct {
		name string
		now  time.Duration // since the last deadline
		want time.Duration // the next deadline, since the last
	}{
		{"short frame: sleeps to the interval", 10 * ms, frameInterval},
		{"woke 4 ms late, 25 ms of work: 4 ms less sleep", 29 * ms, frameInterval},
		{"frame ends on the deadline", frameInterval, frameInterval},
		{"long frame: at once", 50 * ms, 50 * ms},
	} {
		if got := nextDeadline(t0, t0.Add(c.now)).Sub(t0); got != c.want {
			t.Errorf("%s: next deadline %v after the last, want %v", c.name, got, c.want)
		}
	}
}

// TestPacerStartFor checks when a frame aimed at its swap's due time
// starts: its work before the swap at the 90th percentile of the last
// frames' and the swap at their median (plus paceMargin) before it, the
// estimates following only the last recentFrames frames; at once before
// any frame was measured.
func TestPacerStartFor(t *testing.T) {
	due := time.Unix(1000, 0)
	ms := time.Millisecond
	for _, c := range []struct {
		name      string
		pre, post []time.Duration
		want      time.Duration // the start, before due
	}{
		{"nothing measured: at once", nil, nil, -1},
		{"steady frames", []time.Duration{20 * ms, 20 * ms, 20 * ms}, []time.Duration{3 * ms, 3 * ms, 3 * ms}, 24 * ms},
		{"one slow frame in ten: the slow one's work", []time.Duration{10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 10 * ms, 30 * ms, 30 * ms},
			[]time.Duration{2 * ms, 4 * ms, 3 * ms}, 34 * ms},
		{"slow frames older than recentFrames forgotten", append([]time.Duration{40 * ms, 40 * ms, 40 * ms}, repeat(12*ms, recentFrames)...),
			[]time.Duration{2 * ms}, 15 * ms},
	} {
		var p pacer
		for _, d := range c.pre {
			p.pre.add(d)
		}
		for _, d := range c.post {
			p.post.add(d)
		}
		got := p.startFor(due)
		if c.want < 0 {
			if !got.IsZero() {
				t.Errorf("%s: starts at %v, want at once", c.name, got)
			}
			continue
		}
		if d := due.Sub(got); d != c.want {
			t.Errorf("%s: starts %v before the swap is due, want %v", c.name, d, c.want)
		}
	}
}

// TestPacerViewBudget checks the budget the window steers the 3D view's
// redraw with: the frame interval less the rest of the frame's work at
// its 90th percentile, the swap at its median and steerMargin; at least
// a millisecond.
func TestPacerViewBudget(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name        string
		other, post []time.Duration
		want        time.Duration
	}{
		{"idle machine", repeat(8*ms, 10), []time.Duration{2 * ms}, frameInterval - 13*ms},
		{"busy: the slow frames' rest", append(repeat(8*ms, 8), 15*ms, 16*ms), []time.Duration{2 * ms, 3 * ms, 9 * ms}, frameInterval - 21*ms},
		{"nothing left", repeat(40*ms, 4), []time.Duration{2 * ms}, ms},
	} {
		var p pacer
		for _, d := range c.other {
			p.other.add(d)
		}
		for _, d := range c.post {
			p.post.add(d)
		}
		if got := p.viewBudget(); got != c.want {
			t.Errorf("%s: budget %v, want %v", c.name, got, c.want)
		}
	}
}

func repeat(d time.Duration, n int) []time.Duration {
	s := make([]time.Duration, n)
	for i := range s {
		s[i] = d
	}
	return s
}

// TestUploadBudget checks the uploads' time in a frame: what is left of
// maxUploadGap once the rest of the gap between the last frame shown and
// this one is taken out (the time since it was shown, the estimated work
// after the uploads and, back to back, the measured rest of the last
// gap), the estimates following a busier machine at once and a quieter
// one a quarter of the way; a frame after a sleep to the frame interval
// that leaves less than minUpload takes no step, one back to back always
// some, and one after a wait for an event counts from its start.
func TestUploadBudget(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name              string
		est, measured     time.Duration
		wantEst           time.Duration
		rest              time.Duration
		restEst           time.Duration // before this frame's rest is taken in
		since             time.Duration // since the last frame was shown (0: none shown)
		backToBack, paced bool
		wantBudgetAtLeast time.Duration
		wantBudgetAtMost  time.Duration
	}{
		{"quiet: 15 ms of rest leaves 25", 15 * ms, 15 * ms, 15 * ms, 5 * ms, 5 * ms, 0, true, false, 24 * ms, 25 * ms},
		{"busier: the estimate rises at once", 15 * ms, 31 * ms, 31 * ms, 5 * ms, 5 * ms, 0, true, false, 8 * ms, 9 * ms},
		{"quieter: a quarter of the way down", 31 * ms, 15 * ms, 27 * ms, 5 * ms, 5 * ms, 0, true, false, 12 * ms, 13 * ms},
		{"after a sleep the frame's own rest counts", 40 * ms, 40 * ms, 40 * ms, 15 * ms, 15 * ms, 0, false, true, 24 * ms, 25 * ms},
		{"loaded: half the rest at least", 60 * ms, 60 * ms, 60 * ms, 40 * ms, 40 * ms, 0, true, false, 20 * ms, 20 * ms},
		{"the gap so far counts: 40 - 15 since - 10 rest", 15 * ms, 15 * ms, 15 * ms, 10 * ms, 10 * ms, 15 * ms, false, true, 14 * ms, 15 * ms},
		{"a longer rest raises its estimate at once", 15 * ms, 15 * ms, 15 * ms, 14 * ms, 10 * ms, 15 * ms, false, true, 10 * ms, 11 * ms},
		{"a shorter rest lowers it a quarter of the way", 15 * ms, 15 * ms, 15 * ms, 2 * ms, 14 * ms, 15 * ms, false, true, 13 * ms, 14 * ms},
		{"after a sleep, too little left: no step", 15 * ms, 15 * ms, 15 * ms, 10 * ms, 10 * ms, 25 * ms, false, true, deferUpload, deferUpload},
		{"after a wait for an event the gap starts with the frame", 15 * ms, 15 * ms, 15 * ms, 10 * ms, 10 * ms, 300 * ms, false, false, 29 * ms, 30 * ms},
		{"back to back, too little left: minUpload", 15 * ms, 15 * ms, 15 * ms, 10 * ms, 10 * ms, 30 * ms, true, false, minUpload, minUpload + ms},
	} {
		est := fixedPart(c.est, c.measured)
		if est != c.wantEst {
			t.Errorf("%s: estimate %v after %v measured, want %v", c.name, est, c.measured, c.wantEst)
		}
		now := time.Now()
		a := &windowApp{frameStart: now, rest: c.rest, restEst: c.restEst, fixed: est, backToBack: c.backToBack, paced: c.paced}
		if c.since > 0 {
			a.shownAt = now.Add(-c.since)
		}
		if b := a.uploadBudget(); b < c.wantBudgetAtLeast || b > c.wantBudgetAtMost {
			t.Errorf("%s: budget %v, want %v to %v", c.name, b, c.wantBudgetAtLeast, c.wantBudgetAtMost)
		}
		// A frame that draws the panel's redraw put off from the last
		// takes no step, whatever is left.
		a.panelLate = true
		if b := a.uploadBudget(); b != deferUpload {
			t.Errorf("%s, the panel put off: budget %v, want none", c.name, b)
		}
		// Nor does a frame that showed a document.
		a.panelLate, a.docShown = false, true
		if b := a.uploadBudget(); b != deferUpload {
			t.Errorf("%s, a document shown: budget %v, want none", c.name, b)
		}
	}
}

// TestShowProgress checks when the panel's texture counts, whose change
// draws the panel anew, are shown: at once for a new document and when
// every texture is in; else not in a frame that slept to the frame
// interval, unless they lag by progressEvery (newer counts waiting do
// not make the next frame come at once: frames that only show counts
// would take the decoders' CPU); and that a frame showing them counts the
// panel's redraw in its upload budget.
func TestShowProgress(t *testing.T) {
	ms := time.Millisecond
	doc, other := &scene.Document{}, &scene.Document{}
	for _, c := range []struct {
		name              string
		paced             bool
		since             time.Duration // since the counts were last set
		shownFor          *scene.Document
		pending, refining int
		wantNow, wantSet  bool
		partEst           time.Duration // a part of the panel drawn before
	}{
		{"back to back: shown", false, 10 * ms, doc, 3, 0, true, true, 0},
		{"back to back, a part measured: its cost", false, 10 * ms, doc, 3, 0, true, true, 4 * ms},
		{"after a sleep: waits", true, 10 * ms, doc, 3, 0, false, false, 0},
		{"after a sleep, refining: waits", true, 10 * ms, doc, 0, 2, false, false, 0},
		{"lagging progressEvery: shown", true, progressEvery, doc, 3, 0, true, true, 0},
		{"a new document's: shown, whole", true, 10 * ms, other, 3, 0, true, true, 4 * ms},
		{"all in: shown", true, 10 * ms, doc, 0, 0, false, true, 0},
	} {
		s := app.New()
		s.Doc = doc
		a := &windowApp{s: s, paced: c.paced, countsLag: true, progressDoc: c.shownFor, progressAt: time.Now().Add(-c.since), panelEst: 20 * ms, partEst: c.partEst, restEst: 10 * ms, rest: 10 * ms}
		a.panel.Progress, a.panel.Refining = 0.25, 7
		a.frameStart = time.Now()
		a.countsNow = a.countsDue()
		if a.countsNow != c.wantNow {
			t.Errorf("%s: countsDue %v, want %v", c.name, a.countsNow, c.wantNow)
		}
		// 40 ms less 10 of rest, less 20 of the panel when it is drawn
		// whole (the part's cost for new counts once one was measured).
		wantBudget := 30 * ms
		switch {
		case c.wantNow && c.partEst > 0 && c.shownFor == doc:
			wantBudget = 30*ms - c.partEst
		case c.wantNow:
			wantBudget = 10 * ms
		}
		if b := a.uploadBudget(); b < wantBudget-ms || b > wantBudget {
			t.Errorf("%s: budget %v, want %v", c.name, b, wantBudget)
		}
		a.showProgress(0.5, c.refining, c.pending)
		set := a.panel.Progress == 0.5 && a.panel.Refining == c.refining
		if set != c.wantSet {
			t.Errorf("%s: counts set %v (progress %v, refining %d), want %v", c.name, set, a.panel.Progress, a.panel.Refining, c.wantSet)
		}
		if a.warming || a.countsLag != !set {
			t.Errorf("%s: counts set %v, next frame at once %v, lagging %v; want lagging %v and not at once", c.name, set, a.warming, a.countsLag, !set)
		}
		if set && a.progressDoc != doc {
			t.Errorf("%s: counts set for another document", c.name)
		}
		s.Close()
	}
}

// TestWarmNow: a material's warm-up, one step of up to 30 ms, begins in a
// frame that slept to the frame interval only with minWarmStart of its
// budget left; otherwise the next frame, at once, begins it.
func TestWarmNow(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name         string
		first, paced bool
		budget       time.Duration
		want         bool
	}{
		{"after a sleep, little left: the next frame", false, true, 18 * ms, false},
		{"after a sleep, enough left", false, true, 30 * ms, true},
		{"after a sleep, just enough", false, true, minWarmStart, true},
		{"at once after the last frame: whatever is left", false, false, 9 * ms, true},
		{"the first document: always", true, true, 0, true},
	} {
		if got := warmNow(c.first, c.paced, c.budget); got != c.want {
			t.Errorf("%s: warmNow(%v, %v, %v) = %v, want %v", c.name, c.first, c.paced, c.budget, got, c.want)
		}
	}
}

// TestPutOffPanel checks when a panel redraw waits for the next frame:
// only when the gap so far, the redraw and the rest of the frame would
// pass maxUploadGap.
func TestPutOffPanel(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name     string
		gap, est time.Duration
		want     bool
	}{
		{"a frame just begun, a whole redraw", 3 * ms, 25 * ms, false},
		{"a document shown in it, a whole redraw", 20 * ms, 25 * ms, true},
		{"uploads in it, a part (the counts)", 25 * ms, 3 * ms, false},
		{"uploads in it, a part too many", 36 * ms, 3 * ms, true},
		{"just within", maxUploadGap - panelAfter - 10*ms, 10 * ms, false},
	} {
		if got := putOffPanel(c.gap, c.est); got != c.want {
			t.Errorf("%s: putOffPanel(%v, %v) = %v, want %v", c.name, c.gap, c.est, got, c.want)
		}
	}
}
