package render

import (
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/qmuntal/gltf"

	"physview/internal/testcorpus"
	"physview/render/imgdec"
	"physview/scene"
)

var breakdown = flag.Bool("breakdown", false, "print where the time to a textured frame goes, stage by stage, for the start-up benchmark's models")

// startupModels are the models of cmd/startbench.
var startupModels = []string{
	"gltf-sample-assets/Models/DamagedHelmet/glTF-Binary/DamagedHelmet.glb",
	"gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp.gltf",
	"gltf-sample-assets/Models/GlamVelvetSofa/glTF-Binary/GlamVelvetSofa.glb",
	"gltf-sample-assets/Models/BrainStem/glTF-Binary/BrainStem.glb",
}

// cpuTime is the CPU time this process used so far (every thread: the Go
// workers and llvmpipe's), which a shared machine disturbs less than wall
// time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// stage is the wall and CPU time of one step.
type stage struct{ wall, cpu time.Duration }

func (s stage) String() string {
	return fmt.Sprintf("%4d/%4d", s.wall.Milliseconds(), s.cpu.Milliseconds())
}

func timed(f func()) stage {
	w, c := time.Now(), cpuTime()
	f()
	return stage{time.Since(w), cpuTime() - c}
}

// imageUsesOf lists the (texture, sRGB) pairs of each image of d.
func imageUsesOf(d *scene.Document) map[int][]texKey {
	mats := make([]material, len(d.GLTF.Materials))
	for i, m := range d.GLTF.Materials {
		mats[i] = newMaterial(m)
	}
	return imageUses(d, mats)
}

// TestStartupBreakdown times each stage between reading a model and its
// first textured frame, one stage after the other (the real path overlaps
// them): go test ./render -run Breakdown -breakdown -v
func TestStartupBreakdown(t *testing.T) {
	if !*breakdown {
		t.Skip("run with -breakdown")
	}
	headless(t)
	fmt.Println("stage times in ms, wall/CPU")
	for _, rel := range startupModels {
		path := testcorpus.File(t, rel)
		var d *scene.Document
		var data [][]byte
		read := timed(func() {
			var err error
			if d, err = scene.Load(path); err != nil {
				t.Fatal(err)
			}
			data = make([][]byte, len(d.GLTF.Images))
			parallel(len(data), func(i int) { data[i], _ = imageBytes(d, filepath.Dir(path), i) })
		})
		n := len(data)
		decode := timed(func() {
			parallel(n, func(i int) { imgdec.DecodeStd(data[i]) })
		})
		// The window's first versions (SetPreviewSide(512)): JPEGs and
		// PNGs decoded reduced, one scratch per worker, with mipmaps.
		scratches := make(chan *imgdec.Scratch, runtime.NumCPU())
		for range cap(scratches) {
			scratches <- new(imgdec.Scratch)
		}
		previews := timed(func() {
			parallel(n, func(i int) {
				s := <-scratches
				defer func() { scratches <- s }()
				if m, err := s.DecodeReduced(data[i], 512); err == nil {
					for _, l := range imgdec.Mipmaps(m) {
						l.Free()
					}
					m.Free()
				}
			})
		})
		for range cap(scratches) {
			(<-scratches).Free()
		}
		imgs := make([]*imgdec.Image, n)
		fast := timed(func() {
			parallel(n, func(i int) { imgs[i], _ = imgdec.Decode(data[i]) })
		})
		levels := make([][]*imgdec.Image, n)
		mips := timed(func() {
			parallel(n, func(i int) {
				if imgs[i] != nil {
					levels[i] = imgdec.Mipmaps(imgs[i])
				}
			})
		})
		r, err := New()
		if err != nil {
			t.Fatal(err)
		}
		// Each used image once, as sRGB: level 0 alone, then with the
		// workers' mipmaps, then with the driver's.
		var ids []uint32
		up := func(withLevels bool, s *gltf.Sampler) stage {
			return timed(func() {
				for i, m := range imgs {
					if m != nil && len(imageUsesOf(d)[i]) > 0 {
						var l []*imgdec.Image
						if withLevels {
							l = levels[i]
						}
						ids = append(ids, uploadTexture(m, l, s, true))
					}
				}
				gl.Finish()
			})
		}
		upload := up(false, &gltf.Sampler{MinFilter: gltf.MinLinear})
		workerUpload := up(true, nil)
		driverMips := up(false, nil)
		for _, id := range ids {
			gl.DeleteTextures(1, &id)
		}
		for i, m := range imgs {
			m.Free()
			for _, l := range levels[i] {
				l.Free()
			}
		}

		r.SetDocument(d)
		r.WaitTextures()
		lo, hi := r.Bounds()
		first := timed(func() {
			if _, err := r.RenderImage(NewCamera(lo, hi), 800, 600, DefaultOptions()); err != nil {
				t.Fatal(err)
			}
		})
		second := timed(func() {
			if _, err := r.RenderImage(NewCamera(lo, hi), 800, 600, DefaultOptions()); err != nil {
				t.Fatal(err)
			}
		})
		r.Delete()
		fmt.Printf("%-22s %2d images  read %v  decode: std %v, cgo %v  previews (512, reduced, with mipmaps) %v  upload level 0 %v  mipmaps: workers %v + upload %v, or upload + glGenerateMipmap %v  first draw %v  next draw %v\n",
			filepath.Base(path), n, read, decode, fast, previews, upload, mips, workerUpload, driverMips, first, second)
	}
}
