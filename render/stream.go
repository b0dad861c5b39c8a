package render

import (
	"fmt"
	"slices"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/qmuntal/gltf"

	"physview/render/imgdec"
)

// Textures are uploaded a band of rows at a time, so that the window can
// bound the GL work of one frame (Renderer.UploadBudget): on llvmpipe one
// 2048x2048 image with its mipmaps takes 20-40 ms to upload, and a file's
// nineteen of them, arriving together, froze the window for half a second.

// uploadBand is about how many bytes one glTexSubImage2D call uploads
// between two looks at the clock: 0.3-1 ms on llvmpipe.
const uploadBand = 512 << 10

// texUpload is one GL texture whose levels are being uploaded.
type texUpload struct {
	id       uint32
	levels   []*imgdec.Image // level 0 (the image), then 1 and down
	level    int             // the level being uploaded
	row      int             // its next row
	count    int32           // levels the texture has
	generate bool            // the driver builds the chain once level 0 is in
}

// beginTexture creates the GL texture for img with the glTF sampler's wrap
// and filter modes and the storage of its levels; step uploads the pixels.
// levels are mipmap levels 1 and down built by the workers; without them
// the driver builds the chain when the sampler samples mipmaps.
func beginTexture(img *imgdec.Image, levels []*imgdec.Image, sampler *gltf.Sampler, srgb bool) *texUpload {
	wrapS, wrapT := int32(gl.REPEAT), int32(gl.REPEAT)
	minF, magF := int32(gl.LINEAR_MIPMAP_LINEAR), int32(gl.LINEAR)
	if sampler != nil {
		wrapS, wrapT = glWrap(sampler.WrapS), glWrap(sampler.WrapT)
		switch sampler.MagFilter {
		case gltf.MagNearest:
			magF = gl.NEAREST
		}
		switch sampler.MinFilter {
		case gltf.MinNearest:
			minF = gl.NEAREST
		case gltf.MinLinear:
			minF = gl.LINEAR
		case gltf.MinNearestMipMapNearest:
			minF = gl.NEAREST_MIPMAP_NEAREST
		case gltf.MinLinearMipMapNearest:
			minF = gl.LINEAR_MIPMAP_NEAREST
		case gltf.MinNearestMipMapLinear:
			minF = gl.NEAREST_MIPMAP_LINEAR
		}
	}
	t := &texUpload{count: int32(len(levels) + 1)}
	if minF == gl.NEAREST || minF == gl.LINEAR {
		// Mipmaps would not be sampled.
		levels, t.count = nil, 1
	} else if levels == nil {
		// The driver builds the chain.
		for s := max(img.Width, img.Height); s > 1; s /= 2 {
			t.count++
		}
		t.generate = t.count > 1
	}
	t.levels = append([]*imgdec.Image{img}, levels...)

	gl.GenTextures(1, &t.id)
	gl.BindTexture(gl.TEXTURE_2D, t.id)
	internal := uint32(gl.RGBA8)
	if srgb {
		internal = gl.SRGB8_ALPHA8
	}
	if texStorage() {
		// Storage for the whole chain at once, then the pixels: on
		// llvmpipe a third faster than growing the texture level by level.
		gl.TexStorage2D(gl.TEXTURE_2D, t.count, internal, int32(img.Width), int32(img.Height))
	} else {
		for l, m := range t.levels {
			gl.TexImage2D(gl.TEXTURE_2D, int32(l), int32(internal), int32(m.Width), int32(m.Height), 0, gl.RGBA, gl.UNSIGNED_BYTE, nil)
		}
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, t.count-1)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrapS)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, wrapT)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, minF)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, magF)
	return t
}

// step uploads up to about maxBytes of rows (at least one) of the level
// under way and reports whether the texture is complete. glTF UV (0,0) is
// the image's top-left: rows go up top-first and the shader's UVs land
// where the file means them.
func (t *texUpload) step(maxBytes int) (done bool) {
	if t.level >= len(t.levels) {
		return true
	}
	m := t.levels[t.level]
	stride := m.Width * 4
	rows := min(m.Height-t.row, max(1, maxBytes/max(1, stride)))
	gl.BindTexture(gl.TEXTURE_2D, t.id)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	if rows > 0 {
		gl.TexSubImage2D(gl.TEXTURE_2D, int32(t.level), 0, int32(t.row), int32(m.Width), int32(rows), gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(m.Pix[t.row*stride:]))
	}
	t.row += rows
	if t.row < m.Height {
		return false
	}
	t.level, t.row = t.level+1, 0
	if t.level < len(t.levels) {
		return false
	}
	if t.generate {
		gl.GenerateMipmap(gl.TEXTURE_2D)
	}
	return true
}

