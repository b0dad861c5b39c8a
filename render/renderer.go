package render

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/debugdraw"
	"physview/scene"
	"physview/scene/anim"
	"physview/shaders"
)

// Options says what to draw besides the meshes.
type Options struct {
	Grid bool
	Axes bool
	// Debug turns each category of debug lines on or off.
	Debug [debugdraw.NumCategories]bool
	// XRay also shows the debug lines hidden behind meshes, dimmer.
	XRay bool
	// Variant is the active KHR_materials_variants index, -1 for none.
	Variant int
	// Background is the clear colour (linear RGB, shown as is) for
	// BackgroundColor.
	Background [3]float32
	// BackgroundMode is what fills the view behind the scene.
	BackgroundMode BackgroundMode
	// Environment is the light the scene reflects (image-based lighting).
	Environment Environment
	// Exposure is in stops: each +1 doubles the light; 0 is neutral.
	Exposure float32
}

// BackgroundMode says what is drawn behind the scene.
type BackgroundMode int

// The background modes; the zero value is the plain colour.
const (
	BackgroundColor BackgroundMode = iota
	BackgroundBlurred
	BackgroundEnvironment
)

// exposureScale is the factor the light is multiplied by before tone mapping.
func (o Options) exposureScale() float32 {
	return float32(math.Exp2(float64(o.Exposure)))
}

// DefaultOptions shows the grid, the axes and every debug category, no
// variant, in the studio environment over a plain background.
func DefaultOptions() Options {
	o := Options{Grid: true, Axes: true, Variant: -1, Background: [3]float32{0.16, 0.17, 0.19}}
	for i := range o.Debug {
		o.Debug[i] = true
	}
	return o
}

// gpuPrimitive is one uploaded mesh primitive.
type gpuPrimitive struct {
	vao, vbo, ebo uint32
	count         int32
	indexed       bool
	mode          uint32
	material      int // glTF material index, -1 default
	mesh, prim    int
	center        mgl64.Vec3    // local bounding-box centre, for blend sorting
	corners       [8]mgl64.Vec3 // local bounding-box corners, for the scene bounds
	def           *gpuDeform    // skin and morph data, nil for none (anim.go)
	layout        vertexLayout  // where vbo holds each attribute
	// uvSets are the glTF UV sets in the second and third UV attributes
	// (the first is set 0): 1 and 2, or the sets the material samples in
	// their place (uvSetsFor); -1 when the primitive has no such set. The
	// zero value means 1 and 2.
	uvSets [2]int
	// lean lists the attributes the primitive lacks (featLean's bits):
	// its programs do not pass them on. Zero for deformed primitives.
	lean shaderFeatures
	// shared is set on a primitive that draws the GL buffers of another
	// one reading the same accessors (geometryKey): it does not own them.
	shared bool
	// inward is set when the primitive's normals point inward: a shell
	// the scene may be inside (Framing).
	inward bool
}

// uvSlot is the UV attribute (0, 1 or 2) a texture on glTF UV set texCoord
// reads; a set the primitive does not hold reads set 0 (with a message).
func (gp *gpuPrimitive) uvSlot(texCoord int) int {
	sets := gp.uvSets
	if sets == [2]int{} {
		sets = [2]int{1, 2}
	}
	switch {
	case texCoord <= 0:
		return 0
	case texCoord == sets[0]:
		return 1
	case texCoord == sets[1]:
		return 2
	}
	return 0
}

// uvSetsFor returns the glTF UV sets the second and third UV attributes
// hold for material idx: 1 and 2, unless it samples a set above 2 (say
// glTF-Transform's palette on TEXCOORD_3 of a mesh with three); then the
// sets above 0 it samples, when there are at most two, take the places of
// the ones it does not sample.
func uvSetsFor(mats []material, idx int) [2]int {
	sets := [2]int{1, 2}
	if idx < 0 || idx >= len(mats) {
		return sets
	}
	var used []int
	for _, ref := range mats[idx].tex {
		if ref.texture >= 0 && ref.texCoord > 0 && !slices.Contains(used, ref.texCoord) {
			used = append(used, ref.texCoord)
		}
	}
	if len(used) > 2 {
		return sets
	}
	slices.Sort(used)
	for _, u := range used {
		if slices.Contains(sets[:], u) {
			continue
		}
		for j := len(sets) - 1; j >= 0; j-- { // set 1 stays when it can
			if !slices.Contains(used, sets[j]) {
				sets[j] = u
				break
			}
		}
	}
	return sets
}

// drawItem is one primitive drawn at one node.
type drawItem struct {
	prim  *gpuPrimitive
	node  int
	model mgl64.Mat4
	dyn   *itemDyn // joints, weights, instances; nil for none (anim.go)
}

