package render

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl64"

	"physview/render/imgdec"
	"physview/scene"
)

// EnvFile is the document's own lighting environment: the
// EXT_lights_image_based light of its shown scene. A document without one
// is lit by the studio.
const EnvFile Environment = numEnvironments

// fileEnvMaps is an EXT_lights_image_based light read from a document:
// its prefiltered specular cube (the file's mip levels, radiance in
// linear light times the light's intensity), irradiance as the shader's
// spherical harmonics, and the rotation from world to environment
// directions.
type fileEnvMaps struct {
	size   int            // face size of level 0
	levels [][6][]float32 // RGB per face, level by level
	sh     [9][3]float32  // irradiance / pi
	toEnv  [9]float32     // column-major mat3: world direction to the environment's
	name   string
}

// readImageBasedLight reads light i of the document's
// EXT_lights_image_based list, decoding its face images (PNGs with alpha
// are RGBD, others LDR sRGB) from dir.
func readImageBasedLight(d *scene.Document, dir string, i int) (*fileEnvMaps, error) {
	var defs struct {
		Lights []struct {
			Name        string       `json:"name"`
			Rotation    *[4]float64  `json:"rotation"`
			Intensity   *float64     `json:"intensity"`
			Irradiance  [][3]float64 `json:"irradianceCoefficients"`
			SpecularSz  int          `json:"specularImageSize"`
			SpecularImg [][]int      `json:"specularImages"`
		} `json:"lights"`
	}
	if !rawExtension(d.GLTF.Extensions, "EXT_lights_image_based", &defs) || i < 0 || i >= len(defs.Lights) {
		return nil, fmt.Errorf("no image-based light %d", i)
	}
	l := defs.Lights[i]
	intensity := 1.0
	if l.Intensity != nil {
		intensity = *l.Intensity
	}
	if len(l.SpecularImg) == 0 {
		return nil, fmt.Errorf("image-based light %d has no specularImages", i)
	}
	m := &fileEnvMaps{name: l.Name}
	for level, faces := range l.SpecularImg {
		if len(faces) != 6 {
			return nil, fmt.Errorf("image-based light %d: specularImages[%d] has %d faces, want 6", i, level, len(faces))
		}
		var lv [6][]float32
		n := 0
		for f, img := range faces {
			if img < 0 || img >= len(d.GLTF.Images) {
				return nil, fmt.Errorf("image-based light %d: specularImages[%d][%d]: image %d does not exist", i, level, f, img)
			}
			data, err := imageBytes(d, dir, img)
			if err != nil {
				return nil, fmt.Errorf("image-based light %d: image %d: %w", i, img, err)
			}
			pix, err := imgdec.Decode(data)
			if err != nil {
				return nil, fmt.Errorf("image-based light %d: image %d: %w", i, img, err)
			}
			if pix.Width != pix.Height || (n != 0 && pix.Width != n) {
				pix.Free()
				return nil, fmt.Errorf("image-based light %d: image %d is %dx%d, want square faces of one size per level", i, img, pix.Width, pix.Height)
			}
			n = pix.Width
			lv[f] = faceRadiance(pix.Pix, isRGBD(data), intensity)
			pix.Free()
		}
		if level == 0 {
			m.size = n
		} else if n != m.size>>level {
			return nil, fmt.Errorf("image-based light %d: level %d faces are %d pixels, want %d (half of each level above)", i, level, n, m.size>>level)
		}
		m.levels = append(m.levels, lv)
	}
	if len(l.Irradiance) == 9 {
		for k, c := range l.Irradiance {
			for ch := 0; ch < 3; ch++ {
				m.sh[k][ch] = float32(c[ch] * intensity / math.Pi)
			}
		}
	} else {
		// No (usable) coefficients: project the sharpest level.
		m.sh = irradianceSH(&cube{n: m.size, faces: m.levels[0]})
	}
	q := mgl64.QuatIdent()
	if l.Rotation != nil {
		r := *l.Rotation
		q = mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}.Normalize()
	}
	// The environment turned by q shows in world direction d what it
	// holds at q^-1 d.
	inv := q.Inverse().Mat4().Mat3()
	for k := range m.toEnv {
		m.toEnv[k] = float32(inv[k])
	}
	return m, nil
}

// isRGBD reports whether encoded image data is a PNG with an alpha
// channel, which EXT_lights_image_based reads as RGBD.
func isRGBD(data []byte) bool {
	if len(data) < 26 || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		return false
	}
	ct := data[25] // IHDR colour type
	return ct == 4 || ct == 6
}

// faceRadiance turns RGBA8 pixels into linear RGB radiance times scale:
// RGBD (gamma-encoded colour divided by the alpha, as Babylon.js packs
// it) or an LDR sRGB image.
func faceRadiance(pix []byte, rgbd bool, scale float64) []float32 {
	out := make([]float32, 0, len(pix)/4*3)
	for p := 0; p+3 < len(pix); p += 4 {
		d := 1.0
		if rgbd {
			d = math.Max(float64(pix[p+3])/255, 1.0/255)
		}
		for c := 0; c < 3; c++ {
			v := float64(pix[p+c]) / 255
			if rgbd {
				v = math.Pow(v, 2.2) / d
			} else {
				v = srgbToLinear(v)
			}
			out = append(out, float32(v*scale))
		}
	}
	return out
}

func srgbToLinear(v float64) float64 {
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// uploadFileEnv makes the cube map of a file's environment.
func uploadFileEnv(m *fileEnvMaps) *gpuEnv {
	g := &gpuEnv{sh: m.sh, mips: len(m.levels), toEnv: m.toEnv}
	gl.GenTextures(1, &g.cube)
	gl.BindTexture(gl.TEXTURE_CUBE_MAP, g.cube)
	for level, faces := range m.levels {
		n := int32(m.size >> level)
		for f := 0; f < 6; f++ {
			gl.TexImage2D(gl.TEXTURE_CUBE_MAP_POSITIVE_X+uint32(f), int32(level), gl.RGB16F, n, n, 0, gl.RGB, gl.FLOAT, gl.Ptr(faces[f]))
		}
	}
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_BASE_LEVEL, 0)
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAX_LEVEL, int32(len(m.levels)-1))
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR)
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	for _, w := range []uint32{gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T, gl.TEXTURE_WRAP_R} {
		gl.TexParameteri(gl.TEXTURE_CUBE_MAP, w, gl.CLAMP_TO_EDGE)
	}
	return g
}

// fileEnvironment returns the document's own environment on the GPU,
// reading it on first use, or nil when the document has none or it does
// not read (said once in Messages).
func (r *Renderer) fileEnvironment() *gpuEnv {
	if r.fileEnvRead || r.doc == nil {
		return r.fileEnv
	}
	r.fileEnvRead = true
	i := r.doc.ImageBasedLight()
	if i < 0 {
		return nil
	}
	m, err := readImageBasedLight(r.doc, filepath.Dir(r.doc.Path), i)
	if err != nil {
		r.Messages = append(r.Messages, fmt.Sprintf("EXT_lights_image_based: %v (lit by the studio instead)", err))
		return nil
	}
	r.fileEnv = uploadFileEnv(m)
	return r.fileEnv
}

// releaseFileEnv deletes the document's environment, if it was uploaded.
func (r *Renderer) releaseFileEnv() {
	if r.fileEnv != nil {
		gl.DeleteTextures(1, &r.fileEnv.cube)
	}
	r.fileEnv, r.fileEnvRead = nil, false
}