// uploadTexture creates and fills a GL texture at once (beginTexture, then
// every step).
func uploadTexture(img *imgdec.Image, levels []*imgdec.Image, sampler *gltf.Sampler, srgb bool) uint32 {
	t := beginTexture(img, levels, sampler, srgb)
	for !t.step(1 << 62) {
	}
	return t.id
}

// imageUpload is one decoded image whose GL textures are being made: one
// per (texture, colour space) pair the materials show it with, shared by
// the pairs of one sampler and colour space.
type imageUpload struct {
	di     *decodedImage
	keys   []texKey // the pairs left, keys[0] the one under way
	shared map[glKey]uint32
	tex    *texUpload // keys[0]'s texture, nil before it starts
	old    []uint32   // the preview's textures this whole image replaces
}

// startImage takes in one arrived image: a failed one is noted and given
// its fallbacks at once; otherwise it returns the upload to run.
func (r *Renderer) startImage(di *decodedImage) *imageUpload {
	if di.err != nil {
		r.Messages = append(r.Messages, fmt.Sprintf("image %d: %v (%s)", di.index, di.err, r.failedImageShown(di.index)))
	}
	if di.err != nil || di.img == nil {
		r.decoded[di.index] = di
		r.uploadImage(di)
		return nil
	}
	return &imageUpload{di: di, keys: r.imageUses[di.index], shared: map[glKey]uint32{}}
}

// stepImage does the next piece of u's upload: the storage of its next
// texture, or about maxBytes of rows. It reports whether all its textures
// are made (its pixels are then freed) and what it did (begun: the
// storage, else rows; bytes: their size), for the cost estimates.
func (r *Renderer) stepImage(u *imageUpload, maxBytes int) (done, begun bool, bytes int) {
	d := r.doc
	for len(u.keys) > 0 {
		k := u.keys[0]
		if u.tex == nil {
			if _, ok := r.textures[k]; ok && !u.di.refines {
				u.keys = u.keys[1:]
				continue
			}
			tex := d.GLTF.Textures[k.texture]
			gk := glKey{u.di.index, -1, k.srgb}
			var sampler *gltf.Sampler
			if s := tex.Sampler; s != nil && *s >= 0 && *s < len(d.GLTF.Samplers) {
				sampler, gk.sampler = d.GLTF.Samplers[*s], *s
			}
			if id, ok := u.shared[gk]; ok {
				u.replace(r, k, id)
				u.keys = u.keys[1:]
				continue
			}
			u.tex = beginTexture(u.di.img, u.di.levels, sampler, k.srgb)
			r.uploads++
			// The storage alone: on llvmpipe allocating (and clearing)
			// a 2048x2048 chain takes 15-50 ms, a step of its own.
			return false, true, u.tex.bytes()
		}
		bytes = u.tex.nextBytes(maxBytes)
		if !u.tex.step(maxBytes) {
			return false, false, bytes
		}
		// keys[0]'s texture is complete.
		gk := glKey{u.di.index, -1, k.srgb}
		if s := d.GLTF.Textures[k.texture].Sampler; s != nil && *s >= 0 && *s < len(d.GLTF.Samplers) {
			gk.sampler = *s
		}
		u.shared[gk] = u.tex.id
		u.replace(r, k, u.tex.id)
		u.tex, u.keys = nil, u.keys[1:]
		return false, false, bytes // one texture a step: the caller looks at the clock
	}
	r.decoded[u.di.index] = u.di
	TraceStart("upload %d done (preview %v)", u.di.index, u.di.preview)
	if r.UploadBudget > 0 {
		freeSoon(u.di) // the window: off the frame
	} else {
		u.di.free()
	}
	if u.di.refines {
		if len(u.old) > 0 {
			gl.DeleteTextures(int32(len(u.old)), &u.old[0])
		}
		delete(r.refine, u.di.index)
	}
	return true, false, bytes
}

// nextUpload returns the size of the next piece of the upload under way,
// and whether it is a texture's storage (see stepImage).
func (r *Renderer) nextUpload(maxBytes int) (begin bool, bytes int) {
	u := r.current
	if u == nil {
		if len(r.queue) == 0 || r.queue[0].img == nil {
			return false, 0
		}
		img := r.queue[0].img
		return true, img.Width * img.Height * 4 * 4 / 3
	}
	if u.tex == nil {
		if len(u.keys) == 0 {
			return false, 0
		}
		return true, u.di.img.Width * u.di.img.Height * 4 * 4 / 3
	}
	return false, u.tex.nextBytes(maxBytes)
}

// uploadCost estimates what an upload step costs on this GL from the
// steps done so far: the time per byte of storage allocated and of rows
// copied.
type uploadCost struct {
	beginPerByte, rowsPerByte float64 // ns
}

// Before any step is measured: llvmpipe on a quiet 2-core machine.
const (
	initialBeginPerByte = 1.0 // ns: 22 MB of 2048x2048 chain in 22 ms
	initialRowsPerByte  = 4.0 // ns: 512 KB of rows in 2 ms
)

