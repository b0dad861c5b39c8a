package render

import (
	"path/filepath"

	"github.com/qmuntal/gltf"

	"physview/render/imgdec"
)

// textureSourceExtensions are the texture extensions whose `source` names
// an image the decoders read, in the order they are preferred over the
// core source: KHR_texture_basisu (KTX 2.0, package imgdec/ktx2),
// EXT_texture_avif (libavif), EXT_texture_webp.
var textureSourceExtensions = []string{"KHR_texture_basisu", "EXT_texture_avif", "EXT_texture_webp"}

// coreFallback returns the core `source` of texture t when an extension
// names another image (the fallback files carry for viewers without the
// extension), or -1.
func (r *Renderer) coreFallback(t, failed int) int {
	d := r.doc
	if t < 0 || t >= len(d.GLTF.Textures) {
		return -1
	}
	src := d.GLTF.Textures[t].Source
	if src == nil || *src == failed || *src < 0 || *src >= len(d.GLTF.Images) {
		return -1
	}
	return *src
}

// failedImageShown says what the textures of an image that could not be
// decoded show: the core fallback image of each texture, or magenta.
func (r *Renderer) failedImageShown(image int) string {
	for _, k := range r.imageUses[image] {
		if r.coreFallback(k.texture, image) < 0 {
			return "shown magenta"
		}
	}
	if len(r.imageUses[image]) == 0 {
		return "shown magenta"
	}
	return "the textures' fallback image is shown"
}

// uploadFallback gives the GL texture of k the texture's core source image
// when the image an extension named (KTX2, AVIF, WebP) could not be
// decoded, and says whether it did. It decodes that image here, on the GL
// thread: this is an error path, and the fallback is not decoded
// otherwise.
func (r *Renderer) uploadFallback(k texKey, failed int) bool {
	src := r.coreFallback(k.texture, failed)
	if src < 0 {
		return false
	}
	d := r.doc
	// A fallback decoded alone, freed right after: a budget of its own.
	img, levels, _, err := decodeImage(d, filepath.Dir(d.Path), src, imgdec.NewBudget(imgdec.DocumentPixelBytes))
	if err != nil {
		return false
	}
	if levels == nil && mipmapsOnWorkers {
		levels = imgdec.Mipmaps(img)
	}
	fb := decodedImage{index: src, img: img, levels: levels}
	defer fb.free()
	var sampler *gltf.Sampler
	if s := d.GLTF.Textures[k.texture].Sampler; s != nil && *s >= 0 && *s < len(d.GLTF.Samplers) {
		sampler = d.GLTF.Samplers[*s]
	}
	r.textures[k] = uploadTexture(img, levels, sampler, k.srgb)
	r.uploads++
	return true
}
