package render

// textureSourceExtensions are the texture extensions whose `source` names
// an image the decoders read, in the order they are preferred over the
// core source: KHR_texture_basisu (KTX 2.0, package imgdec/ktx2),
// EXT_texture_avif (libavif), EXT_texture_webp.
var textureSourceExtensions = []string{"KHR_texture_basisu", "EXT_texture_avif", "EXT_texture_webp"}
