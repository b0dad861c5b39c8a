package sim

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"physview/sim/ode"
)

// peerScene is one scene of the engine benchmark: a short key (pile,
// pyramid, overlap), the glTF it is written as (the same file every engine
// reads), its step and length.
type peerScene struct {
	key, name     string
	scene         tscene
	step, seconds float64
}

// tumblingPile is 4,000 bodies (spheres of radius 0.25 m and boxes of
// 0.5 m, alternating) in 10 layers over a 20 x 20 grid 0.9 m apart, each
// moved by up to ±0.2 m sideways (a fixed seed): they land on each
// other's edges and tumble, unlike columns that land on themselves.
func tumblingPile() tscene {
	ts := tscene{shapes: []string{sphere(0.25), box(0.5, 0.5, 0.5), box(60, 1, 60)}, gravity: earth}
	ts.nodes = append(ts.nodes, tnode{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(2, "")})
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 4000; i++ {
		x, z, y := i%20, (i/20)%20, i/400
		j := func() float64 { return 0.4 * (r.Float64() - 0.5) }
		ts.nodes = append(ts.nodes, tnode{name: fmt.Sprint("b", i),
			t:   [3]float64{0.9*float64(x) - 8.55 + j(), 1 + 0.9*float64(y), 0.9*float64(z) - 8.55 + j()},
			ext: dynamic(1, i%2, "")})
	}
	return ts
}

// pyramid is Jolt's pyramid test in one: 1,240 boxes of 1 m in 15 square
// layers (15² at the bottom to 1 at the top), each resting on the four
// below it.
func pyramid() tscene {
	ts := tscene{shapes: []string{box(1, 1, 1), box(100, 1, 100)}, gravity: earth}
	ts.nodes = append(ts.nodes, tnode{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(1, "")})
	for k := 0; k < 15; k++ {
		n := 15 - k
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				ts.nodes = append(ts.nodes, tnode{name: fmt.Sprintf("box %d %d %d", k, i, j),
					t:   [3]float64{float64(i) - float64(n-1)/2, 0.5 + float64(k), float64(j) - float64(n-1)/2},
					ext: dynamic(1, 0, "")})
			}
		}
	}
	return ts
}

// overlapping is 2,000 spheres of radius 0.5 m all starting at one point
// 5 m above a ground box.
func overlapping() tscene {
	ts := tscene{shapes: []string{sphere(0.5), box(100, 1, 100)}, gravity: earth}
	ts.nodes = append(ts.nodes, tnode{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(1, "")})
	for i := 0; i < 2000; i++ {
		ts.nodes = append(ts.nodes, tnode{name: fmt.Sprint("s", i), t: [3]float64{0, 5, 0}, ext: dynamic(1, 0, "")})
	}
	return ts
}

func peerScenes() []peerScene {
	return []peerScene{
		{"pile", "tumbling pile of 4,000 bodies, 1/240 s, 4 s", tumblingPile(), 1.0 / 240, 4},
		{"pyramid", "pyramid of 1,240 boxes, 1/60 s, 4 s", pyramid(), 1.0 / 60, 4},
		{"overlap", "2,000 spheres at one point, 1/240 s, 2 s", overlapping(), 1.0 / 240, 2},
	}
}

// peerRun is one engine's run of one scene: CPU seconds per step, the top
// speed seen (sampled every 8 steps) and the lowest body centre at the end.
type peerRun struct {
	Engine     string  `json:"engine"`
	Steps      int     `json:"steps"`
	CPUSeconds float64 `json:"cpuSeconds"`
	MaxSpeed   float64 `json:"maxSpeed"`
	MinY       float64 `json:"minY"`
}

func (r peerRun) perStep() float64 { return r.CPUSeconds / float64(r.Steps) }

