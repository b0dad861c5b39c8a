package render

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/qmuntal/gltf"

	"physview/render/imgdec"
	"physview/scene"

	"physview/internal/guard"
)

// decodedImage is one glTF image decoded to RGBA (with levels 1 and down
// of its mipmap chain when the workers build them), or the reason it could
// not be decoded. The pixels are freed as soon as the GL driver has them.
type decodedImage struct {
	index  int
	img    *imgdec.Image
	levels []*imgdec.Image
	err    error
	// reserved is what the pixels took from budget, given back by free.
	reserved int64
	budget   *imgdec.Budget
	// preview is a reduced first version of the image (SetPreviewSide),
	// refines the full one that replaces it once every image has a
	// texture.
	preview, refines bool
}

// previewSide, above 0, makes each image larger than it arrive twice:
// first reduced to at most previewSide pixels a side, then whole.
var previewSide atomic.Int32

// SetPreviewSide makes the decoding started from now on send every image
// larger than side (in width or height) first reduced to at most side a
// side, and whole later: JPEGs are decoded reduced by libjpeg-turbo (a
// third of the full decode's time) and decoded whole once every image has
// its first version; other images are decoded whole at once and their
// mipmap level that fits is sent first. Renderer.Poll uploads the reduced
// versions first and reports pending 0 once each image has one, then
// replaces them (Refining counts those left): the window shows a textured
// model sooner and sharpens it a few frames later, as engines stream
// textures. 0 (the default, and what screenshots use) sends each image
// once, whole.
func SetPreviewSide(side int) { previewSide.Store(int32(max(0, side))) }

// mipmapsOnWorkers says who builds the mipmap chains: the decode workers
// (true) or the GL driver with glGenerateMipmap after the upload of level 0
// (false). On llvmpipe the workers take half the CPU time of the driver
// and run beside the decoding (go test ./render -run Breakdown -breakdown -v).
var mipmapsOnWorkers = true

// BackgroundDecoding makes the image decoders run below the process's
// priority (a nice value 5 higher, on Linux): the window sets it, so that
// its frames, which keep drawing while a file's images decode, take the
// CPU before the decoders do (on 2 cores, two decoders at the same
// priority left the frame's thread half of its core). 5 rather than more:
// on a machine busy with other programs the decoders still get a third
// of what each of those gets. Headless renders leave it unset: nothing
// there is more urgent than the decoding.
var BackgroundDecoding bool

// decodeImages decodes every image of the document on worker goroutines
// (one per CPU) and sends each result as it is ready, calling the wake
// hook (SetWake) after each; the channel is closed when all are done. Each
// image is decoded once, however many textures show it. The largest
// images are decoded first, so that no worker is left with a big one
// while the others are idle. Nothing here touches GL.
func decodeImages(d *scene.Document, dir string) <-chan decodedImage {
	n := len(d.GLTF.Images)
	out := make(chan decodedImage, 2*n) // twice with previews
	next := make(chan int, n)
	needed := imagesNeeded(d)
	queued := 0
	side := int(previewSide.Load())
	order := largestFirst(d, dir)
	if side > 0 {
		// The window warms a material's shaders once its previews
		// are in (render.Warm).
		order = materialsFirst(d, order)
	}
	for _, i := range order {
		if needed != nil && !needed[i] {
			// No primitive that can be drawn shows it: it arrives
			// undecoded, so that the count of pending images still ends.
			out <- decodedImage{index: i}
			continue
		}
		next <- i
		queued++
	}
	close(next)
	// The decoded pixels are budgeted from each image's header before it
	// is decoded (issue 31: small files declaring 16384x16384).
	budget := imgdec.NewBudget(imgdec.DocumentPixelBytes)
	// whole takes the JPEGs sent reduced first, to decode whole once
	// every image has been sent once (first closes then).
	whole := make(chan int, n)
	// gate holds the whole images back until the renderer has drawn the
	// previews (takeGate), so that they do not slow that first draw.
	gate := &decodeGate{ch: make(chan struct{})}
	if side > 0 {
		gates.Store((<-chan decodedImage)(out), gate)
	} else {
		gate.open()
	}
	// Each arrival wakes the window for a frame that uploads it; the
	// frames of a file's many images are spaced (wakeSoon), except the
	// one after the last image's first version: that frame draws the
	// textured model.
	var wk waker
	var sent atomic.Int32
	firstSent := func() {
		if int(sent.Add(1)) == queued {
			wk.now()
		} else {
			wk.soon()
		}
	}
	var wg, first sync.WaitGroup
	workers := min(n, runtime.NumCPU())
	first.Add(workers)
	decode := func(i int) (di decodedImage) {
		di = decodedImage{index: i, budget: budget}
		TraceStart("decode %d start", i)
		// A bug in a decoder fails this image (the error says
		// "internal error"), not the process.
		defer guard.Catch(&di.err)
		di.img, di.levels, di.reserved, di.err = decodeImage(d, dir, i, budget)
		TraceStart("decode %d decoded", i)
		if di.err == nil && mipmapsOnWorkers && di.levels == nil {
			di.levels = imgdec.Mipmaps(di.img)
		}
		TraceStart("decode %d mipmapped", i)
		return di
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if BackgroundDecoding {
				lowerThreadPriority()
			}
			// The worker's memory for the PNGs' inflated rows, reused
			// from one preview to the next.
			var scratch imgdec.Scratch
			for i := range next {
				if side > 0 {
					TraceStart("decode %d reduced start", i)
					if p, ok := decodeReduced(d, dir, i, side, budget, &scratch); ok {
						out <- p
						TraceStart("decode %d reduced sent", i)
						firstSent()
						whole <- i
						continue
					}
				}
				di := decode(i)
				if side > 0 && di.err == nil {
					if p, ok := reducedLevels(di, side); ok {
						out <- p
						di.refines = true
					}
				}
				out <- di
				TraceStart("decode %d sent", i)
				firstSent()
			}
			scratch.Free()
			first.Done()
			// Every worker decodes whole images after the first draw:
			// a PNG's whole decode costs a little more than its preview's
			// (30-40 ms of CPU at 2048x2048), and with one worker the
			// sharpening of a file of many PNGs took so long on a busy
			// machine that the view was redrawn every
			// StreamRedrawInterval meanwhile (a transmissive one costs
			// 0.3 s of CPU each time).
			<-gate.ch
			for i := range whole {
				if gate.dropped.Load() {
					continue // the document is no longer shown
				}
				di := decode(i)
				di.refines = true
				out <- di
				wk.soon()
			}
		}()
	}
	go func() {
		first.Wait()
		close(whole)
		wg.Wait()
		close(out)
	}()
	return out
}

