package scene

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/qmuntal/gltf"

	"physview/scene/corecheck"
	"physview/scene/internal/jsonobj"
	"physview/scene/internal/jsonsplice"
)

// Save writes the document to path as .gltf (JSON, external resources next
// to it) or .glb (one binary container), chosen by the file name's ending.
//
// Only the extension blocks the model owns are rewritten, in their current
// form; every other JSON value is written back exactly as it was read.
// Every file of the save is written to a temporary file beside its target
// and synced; only when all are written are they renamed over their
// targets (resources first, the main file last, after a journal that lets
// RecoverSave finish a save killed among the renames), so a failed save (a
// full disk) leaves every original untouched and no new file behind. A
// read-only file, a folder that is not writable, a document another
// process has locked and, saving in place, a folder deleted since the
// load are refused (WriteFilesAtomic, CheckFolderKept).
func (d *Document) Save(path string) error {
	if d.source.path != "" && sameFile(path, d.source.path) {
		if err := CheckFolderKept(path); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	files, err := d.Encode(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := WriteFilesAtomic(files); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, f := range files[1:] {
		if d.source.rewritten == nil {
			d.source.rewritten = map[string]bool{}
		}
		d.source.rewritten[f.Path] = true
	}
	return nil
}

// SaveWarnings returns what the last Save or Encode could not carry over
// (a missing image, say) without failing.
func (d *Document) SaveWarnings() []string { return d.saveWarnings }

// OutputFile is one file Encode produces.
type OutputFile struct {
	Path string
	Data []byte
}

// Encode returns the files that saving to path would write: the main file
// first, then external buffers and images that must sit next to it (only
// when they are not there already). Nothing is written.
func (d *Document) Encode(target string) (files []OutputFile, err error) {
	content := false
	defer func() {
		// The model's writers only meet finite numbers from the decoders;
		// an importer or an edit that breaks that gets an error, not a crash.
		if r := recover(); r != nil {
			files, err = nil, fmt.Errorf("cannot encode the document: %v", r)
		}
		if err != nil && content {
			err = &ContentError{Source: d.source.path, Err: err}
		}
	}()
	ext := strings.ToLower(filepath.Ext(target))
	if ext != ".gltf" && ext != ".glb" {
		return nil, fmt.Errorf("cannot save as %q: the name must end in .gltf or .glb", ext)
	}
	content = true // from here on, a failure is a fault of what the document holds
	asGLB := ext == ".glb"
	d.saveWarnings = nil
	root, err := d.patchJSON()
	if err != nil {
		return nil, err
	}
	outDir := filepath.Dir(target)
	sameDir := d.source.dir != "" && sameFolder(d.source.dir, outDir)
	var extra []OutputFile
	bin := d.source.bin
	// An edit appended to the BIN chunk (or gave the file one).
	chunkEdited := d.source.glb && len(d.GLTF.Buffers) > 0 && d.GLTF.Buffers[0].URI == "" && d.bufferChanged(0)
	if chunkEdited {
		bin = d.GLTF.Buffers[0].Data[:d.GLTF.Buffers[0].ByteLength]
	}

	if !asGLB && len(d.source.chunks) > 0 {
		d.saveWarnings = append(d.saveWarnings, fmt.Sprintf("the GLB's %d chunk(s) of other types than JSON and BIN have no place in a .gltf and are not written", len(d.source.chunks)))
	}
	switch {
	case asGLB && !d.source.glb:
		bin, err = d.packGLB(root)
		if err != nil {
			return nil, err
		}
	case !asGLB && d.source.glb && (d.source.bin != nil || chunkEdited):
		// The binary chunk becomes a .bin file beside the .gltf.
		name := strings.TrimSuffix(filepath.Base(target), filepath.Ext(target)) + ".bin"
		if err := setBufferURI(root, 0, name); err != nil {
			return nil, err
		}
		extra = append(extra, OutputFile{filepath.Join(outDir, name), d.GLTF.Buffers[0].Data})
		bin = nil
	}
	if !asGLB && !sameDir {
		res, err := d.externalResources(root, outDir)
		if err != nil {
			return nil, err
		}
		extra = append(extra, res...)
	}
	// External buffer files are written for a .gltf and for a .glb whose
	// buffers live in files (editedBuffers below): under another name in
	// the same folder, the ones an edit grew or added get new names.
	if !(asGLB && !d.source.glb) && sameDir && d.source.path != "" && !sameFile(target, d.source.path) {
		if err := d.redirectGrownBuffers(root, target); err != nil {
			return nil, err
		}
	}
	if !(asGLB && !d.source.glb) {
		extra = append(extra, d.editedBuffers(root, outDir, extra)...)
	}

	js, err := root.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Compact(&out, js); err != nil {
		return nil, fmt.Errorf("internal: patched JSON is invalid: %w", err)
	}
	if d.source.glb == asGLB && d.source.json != nil {
		// Saved as the kind of file it was read from (.gltf as .gltf,
		// .glb as .glb): in the file's own layout, indentation and line
		// breaks included, so that only what an edit changed differs.
		if b, err := jsonsplice.Splice(d.source.json, out.Bytes()); err == nil {
			out.Reset()
			out.Write(b)
			if asGLB {
				// The chunk's old padding (spaces) goes, the line break
				// before it stays: glbContainer pads anew.
				return append([]OutputFile{{target, glbContainer(bytes.TrimRight(out.Bytes(), " "), bin, d.source.chunks)}}, extra...), nil
			}
			return append([]OutputFile{{target, out.Bytes()}}, extra...), nil
		}
	}
	if !asGLB {
		var ind bytes.Buffer
		if err := json.Indent(&ind, out.Bytes(), "", "  "); err != nil {
			return nil, err
		}
		ind.WriteByte('\n')
		return append([]OutputFile{{target, ind.Bytes()}}, extra...), nil
	}
	return append([]OutputFile{{target, glbContainer(out.Bytes(), bin, d.source.chunks)}}, extra...), nil
}

// sameFile reports whether paths a and b name the same file.
func sameFile(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// redirectGrownBuffers gives the external buffers an edit grew or added a
// file of their own, named after target, when the document is saved as another
// file in its own folder: writing them under their old names would change
// the files the loaded document still refers to (Save as, `viewer edit -o`
// must leave the input as it was).
func (d *Document) redirectGrownBuffers(root *jsonobj.Object, target string) error {
	raw, ok := root.Get("buffers")
	if !ok {
		return nil
	}
	var bufs []struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(raw, &bufs); err != nil {
		return nil
	}
	taken := map[string]bool{}
	for _, b := range bufs {
		taken[strings.ToLower(b.URI)] = true
	}
	for _, img := range d.GLTF.Images {
		taken[strings.ToLower(img.URI)] = true
	}
	stem := strings.TrimSuffix(filepath.Base(target), filepath.Ext(target))
	for i, b := range bufs {
		// bufferChanged is true for a buffer an edit added, too: its file
		// may be one an earlier save of the loaded document wrote.
		if i >= len(d.GLTF.Buffers) || !isFileURI(b.URI) || !d.bufferChanged(i) {
			continue
		}
		name := url.PathEscape(stem) + ".bin"
		for k := 1; taken[strings.ToLower(name)]; k++ {
			name = fmt.Sprintf("%s_%d.bin", url.PathEscape(stem), k)
		}
		taken[strings.ToLower(name)] = true
		if err := setBufferURI(root, i, name); err != nil {
			return err
		}
	}
	return nil
}

func sameFolder(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// glbContainer wraps JSON, an optional BIN chunk and the chunks of other
// types a loaded GLB had (whole, header included) in a GLB 2 container.
func glbContainer(js, bin []byte, chunks [][]byte) []byte {
	pad := func(b []byte, with byte) []byte {
		for len(b)%4 != 0 {
			b = append(b, with)
		}
		return b
	}
	js = pad(append([]byte(nil), js...), ' ')
	total := 12 + 8 + len(js)
	if bin != nil {
		bin = pad(append([]byte(nil), bin...), 0)
		total += 8 + len(bin)
	}
	for _, c := range chunks {
		total += len(c)
	}
	var b bytes.Buffer
	b.Grow(total)
	le := binary.LittleEndian
	b.Write(le.AppendUint32(nil, glbMagic))
	b.Write(le.AppendUint32(nil, 2))
	b.Write(le.AppendUint32(nil, uint32(total)))
	b.Write(le.AppendUint32(nil, uint32(len(js))))
	b.Write(le.AppendUint32(nil, 0x4E4F534A))
	b.Write(js)
	if bin != nil {
		b.Write(le.AppendUint32(nil, uint32(len(bin))))
		b.Write(le.AppendUint32(nil, 0x004E4942))
		b.Write(bin)
	}
	for _, c := range chunks {
		b.Write(c)
	}
	return b.Bytes()
}

// patchJSON returns the loaded JSON with the owned blocks replaced by the model.
func (d *Document) patchJSON() (*jsonobj.Object, error) {
	root, err := jsonobj.Parse(d.source.json)
	if err != nil {
		return nil, fmt.Errorf("internal: re-reading the loaded JSON: %w", err)
	}
	blocks := map[string]json.RawMessage{}
	d.patchRegistered(-1, blocks) // registered codecs (extensions.go)
	if err := d.patchExtensions(root, "", blocks); err != nil {
		return nil, fmt.Errorf("extensions: %w", err)
	}
	if err := d.patchCoreMembers(root, "", blocks); err != nil { // core members (core_members.go)
		return nil, fmt.Errorf("glTF 2.1 core: %w", err)
	}

	if err := d.appendNewNodes(root); err != nil {
		return nil, err
	}
	if err := d.appendNewGeometry(root); err != nil {
		return nil, err
	}
	if err := d.patchSceneRoots(root); err != nil {
		return nil, err
	}
	if err := patchArray(root, "nodes", len(d.Nodes), func(i int, node *jsonobj.Object) error {
		b := map[string]json.RawMessage{}
		d.patchRegistered(i, b)
		if err := d.patchNodeFields(i, node); err != nil {
			return err
		}
		if err := d.patchCoreMembers(node, fmt.Sprintf("/nodes/%d", i), b); err != nil {
			return err
		}
		return d.patchExtensions(node, fmt.Sprintf("/nodes/%d", i), b)
	}); err != nil {
		return nil, err
	}

	if err := patchArray(root, "meshes", len(d.GLTF.Meshes), func(mi int, mesh *jsonobj.Object) error {
		return patchArray(mesh, "primitives", len(d.GLTF.Meshes[mi].Primitives), func(pi int, prim *jsonobj.Object) error {
			b := map[string]json.RawMessage{}
			d.patchPrimitiveRegistered(PrimitiveRef{mi, pi}, b)
			return d.patchExtensions(prim, fmt.Sprintf("/meshes/%d/primitives/%d", mi, pi), b)
		})
	}); err != nil {
		return nil, err
	}

	used := d.ExtensionsUsed()
	if err := patchNameList(root, "extensionsUsed", used, true); err != nil {
		return nil, err
	}
	// A codec may rewrite extensionsRequired (scene/omi/collider.go does).
	if raw, ok := root.Get("extensionsRequired"); ok {
		if req, ok := requiredRegistered(raw, used); ok {
			if err := root.SetValue("extensionsRequired", req); err != nil {
				return nil, err
			}
		}
	}
	if err := patchNameList(root, "extensionsRequired", used, false); err != nil {
		return nil, err
	}
	return root, nil
}

// patchExtensions replaces the owned keys of obj's "extensions" with blocks,
// keeping each key's position when it was already there, and drops the
// extensions object if it ends up empty.
func (d *Document) patchExtensions(obj *jsonobj.Object, at string, blocks map[string]json.RawMessage) error {
	ext := &jsonobj.Object{}
	if raw, ok := obj.Get("extensions"); ok {
		e, err := jsonobj.Parse(raw)
		if err != nil && !notObject(raw) {
			return err
		}
		if err == nil {
			ext = e // else a null (TYPE_MISMATCH on load): kept unless an edit adds one
		}
	}
	changed := false
	for _, name := range ownedExtensions {
		if b, ok := blocks[name]; ok {
			if orig, had := ext.Get(name); had {
				// What no edit changed keeps the file's own bytes.
				b = d.faithful(orig, b, at+"/extensions/"+name)
				if bytes.Equal(b, orig) {
					continue
				}
			}
			ext.Set(name, b)
			changed = true
		} else if ext.Has(name) {
			ext.Delete(name)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	if ext.Len() == 0 {
		obj.Delete("extensions")
		return nil
	}
	b, err := ext.MarshalJSON()
	if err != nil {
		return err
	}
	obj.Set("extensions", b)
	return nil
}

// patchArray calls f on the first n objects of the array under key and
// stores the results back.
func patchArray(obj *jsonobj.Object, key string, n int, f func(int, *jsonobj.Object) error) error {
	raw, ok := obj.Get(key)
	if !ok {
		return nil
	}
	elems, err := jsonobj.ParseArray(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	for i := 0; i < n && i < len(elems); i++ {
		o, err := jsonobj.Parse(elems[i])
		if err != nil {
			if notObject(elems[i]) {
				// A null or a number where an object belongs (a
				// TYPE_MISMATCH finding on load): decoded as an empty
				// object, it keeps its bytes unless an edit gave it
				// members.
				o = &jsonobj.Object{}
				if f(i, o) != nil || o.Len() == 0 {
					continue
				}
			} else {
				return fmt.Errorf("%s/%d: %w", key, i, err)
			}
		} else if err := f(i, o); err != nil {
			return fmt.Errorf("%s/%d: %w", key, i, err)
		}
		if elems[i], err = o.MarshalJSON(); err != nil {
			return err
		}
	}
	obj.Set(key, jsonobj.JoinArray(elems))
	return nil
}

// notObject reports whether raw is a JSON value other than an object.
func notObject(raw json.RawMessage) bool {
	t := bytes.TrimLeft(raw, " \t\r\n")
	return len(t) > 0 && t[0] != '{' && json.Valid(raw)
}

// patchNodeFields writes node i's name and transform where an edit changed
// them: each is compared with what the file holds, so a value that is as
// it was (never edited, or edited and undone) keeps its bytes.
func (d *Document) patchNodeFields(i int, obj *jsonobj.Object) error {
	if i >= len(d.GLTF.Nodes) {
		return nil
	}
	var orig gltf.Node
	if i < len(d.source.loadedNodes) {
		orig = d.source.loadedNodes[i].node()
	} else {
		raw, err := obj.MarshalJSON()
		if err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &orig); err != nil {
			// A node the decoder could not read has not been edited either.
			return nil
		}
	}
	cur := d.GLTF.Nodes[i]
	if !slices.Equal(cur.Children, orig.Children) {
		if err := obj.SetValue("children", cur.Children); err != nil {
			return err
		}
	}
	if cur.Name != orig.Name {
		if cur.Name == "" {
			obj.Delete("name")
		} else if err := obj.SetValue("name", cur.Name); err != nil {
			return err
		}
	}
	if cur.Matrix == orig.Matrix && cur.Translation == orig.Translation && cur.Rotation == orig.Rotation && cur.Scale == orig.Scale {
		return nil
	}
	// The transform changed: write it as TRS, every part explicit.
	obj.Delete("matrix")
	t := Transform{cur.TranslationOrDefault(), cur.RotationOrDefault(), cur.ScaleOrDefault()}
	if cur.Matrix != gltf.DefaultMatrix && cur.Matrix != [16]float64{} {
		t = d.NodeTransform(i)
	}
	for _, kv := range []struct {
		key string
		v   any
	}{{"translation", t.Translation}, {"rotation", t.Rotation}, {"scale", t.Scale}} {
		if err := obj.SetValue(kv.key, kv.v); err != nil {
			return err
		}
	}
	return nil
}

// patchNameList keeps the non-owned names of a string list in order, keeps
// the owned names that are still used, and (when addMissing) appends used
// names that are missing.
func patchNameList(root *jsonobj.Object, key string, used []string, addMissing bool) error {
	var names []string
	if raw, ok := root.Get(key); ok {
		if err := json.Unmarshal(raw, &names); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	// Sets, not slices.Contains: a file may list 100,000 names (each
	// looked up in the others made saving it quadratic).
	isUsed := make(map[string]bool, len(used))
	for _, n := range used {
		isUsed[n] = true
	}
	var out []string
	inOut := make(map[string]bool, len(names))
	for _, n := range names {
		if (!slices.Contains(ownedExtensions, n) || isUsed[n]) && !inOut[n] {
			inOut[n] = true
			out = append(out, n)
		}
	}
	if addMissing {
		for _, n := range used {
			if !inOut[n] {
				inOut[n] = true
				out = append(out, n)
			}
		}
	}
	if slices.Equal(out, names) {
		return nil
	}
	if len(out) == 0 {
		root.Delete(key)
		return nil
	}
	return root.SetValue(key, out)
}

func setBufferURI(root *jsonobj.Object, i int, uri string) error {
	return patchArray(root, "buffers", i+1, func(k int, b *jsonobj.Object) error {
		if k == i {
			return b.SetValue("uri", uri)
		}
		return nil
	})
}

// packGLB gathers every buffer and every external image into one BIN chunk
// and rewrites buffers, bufferViews and images to point into it.
func (d *Document) packGLB(root *jsonobj.Object) ([]byte, error) {
	var bin []byte
	align := func() {
		for len(bin)%4 != 0 {
			bin = append(bin, 0)
		}
	}
	base := make([]int, len(d.GLTF.Buffers))
	// A meshopt fallback buffer ("fallback": true, no uri) has no bytes by
	// design: readers decode the views that point into it. It stays a
	// buffer of its own after the packed one (the extension allows that in
	// a GLB, and glTF-Transform writes it so); newIndex maps the buffers.
	newIndex := make([]int, len(d.GLTF.Buffers))
	var fallbacks []int
	firstPacked := -1
	for i, b := range d.GLTF.Buffers {
		if b.URI == "" && len(b.Data) < b.ByteLength && isMeshoptFallback(b) {
			newIndex[i] = 1 + len(fallbacks)
			fallbacks = append(fallbacks, i)
			continue
		}
		if firstPacked < 0 {
			firstPacked = i
		}
		align()
		base[i] = len(bin)
		if why, ok := d.missingBuffers[i]; ok {
			return nil, fmt.Errorf("buffer %d has no data (%s), so it cannot be packed into a .glb", i, why)
		}
		if len(b.Data) < b.ByteLength {
			// A placeholder buffer (no uri), a remote one that was not
			// fetched, a data URI that does not decode or is short: its
			// bytes are unknown, so they cannot be packed.
			return nil, fmt.Errorf("buffer %d: %s, so it cannot be packed into a .glb", i, unreadWhy(b))
		}
		bin = append(bin, b.Data[:b.ByteLength]...)
	}
	if err := patchArray(root, "bufferViews", len(d.GLTF.BufferViews), func(i int, bv *jsonobj.Object) error {
		v := d.GLTF.BufferViews[i]
		if bv.Len() == 0 {
			return nil // a null in the file (a finding on load): kept as it was
		}
		if v.Buffer < 0 || v.Buffer >= len(base) {
			return fmt.Errorf("buffer %d does not exist", v.Buffer)
		}
		if b := d.GLTF.Buffers[v.Buffer]; v.ByteOffset < 0 || v.ByteLength < 0 || v.ByteOffset > b.ByteLength || v.ByteLength > b.ByteLength-v.ByteOffset {
			// Packed, it would read the next buffer's or an image's bytes:
			// a file worse than its source. Refused instead.
			return fmt.Errorf("buffer view %d does not fit buffer %d, so it cannot be packed into a .glb", i, v.Buffer)
		}
		if err := rebaseMeshopt(bv, newIndex, base, fallbacks); err != nil {
			return err
		}
		if slices.Contains(fallbacks, v.Buffer) {
			return bv.SetValue("buffer", newIndex[v.Buffer])
		}
		if err := bv.SetValue("buffer", 0); err != nil {
			return err
		}
		if v.ByteOffset != 0 || base[v.Buffer] != 0 || bv.Has("byteOffset") {
			return bv.SetValue("byteOffset", base[v.Buffer]+v.ByteOffset)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	views := len(d.GLTF.BufferViews)
	var newViews []json.RawMessage
	if err := patchArray(root, "images", len(d.GLTF.Images), func(i int, im *jsonobj.Object) error {
		img := d.GLTF.Images[i]
		if img.URI == "" {
			return nil
		}
		var data []byte
		var err error
		mime := img.MimeType
		if strings.HasPrefix(img.URI, "data:") {
			// A data URI inside a GLB is a Khronos warning (DATA_URI_GLB):
			// its bytes move into the BIN chunk like a file's.
			var media string
			media, data, err = corecheck.DecodeDataURI(img.URI)
			if err != nil {
				return nil // as it was (INVALID_URI on load already)
			}
			if mime == "" {
				mime = imageMime(media, data)
			}
		} else {
			data, err = d.readResource(img.URI)
			if mime == "" {
				mime = mimeFromName(img.URI)
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			// GLB may reference external images: keep the reference so the
			// file is no worse than before, and say so.
			d.saveWarnings = append(d.saveWarnings, fmt.Sprintf("image %d: %s is missing; the GLB keeps referring to it by name", i, img.URI))
			return nil
		}
		if err != nil {
			return fmt.Errorf("image %d: %w", i, err)
		}
		align()
		var w writer
		w.set("buffer", 0)
		w.set("byteOffset", len(bin))
		w.set("byteLength", len(data))
		newViews = append(newViews, w.bytes())
		bin = append(bin, data...)
		im.Delete("uri")
		if err := im.SetValue("bufferView", views+len(newViews)-1); err != nil {
			return err
		}
		if img.MimeType == "" {
			return im.SetValue("mimeType", mime)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if len(newViews) > 0 {
		var all []json.RawMessage
		if raw, ok := root.Get("bufferViews"); ok {
			all, _ = jsonobj.ParseArray(raw)
		}
		if err := root.SetValue("bufferViews", append(all, newViews...)); err != nil {
			return nil, err
		}
	}
	if len(bin) == 0 {
		return nil, nil
	}
	// One packed buffer now (then the fallbacks, as they were): keep the
	// first packed buffer's name and extras, drop its uri.
	first := &jsonobj.Object{}
	var elems []json.RawMessage
	if raw, ok := root.Get("buffers"); ok {
		elems, _ = jsonobj.ParseArray(raw)
		if firstPacked >= 0 && firstPacked < len(elems) {
			if o, err := jsonobj.Parse(elems[firstPacked]); err == nil {
				first = o
			}
		}
	}
	first.Delete("uri")
	if err := first.SetValue("byteLength", len(bin)); err != nil {
		return nil, err
	}
	fb, _ := first.MarshalJSON()
	bufs := []json.RawMessage{fb}
	for _, i := range fallbacks {
		if i >= len(elems) {
			return nil, fmt.Errorf("buffer %d is missing from the JSON", i)
		}
		bufs = append(bufs, elems[i])
	}
	if err := root.SetValue("buffers", bufs); err != nil {
		return nil, err
	}
	return bin, nil
}

// unreadWhy says why buffer b holds fewer bytes than its byteLength.
func unreadWhy(b *gltf.Buffer) string {
	switch {
	case b.URI == "":
		return fmt.Sprintf("it has no uri, so its %d bytes are unknown (a placeholder)", b.ByteLength)
	case strings.HasPrefix(b.URI, "data:"):
		_, data, err := corecheck.DecodeDataURI(b.URI)
		if err != nil {
			return fmt.Sprintf("its data URI does not decode (%v)", err)
		}
		return fmt.Sprintf("its data URI holds %d of its %d bytes", len(data), b.ByteLength)
	case !isFileURI(b.URI):
		return fmt.Sprintf("its %d bytes at %s were never fetched (only local files are read)", b.ByteLength, b.URI)
	}
	return fmt.Sprintf("its file %s holds %d of its %d bytes", b.URI, len(b.Data), b.ByteLength)
}

// isMeshoptFallback reports whether b is a meshopt fallback buffer
// (EXT_meshopt_compression or KHR_meshopt_compression "fallback": true).
func isMeshoptFallback(b *gltf.Buffer) bool {
	for _, name := range []string{extMeshopt, extMeshoptKHR} {
		if raw, ok := rawExt(b.Extensions, name); ok {
			var fb struct {
				Fallback bool `json:"fallback"`
			}
			if json.Unmarshal(raw, &fb) == nil && fb.Fallback {
				return true
			}
		}
	}
	return false
}

// rebaseMeshopt points the meshopt block of buffer view bv (when it has
// one) at the packed buffer: its buffer becomes newIndex's and its
// byteOffset moves by where its buffer starts in the BIN chunk.
func rebaseMeshopt(bv *jsonobj.Object, newIndex, base, fallbacks []int) error {
	raw, ok := bv.Get("extensions")
	if !ok {
		return nil
	}
	exts, err := jsonobj.Parse(raw)
	if err != nil {
		return nil // not an object: a finding on load, kept as it was
	}
	changed := false
	for _, name := range []string{extMeshopt, extMeshoptKHR} {
		braw, ok := exts.Get(name)
		if !ok {
			continue
		}
		blk, err := jsonobj.Parse(braw)
		if err != nil {
			continue
		}
		var b struct {
			Buffer     *int `json:"buffer"`
			ByteOffset int  `json:"byteOffset"`
		}
		if json.Unmarshal(braw, &b) != nil || b.Buffer == nil || *b.Buffer < 0 || *b.Buffer >= len(newIndex) {
			continue // a finding on load; kept as it was
		}
		k := *b.Buffer
		if err := blk.SetValue("buffer", newIndex[k]); err != nil {
			return err
		}
		if !slices.Contains(fallbacks, k) && (base[k] != 0 || blk.Has("byteOffset")) {
			if err := blk.SetValue("byteOffset", base[k]+b.ByteOffset); err != nil {
				return err
			}
		}
		out, err := blk.MarshalJSON()
		if err != nil {
			return err
		}
		exts.Set(name, out)
		changed = true
	}
	if !changed {
		return nil
	}
	out, err := exts.MarshalJSON()
	if err != nil {
		return err
	}
	bv.Set("extensions", out)
	return nil
}

// imageMime is the image type of a data URI's bytes: its media type when
// that is an image type, else what the bytes start with.
func imageMime(media string, data []byte) string {
	switch media {
	case "image/png", "image/jpeg", "image/webp", "image/ktx2":
		return media
	}
	switch {
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(data, []byte("\xabKTX 20\xbb")):
		return "image/ktx2"
	}
	return "image/png"
}

func mimeFromName(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".webp":
		return "image/webp"
	case ".ktx2":
		return "image/ktx2"
	}
	return "image/png"
}

// externalResources returns the external buffers and images a .gltf written
// to outDir needs beside it, read from where the document was loaded.
func (d *Document) externalResources(root *jsonobj.Object, outDir string) ([]OutputFile, error) {
	var out []OutputFile
	var uris []string
	if raw, ok := root.Get("buffers"); ok {
		var bufs []struct {
			URI string `json:"uri"`
		}
		if err := json.Unmarshal(raw, &bufs); err == nil {
			for i, b := range bufs {
				if isFileURI(b.URI) && i < len(d.GLTF.Buffers) && !d.source.glb {
					if _, ok := d.missingBuffers[i]; ok {
						// Never an empty file in its place.
						d.saveWarnings = append(d.saveWarnings, fmt.Sprintf("buffer %d: its file %s is missing and was not copied", i, b.URI))
						continue
					}
					u, _ := url.PathUnescape(b.URI)
					out = append(out, OutputFile{filepath.Join(outDir, filepath.FromSlash(u)), d.GLTF.Buffers[i].Data})
				}
			}
		}
	}
	for _, img := range d.GLTF.Images {
		if isFileURI(img.URI) {
			uris = append(uris, img.URI)
		}
	}
	for _, u := range uris {
		data, err := d.readResource(u)
		if errors.Is(err, fs.ErrNotExist) {
			d.saveWarnings = append(d.saveWarnings, fmt.Sprintf("image %s is missing and was not copied", u))
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, OutputFile{filepath.Join(outDir, filepath.FromSlash(u)), data})
	}
	return out, nil
}

func isFileURI(uri string) bool {
	if uri == "" || strings.HasPrefix(uri, "data:") {
		return false
	}
	u, err := url.Parse(uri)
	return err == nil && u.Scheme == ""
}

// readResource reads a file the document references, relative to where it was loaded.
func (d *Document) readResource(uri string) ([]byte, error) {
	if d.source.dir == "" {
		return nil, fmt.Errorf("%s: the document was not loaded from a folder", uri)
	}
	if !filepath.IsLocal(filepath.FromSlash(uri)) {
		return nil, fmt.Errorf("%s: not a path inside the document's folder", uri)
	}
	return ReadInFolder(d.source.dir, uri)
}

// appendNewNodes adds to the "nodes" array the nodes an edit added after
// the ones the file has, as objects with a name and TRS; patchArray then
// writes their extensions like any other node's.
func (d *Document) appendNewNodes(root *jsonobj.Object) error {
	var elems []json.RawMessage
	if raw, ok := root.Get("nodes"); ok {
		var err error
		if elems, err = jsonobj.ParseArray(raw); err != nil {
			return fmt.Errorf("nodes: %w", err)
		}
	}
	if len(d.GLTF.Nodes) <= len(elems) {
		return nil
	}
	for i := len(elems); i < len(d.GLTF.Nodes); i++ {
		n := d.GLTF.Nodes[i]
		var w writer
		if n.Name != "" {
			w.set("name", n.Name)
		}
		if len(n.Children) > 0 {
			w.set("children", n.Children)
		}
		t := d.NodeTransform(i)
		w.set("translation", t.Translation)
		w.set("rotation", t.Rotation)
		w.set("scale", t.Scale)
		elems = append(elems, w.bytes())
	}
	root.Set("nodes", jsonobj.JoinArray(elems))
	return nil
}