// Renderer holds the GL objects for one document.
type Renderer struct {
	// mesh is the mesh program without optional parts or absent textures
	// (features 0), made on first use (baseProgram): nearly every
	// material leaves a texture out, and a program llvmpipe holds costs
	// about 2.7 MB (BrainStem never draws with it).
	mesh  *program
	lines *program
	sky   *program
	// programs are the mesh programs compiled with optional features.
	programs map[shaderFeatures]*program

	skyVAO uint32
	envs   [numEnvironments]*gpuEnv
	lut    uint32
	// lutStandIn is drawn with while the BRDF table is computed.
	lutStandIn uint32
	// placeholder stands in for an environment still being prefiltered
	// (unless waitEnv, set while RenderImage draws); envPending lists
	// those, for Poll.
	placeholder *gpuEnv
	waitEnv     bool
	envPending  []Environment
	trans       transmissionTarget
	// batch holds the instance matrices of the opaque and the
	// transmissive pass (batch.go); batchLimit is how many instances
	// one holds, 0 until asked.
	batch      [2]batchBuffer
	batchLimit int
	// lod holds the simplified index lists of large meshes (lod.go).
	lod lodCache
	// movingLOD is set while View draws a reduced frame of a moving
	// camera: draws may use the moving levels (lodmoving.go).
	movingLOD bool
	// movingPrepared: the moving levels were asked for
	// (PrepareMovingLevels); SetDocument clears it.
	movingPrepared bool
	// drawCalls counts the mesh draws since SetDocument, an instanced
	// batch as one (for tests).
	drawCalls int
	// fileEnv is the document's EXT_lights_image_based environment
	// (envfile.go), read when EnvFile is first drawn.
	fileEnv     *gpuEnv
	fileEnvRead bool

	doc        *scene.Document
	anim       *anim.Model       // the document's animations and skins (anim.go)
	pose       *anim.Pose        // the pose shown, nil for the rest pose
	dyns       []*itemDyn        // the items' joints, weights and instances
	jointBlock map[uint32]bool   // programs whose Joints block is bound to 0
	skinMode   skinMode          // where skins and morphs are posed (anim_cpu.go)
	posedMats  map[int]material  // materials with animated factors (anim_material.go)
	prims      [][]*gpuPrimitive // by mesh, by primitive
	readErrs   map[[2]int]error  // why a primitive was not uploaded, by mesh and primitive
	items      []drawItem
	materials  []material
	textures   map[texKey]uint32
	decoded    map[int]*decodedImage
	imageUses  map[int][]texKey // the (texture, sRGB) pairs to upload, by image
	uploads    int              // GL textures made from images, for Uploads
	pending    <-chan decodedImage
	queue      []*decodedImage // arrived, waiting for their upload (stream.go)
	current    *imageUpload    // the image being uploaded
	// later holds the whole images that replace previews, until every
	// image has a texture; refine lists the images shown reduced
	// (SetPreviewSide).
	later  []*decodedImage
	refine map[int]bool
	// refineGate lets the decoding go on to the whole JPEGs: opened by
	// the Poll after the first draw with every image's texture, so that
	// those decodes do not slow that draw (nil when open).
	refineGate    *decodeGate
	drawnTextured bool
	cost          uploadCost // what upload steps cost here (stream.go)
	imgCount      int
	white         uint32
	flatNormal    uint32
	missing       uint32

	grid, axes *lineBuffer
	debug      []debugGroup
	world      *lineBuffer // world gravity arrow
	overlay    *lineBuffer // drawn on top: the gravity probe
	min, max   mgl64.Vec3
	lights     []light

	// Messages lists problems met while uploading: primitives that could
	// not be read, images that could not be decoded.
	Messages []string
	// warm is the warm-up of the document's shaders (warm.go).
	warm warmState
	// mipmapsWarm is set once glGenerateMipmap's code is made (warm.go).
	mipmapsWarm bool
	// UploadBudget bounds the time one Poll spends uploading textures (0:
	// no bound; below 0: no upload in this Poll, the decoded images wait
	// for the next): the window keeps drawing while a file's textures go
	// to the GL driver over several frames.
	UploadBudget time.Duration
	// reserve is the next texture storage's memory being faulted in
	// (reserve.go); heapUsed says malloc keeps its heap for them.
	reserve *storageReserve
	// blocked is the reserve the last upload step waited for (UploadWait).
	blocked  *storageReserve
	heapUsed bool
	reserved bool // the storage under way took a reserve (NoteSteps)
	// texChanges counts the textures replaced (a whole image for its
	// preview): a drawing ahead starts over after one (warm.go).
	texChanges int
	// moves counts the changes of where nodes are drawn (rebuildItems,
	// SetPoses, SetPose): a drawing ahead across one starts over.
	moves int
	// NoteSteps makes Poll, Warm and DrawAhead describe each step they
	// take in Notes (what and how long), for the window's frame lines;
	// the caller empties Notes.
	NoteSteps bool
	Notes     []string
}

// New compiles the shaders. A GL 3.3 context must be current and
// go-gl/gl initialised.
func New() (*Renderer, error) {
	lines, err := newProgram(shaders.LineVert, shaders.LineFrag)
	if err != nil {
		return nil, fmt.Errorf("line shader: %w", err)
	}
	sky, err := newProgram(shaders.SkyVert, shaders.SkyFrag)
	if err != nil {
		return nil, fmt.Errorf("background shader: %w", err)
	}
	r := &Renderer{lines: lines, sky: sky, textures: map[texKey]uint32{}, programs: map[shaderFeatures]*program{}}
	// The default environment is prefiltered on the CPU while the caller
	// loads and uploads its document; the first draw waits for it only if
	// it is not done yet. It is computed once per run.
	startPrefilter(EnvStudio)
	gl.GenVertexArrays(1, &r.skyVAO)
	setAbsentAttributes()
	gl.Enable(gl.TEXTURE_CUBE_MAP_SEAMLESS)
	r.white = solidTexture([4]uint8{255, 255, 255, 255})
	r.flatNormal = solidTexture([4]uint8{128, 128, 255, 255})
	r.missing = solidTexture([4]uint8{255, 0, 255, 255})
	r.axes = newLineBuffer(axesLines())
	return r, nil
}

// Bounds returns the world-space bounding box of the document's meshes.
func (r *Renderer) Bounds() (min, max mgl64.Vec3) { return r.min, r.max }

