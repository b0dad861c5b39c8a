package corecheck

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"math"
	"strings"

	"github.com/qmuntal/gltf"
	xwebp "golang.org/x/image/webp"
)

// checkImages checks each image's URI and the structure of its data: the
// format recognised from the first bytes against the declared media type,
// and the PNG chunks or JPEG segments up to the image data, read through
// ReaderAt so a large external image costs a few small reads, not a copy.
// Images are not decoded (the renderer does that).
func checkImages(doc *gltf.Document, sc *schema, dir iofs.FS, glb bool, fs *findings) {
	needsPOT := potImages(doc, sc)
	webp := false
	for _, e := range doc.ExtensionsUsed {
		webp = webp || e == "EXT_texture_webp"
	}
	imgs, _ := sc.root["images"].([]any)
	for i, im := range doc.Images {
		p := fmt.Sprintf("/images/%d", i)
		raw := map[string]any{}
		if i < len(imgs) {
			raw = asMap(imgs[i])
		}
		uri, _ := raw["uri"].(string)
		declared := im.MimeType
		var r io.ReaderAt
		var size int64
		if im.BufferView != nil {
			if bv := l2view(doc, *im.BufferView); bv != nil && bv.ByteStride != 0 {
				fs.addc(Error, "IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", p+"/bufferView", "buffer views of images must not have byteStride")
			}
		}
		switch {
		// With both a uri and a buffer view (ONE_OF_MISMATCH), the image
		// is read from its uri, as the Khronos validator reads it.
		case im.BufferView != nil && uri == "":
			data, _ := viewBytes(doc, *im.BufferView)
			if data == nil {
				continue
			}
			r, size = bytes.NewReader(data), int64(len(data))
		case uri == "":
			continue
		case strings.HasPrefix(uri, "data:"):
			if glb {
				fs.addc(Info, "URI_GLB", p+"/uri", "URI used in a GLB container")
				fs.addc(Warning, "DATA_URI_GLB", p+"/uri", "data URI used in a GLB container")
			}
			media, data, err := decodeDataURI(uri)
			if err != nil {
				fs.addc(Error, "INVALID_URI", p+"/uri", "invalid data URI: %v", err)
				continue
			}
			switch media {
			case "image/png", "image/jpeg", "image/webp", "image/ktx2":
				// The data URI's media type must name its content;
				// the image's mimeType, when set, is compared with the
				// content below (IMAGE_MIME_TYPE_INVALID).
				// (content that is no image format at all included).
				if found := sniffImage(data); found != media {
					if found == "" {
						found = "not an image format"
					}
					fs.addc(Error, "INVALID_URI", p+"/uri", "the data URI's media type %s does not match its content (%s)", media, found)
					continue
				}
			case "application/gltf-buffer", "application/octet-stream":
			default:
				fs.addc(Error, "INVALID_URI", p+"/uri", "the data URI media type %q is not an image type glTF allows", media)
				continue
			}
			r, size = bytes.NewReader(data), int64(len(data))
		default:
			if glb {
				fs.addc(Info, "URI_GLB", p+"/uri", "URI used in a GLB container")
			}
			abs, err := parseURI(uri)
			if err != nil {
				fs.addc(Error, "INVALID_URI", p+"/uri", "invalid URI %q: %v", uri, err)
				continue
			}
			if abs {
				fs.addc(Warning, "NON_RELATIVE_URI", p+"/uri", "non-relative URI %q: remote images are never fetched", uri)
				continue
			}
			name, ok := localURI(uri)
			if dir == nil {
				continue
			}
			if !ok || !iofs.ValidPath(name) {
				// Refused like a link out of the folder (the file system
				// says so on Open): a model reads only its own folder.
				fs.addc(Error, "IO_ERROR", p+"/uri", "image %s is not read: it is outside the model's folder", uri)
				continue
			}
			f, err := openRegularFS(dir, name)
			if errors.Is(err, iofs.ErrNotExist) {
				fs.addc(Error, "IO_ERROR", p+"/uri", "%s", ResourceNotFound(uri))
				continue
			}
			if err != nil {
				fs.addc(Error, "IO_ERROR", p+"/uri", "cannot read image %s: %v", uri, unwrapPathError(err))
				continue
			}
			st, serr := f.Stat()
			ra, isRA := f.(io.ReaderAt)
			if serr != nil || !isRA {
				f.Close()
				continue
			}
			w, h := checkImageData(ra, st.Size(), declared, webp, p, p+"/uri", fs)
			f.Close()
			checkNPOT(w, h, needsPOT[i], p, fs)
			continue
		}
		mimeAt := p
		if uri != "" {
			mimeAt = p + "/uri"
		}
		w, h := checkImageData(r, size, declared, webp, p, mimeAt, fs)
		checkNPOT(w, h, needsPOT[i], p, fs)
	}
}

// sniffImage names the image format data starts with, or "".
func sniffImage(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8}):
		return "image/jpeg"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(head, []byte("\xabKTX 20\xbb")):
		return "image/ktx2"
	}
	return ""
}