// runOurs plays a scene in one of our engines on this locked thread.
func runOurs(tb testing.TB, ps peerScene, engine string) peerRun {
	s, err := New(ps.scene.doc(tb), Options{Step: ps.step, Engine: engine})
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	run := peerRun{Engine: engine, MinY: math.Inf(1)}
	c0 := ode.ThreadCPUTime()
	for s.Time+ps.step/2 < ps.seconds {
		if err := s.Step(); err != nil {
			tb.Fatalf("%s, %s: %v", ps.name, engine, err)
		}
		run.Steps++
		if run.Steps%8 == 0 {
			for _, b := range s.Bodies {
				run.MaxSpeed = math.Max(run.MaxSpeed, b.LinearVelocity.Len())
			}
		}
	}
	run.CPUSeconds = ode.ThreadCPUTime() - c0
	for _, b := range s.Bodies {
		run.MinY = math.Min(run.MinY, b.CenterOfMass[1])
	}
	return run
}

// peerEngines are the WASM engines of sim/peerbench, in the table's order.
var peerEngines = []string{"havok", "physx", "jolt", "rapier"}

// peerTimeout bounds one WASM engine's run of one scene (wall time).
const peerTimeout = 10 * time.Minute

// runPeer runs sim/peerbench/peers.mjs on the scene written as file.
func runPeer(ps peerScene, engine, file string) (peerRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), peerTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "peerbench/peers.mjs", engine, file, fmt.Sprint(ps.step), fmt.Sprint(ps.seconds))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return peerRun{}, fmt.Errorf("did not finish in %v", peerTimeout)
	}
	if err != nil {
		return peerRun{}, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var r peerRun
	if err := json.Unmarshal(out, &r); err != nil {
		return peerRun{}, fmt.Errorf("%v: %q", err, out)
	}
	return r, nil
}

// benchEngines reads PHYSVIEW_BENCH_ENGINES, a comma-separated list of
// engine names (ode, bullet, havok, physx, jolt, rapier), into the set of
// engines to run; empty means every one. An unknown name stops the run.
func benchEngines(tb testing.TB, list string) map[string]bool {
	known := map[string]bool{}
	for _, e := range append(append([]string{}, Engines...), peerEngines...) {
		known[e] = list == ""
	}
	for _, e := range strings.Split(list, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		if _, ok := known[e]; !ok {
			tb.Fatalf("PHYSVIEW_BENCH_ENGINES: no engine %q (known: %s, %s)", e, strings.Join(Engines, ", "), strings.Join(peerEngines, ", "))
		}
		known[e] = true
	}
	return known
}