// SetDocument uploads d's meshes and starts decoding its images; textures
// appear as Poll uploads them. dir is where relative image paths are read.
func (r *Renderer) SetDocument(d *scene.Document) {
	start := time.Now()
	r.release()
	r.resetWarm()
	released := time.Since(start)
	r.doc = d
	r.Messages = nil
	r.drawCalls = 0
	dir := filepath.Dir(d.Path)
	r.anim, r.pose, r.posedMats = anim.NewModel(d), nil, nil
	if r.jointBlock == nil {
		r.jointBlock = map[uint32]bool{}
	}
	r.Messages = append(r.Messages, r.anim.Problems...)
	r.materials = make([]material, len(d.GLTF.Materials))
	for i, m := range d.GLTF.Materials {
		r.materials[i] = newMaterial(m)
	}
	r.prims = make([][]*gpuPrimitive, len(d.GLTF.Meshes))
	r.readErrs = map[[2]int]error{}
	lostSet := map[int]bool{} // materials already named in a message
	uploaded := map[geometryKey]*gpuPrimitive{}
	ready := takePrepared(d) // read on the load goroutine (Preload)
	for m, mesh := range d.GLTF.Meshes {
		r.prims[m] = make([]*gpuPrimitive, len(mesh.Primitives))
		for p := range mesh.Primitives {
			key, shareable := geometryKeyOf(d, r.materials, m, p)
			if g := uploaded[key]; shareable && g != nil {
				// The same accessors read the same way: draw the
				// buffers already uploaded, with this primitive's material.
				cp := *g
				cp.mesh, cp.prim, cp.shared = m, p, true
				cp.material = -1
				if mat := mesh.Primitives[p].Material; mat != nil {
					cp.material = *mat
				}
				r.prims[m][p] = &cp
				continue
			}
			var in primInput
			if m < len(ready) && p < len(ready[m]) && ready[m][p] != nil {
				in, ready[m][p] = *ready[m][p], nil // freed once uploaded
			} else {
				in = readPrimitiveInput(d, r.materials, m, p)
			}
			pd, uv2, sets, err := in.pd, in.uv2, in.sets, in.err
			if err != nil {
				r.Messages = append(r.Messages, err.Error())
				r.readErrs[[2]int{m, p}] = err
				continue
			}
			r.prims[m][p] = upload(pd, uv2, m, p)
			r.prims[m][p].uvSets = sets
			r.prims[m][p].inward = pd.Mode == scene.DrawTriangles && facesInward(pd)
			r.prims[m][p].def = r.uploadDeform(r.prims[m][p], pd, m, p)
			if r.prims[m][p].def != nil {
				r.prims[m][p].lean = 0 // its vertices are rewritten (anim.go)
			}
			if shareable && r.prims[m][p].def == nil {
				uploaded[key] = r.prims[m][p]
			}
			if pd.Material >= 0 && pd.Material < len(r.materials) && !lostSet[pd.Material] {
				for _, ref := range r.materials[pd.Material].tex {
					if ref.texture >= 0 && ref.texCoord > 1 && r.prims[m][p].uvSlot(ref.texCoord) == 0 {
						lostSet[pd.Material] = true
						r.Messages = append(r.Messages, fmt.Sprintf("material %d: a texture on UV set %d is drawn with UV set 0 (mesh %d primitive %d has no such set, or the material samples more than two sets above 0)", pd.Material, ref.texCoord, m, p))
						break
					}
				}
			}
		}
	}
	meshes := time.Since(start) - released
	unrendered := unrenderedExtensions(d.GLTF.Materials)
	for _, name := range unrendered {
		r.Messages = append(r.Messages, fmt.Sprintf("material extension %s: not rendered", name))
	}
	// Never silent: every other used extension the viewer cannot honour.
	_, optional := d.UnsupportedExtensions()
	for _, name := range optional {
		if !slices.Contains(unrendered, name) {
			r.Messages = append(r.Messages, fmt.Sprintf("extension %s: not supported by the viewer, the file is shown without it", name))
		}
	}
	r.imgCount = len(d.GLTF.Images)
	r.imageUses = imageUses(d, r.materials)
	r.pending = startDecoding(d, dir)
	r.refineGate, r.drawnTextured = takeGate(r.pending), false
	r.decoded = map[int]*decodedImage{}
	r.lights = lightsOf(d)
	r.rebuildItems()
	if len(r.items) == 0 {
		if why := d.EmptyPictureReason(); why != "" {
			r.Messages = append(r.Messages, why)
		}
	}
	if r.NoteSteps {
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		r.Notes = append(r.Notes, fmt.Sprintf("document set %.1f ms (the last released %.1f, meshes %.1f)", ms(time.Since(start)), ms(released), ms(meshes)))
	}
	// The CPU copies the geometry went up from (interleaved vertices,
	// attributes read for it) are garbage now: give their pages back
	// before the first draw, whose shader code generation on llvmpipe is
	// where peak memory is reached (BrainStem: 6 MB less). On a goroutine:
	// the collection runs beside the frames instead of stalling this one.
	go debug.FreeOSMemory()
}

// geometryKey says what a primitive's uploaded buffers hold: which
// accessors, read in which mode, with tangents computed or not, with which
// UV sets in the second and third UV attributes. Primitives with equal keys
// draw the same buffers (a file of 98 meshes sharing one sphere's
// accessors uploads it once, as programs are shared by define set and
// textures by source).
type geometryKey struct {
	attrs    string
	indices  int
	mode     gltf.PrimitiveMode
	tangents bool
	sets     [2]int
}

// geometryKeyOf returns primitive p of mesh m's geometry key; ok is false
// when its buffers are its own: morph targets or a skin (posed per mesh).
func geometryKeyOf(d *scene.Document, mats []material, m, p int) (k geometryKey, ok bool) {
	prim := d.GLTF.Meshes[m].Primitives[p]
	if prim == nil || len(prim.Targets) > 0 {
		return k, false
	}
	if _, skinned := prim.Attributes[gltf.JOINTS_0]; skinned {
		return k, false
	}
	names := slices.Sorted(maps.Keys(prim.Attributes))
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s=%d;", n, prim.Attributes[n])
	}
	k = geometryKey{attrs: b.String(), indices: -1, mode: prim.Mode}
	if prim.Indices != nil {
		k.indices = *prim.Indices
	}
	mat := -1
	if prim.Material != nil {
		mat = *prim.Material
	}
	if mat >= 0 && mat < len(d.GLTF.Materials) && d.GLTF.Materials[mat] != nil {
		k.tangents = d.GLTF.Materials[mat].NormalTexture != nil
	}
	k.sets = uvSetsFor(mats, mat)
	return k, true
}