func (c *uploadCost) estimate(begin bool, bytes int) time.Duration {
	per := c.rowsPerByte
	if begin {
		per = c.beginPerByte
	}
	return time.Duration(per * float64(bytes))
}

// measured takes in the time d a step of bytes took: a slower step
// raises the estimate at once (the machine got busy), a faster one
// lowers it a quarter of the way.
func (c *uploadCost) measured(begin bool, bytes int, d time.Duration) {
	if bytes < 64<<10 {
		return // too small to say anything per byte
	}
	per := &c.rowsPerByte
	if begin {
		per = &c.beginPerByte
	}
	if x := float64(d) / float64(bytes); x > *per {
		*per = (*per + x) / 2
	} else {
		*per = (*per*3 + x) / 4
	}
}

// replace makes id k's texture; the preview's texture it replaces is
// deleted once the whole image is up (another key may still show it).
func (u *imageUpload) replace(r *Renderer, k texKey, id uint32) {
	if old, ok := r.textures[k]; ok && u.di.refines && old != r.missing && !slices.Contains(u.old, old) {
		u.old = append(u.old, old)
	}
	r.textures[k] = id
	r.texChanges++
}

// uploadSome uploads the images that arrived, for about budget (none: all
// of them), and returns how many were completed. Every call with a budget
// of 0 or more makes at least one step; the next is taken only when its
// estimated cost fits in what is left of the budget. A budget below 0
// makes none (the next storage's reserve may start).
func (r *Renderer) uploadSome(budget time.Duration) (completed int) {
	r.blocked = nil
	if budget < 0 {
		r.reserveNext()
		return 0
	}
	start := time.Now()
	if r.cost.beginPerByte == 0 {
		r.cost = uploadCost{initialBeginPerByte, initialRowsPerByte}
	}
	stepped := false
	for len(r.queue) > 0 || r.current != nil {
		if budget > 0 {
			begin, bytes := r.nextUpload(uploadBand)
			if stepped && time.Since(start)+r.cost.estimate(begin, bytes) > budget {
				break
			}
			if begin && !r.storageMayStart(bytes) {
				break // its pages are being faulted in (reserve.go)
			}
		}
		if r.current == nil {
			di := r.queue[0]
			r.queue = r.queue[1:]
			if r.current = r.startImage(di); r.current == nil {
				completed++
				continue
			}
		}
		var faults int64
		if r.NoteSteps {
			faults = threadFaults()
		}
		s := time.Now()
		done, begun, bytes := r.stepImage(r.current, uploadBand)
		if budget > 0 {
			r.cost.measured(begun, bytes, time.Since(s))
			if r.NoteSteps {
				r.noteStep(begun, bytes, time.Since(s), threadFaults()-faults)
			}
			if begun {
				// The next storage's pages, while this one's rows go up.
				r.reserveNext()
			}
		}
		stepped = stepped || bytes > 0
		if done {
			r.current = nil
			completed++
		}
	}
	if budget > 0 {
		r.reserveNext()
	}
	return completed
}

// bytes is the size of the texture's levels.
func (t *texUpload) bytes() int {
	n := 0
	w, h := t.levels[0].Width, t.levels[0].Height
	for l := int32(0); l < t.count; l++ {
		n += w * h * 4
		w, h = max(1, w/2), max(1, h/2)
	}
	return n
}

// nextBytes is about how many bytes the next step(maxBytes) uploads.
func (t *texUpload) nextBytes(maxBytes int) int {
	if t.level >= len(t.levels) {
		return 0
	}
	m := t.levels[t.level]
	stride := max(1, m.Width*4)
	rows := min(m.Height-t.row, max(1, maxBytes/stride))
	return rows * stride
}

// dropUploads frees the images waiting for upload and the texture under
// way, for a document no longer shown.
func (r *Renderer) dropUploads() {
	if u := r.current; u != nil {
		if u.tex != nil {
			gl.DeleteTextures(1, &u.tex.id)
		}
		if len(u.old) > 0 { // previews already replaced in r.textures
			gl.DeleteTextures(int32(len(u.old)), &u.old[0])
		}
		u.di.free()
		r.current = nil
	}
	for _, di := range r.queue {
		di.free()
	}
	r.queue = nil
	r.dropReserve()
}

// freeSoon frees di's pixels as free does, but unmaps them on another
// thread: the driver has copied them, and unmapping a 2048x2048 image
// with its mipmaps (22 MB) cost the window's frame 2-12 ms.
func freeSoon(di *decodedImage) {
	img, levels, budget, reserved := di.img, di.levels, di.budget, di.reserved
	di.img, di.levels, di.reserved = nil, nil, 0
	go func() {
		defer func() { _ = recover() }()
		img.Free()
		for _, l := range levels {
			l.Free()
		}
		if budget != nil {
			budget.Give(reserved)
		}
	}()
}