// wakeInterval is the least time between two wakes of the window by
// decoded images (waker.soon): each wake costs a frame, 5-40 ms of CPU
// on llvmpipe taken from the decoders, and a file of 19 images made 19.
const wakeInterval = 80 * time.Millisecond

// waker spaces the wakes of one decoding by wakeInterval; a wake asked
// for sooner is sent when the interval is over (one for all asked
// meanwhile), so that none is lost.
type waker struct {
	mu   sync.Mutex
	last time.Time
	due  bool // a trailing wake is scheduled
}

// soon wakes the window now, or at the end of the interval.
func (w *waker) soon() {
	w.mu.Lock()
	if w.due {
		w.mu.Unlock()
		return
	}
	if d := wakeInterval - time.Since(w.last); d > 0 {
		w.due = true
		w.mu.Unlock()
		time.AfterFunc(d, func() {
			w.mu.Lock()
			w.due, w.last = false, time.Now()
			w.mu.Unlock()
			wake()
		})
		return
	}
	w.last = time.Now()
	w.mu.Unlock()
	wake()
}

// now wakes the window at once.
func (w *waker) now() {
	w.mu.Lock()
	w.last = time.Now()
	w.mu.Unlock()
	wake()
}

// gates holds, by the channel decodeImages returned, the gate of its
// whole JPEGs until a renderer takes it (takeGate).
var gates sync.Map

// decodeGate holds a decoding's whole JPEGs back: open lets the workers
// go on to them, drop skips them (the document is no longer shown).
type decodeGate struct {
	once    sync.Once
	ch      chan struct{}
	dropped atomic.Bool
}

func (g *decodeGate) open() {
	if g != nil {
		g.once.Do(func() { close(g.ch) })
	}
}

func (g *decodeGate) drop() {
	if g != nil {
		g.dropped.Store(true)
		g.open()
	}
}

// takeGate returns the gate of the decoding behind ch (nil when it has
// none, or it was taken).
func takeGate(ch <-chan decodedImage) *decodeGate {
	if g, ok := gates.LoadAndDelete(ch); ok {
		return g.(*decodeGate)
	}
	return nil
}