// NotDrawn lists, one sentence each, what of the shown scene the picture
// lacks: every primitive a node of the scene uses that could not be read
// (a Draco stream that does not decode, an accessor past its buffer ...),
// once per primitive, and why nothing is drawn when the scene draws no
// mesh (nor physics shape) although the file has meshes. It is nil when
// the picture holds all the file asks. `viewer screenshot` exits 1 when it is not nil.
func (r *Renderer) NotDrawn() []string {
	d := r.doc
	if d == nil {
		return nil
	}
	if _, _, shapes := d.PhysicsBounds(); len(r.items) == 0 && !shapes {
		// The headline: it names the first primitive that failed. (A
		// scene of physics shapes alone, an XODE file or colliders whose
		// meshes no node shows, draws its shapes.)
		if why := d.EmptyPictureReason(); why != "" {
			return []string{why}
		}
	}
	var out []string
	seen := map[int]bool{}
	for _, n := range d.SceneNodes() {
		node := d.GLTF.Nodes[n]
		if node == nil || node.Mesh == nil || *node.Mesh < 0 || *node.Mesh >= len(r.prims) || seen[*node.Mesh] {
			continue
		}
		m := *node.Mesh
		seen[m] = true
		for p := range r.prims[m] {
			if err, ok := r.readErrs[[2]int{m, p}]; ok {
				out = append(out, fmt.Sprintf("not drawn: %v", err))
			}
		}
	}
	return out
}

// SceneChanged redraws the document's shown scene after
// Document.SetShownScene: the items to draw and the bounds are listed anew
// (nothing is uploaded again).
func (r *Renderer) SceneChanged() {
	if r.doc != nil {
		r.rebuildItems()
	}
}

// rebuildItems lists every primitive at every node of the shown scene and
// computes the world bounds.
func (r *Renderer) rebuildItems() {
	r.moves++
	d := r.doc
	world := d.WorldMatrices()
	r.items = r.items[:0]
	inf := math.Inf(1)
	r.min, r.max = mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
	for _, n := range d.SceneNodes() {
		node := d.GLTF.Nodes[n]
		if node.Mesh == nil || *node.Mesh < 0 || *node.Mesh >= len(r.prims) {
			continue
		}
		for _, gp := range r.prims[*node.Mesh] {
			if gp == nil {
				continue
			}
			r.items = append(r.items, drawItem{prim: gp, node: n, model: world[n]})
			if gp.def != nil && gp.def.skinned && node.Skin != nil {
				continue // skinned: not at its node; rebuildDyn bounds it
			}
			for _, c := range gp.corners {
				w := world[n].Mul4x1(c.Vec4(1)).Vec3()
				for k := 0; k < 3; k++ {
					r.min[k] = math.Min(r.min[k], w[k])
					r.max[k] = math.Max(r.max[k], w[k])
				}
			}
		}
	}
	// Skinned, morphed and instanced items: their posed vertices.
	r.rebuildDyn()
	// Physics shapes count too: an XODE scene has no meshes at all.
	if lo, hi, ok := d.PhysicsBounds(); ok {
		for k := 0; k < 3; k++ {
			r.min[k], r.max[k] = math.Min(r.min[k], lo[k]), math.Max(r.max[k], hi[k])
		}
	}
	if r.min[0] > r.max[0] {
		r.min, r.max = mgl64.Vec3{-1, -1, -1}, mgl64.Vec3{1, 1, 1}
	}
	r.grid = r.replaceLines(r.grid, gridLines(r.min, r.max))
}

// Poll takes in the images decoded since the last call and uploads them,
// within UploadBudget when it is set (the rest waits for the next Poll):
// every texture that shows an image, in every material and variant, goes
// to the GL driver and the decoded pixels are freed. It reports how many
// images were completed and how many are still decoding or uploading; a
// lighting environment that finished prefiltering counts as one arrival.
// Call it on the GL thread.
func (r *Renderer) Poll() (arrived, pending int) {
	if r.envArrived() {
		arrived++
	}
	if r.drawnTextured && r.refineGate != nil {
		r.refineGate.open()
		r.refineGate = nil
	}
	r.takeArrived(false)
	arrived += r.uploadSome(r.UploadBudget)
	if len(r.later) > 0 && r.drawnTextured && r.current == nil && len(r.queue) == 0 {
		// Every image has a texture and the view was drawn with them:
		// the whole ones go up from now on.
		r.queue, r.later = r.later, nil
	}
	if r.pending == nil && r.current == nil && len(r.queue) == 0 && len(r.later) == 0 {
		r.dropReserve() // one made for a texture that shared another's
		r.uploadsEnded()
	}
	if len(r.decoded) == r.imgCount || r.pending == nil && r.current == nil && len(r.queue) == 0 {
		return arrived, 0
	}
	return arrived, r.imgCount - len(r.decoded)
}

// Refining returns how many images are shown reduced while their whole
// version decodes or waits for its upload (SetPreviewSide).
func (r *Renderer) Refining() int { return len(r.refine) }