// isAVIF reports whether the data starts with an ISO-BMFF ftyp box whose
// major or a compatible brand is AVIF's ("avif" for images, "avis" for
// sequences), as libavif recognises the files it decodes.
func isAVIF(r io.ReaderAt, size int64) bool {
	buf := make([]byte, 64)
	n, _ := r.ReadAt(buf, 0)
	buf = buf[:n]
	if len(buf) < 16 || string(buf[4:8]) != "ftyp" {
		return false
	}
	box := int(binary.BigEndian.Uint32(buf))
	if box < 16 || int64(box) > size {
		return false
	}
	box = min(box, len(buf))
	for i := 8; i+4 <= box; i += 4 {
		if i == 12 {
			continue // the minor version
		}
		if b := string(buf[i : i+4]); b == "avif" || b == "avis" {
			return true
		}
	}
	return false
}

func l2view(doc *gltf.Document, i int) *gltf.BufferView {
	if i < 0 || i >= len(doc.BufferViews) {
		return nil
	}
	return doc.BufferViews[i]
}

// checkImageData checks one image's bytes and returns its size in pixels
// (0, 0 when unknown). mimeAt is where a mismatch with the declared
// mimeType is reported: the URI, or the image with a buffer view.
func checkImageData(r io.ReaderAt, size int64, declared string, webp bool, p, mimeAt string, fs *findings) (w, h int) {
	head := make([]byte, 12)
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	found := sniffImage(head)
	if found == "" && isAVIF(r, size) {
		// The Khronos validator does not know AVIF and warns
		// IMAGE_UNRECOGNIZED_FORMAT; the renderer decodes it.
		fs.addc(Info, "IMAGE_AVIF", p, "AVIF image: the Khronos validator does not recognise the format; physview decodes it with libavif (EXT_texture_avif)")
		return 0, 0
	}
	if found == "" {
		fs.addc(Warning, "IMAGE_UNRECOGNIZED_FORMAT", p, "image format not recognised")
		return 0, 0
	}
	if declared != "" && declared != found {
		fs.addc(Error, "IMAGE_MIME_TYPE_INVALID", mimeAt, "the data is %s, the declared type %s", found, declared)
	}
	if found == "image/webp" && !webp {
		fs.addc(Error, "IMAGE_NON_ENABLED_MIME_TYPE", p, "image/webp needs the EXT_texture_webp extension")
	}
	switch found {
	case "image/png":
		return checkPNG(r, size, p, fs)
	case "image/jpeg":
		return checkJPEG(r, size, p, fs)
	case "image/webp":
		// Only the size, for IMAGE_NPOT_DIMENSIONS, as the Khronos
		// validator reads it from the VP8, VP8L or VP8X header.
		cfg, err := xwebp.DecodeConfig(io.NewSectionReader(r, 0, size))
		if err != nil {
			return 0, 0
		}
		return cfg.Width, cfg.Height
	}
	return 0, 0
}

// potImages marks the images a texture samples with mipmaps or repeating
// wrap (its sampler's, or the defaults when it has none), where
// non-power-of-two sizes are a problem for some implementations (WebGL 1).
// A texture's EXT_texture_webp source counts like its source (glTF-Transform
// writes WebP textures with no other).
func potImages(doc *gltf.Document, sc *schema) map[int]bool {
	out := map[int]bool{}
	texs, _ := sc.root["textures"].([]any)
	for i, t := range doc.Textures {
		var sources []int
		if t.Source != nil {
			sources = append(sources, *t.Source)
		}
		if i < len(texs) {
			w := asMap(asMap(asMap(texs[i])["extensions"])["EXT_texture_webp"])
			if f, isNum, inf := numberValue(w["source"]); isNum && !inf && f >= 0 && f == math.Trunc(f) && f < float64(len(doc.Images)) {
				sources = append(sources, int(f))
			}
		}
		if len(sources) == 0 {
			continue
		}
		need := true
		if t.Sampler != nil && *t.Sampler >= 0 && *t.Sampler < len(doc.Samplers) {
			s := doc.Samplers[*t.Sampler]
			mip := s.MinFilter != gltf.MinNearest && s.MinFilter != gltf.MinLinear // undefined may mipmap
			need = mip || s.WrapS != gltf.WrapClampToEdge || s.WrapT != gltf.WrapClampToEdge
		}
		for _, src := range sources {
			out[src] = out[src] || need
		}
	}
	return out
}

// checkNPOT reports IMAGE_NPOT_DIMENSIONS for an image with a side that
// is not a power of two, when a texture samples it with mipmaps or
// repeating wrap.
func checkNPOT(w, h int, needsPOT bool, p string, fs *findings) {
	pot := func(x int) bool { return x > 0 && x&(x-1) == 0 }
	if needsPOT && w > 0 && h > 0 && (!pot(w) || !pot(h)) {
		fs.addc(Info, "IMAGE_NPOT_DIMENSIONS", p, "the image is %dx%d, not a power of two on each side, and is sampled with mipmaps or repeating wrap", w, h)
	}
}

