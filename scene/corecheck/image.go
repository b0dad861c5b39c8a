package corecheck

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	iofs "io/fs"
	"strings"

	"github.com/qmuntal/gltf"
)

// checkImages checks each image's URI and the structure of its data: the
// format recognised from the first bytes against the declared media type,
// and the PNG chunks or JPEG segments up to the image data, read through
// ReaderAt so a large external image costs a few small reads, not a copy.
// Images are not decoded (the renderer does that).
func checkImages(doc *gltf.Document, sc *schema, dir iofs.FS, glb bool, fs *findings) {
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
		switch {
		case im.BufferView != nil:
			if bv := l2view(doc, *im.BufferView); bv != nil && bv.ByteStride != 0 {
				fs.addc(Error, "IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", p+"/bufferView", "buffer views of images must not have byteStride")
			}
			data, _ := viewBytes(doc, *im.BufferView)
			if data == nil {
				continue
			}
			r, size = bytes.NewReader(data), int64(len(data))
		case uri == "":
			continue
		case strings.HasPrefix(uri, "data:"):
			if glb {
				fs.addc(Warning, "DATA_URI_GLB", p+"/uri", "data URI used in a GLB container")
			}
			media, data, err := decodeDataURI(uri)
			if err != nil {
				fs.addc(Error, "INVALID_URI", p+"/uri", "invalid data URI: %v", err)
				continue
			}
			switch media {
			case "image/png", "image/jpeg", "image/webp", "image/ktx2":
				declared = media
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
			if dir == nil || !ok || !iofs.ValidPath(name) {
				continue
			}
			f, err := dir.Open(name)
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
			checkImageData(ra, st.Size(), declared, webp, p, fs)
			f.Close()
			continue
		}
		checkImageData(r, size, declared, webp, p, fs)
	}
}

func l2view(doc *gltf.Document, i int) *gltf.BufferView {
	if i < 0 || i >= len(doc.BufferViews) {
		return nil
	}
	return doc.BufferViews[i]
}

func checkImageData(r io.ReaderAt, size int64, declared string, webp bool, p string, fs *findings) {
	head := make([]byte, 12)
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	var found string
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		found = "image/png"
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8}):
		found = "image/jpeg"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		found = "image/webp"
	case bytes.HasPrefix(head, []byte("\xabKTX 20\xbb")):
		found = "image/ktx2"
	}
	if found == "" {
		fs.addc(Warning, "IMAGE_UNRECOGNIZED_FORMAT", p, "image format not recognised")
		return
	}
	if declared != "" && declared != found {
		fs.addc(Error, "IMAGE_MIME_TYPE_INVALID", p, "the data is %s, the declared type %s", found, declared)
	}
	if found == "image/webp" && !webp {
		fs.addc(Error, "IMAGE_NON_ENABLED_MIME_TYPE", p, "image/webp needs the EXT_texture_webp extension")
	}
	switch found {
	case "image/png":
		checkPNG(r, size, p, fs)
	case "image/jpeg":
		checkJPEG(r, size, p, fs)
	}
}

// checkPNG walks the chunk headers up to IEND.
func checkPNG(r io.ReaderAt, size int64, p string, fs *findings) {
	off := int64(8)
	hdr := make([]byte, 8)
	for first := true; ; first = false {
		if n, _ := r.ReadAt(hdr, off); n < 8 {
			fs.addc(Error, "IMAGE_UNEXPECTED_EOS", p, "the PNG stream ends at byte %d before its IEND chunk", size)
			return
		}
		n := int64(binary.BigEndian.Uint32(hdr))
		typ := string(hdr[4:])
		if first && typ != "IHDR" {
			fs.addc(Error, "IMAGE_DATA_INVALID", p, "the first PNG chunk is %q, not IHDR", typ)
			return
		}
		off += 8 + n + 4
		if off > size {
			fs.addc(Error, "IMAGE_UNEXPECTED_EOS", p, "the PNG chunk %q runs past the end of the data (%d bytes)", typ, size)
			return
		}
		if typ == "IEND" {
			return
		}
	}
}

// checkJPEG walks the marker segments up to the start of scan.
func checkJPEG(r io.ReaderAt, size int64, p string, fs *findings) {
	off := int64(2)
	b := make([]byte, 4)
	for {
		if n, _ := r.ReadAt(b, off); n < 4 {
			fs.addc(Error, "IMAGE_UNEXPECTED_EOS", p, "the JPEG stream ends at byte %d before its image data", size)
			return
		}
		if b[0] != 0xFF {
			fs.addc(Error, "IMAGE_DATA_INVALID", p, "invalid JPEG marker at byte %d", off)
			return
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
			return
		}
		if m == 0xDA || m == 0xD9 {
			return
		}
		off += 2 + n
		if off > size {
			fs.addc(Error, "IMAGE_UNEXPECTED_EOS", p, "a JPEG segment runs past the end of the data (%d bytes)", size)
			return
		}
	}
}
