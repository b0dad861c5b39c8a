package scene_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"physview/scene"
	"physview/scene/corecheck"
)

// TestCoreRules loads one small fixture per rule (scene/testdata/corecheck)
// and checks it opens with the finding of that rule's Khronos code, at the
// Khronos severity and JSON pointer; code "" means the file must open clean.
func TestCoreRules(t *testing.T) {
	cases := []struct {
		file string
		sev  scene.Severity
		code string
		path string
	}{
		// Valid files qmuntal/gltf's decoder used to refuse.
		{"buffer_no_uri", 0, "", ""},
		{"data_uri_gltf_buffer", 0, "", ""},
		{"integer_as_float", 0, "", ""},
		// Problems that open with a finding instead of exit status 2.
		{"data_uri_media_type", scene.Error, "BUFFER_DATA_URI_MIME_TYPE_INVALID", "/buffers/0/uri"},
		{"accessor_unknown_type", scene.Warning, "VALUE_NOT_IN_LIST", "/accessors/0/type"},
		{"remote_uri", scene.Warning, "NON_RELATIVE_URI", "/buffers/0/uri"},
		{"type_mismatch", scene.Error, "TYPE_MISMATCH", "/nodes/0/mesh"},
		{"omi_overflow", scene.Error, "TYPE_MISMATCH", "/extensions/OMI_physics_shape/shapes/0/sphere/radius"},
		// Schema.
		{"empty_entity", scene.Error, "EMPTY_ENTITY", "/nodes"},
		{"undefined_property", scene.Error, "UNDEFINED_PROPERTY", "/buffers/0"},
		{"unresolved_reference", scene.Error, "UNRESOLVED_REFERENCE", "/nodes/0/mesh"},
		{"sampler_enum", scene.Warning, "VALUE_NOT_IN_LIST", "/samplers/0/magFilter"},
		{"byte_stride_multiple", scene.Error, "VALUE_MULTIPLE_OF", "/bufferViews/0/byteStride"},
		{"rotation_non_unit", scene.Error, "ROTATION_NON_UNIT", "/nodes/0/rotation"},
		{"node_matrix_trs", scene.Error, "NODE_MATRIX_TRS", "/nodes/0/matrix"},
		{"camera_zfar", scene.Error, "CAMERA_ZFAR_LEQUAL_ZNEAR", "/cameras/0/perspective"},
		// Buffers, views, accessors.
		{"accessor_too_long", scene.Error, "ACCESSOR_TOO_LONG", "/accessors/0"},
		{"accessor_offset_alignment", scene.Error, "ACCESSOR_OFFSET_ALIGNMENT", "/accessors/0/byteOffset"},
		{"buffer_view_too_long", scene.Error, "BUFFER_VIEW_TOO_LONG", "/bufferViews/1/byteLength"},
		{"sparse_count", scene.Error, "ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", "/accessors/2/sparse/count"},
		{"image_buffer_view_stride", scene.Error, "IMAGE_BUFFER_VIEW_WITH_BYTESTRIDE", "/images/0/bufferView"},
		// Meshes and their data.
		{"invalid_attribute", scene.Error, "MESH_PRIMITIVE_INVALID_ATTRIBUTE", "/meshes/0/primitives/0/attributes/TEXCOORD"},
		{"position_no_bounds", scene.Error, "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", "/meshes/0/primitives/0/attributes/POSITION"},
		{"index_oob", scene.Error, "ACCESSOR_INDEX_OOB", "/meshes/0/primitives/0/indices"},
		{"max_mismatch", scene.Error, "ACCESSOR_MAX_MISMATCH", "/accessors/0/max/2"},
		// Animations, skins, scenes.
		{"animation_output_count", scene.Error, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", "/animations/0/channels/0/sampler"},
		{"animation_input_bounds", scene.Error, "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", "/animations/0/samplers/0/input"},
		{"skin_ibm_count", scene.Error, "INVALID_IBM_ACCESSOR_COUNT", "/skins/0/inverseBindMatrices"},
		{"scene_non_root", scene.Error, "SCENE_NON_ROOT_NODE", "/scenes/0/nodes/1"},
		// Extensions.
		{"undeclared_extension", scene.Error, "UNDECLARED_EXTENSION", "/nodes/0/extensions/EXT_thing"},
		{"unused_required", scene.Error, "UNUSED_EXTENSION_REQUIRED", "/extensionsRequired/0"},
		{"variants_non_unique", scene.Error, "KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT", "/meshes/0/primitives/0/extensions/KHR_materials_variants/mappings/1/variants"},
		{"omi_unresolved", scene.Error, "UNRESOLVED_REFERENCE", "/nodes/0/extensions/OMI_physics_body/collider/shape"},
		{"unexpected_extension_object", scene.Error, "UNEXPECTED_EXTENSION_OBJECT", "/nodes/0/extensions/KHR_materials_ior"},
		{"non_required_extension", scene.Error, "NON_REQUIRED_EXTENSION", "/extensionsUsed/0"},
		{"light_spot_angles", scene.Error, "KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES", "/extensions/KHR_lights_punctual/lights/0/spot/outerConeAngle"},
		{"material_out_of_range", scene.Error, "VALUE_NOT_IN_RANGE", "/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength"},
		// More mesh, animation, image, buffer and hierarchy rules.
		{"too_few_texcoords", scene.Error, "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", "/meshes/0/primitives/0/material"},
		{"mesh_attribute_format", scene.Error, "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", "/meshes/0/primitives/0/attributes/POSITION"},
		{"animation_input_non_increasing", scene.Error, "ACCESSOR_ANIMATION_INPUT_NON_INCREASING", "/animations/0/samplers/0/input"},
		{"image_mime_type", scene.Error, "IMAGE_MIME_TYPE_INVALID", "/images/0"},
		{"buffer_byte_length", scene.Error, "BUFFER_BYTE_LENGTH_MISMATCH", "/buffers/0"},
		{"duplicate_elements", scene.Error, "DUPLICATE_ELEMENTS", "/scenes/0/nodes/2"},
		{"node_loop", scene.Error, "NODE_LOOP", "/nodes/0"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			d, err := scene.Load(filepath.Join("testdata", "corecheck", c.file+".gltf"))
			if err != nil {
				t.Fatalf("does not open: %v", err)
			}
			fs := d.Findings()
			if c.code == "" {
				// Clean: no error or warning (notes such as NODE_EMPTY may be there).
				if n := scene.CountBySeverity(fs); n[scene.Error]+n[scene.Warning] > 0 {
					t.Errorf("want no errors or warnings, got %v", fs)
				}
				return
			}
			for _, f := range fs {
				if f.Code == c.code && f.Severity == c.sev && f.Path == c.path {
					return
				}
			}
			t.Errorf("no %s %s at %s; findings:\n%v", c.sev, c.code, c.path, fs)
		})
	}
}