// decodeReduced decodes image i reduced to at most side a side when it
// is a JPEG or PNG larger than that (imgdec.Scratch.DecodeReduced, with
// the worker's scratch), with its mipmaps; ok is false otherwise, also
// when the reduced decode fails (the whole decode then says why). The
// reduced pixels are taken from budget too: an eighth of a JPEG over 8 x
// side pixels a side is still larger than side.
func decodeReduced(d *scene.Document, dir string, i, side int, budget *imgdec.Budget, scratch *imgdec.Scratch) (di decodedImage, ok bool) {
	var err error
	defer guard.Catch(&err)
	data, err := imageBytes(d, dir, i)
	if err != nil {
		return di, false
	}
	// A PNG's rows are inflated whole into the scratch: its whole size
	// is taken from budget while they are (a small file may declare
	// 16384x16384 pixels).
	var whole int64
	if bytes.HasPrefix(data, pngSignature) {
		if whole, err = budget.Take(data); err != nil {
			return di, false // the whole decode reports the budget
		}
	}
	img, err := scratch.DecodeReduced(data, side)
	budget.Give(whole)
	if err != nil {
		return di, false
	}
	need := int64(img.Width) * int64(img.Height) * 4 * 4 / 3
	if budget.Reserve(need) != nil {
		img.Free()
		return di, false // the whole decode reports the budget
	}
	di = decodedImage{index: i, img: img, preview: true, budget: budget, reserved: need}
	if mipmapsOnWorkers {
		di.levels = imgdec.Mipmaps(img)
	}
	return di, true
}

// pngSignature starts every PNG file.
var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// reducedLevels returns a copy of the levels of di's mipmap chain from the
// first no larger than side a side, as a preview of di; ok is false when
// di is no larger than side or has no chain.
func reducedLevels(di decodedImage, side int) (p decodedImage, ok bool) {
	// It runs on a decode worker: a panic leaves the image without a
	// preview (the whole image still comes), not the process down.
	var err error
	defer func() {
		if err != nil {
			p.free()
			p, ok = decodedImage{}, false
		}
	}()
	defer guard.Catch(&err)
	if di.img == nil || di.img.Width <= side && di.img.Height <= side {
		return p, false
	}
	for l, m := range di.levels {
		if m.Width <= side && m.Height <= side {
			p = decodedImage{index: di.index, preview: true}
			for _, c := range di.levels[l:] {
				cp := imgdec.Clone(c)
				if cp == nil {
					p.free()
					return p, false
				}
				if p.img == nil {
					p.img = cp
				} else {
					p.levels = append(p.levels, cp)
				}
			}
			return p, true
		}
	}
	return p, false
}

// largestFirst returns the indices of d's images, largest encoded size
// first (files next to the document are sized with a stat, which costs far
// less than the read the worker does anyway).
func largestFirst(d *scene.Document, dir string) []int {
	n := len(d.GLTF.Images)
	order := make([]int, n)
	size := make([]int64, n)
	for i, im := range d.GLTF.Images {
		order[i] = i
		switch {
		case im.BufferView != nil:
			if v := *im.BufferView; v >= 0 && v < len(d.GLTF.BufferViews) {
				size[i] = int64(d.GLTF.BufferViews[v].ByteLength)
			}
		case strings.HasPrefix(im.URI, "data:"):
			size[i] = int64(len(im.URI)) * 3 / 4
		case im.URI != "":
			if name := filepath.FromSlash(im.URI); filepath.IsLocal(name) {
				if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
					size[i] = fi.Size()
				}
			}
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	return order
}

// materialsFirst reorders order (largest first) so that the images of one
// material come together, material by material in the document's order
// (largest first within one), the images of no material last: a
// material whose previews are all in can have its shaders warmed while
// the others decode.
func materialsFirst(d *scene.Document, order []int) []int {
	g := d.GLTF
	rank := make([]int, len(g.Images)) // the first material showing each image
	for i := range rank {
		rank[i] = len(g.Materials)
	}
	for mi, m := range g.Materials {
		if m == nil {
			continue
		}
		for _, ref := range newMaterial(m).tex {
			if ref.texture < 0 || ref.texture >= len(g.Textures) || g.Textures[ref.texture] == nil {
				continue
			}
			if src := imageSource(g.Textures[ref.texture]); src >= 0 && src < len(rank) && mi < rank[src] {
				rank[src] = mi
			}
		}
	}
	out := slices.Clone(order)
	sort.SliceStable(out, func(a, b int) bool { return rank[out[a]] < rank[out[b]] })
	return out
}

// imageBytes returns the encoded bytes of image i: from a buffer view, a
// data URI or a file next to the document.
func imageBytes(d *scene.Document, dir string, i int) ([]byte, error) {
	im := d.GLTF.Images[i]
	switch {
	case im.BufferView != nil:
		v := *im.BufferView
		if v < 0 || v >= len(d.GLTF.BufferViews) {
			return nil, fmt.Errorf("buffer view %d does not exist", v)
		}
		bv := d.GLTF.BufferViews[v]
		if bv.Buffer < 0 || bv.Buffer >= len(d.GLTF.Buffers) || bv.ByteOffset+bv.ByteLength > len(d.GLTF.Buffers[bv.Buffer].Data) {
			return nil, fmt.Errorf("buffer view %d is out of range", v)
		}
		return d.GLTF.Buffers[bv.Buffer].Data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], nil
	case strings.HasPrefix(im.URI, "data:"):
		comma := strings.IndexByte(im.URI, ',')
		if comma < 0 || !strings.Contains(im.URI[:comma], ";base64") {
			return nil, fmt.Errorf("unsupported data URI")
		}
		return base64.StdEncoding.DecodeString(im.URI[comma+1:])
	case im.URI != "":
		name := filepath.FromSlash(im.URI)
		if !filepath.IsLocal(name) {
			return nil, fmt.Errorf("%s is not inside the document's folder", im.URI)
		}
		return scene.ReadInFolder(dir, im.URI)
	}
	return nil, fmt.Errorf("has neither a uri nor a buffer view")
}