// benchRounds reads PHYSVIEW_BENCH_ROUNDS, how many times each engine
// plays each scene (1 when empty).
func benchRounds(tb testing.TB, v string) int {
	if v == "" {
		return 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 100 {
		tb.Fatalf("PHYSVIEW_BENCH_ROUNDS: %q is not a count from 1 to 100", v)
	}
	return n
}

// medianRuns keeps, for each engine in the order runs first has it, its
// run of median CPU time among its rounds (byEngine), the lower middle one
// of an even count.
func medianRuns(runs []peerRun, byEngine map[string][]peerRun) []peerRun {
	var out []peerRun
	for _, r := range runs {
		rs, ok := byEngine[r.Engine]
		if !ok {
			continue
		}
		delete(byEngine, r.Engine)
		rs = slices.Clone(rs)
		slices.SortStableFunc(rs, func(a, b peerRun) int { return cmp.Compare(a.perStep(), b.perStep()) })
		out = append(out, rs[(len(rs)-1)/2])
	}
	return out
}

// BenchmarkEngines plays each peerScene in ODE and Bullet and, when node
// and sim/peerbench's packages are installed (npm ci --prefix
// sim/peerbench), in the WASM builds of Havok, PhysX, Jolt and Rapier,
// all single-threaded, and logs one table: each engine's real-time factor
// (simulated seconds per CPU second of the stepping loop), our engines'
// time per step over each peer's (below 1: ours is faster), the top speed
// and the lowest body centre. Run it once:
//
//	go test -run '^$' -bench BenchmarkEngines -benchtime 1x ./sim
//
// PHYSVIEW_BENCH_SCENES (pile, pyramid, overlap or a part of a scene's
// name) and PHYSVIEW_BENCH_ENGINES (a comma list, benchEngines) run fewer;
// PHYSVIEW_BENCH_ROUNDS plays each engine that many times, interleaved, and
// keeps its median (benchRounds, medianRuns).
func BenchmarkEngines(b *testing.B) {
	peers := true
	if _, err := exec.LookPath("node"); err != nil {
		b.Logf("node is not installed: the WASM engines are left out")
		peers = false
	} else if _, err := os.Stat("peerbench/node_modules"); err != nil {
		b.Logf("sim/peerbench has no node_modules (npm ci --prefix sim/peerbench): the WASM engines are left out")
		peers = false
	}
	only := os.Getenv("PHYSVIEW_BENCH_SCENES") // a scene's key or a part of its name, to run fewer
	engines := benchEngines(b, os.Getenv("PHYSVIEW_BENCH_ENGINES"))
	rounds := benchRounds(b, os.Getenv("PHYSVIEW_BENCH_ROUNDS"))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dir := b.TempDir()
	var table []string
	table = append(table, "| scene | engine | real-time factor | ODE time / this | Bullet time / this | top speed (m/s) | lowest centre (m) |", "|---|---|---|---|---|---|---|")
	for i := 0; i < b.N; i++ {
		for k, ps := range peerScenes() {
			if only != "" && ps.key != only && !strings.Contains(ps.name, only) {
				continue
			}
			// Each round plays every engine once, interleaved, so that a
			// change of load falls on all of them; each engine's row is
			// its median round (benchRounds).
			var runs []peerRun
			var failed, failedEngines []string
			byEngine := map[string][]peerRun{}
			for round := 0; round < rounds; round++ {
				for _, e := range Engines {
					if !engines[e] {
						continue
					}
					r := runOurs(b, ps, e)
					fmt.Fprintf(os.Stderr, "%s, %s: %+v\n", ps.name, e, r) // progress of a long run
					runs = append(runs, r)
				}
				if peers {
					file := filepath.Join(dir, fmt.Sprintf("scene%d.gltf", k))
					if err := os.WriteFile(file, []byte(ps.scene.json()), 0o644); err != nil {
						b.Fatal(err)
					}
					for _, e := range peerEngines {
						if !engines[e] {
							continue
						}
						if slices.Contains(failedEngines, e) {
							continue // failed in an earlier round
						}
						r, err := runPeer(ps, e, file)
						fmt.Fprintf(os.Stderr, "%s, %s: %+v %v\n", ps.name, e, r, err)
						if err != nil {
							b.Logf("%s, %s: %v", ps.name, e, err)
							failed = append(failed, fmt.Sprintf("| %s | %s | %v | | | | |", ps.name, e, err))
							failedEngines = append(failedEngines, e)
							continue
						}
						runs = append(runs, r)
					}
				}
			}
			for _, r := range runs {
				byEngine[r.Engine] = append(byEngine[r.Engine], r)
			}
			runs = medianRuns(runs, byEngine)
			table = append(table, failed...)
			// ratio is engine ref's time per step over r's, blank when ref
			// was left out of this run.
			ratio := func(ref string, r peerRun) string {
				for _, o := range runs {
					if o.Engine == ref {
						return fmt.Sprintf("%.3g", o.perStep()/r.perStep())
					}
				}
				return ""
			}
			for _, r := range runs {
				rt := ps.step / r.perStep()
				row := fmt.Sprintf("| %s | %s | %.3gx | %s | %s | %.3g | %.3g |",
					ps.name, r.Engine, rt, ratio(EngineODE, r), ratio(EngineBullet, r), r.MaxSpeed, r.MinY)
				table = append(table, row)
				b.ReportMetric(rt, fmt.Sprintf("rt-%d-%s", k, r.Engine))
			}
		}
	}
	b.Log("\n" + strings.Join(table, "\n"))
}