// TestLenientLoadValues checks what the leniently read files hold.
func TestLenientLoadValues(t *testing.T) {
	d, err := scene.Load("testdata/corecheck/integer_as_float.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.GLTF.Nodes[0].Children; len(got) != 1 || got[0] != 1 {
		t.Errorf("children %v, want [1]", got)
	}
	if got := d.Parent(1); got != 0 {
		t.Errorf("parent of node 1 is %d, want 0", got)
	}
	d, err = scene.Load("testdata/corecheck/data_uri_gltf_buffer.gltf")
	if err != nil {
		t.Fatal(err)
	}
	pd, err := d.ReadPrimitive(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pd.Positions) != 3 || pd.Positions[1] != [3]float32{1, 0, 0} {
		t.Errorf("positions %v, want the triangle (0,0,0) (1,0,0) (0,1,0)", pd.Positions)
	}
	d, err = scene.Load("testdata/corecheck/remote_uri.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.GLTF.Buffers[0].Data); n != 0 {
		t.Errorf("a remote buffer was given %d bytes; it must never be fetched", n)
	}
}

// glb builds a GLB from chunks (type, body) with the header length total
// (0: the real length).
func glb(total int, chunks ...any) []byte {
	var b bytes.Buffer
	b.Write([]byte("glTF"))
	binary.Write(&b, binary.LittleEndian, uint32(2))
	binary.Write(&b, binary.LittleEndian, uint32(0))
	for i := 0; i < len(chunks); i += 2 {
		body := chunks[i+1].([]byte)
		binary.Write(&b, binary.LittleEndian, uint32(len(body)))
		binary.Write(&b, binary.LittleEndian, chunks[i].(uint32))
		b.Write(body)
	}
	out := b.Bytes()
	if total == 0 {
		total = len(out)
	}
	binary.LittleEndian.PutUint32(out[8:], uint32(total))
	return out
}