// checkPNG walks the chunk headers up to IEND and returns the size in
// IHDR. Colour-space chunks other than sRGB (iCCP, cHRM with other
// primaries, a gAMA other than sRGB's 1/2.2), non-square pixels (pHYs) and animation (acTL) are
// IMAGE_FEATURES_UNSUPPORTED.
func checkPNG(r io.ReaderAt, size int64, p string, fs *findings) (w, h int) {
	off := int64(8)
	hdr := make([]byte, 8)
	body := make([]byte, 9)
	featured := false
	feature := func(what string) {
		if !featured {
			fs.addc(Warning, "IMAGE_FEATURES_UNSUPPORTED", p, "the PNG has %s, which glTF implementations need not support", what)
			featured = true
		}
	}
	for first := true; ; first = false {
		if n, _ := r.ReadAt(hdr, off); n < 8 {
			fs.addc(Error, "IMAGE_UNEXPECTED_EOS", p, "the PNG stream ends at byte %d before its IEND chunk", size)
			return w, h
		}
		n := int64(binary.BigEndian.Uint32(hdr))
		typ := string(hdr[4:])
		if first && typ != "IHDR" {
			fs.addc(Error, "IMAGE_DATA_INVALID", p, "the first PNG chunk is %q, not IHDR", typ)
			return w, h
		}
		if k, _ := r.ReadAt(body[:min(n, 9)], off+8); int64(k) == min(n, 9) {
			switch {
			case typ == "IHDR" && n >= 8:
				w, h = int(binary.BigEndian.Uint32(body)), int(binary.BigEndian.Uint32(body[4:]))
			case typ == "iCCP":
				feature("an ICC colour profile (iCCP)")
			case typ == "cHRM" && n == 32:
				if !srgbChromaticities(r, off+8) {
					feature("chromaticities other than sRGB's (cHRM)")
				}
			case typ == "gAMA" && n >= 4 && binary.BigEndian.Uint32(body) != 45455:
				feature("a gamma other than sRGB's (gAMA)")
			case typ == "pHYs" && n >= 9 && binary.BigEndian.Uint32(body) != binary.BigEndian.Uint32(body[4:]):
				feature("non-square pixels (pHYs)")
			case typ == "acTL":
				feature("animation (acTL)")
			}
		}
		off += 8 + n + 4
		if off > size {
			fs.addc(Error, "IMAGE_UNEXPECTED_EOS", p, "the PNG chunk %q runs past the end of the data (%d bytes)", typ, size)
			return w, h
		}
		if typ == "IEND" {
			return w, h
		}
	}
}

// srgbChromaticities reports whether the cHRM chunk data at off holds the
// sRGB white point and primaries (x, y times 100000).
func srgbChromaticities(r io.ReaderAt, off int64) bool {
	b := make([]byte, 32)
	if n, _ := r.ReadAt(b, off); n < 32 {
		return false
	}
	want := [8]uint32{31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000}
	for i, w := range want {
		if binary.BigEndian.Uint32(b[4*i:]) != w {
			return false
		}
	}
	return true
}

// checkJPEG walks the marker segments up to the start of scan and returns
// the size in the frame header.
func checkJPEG(r io.ReaderAt, size int64, p string, fs *findings) (w, h int) {
	off := int64(2)
	b := make([]byte, 4)
	for {
		if n, _ := r.ReadAt(b, off); n < 4 {
			fs.addc(Error, "IMAGE_UNEXPECTED_EOS", p, "the JPEG stream ends at byte %d before its image data", size)
			return w, h
		}
		if b[0] != 0xFF {
			fs.addc(Error, "IMAGE_DATA_INVALID", p, "invalid JPEG marker at byte %d", off)
			return w, h
		}
		m := b[1]
		if m == 0xFF {
			off++
			continue
		}
		if m == 0x01 || (m >= 0xD0 && m <= 0xD7) {
			off += 2
			continue
		}
		n := int64(binary.BigEndian.Uint16(b[2:]))
		if n < 2 {
			fs.addc(Error, "IMAGE_DATA_INVALID", p, "invalid JPEG marker segment length %d at byte %d", n, off)
			return w, h
		}
		if m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC && n >= 7 {
			sof := make([]byte, 5)
			if k, _ := r.ReadAt(sof, off+4); k == 5 {
				h, w = int(binary.BigEndian.Uint16(sof[1:])), int(binary.BigEndian.Uint16(sof[3:]))
			}
		}
		if m == 0xDA || m == 0xD9 {
			return w, h
		}
		off += 2 + n
		if off > size {
			fs.addc(Error, "IMAGE_UNEXPECTED_EOS", p, "a JPEG segment runs past the end of the data (%d bytes)", size)
			return w, h
		}
	}
}