// takeArrived moves the decoded images waiting on the channel to the
// upload queue; with wait set it waits for all of them.
func (r *Renderer) takeArrived(wait bool) {
	for r.pending != nil {
		var di decodedImage
		var ok bool
		if wait {
			di, ok = <-r.pending
		} else {
			select {
			case di, ok = <-r.pending:
			default:
				return
			}
		}
		if !ok {
			r.pending = nil
			return
		}
		r.arrive(&di)
	}
}

// arrive queues an arrived image for its upload: a whole image that
// replaces a preview waits in later until every image has a texture.
func (r *Renderer) arrive(di *decodedImage) {
	switch {
	case di.preview:
		if r.refine == nil {
			r.refine = map[int]bool{}
		}
		r.refine[di.index] = true
	case di.refines && di.err != nil:
		// The preview stays; the message says why.
		delete(r.refine, di.index)
		r.Messages = append(r.Messages, fmt.Sprintf("image %d: %v (shown reduced)", di.index, di.err))
		return
	case di.refines:
		r.later = append(r.later, di)
		return
	}
	r.queue = append(r.queue, di)
}

// WaitTextures blocks until every image is decoded and uploaded.
func (r *Renderer) WaitTextures() {
	r.refineGate.open()
	r.refineGate = nil
	for r.pending != nil || r.current != nil || len(r.queue) > 0 || len(r.later) > 0 {
		r.uploadSome(0)
		r.queue, r.later = append(r.queue, r.later...), nil
		if r.pending != nil {
			di, ok := <-r.pending
			if !ok {
				r.pending = nil
				continue
			}
			r.arrive(&di)
		}
	}
}

// Uploading reports whether decoded images wait for their upload (the
// window then draws its next frame at once).
func (r *Renderer) Uploading() bool { return r.current != nil || len(r.queue) > 0 }

// texture returns the GL texture for glTF texture t, or the fallback while
// its image is still decoding.
func (r *Renderer) texture(t int, srgb bool, fallback uint32) uint32 {
	if id, ok := r.textures[texKey{t, srgb}]; ok {
		return id
	}
	d := r.doc
	if t < 0 || t >= len(d.GLTF.Textures) {
		return r.missing
	}
	src := imageSource(d.GLTF.Textures[t])
	if src < 0 || src >= r.imgCount {
		return r.missing
	}
	if di, ok := r.decoded[src]; ok && di.err != nil {
		return r.missing
	}
	return fallback
}

// Draw renders the document into the current framebuffer, which is
// width x height pixels.
func (r *Renderer) Draw(cam Camera, width, height int, opt Options) {
	gl.Viewport(0, 0, int32(width), int32(height))
	if r.drawing(partOpaque) {
		gl.ClearColor(opt.Background[0], opt.Background[1], opt.Background[2], 1)
		gl.Clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT)
	}
	if width <= 0 || height <= 0 {
		return
	}
	viewProj := cam.Projection(float64(width) / float64(height)).Mul4(cam.View())
	vp32 := mat32(viewProj)
	gl.Enable(gl.DEPTH_TEST)
	gl.DepthFunc(gl.LEQUAL)
	if r.warm.only != nil {
		// A warm-up draw (warm.go): one material's items, nothing else.
		r.drawMeshes(cam, vp32, width, height, opt)
		gl.Disable(gl.DEPTH_TEST)
		gl.Disable(gl.CULL_FACE)
		gl.BindVertexArray(0)
		gl.UseProgram(0)
		return
	}
	if r.doc != nil {
		if r.warm.part == 0 {
			// A whole draw (a drawing ahead's parts count once all
			// are drawn: DrawAhead).
			r.drawnTextured = r.drawnTextured || len(r.decoded) == r.imgCount
			// A drawing ahead under way is out of date (the pose or
			// the document changed): it starts over.
			r.warm.at, r.warm.row, r.warm.started = 0, 0, false
		}
		if r.drawing(partRest) {
			r.warm.shown = true // every shader variant is made now
		}
		// The background is drawn behind the opaque primitives, once
		// they are drawn (drawMeshes).
		r.drawMeshes(cam, vp32, width, height, opt)
	} else {
		r.drawBackground(cam, width, height, opt)
	}
	if !r.drawing(partRest) {
		// A part of the drawing ahead (warm.go): the lines come last.
		gl.Disable(gl.DEPTH_TEST)
		gl.Disable(gl.CULL_FACE)
		gl.BindVertexArray(0)
		gl.UseProgram(0)
		return
	}
	if opt.Grid && r.grid != nil {
		r.drawLines(r.grid, vp32, 1)
	}
	r.drawDebug(vp32, opt)
	if opt.Axes && r.axes != nil {
		// The axis gizmo sits at the origin, sized to the scene.
		s := float32(math.Max(r.max.Sub(r.min).Len()*0.15, 1e-3))
		r.drawLines(r.axes, vp32.Mul4(mgl32.Scale3D(s, s, s)), 1)
	}
	gl.Disable(gl.DEPTH_TEST)
	gl.Disable(gl.BLEND)
	gl.Disable(gl.CULL_FACE)
	gl.BindVertexArray(0)
	gl.UseProgram(0)
}

// meshPass is one pass over the meshes: what every mesh program is given
// once, the first time the pass uses it.
type meshPass struct {
	cam      Camera
	vp       mgl32.Mat4
	opt      Options
	useTrans bool
	linear   bool
	ready    map[*program]bool
	cur      *program
	// queued counts the vertices drawn since the last wait (finishEvery).
	queued int
	// height is the view's height in pixels (levels of detail, lod.go).
	height int
	// refracting is set from the transmissive primitives on: what they
	// show through them is bent by their normals (lodmoving.go).
	refracting bool
}