// decodeImage decodes image i, with the mipmap levels a KTX2 file holds,
// after taking its decoded size from budget (reserved; nothing when it
// fails).
func decodeImage(d *scene.Document, dir string, i int, budget *imgdec.Budget) (img *imgdec.Image, levels []*imgdec.Image, reserved int64, err error) {
	data, err := imageBytes(d, dir, i)
	if err != nil {
		return nil, nil, 0, err // names the file already
	}
	defer func() {
		if err != nil && d.GLTF.Images[i].URI != "" && !strings.HasPrefix(d.GLTF.Images[i].URI, "data:") {
			err = fmt.Errorf("%s: %w", d.GLTF.Images[i].URI, err)
		}
	}()
	if reserved, err = budget.Take(data); err != nil {
		return nil, nil, 0, err
	}
	img, levels, err = imgdec.DecodeLevels(data)
	if err != nil {
		budget.Give(reserved)
		reserved = 0
	}
	return img, levels, reserved, err
}

// imagesNeeded lists the images that the materials of primitives that can
// be drawn show (their variants included), nil for all of them: a file
// whose meshes cannot be drawn (say their buffer's file is missing) must
// not decode hundreds of MB of textures for nothing. A primitive counts as
// drawable unless scene.Document.PrimitiveLost knows otherwise.
func imagesNeeded(d *scene.Document) map[int]bool {
	g := d.GLTF
	lost := false
	mats := map[int]bool{}
	for m, mesh := range g.Meshes {
		if mesh == nil {
			continue
		}
		for p, prim := range mesh.Primitives {
			if prim == nil {
				continue
			}
			if d.PrimitiveLost(m, p) != "" {
				lost = true
				continue
			}
			if prim.Material != nil {
				mats[*prim.Material] = true
			}
			if pv := d.Primitives[scene.PrimitiveRef{Mesh: m, Primitive: p}]; pv != nil {
				for _, mp := range pv.Mappings {
					mats[mp.Material] = true
				}
			}
		}
	}
	if !lost {
		return nil
	}
	needed := map[int]bool{}
	for i := range mats {
		if i < 0 || i >= len(g.Materials) {
			continue
		}
		m := newMaterial(g.Materials[i])
		for _, ref := range m.tex {
			if ref.texture >= 0 && ref.texture < len(g.Textures) && g.Textures[ref.texture] != nil {
				if src := imageSource(g.Textures[ref.texture]); src >= 0 {
					needed[src] = true
				}
			}
		}
	}
	return needed
}

// texKey names one GL texture: a glTF texture index in a colour space
// (sRGB for colour slots, linear for data).
type texKey struct {
	texture int
	srgb    bool
}

// glKey says when glTF textures can share a GL texture: when they show one
// image through one sampler in one colour space.
type glKey struct {
	image, sampler int
	srgb           bool
}

// uploadImage makes at once the GL textures of every (texture, colour
// space) pair the materials (variants included) show image di with, and
// frees its pixels: for an image that could not be decoded, its fallbacks
// (decoded images go up in bands, stream.go). It runs on the GL thread as
// soon as the image arrives, so that no later frame, a variant switch
// included, uploads anything.
func (r *Renderer) uploadImage(di *decodedImage) {
	defer di.free()
	d := r.doc
	shared := map[glKey]uint32{}
	for _, k := range r.imageUses[di.index] {
		if _, ok := r.textures[k]; ok {
			continue
		}
		if di.err != nil {
			if !r.uploadFallback(k, di.index) {
				r.textures[k] = r.missing
			}
			continue
		}
		tex := d.GLTF.Textures[k.texture]
		gk := glKey{di.index, -1, k.srgb}
		var sampler *gltf.Sampler
		if s := tex.Sampler; s != nil && *s >= 0 && *s < len(d.GLTF.Samplers) {
			sampler, gk.sampler = d.GLTF.Samplers[*s], *s
		}
		if id, ok := shared[gk]; ok {
			r.textures[k] = id
			continue
		}
		id := uploadTexture(di.img, di.levels, sampler, k.srgb)
		r.uploads++
		shared[gk] = id
		r.textures[k] = id
	}
}