// TestGLBStructure checks the GLB container rules with Khronos codes: fatal
// ones are a LoadError with the code, the others findings.
func TestGLBStructure(t *testing.T) {
	const jsonType, binType, unknown = uint32(0x4E4F534A), uint32(0x004E4942), uint32(0x12345678)
	js := []byte(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":4}]}    `)[:56]
	bin := []byte{1, 2, 3, 4}
	extra := append(glb(0, jsonType, js, binType, bin), 0)
	binary.LittleEndian.PutUint32(extra[8:], uint32(len(extra)-1))
	cases := []struct {
		name  string
		data  []byte
		fatal bool
		code  string
	}{
		{"valid", glb(0, jsonType, js, binType, bin), false, ""},
		{"extra data", extra, false, "GLB_EXTRA_DATA"},
		{"second BIN", glb(0, jsonType, js, binType, bin, binType, bin), false, "GLB_DUPLICATE_CHUNK"},
		{"unknown chunk", glb(0, jsonType, js, binType, bin, unknown, bin), false, "GLB_UNKNOWN_CHUNK_TYPE"},
		{"no BIN", glb(0, jsonType, js), false, "BUFFER_MISSING_GLB_DATA"},
		{"BIN first", glb(0, binType, bin, jsonType, js), false, "GLB_UNEXPECTED_FIRST_CHUNK"},
		{"only BIN", glb(0, binType, bin), true, "GLB_UNEXPECTED_FIRST_CHUNK"},
		{"truncated", glb(0, jsonType, js, binType, bin)[:70], true, "GLB_UNEXPECTED_END_OF_CHUNK_DATA"},
		{"header only", glb(0)[:12], true, "GLB_LENGTH_TOO_SMALL"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := scene.Decode(c.data, nil)
			if c.fatal {
				if got := scene.ErrorCode(err); got != c.code {
					t.Fatalf("error %v with code %q, want code %q", err, got, c.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			codes := map[string]bool{}
			for _, f := range d.Findings() {
				codes[f.Code] = true
			}
			// Clean: no error or warning (a note such as UNUSED_OBJECT for a
			// buffer no view uses may be there, as Khronos gives it).
			if n := scene.CountBySeverity(d.Findings()); c.code == "" && n[scene.Error]+n[scene.Warning] > 0 {
				t.Errorf("want no errors or warnings, got %v", d.Findings())
			}
			if c.code != "" && !codes[c.code] {
				t.Errorf("no %s; findings %v", c.code, d.Findings())
			}
		})
	}
}

// knownCode reports whether code is listed: a Khronos code, a physics rule,
// or the KHR_ form of an OMI_ rule.
func knownCode(code string) bool {
	if corecheck.IsKhronosCode(code) || code == "UNSUPPORTED_REQUIRED_EXTENSION" {
		return true
	}
	for _, r := range scene.PhysicsRules {
		if r.Code == code || (strings.HasPrefix(code, "KHR_") && r.Code == "OMI_"+strings.TrimPrefix(code, "KHR_")) {
			return true
		}
	}
	return false
}

// TestPhysicsCodes checks every finding of the fixtures (and of the
// generated KHR rule fixtures) has a listed code,
// and that bad_physics.gltf shows the rules it was written to break.
func TestPhysicsCodes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.gltf"))
	more, _ := filepath.Glob(filepath.Join("testdata", "khr_rules", "*.gltf"))
	files = append(files, more...)
	seen := map[string]int{}
	for _, f := range files {
		d, err := scene.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range d.Findings() {
			if !knownCode(fd.Code) {
				t.Errorf("%s: code %q is in neither scene.PhysicsRules nor corecheck.KhronosCodes: %v", f, fd.Code, fd)
			}
			seen[fd.Code]++
		}
	}
	for _, code := range []string{"OMI_COMPOUND_TRIGGER", "OMI_GRAVITY_NOT_ON_BASE_TRIGGER", "OMI_JOINT_LIMIT_MIN_MAX",
		"OMI_JOINT_LIMIT_NO_AXES", "OMI_JOINT_NO_DYNAMIC_BODY", "OMI_MUTUALLY_EXCLUSIVE", "OMI_NON_UNIFORM_SCALE",
		"OMI_TRIMESH_DYNAMIC", "OMI_TYPE_MISMATCH", "OMI_LEGACY_FORM",
		// OMI blocks' schema-level faults, with the core codes (scene/omi).
		"UNDEFINED_PROPERTY", "UNRESOLVED_REFERENCE", "VALUE_NOT_IN_RANGE", "VALUE_NOT_IN_LIST"} {
		if seen[code] == 0 {
			t.Errorf("no fixture finding has code %s (codes seen: %v)", code, seen)
		}
	}
}

// TestHostileCounts checks that counts in the file do not decide the cost
// of reading it: a 100,000-node loop (quadratic checking would take minutes), an accessor of 2^50
// elements over 12 bytes, a buffer claiming 2^40 bytes, a GLB chunk
// claiming 4 GB.
func TestHostileCounts(t *testing.T) {
	var b bytes.Buffer
	const n = 100000
	b.WriteString(`{"asset":{"version":"2.0"},"nodes":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"children":[%d]}`, (i+1)%n)
	}
	b.WriteString(`]}`)
	start := time.Now()
	d, err := scene.Decode(b.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("a %d-node loop took %v", n, el)
	}
	loops := 0
	for _, f := range d.Findings() {
		if f.Code == "NODE_LOOP" {
			loops++
		}
	}
	if loops != 1 {
		t.Errorf("%d NODE_LOOP findings, want 1", loops)
	}

	huge := []byte(`{"asset":{"version":"2.0"},
	 "buffers":[{"byteLength":1099511627776,"uri":"data:application/gltf-buffer;base64,AAAAAAAAAAAAAAAA"}],
	 "bufferViews":[{"buffer":0,"byteLength":12}],
	 "accessors":[{"bufferView":0,"componentType":5126,"count":1125899906842624,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],
	 "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]}`)
	d, err = scene.Decode(huge, nil)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, f := range d.Findings() {
		codes[f.Code] = true
	}
	for _, c := range []string{"BUFFER_BYTE_LENGTH_MISMATCH", "ACCESSOR_TOO_LONG"} {
		if !codes[c] {
			t.Errorf("no %s: %v", c, d.Findings())
		}
	}
	if _, err := d.ReadPrimitive(0, 0); err == nil {
		t.Error("reading 2^50 vertices from 12 bytes did not fail")
	}

	big := glb(0, uint32(0x4E4F534A), []byte(`{"asset":{"version":"2.0"}} `))
	big = append(big, 0xFF, 0xFF, 0xFF, 0xFF, 'B', 'I', 'N', 0)
	binary.LittleEndian.PutUint32(big[8:], uint32(len(big)))
	// The JSON chunk is whole, so the document is read (as Khronos reads
	// it) and the chunk is two findings; nothing is allocated for it.
	d, err = scene.Decode(big, nil)
	if err != nil {
		t.Fatalf("a 4 GB chunk after the JSON chunk: %v", err)
	}
	codes = map[string]bool{}
	for _, f := range d.Findings() {
		codes[f.Code] = true
	}
	if !codes["GLB_CHUNK_TOO_BIG"] || !codes["GLB_UNEXPECTED_END_OF_CHUNK_DATA"] {
		t.Errorf("a 4 GB chunk in a small file: findings %v", d.Findings())
	}
}