// finishEvery is how many vertices (index count times instances) an image
// (RenderImage) draws between glFinish calls. llvmpipe bins a frame's
// triangles in memory until they are rasterized, and its rasterizer
// threads fall behind the binning on a busy machine: 98 spheres of 37,000
// indices each held over 100 MB of bins at 800x600 (a glFlush does not
// bound it: the flushed scenes queue up). Waiting every 16,384 vertices
// does (140 MB in all for that file, about what one sphere takes; every
// 65,536, BrainStem held 3 MB more), costs no measurable time, and
// changes no pixel (the draws run in the same order). The window does
// not wait: a frame is rasterized at the swap.
const finishEvery = 1 << 14

// use makes the program for features f current, setting its per-pass
// uniforms the first time in the pass.
func (r *Renderer) use(ps *meshPass, f shaderFeatures) *program {
	p := r.meshProgram(f)
	if p == ps.cur {
		return p
	}
	ps.cur = p
	gl.UseProgram(p.id)
	if ps.ready[p] {
		return p
	}
	ps.ready[p] = true
	p.mat4("uViewProj", ps.vp)
	eye := ps.cam.Eye()
	p.vec3("uCameraPos", [3]float32{float32(eye[0]), float32(eye[1]), float32(eye[2])})
	r.bindEnvironment(p, ps.opt)
	r.setLights(p)
	for i := 0; i < slotCount; i++ {
		gl.Uniform1i(p.loc(slotUniforms[i].tex), int32(i))
	}
	gl.Uniform1i(p.loc("uTransmissionFB"), unitTransmission)
	// Every sampler names a unit of its own type (two types on one unit
	// fail draws): the batch matrices' buffer texture too.
	gl.Uniform1i(p.loc("uBatchTex"), unitBatch)
	p.bool("uHasTransmissionFB", ps.useTrans)
	return p
}

// meshProgram returns the mesh program compiled for features f, compiling
// it on first use; if that fails (it should not), the base program draws
// and the error is listed once in Messages.
func (r *Renderer) meshProgram(f shaderFeatures) *program {
	if f == 0 {
		return r.baseProgram()
	}
	if p, ok := r.programs[f]; ok {
		return p
	}
	p, err := newProgram(meshVertSource(f), meshSource(f))
	if err != nil {
		r.Messages = append(r.Messages, fmt.Sprintf("mesh shader with %s: %v (drawn without)", f, err))
		p = r.baseProgram()
	}
	r.programs[f] = p
	return p
}

// baseProgram returns the mesh program without optional parts, compiling
// it on first use. If that fails (it should not), the error is listed in
// Messages and the program drawn with is none (id 0: nothing is drawn).
func (r *Renderer) baseProgram() *program {
	if r.mesh == nil {
		p, err := newProgram(shaders.MeshVert, shaders.MeshFrag)
		if err != nil {
			r.Messages = append(r.Messages, fmt.Sprintf("mesh shader: %v (nothing drawn with it)", err))
			p = &program{uniforms: map[string]int32{}}
		}
		r.mesh = p
	}
	return r.mesh
}

// drawMeshes draws the opaque primitives, then the transmissive ones
// (which read a copy of the view made at that point), then the blended
// ones back to front. The view is width x height pixels.
func (r *Renderer) drawMeshes(cam Camera, vp mgl32.Mat4, width, height int, opt Options) {
	ps := &meshPass{cam: cam, vp: vp, opt: opt, ready: map[*program]bool{}, height: height}
	eye := cam.Eye()

	// Push filled polygons back a little so that a collider drawn on the
	// very surface of its mesh is not hidden by it.
	gl.Enable(gl.POLYGON_OFFSET_FILL)
	gl.PolygonOffset(1, 2)
	defer gl.Disable(gl.POLYGON_OFFSET_FILL)
	var blended []drawItem
	var opaque, transmissive []*drawItem // pointers: 100,000 items are 15 MB each copy
	// KHR_node_visibility, animated too: hidden nodes and what is under
	// them are not drawn (visibility.go in scene).
	var props map[string][]float64
	if r.pose != nil {
		props = r.pose.Props
	}
	hidden := r.doc.HiddenNodes(props)
	for i := range r.items {
		it := &r.items[i]
		if hidden != nil && it.node >= 0 && it.node < len(hidden) && hidden[it.node] {
			continue
		}
		if offScreen(it, vp) {
			continue // culled: no pixel of it is in the view (cull.go)
		}
		if r.warm.only != nil && !r.warm.only[r.warmIndex(it.prim, opt.Variant)] {
			continue
		}
		m := r.materialOf(it.prim, opt.Variant)
		switch {
		case m.alphaMode == 2:
			blended = append(blended, *it)
		case m.transmission > 0:
			transmissive = append(transmissive, it)
		default:
			opaque = append(opaque, it)
		}
	}
	// Opaque and transmissive items that repeat a primitive with one
	// material are drawn instanced (batch.go); blended ones one by one,
	// back to front.
	if r.drawing(partOpaque) {
		r.drawList(ps, opaque, opt.Variant, 0)
	}
	// The environment behind: only where no opaque primitive is (the
	// depth test), so that a software rasteriser shades those pixels once.
	if opt.BackgroundMode != BackgroundColor && r.warm.only == nil && r.drawing(partBackground) {
		r.drawBackground(cam, width, height, opt)
		ps.cur = nil // the background's program replaced the mesh one
	}
	if len(transmissive) > 0 || r.blendedTransmission(blended, opt.Variant) {
		// Programs first used from here on read the copy.
		if r.drawing(partCopy) {
			r.copyView(width, height)
		}
		ps.useTrans = true
	}
	if !r.drawing(partRest) {
		return
	}
	ps.refracting = true
	r.drawList(ps, transmissive, opt.Variant, 1)
	if len(blended) > 0 {
		// Back to front by the distance of each primitive's centre.
		sort.SliceStable(blended, func(i, j int) bool {
			ci := blended[i].model.Mul4x1(blended[i].prim.center.Vec4(1)).Vec3()
			cj := blended[j].model.Mul4x1(blended[j].prim.center.Vec4(1)).Vec3()
			return ci.Sub(eye).LenSqr() > cj.Sub(eye).LenSqr()
		})
		gl.Enable(gl.BLEND)
		gl.BlendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
		gl.DepthMask(false)
		for _, it := range blended {
			r.drawItem(ps, it, r.materialOf(it.prim, opt.Variant))
		}
		gl.DepthMask(true)
		gl.Disable(gl.BLEND)
	}
}

