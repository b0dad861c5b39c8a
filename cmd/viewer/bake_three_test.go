package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// threeScript loads a .glb with three.js's GLTFLoader, plays its
// "Simulation" clip with an AnimationMixer and prints every named node's
// world position and rotation at the times given.
const threeScript = `
import fs from 'fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
const [file, ...times] = process.argv.slice(2);
const data = fs.readFileSync(file);
const ab = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
new GLTFLoader().parse(ab, '', (gltf) => {
  const clip = gltf.animations.find(a => a.name === 'Simulation');
  if (!clip) { console.error('no Simulation clip'); process.exit(1); }
  const mixer = new THREE.AnimationMixer(gltf.scene);
  // Once, held at the end (a repeating clip wraps to 0 at its duration).
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce);
  action.clampWhenFinished = true;
  action.play();
  const out = [];
  for (const t of times) {
    mixer.setTime(Number(t));
    gltf.scene.updateMatrixWorld(true);
    const nodes = {};
    gltf.scene.traverse(o => {
      if (!o.name) return;
      const p = new THREE.Vector3(), q = new THREE.Quaternion();
      o.getWorldPosition(p); o.getWorldQuaternion(q);
      nodes[o.name] = {p: [p.x, p.y, p.z], q: [q.x, q.y, q.z, q.w]};
    });
    out.push({time: t, nodes});
  }
  console.log(JSON.stringify({duration: clip.duration, tracks: clip.tracks.length, samples: out}));
}, (e) => { console.error(String(e)); process.exit(1); });
`

// threeModules returns the node_modules folder holding three.js
// ($PHYSVIEW_THREE, or physview/npm/three in the user's cache folder,
// where .ci/install-deps puts it); it skips the test without node or it.
func threeModules(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found: skipping the three.js playback")
	}
	dir := os.Getenv("PHYSVIEW_THREE")
	if dir == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			t.Skip("no cache folder: skipping the three.js playback")
		}
		dir = filepath.Join(c, "physview", "npm", "three", "node_modules")
	}
	if _, err := os.Stat(filepath.Join(dir, "three", "package.json")); err != nil {
		t.Skipf("three.js not found in %s (npm install three there, or set PHYSVIEW_THREE): skipping", dir)
	}
	return dir
}

// TestBakePlaysInThreeJS: the baked .glb played by three.js (GLTFLoader,
// AnimationMixer) puts every body where `simulate -t t` does, within the
// bake's tolerance: the animation is in each node's parent space, as any
// glTF viewer plays it.
func TestBakePlaysInThreeJS(t *testing.T) {
	modules := threeModules(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "baked.glb")
	if code, _, errOut := runCLI("simulate", "-t", "2", "-bake", "-o", out, tumble); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	script := filepath.Join(dir, "play.mjs")
	os.WriteFile(script, []byte(threeScript), 0o644)
	// ES modules resolve from the script's folder.
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	times := []string{"0.25", "0.5", "1", "1.5", "2"}
	cmd := exec.Command("node", append([]string{script, out}, times...)...)
	res, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got struct {
		Duration float64 `json:"duration"`
		Tracks   int     `json:"tracks"`
		Samples  []struct {
			Time  string `json:"time"`
			Nodes map[string]struct {
				P [3]float64 `json:"p"`
				Q [4]float64 `json:"q"`
			} `json:"nodes"`
		} `json:"samples"`
	}
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatalf("%v: %s", err, res)
	}
	if got.Duration != 2 || got.Tracks != 8 {
		t.Errorf("three.js reads a clip of %g s with %d tracks, want 2 s and 8", got.Duration, got.Tracks)
	}
	for _, smp := range got.Samples {
		want := simulateProc(t, "-t", smp.Time, tumble)
		for _, b := range want.Bodies {
			n, ok := smp.Nodes[b.Name]
			if !ok {
				t.Fatalf("three.js has no node %q", b.Name)
			}
			if d := mgl64.Vec3(n.P).Sub(mgl64.Vec3(b.Position)).Len(); d > 0.001+1e-5 {
				t.Errorf("t = %s, %s: three.js at %v, simulate at %v (%.3g m apart)", smp.Time, b.Name, n.P, b.Position, d)
			}
			q := mgl64.Quat{W: n.Q[3], V: mgl64.Vec3{n.Q[0], n.Q[1], n.Q[2]}}
			wq := mgl64.Quat{W: b.Rotation[3], V: mgl64.Vec3{b.Rotation[0], b.Rotation[1], b.Rotation[2]}}
			if ang := 2 * math.Acos(math.Min(1, math.Abs(q.Dot(wq)))) * 180 / math.Pi; ang > 0.11 {
				t.Errorf("t = %s, %s: three.js rotation %.3g° from simulate's", smp.Time, b.Name, ang)
			}
		}
	}
}