// Uploads returns how many GL textures the renderer made from images since
// New: one per image, colour space and sampler in use.
func (r *Renderer) Uploads() int { return r.uploads }

func glWrap(w gltf.WrappingMode) int32 {
	switch w {
	case gltf.WrapClampToEdge:
		return gl.CLAMP_TO_EDGE
	case gltf.WrapMirroredRepeat:
		return gl.MIRRORED_REPEAT
	}
	return gl.REPEAT
}

// solidTexture makes a 1x1 texture of one colour: the stand-in while an
// image decodes and for images that cannot be read.
func solidTexture(c [4]uint8) uint32 {
	var id uint32
	gl.GenTextures(1, &id)
	gl.BindTexture(gl.TEXTURE_2D, id)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(c[:]))
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	return id
}

// discard frees the images still to come on ch, from a document that is no
// longer shown, without blocking.
func discard(ch <-chan decodedImage) {
	if ch == nil {
		return
	}
	takeGate(ch).drop()
	go func() {
		for di := range ch {
			di.free()
		}
	}()
}

// free gives the decoded pixels back.
func (di *decodedImage) free() {
	di.img.Free()
	for _, l := range di.levels {
		l.Free()
	}
	di.img, di.levels = nil, nil
	if di.budget != nil {
		di.budget.Give(di.reserved)
		di.reserved = 0
	}
}

// hasTexStorage caches whether the context has glTexStorage2D (GL 4.2 or
// ARB_texture_storage): 0 unknown, 1 yes, 2 no.
var hasTexStorage int

func texStorage() bool {
	if hasTexStorage == 0 {
		hasTexStorage = 2
		var major, minor int32
		gl.GetIntegerv(gl.MAJOR_VERSION, &major)
		gl.GetIntegerv(gl.MINOR_VERSION, &minor)
		if major > 4 || major == 4 && minor >= 2 {
			hasTexStorage = 1
		}
		var n int32
		gl.GetIntegerv(gl.NUM_EXTENSIONS, &n)
		for i := int32(0); i < n && hasTexStorage == 2; i++ {
			if gl.GoStr(gl.GetStringi(gl.EXTENSIONS, uint32(i))) == "GL_ARB_texture_storage" {
				hasTexStorage = 1
			}
		}
	}
	return hasTexStorage == 1
}

// preloads holds the decoding started by Preload until SetDocument takes
// it over.
var preloads = struct {
	sync.Mutex
	m map[*scene.Document]<-chan decodedImage
}{m: map[*scene.Document]<-chan decodedImage{}}

// Preload starts decoding d's images on worker goroutines before there is
// a renderer or a GL context (it needs neither), so that the decoding
// overlaps creating the context and compiling the shaders; the next
// SetDocument(d) takes the decoded images over. It also reads d's
// geometry (prepareGeometry) before it returns, so that SetDocument on the
// GL thread only uploads. Call it at most once per document, and only for
// a document that will be shown.
func Preload(d *scene.Document) {
	TraceStart("preload: document read")
	preloads.Lock()
	if _, ok := preloads.m[d]; !ok {
		preloads.m[d] = decodeImages(d, filepath.Dir(d.Path))
	}
	preloads.Unlock()
	prepareGeometry(d)
	TraceStart("preload: geometry prepared")
}

// DropPreload stops waiting for the images Preload started decoding for
// d, a document that will not be shown after all (its load was cancelled
// or replaced): they are freed as they arrive.
func DropPreload(d *scene.Document) {
	preloads.Lock()
	ch, ok := preloads.m[d]
	delete(preloads.m, d)
	preloads.Unlock()
	if ok {
		discard(ch)
	}
	takePrepared(d)
}

// startDecoding returns the decoding of d's images (relative paths read in
// dir): the one Preload started, or a new one.
func startDecoding(d *scene.Document, dir string) <-chan decodedImage {
	preloads.Lock()
	defer preloads.Unlock()
	if ch, ok := preloads.m[d]; ok {
		delete(preloads.m, d)
		return ch
	}
	return decodeImages(d, dir)
}