// blendedTransmission reports whether a blended primitive is also transmissive.
func (r *Renderer) blendedTransmission(items []drawItem, v int) bool {
	for _, it := range items {
		if r.materialOf(it.prim, v).transmission > 0 {
			return true
		}
	}
	return false
}

// materialOf returns the material a primitive uses with variant v active.
func (r *Renderer) materialOf(gp *gpuPrimitive, v int) material {
	idx := r.materialIndex(gp, v)
	if idx < 0 || idx >= len(r.materials) {
		return defaultMaterial()
	}
	if m, ok := r.posedMats[idx]; ok {
		return m // a factor animated by KHR_animation_pointer (anim.go)
	}
	return r.materials[idx]
}

func (r *Renderer) drawItem(ps *meshPass, it drawItem, m material) {
	f := m.features() | m.absentTextures() | it.prim.lean
	if it.dyn != nil {
		f |= featVertexDynamic // skinned, morphed or instanced (drawCall)
	}
	p := r.use(ps, f)
	model := mat32(it.model)
	p.mat4("uModel", model)
	p.mat3("uNormalMatrix", model.Mat3().Inv().Transpose())
	r.setMaterial(p, it.prim, m)
	// A mirroring transform flips the winding (anim.go draws).
	r.drawCall(ps, p, it, model.Mat3().Det() < 0)
	r.drawCalls++
}

// drawn counts n vertices drawn and waits for llvmpipe (glFinish) when
// finishEvery have queued up since the last wait, while an image is drawn
// (wait: Renderer.waitEnv).
func (ps *meshPass) drawn(n int, wait bool) {
	if ps.queued += n; ps.queued >= finishEvery && wait {
		gl.Finish()
		ps.queued = 0
	}
}

// setMaterial sets material m's uniforms and textures on program p (the
// current one) for primitive gp (which UV attribute each texture reads),
// and the face culling m asks for.
func (r *Renderer) setMaterial(p *program, gp *gpuPrimitive, m material) {
	p.vec4("uBaseColorFactor", m.baseColor)
	p.float("uMetallicFactor", m.metallic)
	p.float("uRoughnessFactor", m.roughness)
	p.vec3("uEmissiveFactor", m.emissive)
	p.float("uNormalScale", m.normalScale)
	p.float("uOcclusionStrength", m.occlusionStrength)
	p.int("uAlphaMode", m.alphaMode)
	p.float("uAlphaCutoff", m.alphaCutoff)
	p.bool("uUnlit", m.unlit)
	p.float("uIor", m.ior)
	p.float("uSpecularFactor", m.specular)
	p.vec3("uSpecularColorFactor", m.specularColor)
	p.vec3("uSheenColorFactor", m.sheenColor)
	p.float("uSheenRoughnessFactor", m.sheenRoughness)
	p.float("uClearcoatFactor", m.clearcoat)
	p.float("uClearcoatRoughnessFactor", m.clearcoatRoughness)
	p.float("uClearcoatNormalScale", m.clearcoatNormalScale)
	p.float("uTransmissionFactor", m.transmission)
	p.float("uThicknessFactor", m.thickness)
	p.vec3("uAttenuationColor", m.attenuationColor)
	p.float("uAttenuationDistance", m.attenuationDistance)
	if f := m.features(); f&^(featSheen|featClearcoat) != 0 {
		p.float("uDispersion", m.dispersion)
		p.vec3("uSGSpecularFactor", m.specGlossFactor)
		p.float("uGlossinessFactor", m.glossiness)
		p.float("uIridescenceFactor", m.iridescence)
		p.float("uIridescenceIor", m.iridescenceIor)
		p.vec2("uIridescenceThickness", m.iridescenceThick)
		sin, cos := math.Sincos(float64(m.anisotropyRot))
		p.vec3("uAnisotropy", [3]float32{float32(cos), float32(sin), m.anisotropy})
		p.float("uDiffuseTransmissionFactor", m.diffuseTransmission)
		p.vec3("uDiffuseTransmissionColor", m.diffuseTransmissionColor)
		p.float("uDiffuseRoughness", m.diffuseRoughness)
		p.float("uFuzzFactor", m.fuzz)
		p.vec3("uFuzzColor", m.fuzzColor)
		p.float("uFuzzRoughness", m.fuzzRoughness)
	}
	if m.clearcoat > 0 {
		p.float("uCoatF0", m.coatF0)
		p.vec3("uCoatColor", m.coatColor)
	}
	for slot, ref := range m.tex {
		has := ref.texture >= 0
		gl.ActiveTexture(gl.TEXTURE0 + uint32(slot))
		id := r.white
		if slot == slotNormal || slot == slotClearcoatNormal {
			id = r.flatNormal
		}
		if has {
			id = r.texture(ref.texture, slotSRGB(slot), id)
		}
		gl.BindTexture(gl.TEXTURE_2D, id)
		names := slotUniforms[slot]
		gl.Uniform1i(p.loc(names.has), boolInt(has))
		gl.Uniform1i(p.loc(names.texCoord), int32(gp.uvSlot(ref.texCoord)))
		tr := ref.transform
		gl.UniformMatrix3fv(p.loc(names.transform), 1, false, &tr[0])
	}
	if m.doubleSided {
		gl.Disable(gl.CULL_FACE)
	} else {
		gl.Enable(gl.CULL_FACE)
		gl.CullFace(gl.BACK)
	}
}

// slotUniforms are the uniform names of each texture slot, made once rather
// than on every draw.
var slotUniforms = func() (u [slotCount]struct{ tex, has, texCoord, transform string }) {
	for i := range u {
		u[i].tex = fmt.Sprintf("uTex%d", i)
		u[i].has = fmt.Sprintf("uHasTex[%d]", i)
		u[i].texCoord = fmt.Sprintf("uTexCoord[%d]", i)
		u[i].transform = fmt.Sprintf("uTexTransform[%d]", i)
	}
	return u
}()

func boolInt(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func mat32(m mgl64.Mat4) mgl32.Mat4 {
	var out mgl32.Mat4
	for i := range m {
		out[i] = float32(m[i])
	}
	return out
}

// release deletes the GL objects of the current document.
func (r *Renderer) release() {
	for _, ps := range r.prims {
		for _, p := range ps {
			if p != nil && !p.shared {
				gl.DeleteVertexArrays(1, &p.vao)
				p.def.delete()
				gl.DeleteBuffers(1, &p.vbo)
				if p.ebo != 0 {
					gl.DeleteBuffers(1, &p.ebo)
				}
			}
		}
	}
	for _, id := range r.textures {
		if id != r.missing {
			gl.DeleteTextures(1, &id)
		}
	}
	r.lod.release()
	r.movingPrepared = false
	r.textures = map[texKey]uint32{}
	r.releaseFileEnv()
	r.refineGate.drop() // the workers skip the whole JPEGs
	r.refineGate = nil
	discard(r.pending)
	r.pending = nil
	r.dropUploads()
	// malloc's thresholds go back now: no later Poll of this document
	// will find its uploads ended.
	r.uploadsEnded()
	for _, di := range r.later {
		di.free()
	}
	r.later, r.refine = nil, nil
	r.prims = nil
	r.items = nil
	for _, d := range r.dyns {
		d.delete()
	}
	r.dyns = nil
	// A new document's debug groups start their versions afresh.
	for _, g := range r.debug {
		for _, b := range g.bufs {
			b.delete()
		}
	}
	r.debug = nil
}

// Delete frees every GL object the renderer holds.
func (r *Renderer) Delete() {
	r.release()
	for _, id := range []uint32{r.white, r.flatNormal, r.missing} {
		gl.DeleteTextures(1, &id)
	}
	r.grid.delete()
	r.axes.delete()
	r.world.delete()
	r.overlay.delete()
	for _, g := range r.debug {
		for _, b := range g.bufs {
			b.delete()
		}
	}
	for _, p := range r.programs {
		if p != r.mesh {
			gl.DeleteProgram(p.id)
		}
	}
	if r.mesh != nil {
		gl.DeleteProgram(r.mesh.id)
	}
	gl.DeleteProgram(r.lines.id)
	gl.DeleteProgram(r.sky.id)
	gl.DeleteVertexArrays(1, &r.skyVAO)
	for _, e := range append(r.envs[:], r.placeholder) {
		if e != nil {
			gl.DeleteTextures(1, &e.cube)
		}
	}
	if r.lut != 0 {
		gl.DeleteTextures(1, &r.lut)
	}
	if r.lutStandIn != 0 {
		gl.DeleteTextures(1, &r.lutStandIn)
	}
	r.trans.delete()
	r.warm.target.delete()
	for i := range r.batch {
		r.batch[i].delete()
	}
}

// NodeBounds returns the world bounding box of the meshes at node n and its
// descendants; ok is false when there are none.
func (r *Renderer) NodeBounds(n int) (min, max mgl64.Vec3, ok bool) {
	if r.doc == nil {
		return min, max, false
	}
	inf := math.Inf(1)
	min, max = mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
	for _, it := range r.items {
		under := it.node == n
		r.doc.Ancestors(it.node, func(a int) bool {
			under = under || a == n
			return !under
		})
		if !under {
			continue
		}
		if r.deformedBounds(it, &min, &max) {
			ok = true
			continue
		}
		for _, c := range it.prim.corners {
			w := it.model.Mul4x1(c.Vec4(1)).Vec3()
			for k := 0; k < 3; k++ {
				min[k] = math.Min(min[k], w[k])
				max[k] = math.Max(max[k], w[k])
			}
		}
		ok = true
	}
	return min, max, ok
}

// imageUses lists, for each image, the distinct (texture, sRGB) pairs the
// materials will ask for.
func imageUses(d *scene.Document, mats []material) map[int][]texKey {
	keys := map[texKey]bool{}
	for _, m := range mats {
		for slot, ref := range m.tex {
			if ref.texture >= 0 {
				keys[texKey{ref.texture, slotSRGB(slot)}] = true
			}
		}
	}
	uses := map[int][]texKey{}
	needed := imagesNeeded(d)
	for k := range keys {
		if k.texture < len(d.GLTF.Textures) {
			src := imageSource(d.GLTF.Textures[k.texture])
			if needed != nil && !needed[src] {
				continue // not decoded (imagesNeeded)
			}
			uses[src] = append(uses[src], k)
		}
	}
	return uses
}

// imageSource returns the image a texture shows: the source of the first
// of textureSourceExtensions it has (KTX2, AVIF, WebP), else the core
// source; -1 for none.
func imageSource(tex *gltf.Texture) int {
	var webp struct {
		Source *int `json:"source"`
	}
	for _, ext := range textureSourceExtensions {
		if rawExtension(tex.Extensions, ext, &webp) && webp.Source != nil {
			return *webp.Source
		}
	}
	if tex.Source != nil {
		return *tex.Source
	}
	return -1
}
