package corecheck

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// f32 packs float32 values little-endian.
func f32(vs ...float64) []byte {
	b := make([]byte, 0, 4*len(vs))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
	}
	return b
}

// u8 packs bytes, padded to a multiple of 4.
func u8(vs ...int) []byte {
	b := make([]byte, 0, len(vs)+3)
	for _, v := range vs {
		b = append(b, byte(v))
	}
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// u16 packs uint16 values, padded to a multiple of 4.
func u16(vs ...int) []byte {
	b := make([]byte, 0, 2*len(vs)+2)
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// fixture is a generated glTF: views are the bytes of each buffer view (in
// one buffer, as a data URI); json is the document without "buffers" and
// "bufferViews", which fixture adds.
func fixture(json string, views ...[]byte) []byte {
	var buf []byte
	var bvs []string
	for _, v := range views {
		bvs = append(bvs, fmt.Sprintf(`{"buffer":0,"byteOffset":%d,"byteLength":%d}`, len(buf), len(v)))
		buf = append(buf, v...)
	}
	head := `{"asset":{"version":"2.0"}`
	if len(views) > 0 {
		head += fmt.Sprintf(`,"buffers":[{"byteLength":%d,"uri":"data:application/octet-stream;base64,%s"}],"bufferViews":[%s]`,
			len(buf), base64.StdEncoding.EncodeToString(buf), strings.Join(bvs, ","))
	}
	if json != "" {
		head += "," + json
	}
	return []byte(head + "}")
}

// update writes the generated fixtures to testdata/rules (go test -run
// TestRuleBoundaries -update), so they can be opened in the viewer.
var update = os.Getenv("PHYSVIEW_UPDATE_FIXTURES") != ""

func TestRuleBoundaries(t *testing.T) {
	quatAnim := func(w float64) []byte {
		return fixture(`"nodes":[{}],"scenes":[{"nodes":[0]}],"scene":0,`+
			`"accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},`+
			`{"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"}],`+
			`"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}}],"samplers":[{"input":0,"output":1}]}]`,
			f32(0, 1), f32(0, 0, 0, 1, 0, 0, 0, w))
	}
	tri := func(normal []float64, tangent []float64, indices []int, mode int) []byte {
		pos := f32(0, 0, 0, 1, 0, 0, 0, 1, 0)
		attrs := `"POSITION":0`
		accs := `{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}`
		views := [][]byte{pos}
		if normal != nil {
			attrs += fmt.Sprintf(`,"NORMAL":%d`, len(views))
			accs += fmt.Sprintf(`,{"bufferView":%d,"componentType":5126,"count":3,"type":"VEC3"}`, len(views))
			views = append(views, f32(append(append(append([]float64{}, normal...), 0, 0, 1), 0, 0, 1)...))
		}
		if tangent != nil {
			attrs += fmt.Sprintf(`,"TANGENT":%d`, len(views))
			accs += fmt.Sprintf(`,{"bufferView":%d,"componentType":5126,"count":3,"type":"VEC4"}`, len(views))
			views = append(views, f32(append(append(append([]float64{}, tangent...), 1, 0, 0, 1), 1, 0, 0, 1)...))
		}
		prim := `{"attributes":{` + attrs + `}`
		if indices != nil {
			prim += fmt.Sprintf(`,"indices":%d`, len(views))
			accs += fmt.Sprintf(`,{"bufferView":%d,"componentType":5121,"count":%d,"type":"SCALAR"}`, len(views), len(indices))
			views = append(views, u8(indices...))
		}
		if mode >= 0 {
			prim += fmt.Sprintf(`,"mode":%d`, mode)
		}
		prim += `}`
		return fixture(`"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0,"accessors":[`+accs+`],"meshes":[{"primitives":[`+prim+`]}]`, views...)
	}
	skinned := func(joints []int, weights []float64) []byte {
		return fixture(`"nodes":[{"mesh":0,"skin":0},{"children":[2]},{"children":[3]},{}],"scenes":[{"nodes":[0,1]}],"scene":0,`+
			`"skins":[{"joints":[1,2,3]}],`+
			`"accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]},`+
			`{"bufferView":1,"componentType":5121,"count":1,"type":"VEC4"},`+
			`{"bufferView":2,"componentType":5126,"count":1,"type":"VEC4"}],`+
			`"meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2},"mode":0}]}]`,
			f32(0, 0, 0), u8(joints...), f32(weights...))
	}
	// mat2 is two byte MAT2 elements in a buffer view of length n, with
	// byteStride stride (0: none).
	mat2 := func(n, stride int) []byte {
		bv := fmt.Sprintf(`{"buffer":0,"byteLength":%d`, n)
		if stride != 0 {
			bv += fmt.Sprintf(`,"byteStride":%d`, stride)
		}
		return withViews(`"accessors":[{"bufferView":0,"componentType":5121,"count":2,"type":"MAT2"}]`, make([]byte, 16), bv+`}`)
	}
	// sparse is a float accessor with one sparse value; its indices and
	// values views get byteStride stride (0: none).
	sparse := func(stride int) []byte {
		st := ""
		if stride != 0 {
			st = fmt.Sprintf(`,"byteStride":%d`, stride)
		}
		return withViews(`"accessors":[{"componentType":5126,"count":2,"type":"SCALAR","sparse":{"count":1,"indices":{"bufferView":0,"componentType":5121},"values":{"bufferView":1}}}]`,
			make([]byte, 8), `{"buffer":0,"byteLength":4`+st+`},{"buffer":0,"byteOffset":4,"byteLength":4`+st+`}`)
	}
	node := func(n string) []byte {
		return fixture(`"nodes":[` + n + `],"scenes":[{"nodes":[0]}],"scene":0`)
	}
	cases := []struct {
		name string
		data []byte
		code string
		sev  Severity
		want bool
	}{
		// Unit quaternions: Khronos' tolerance on the length is 0.00769.
		{"quat_anim_inside", quatAnim(1.0076), "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", Error, false},
		{"quat_anim_outside", quatAnim(1.0078), "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", Error, true},
		{"quat_anim_off_00015", quatAnim(1.00015), "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", Error, false},
		{"rotation_inside", node(`{"rotation":[0.2,0,0,0.9876]}`), "ROTATION_NON_UNIT", Error, false},
		{"rotation_outside", node(`{"rotation":[0.2,0,0,0.9877]}`), "ROTATION_NON_UNIT", Error, true},
		// A component outside -1..1 is VALUE_NOT_IN_RANGE, and only that.
		{"rotation_component_range", node(`{"rotation":[0,0,0,1.0078]}`), "ROTATION_NON_UNIT", Error, false},
		{"rotation_component_range_flagged", node(`{"rotation":[0,0,0,1.0078]}`), "VALUE_NOT_IN_RANGE", Error, true},
		// Found by probing (files of our own against the Khronos validator).
		{"mode_in_range", fixture(`"accessors":[{"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"mode":6}]}]`), "VALUE_NOT_IN_RANGE", Error, false},
		{"mode_out_of_range", fixture(`"accessors":[{"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"mode":7}]}]`), "VALUE_NOT_IN_RANGE", Error, true},
		{"texcoord_zero", fixture(`"textures":[{}],"materials":[{"emissiveTexture":{"index":0,"texCoord":0}}]`), "VALUE_NOT_IN_RANGE", Error, false},
		{"texcoord_negative", fixture(`"textures":[{}],"materials":[{"emissiveTexture":{"index":0,"texCoord":-1}}]`), "VALUE_NOT_IN_RANGE", Error, true},
		{"index_negative", fixture(`"textures":[{}],"materials":[{"emissiveTexture":{"index":-1}}]`), "INVALID_INDEX", Error, true},
		{"mesh_weights_targets", fixture(`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":0}]}],"weights":[1]}]`), "MESH_INVALID_WEIGHTS_COUNT", Error, false},
		{"mesh_weights_no_targets", fixture(`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}],"weights":[1]}]`), "MESH_INVALID_WEIGHTS_COUNT", Error, true},
		{"children_unique", fixture(`"nodes":[{"children":[1,2]},{},{}],"scenes":[{"nodes":[0]}]`), "DUPLICATE_ELEMENTS", Error, false},
		{"children_repeated", fixture(`"nodes":[{"children":[1,1]},{}],"scenes":[{"nodes":[0]}]`), "DUPLICATE_ELEMENTS", Error, true},
		{"ortho_mag_positive", fixture(`"cameras":[{"type":"orthographic","orthographic":{"xmag":1,"ymag":1,"zfar":10,"znear":0}}]`), "CAMERA_XMAG_YMAG_NEGATIVE", Warning, false},
		{"ortho_mag_negative", fixture(`"cameras":[{"type":"orthographic","orthographic":{"xmag":-1,"ymag":1,"zfar":10,"znear":0}}]`), "CAMERA_XMAG_YMAG_NEGATIVE", Warning, true},
		{"morph_position_float", fixture(`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":0}]}]}]`), "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", Error, false},
		{"morph_position_ubyte", fixture(`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]},{"componentType":5121,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":1}]}]}]`), "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", Error, true},
		{"skin_joints_weights_paired", skinMesh(`"JOINTS_0":1,"WEIGHTS_0":2`), "NODE_SKIN_WITH_NON_SKINNED_MESH", Error, false},
		{"skin_joints_unpaired", skinMesh(`"JOINTS_0":1`), "NODE_SKIN_WITH_NON_SKINNED_MESH", Error, true},
		{"camera_type_object", fixture(`"cameras":[{"type":"perspective","perspective":{"yfov":1,"znear":0.1}}]`), "UNDEFINED_PROPERTY", Error, false},
		{"camera_type_other_object", fixture(`"cameras":[{"type":"perspective","orthographic":{"xmag":1,"ymag":1,"zfar":10,"znear":0}}]`), "UNDEFINED_PROPERTY", Error, true},
		{"ubyte_bounds_fit", fixture(`"accessors":[{"componentType":5121,"count":1,"type":"SCALAR","min":[0],"max":[255]}]`), "INVALID_GL_VALUE", Error, false},
		{"ubyte_bounds_over", fixture(`"accessors":[{"componentType":5121,"count":1,"type":"SCALAR","min":[0],"max":[256]}]`), "INVALID_GL_VALUE", Error, true},
		{"ubyte_bounds_fraction", fixture(`"accessors":[{"componentType":5121,"count":1,"type":"SCALAR","min":[0.5],"max":[1]}]`), "ARRAY_TYPE_MISMATCH", Error, true},
		// Unit normals: 0.00674.
		{"normal_inside", tri([]float64{0, 0, 1.0067}, nil, nil, -1), "ACCESSOR_VECTOR3_NON_UNIT", Error, false},
		{"normal_outside", tri([]float64{0, 0, 1.0068}, nil, nil, -1), "ACCESSOR_VECTOR3_NON_UNIT", Error, true},
		{"tangent_sign_ok", tri([]float64{0, 0, 1}, []float64{1, 0, 0, -1}, nil, -1), "ACCESSOR_INVALID_SIGN", Error, false},
		{"tangent_sign_bad", tri([]float64{0, 0, 1}, []float64{1, 0, 0, 0.5}, nil, -1), "ACCESSOR_INVALID_SIGN", Error, true},
		{"tangent_unused", tri([]float64{0, 0, 1}, []float64{1, 0, 0, 1}, nil, -1), "UNUSED_MESH_TANGENT", Info, true},
		// Indices and modes.
		{"index_restart_in_range", restartIdx(255, 256), "ACCESSOR_INDEX_OOB", Error, false},
		{"index_restart_out_of_range", restartIdx(255, 3), "ACCESSOR_INDEX_OOB", Error, true},
		{"index_restart_flagged", restartIdx(255, 3), "ACCESSOR_INDEX_PRIMITIVE_RESTART", Error, true},
		{"minmax_nan_mismatch", fixture(`"accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"SCALAR","min":[0],"max":[0]}]`, []byte{0, 0, 0xc0, 0x7f}), "ACCESSOR_MIN_MISMATCH", Error, true},
		{"minmax_nan_not_out_of_bound", fixture(`"accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"SCALAR","min":[0],"max":[0]}]`, []byte{0, 0, 0xc0, 0x7f}), "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", Error, false},
		{"triangle_ok", tri(nil, nil, []int{0, 1, 2}, -1), "ACCESSOR_INDEX_TRIANGLE_DEGENERATE", Info, false},
		{"triangle_degenerate", tri(nil, nil, []int{0, 0, 1}, -1), "ACCESSOR_INDEX_TRIANGLE_DEGENERATE", Info, true},
		{"mode_fits", tri(nil, nil, []int{0, 1, 2}, 4), "MESH_PRIMITIVE_INCOMPATIBLE_MODE", Warning, false},
		{"mode_lines_odd", tri(nil, nil, []int{0, 1, 2}, 1), "MESH_PRIMITIVE_INCOMPATIBLE_MODE", Warning, true},
		{"target_missing", tri(nil, nil, nil, -1), "BUFFER_VIEW_TARGET_MISSING", Info, true},
		// Joints and weights: the float32 sum of the weights within 2e-7 per
		// weight of 1 (three float thirds pass, three 0.333 do not); a
		// joint past the skin adds no weight.
		{"weights_thirds", skinned([]int{0, 1, 2, 0}, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3, 0}), "ACCESSOR_WEIGHTS_NON_NORMALIZED", Error, false},
		{"weights_0333", skinned([]int{0, 1, 2, 0}, []float64{0.333, 0.333, 0.333, 0}), "ACCESSOR_WEIGHTS_NON_NORMALIZED", Error, true},
		{"weights_joint_past_skin", skinned([]int{0, 5, 0, 0}, []float64{0.5, 0.5, 0, 0}), "ACCESSOR_WEIGHTS_NON_NORMALIZED", Error, true},
		{"weights_two_exact", skinned([]int{0, 1, 0, 0}, []float64{0.5, 0.5, 0, 0}), "ACCESSOR_WEIGHTS_NON_NORMALIZED", Error, false},
		{"weights_two_off", skinned([]int{0, 1, 0, 0}, []float64{0.5, 0.501, 0, 0}), "ACCESSOR_WEIGHTS_NON_NORMALIZED", Error, true},
		{"weights_zero_joint_0", skinned([]int{1, 0, 0, 0}, []float64{1, 0, 0, 0}), "ACCESSOR_JOINTS_USED_ZERO_WEIGHT", Warning, false},
		{"weights_zero_joint_1", skinned([]int{0, 1, 0, 0}, []float64{1, 0, 0, 0}), "ACCESSOR_JOINTS_USED_ZERO_WEIGHT", Warning, true},
		{"joint_repeated_weight_0", skinned([]int{1, 1, 0, 0}, []float64{1, 0, 0, 0}), "ACCESSOR_JOINTS_INDEX_DUPLICATE", Error, false},
		{"joint_repeated_weighted", skinned([]int{1, 1, 0, 0}, []float64{0.5, 0.5, 0, 0}), "ACCESSOR_JOINTS_INDEX_DUPLICATE", Error, true},
		// Animation channels: a repeated target is reported on each earlier
		// channel; an output that does not fit, on the channel's sampler.
		{"anim_input_output_same", fixture(`"nodes":[{"name":"a"}],"scenes":[{"nodes":[0]}],"scene":0,"accessors":[{"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]}],"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}],"samplers":[{"input":0,"output":0}]}]`), "ACCESSOR_USAGE_OVERRIDE", Error, true},
		{"anim_input_output_apart", fixture(`"nodes":[{"name":"a"}],"scenes":[{"nodes":[0]}],"scene":0,"accessors":[{"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},{"componentType":5126,"count":2,"type":"SCALAR"}],"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}],"samplers":[{"input":0,"output":1}]}]`), "ACCESSOR_USAGE_OVERRIDE", Error, false},
		{"duplicate_target_first", dupTargets(3), "ANIMATION_DUPLICATE_TARGETS", Error, true},
		// Accessor lengths: a byte MAT2 covers 6 bytes (two 4-byte-aligned
		// columns, nothing after the last), so 2 of them fit 14 bytes.
		{"mat2_bytes_fit", mat2(14, 0), "ACCESSOR_TOO_LONG", Error, false},
		{"mat2_bytes_too_long", mat2(13, 0), "ACCESSOR_TOO_LONG", Error, true},
		{"mat2_stride_element", mat2(16, 6), "ACCESSOR_SMALL_BYTESTRIDE", Error, false},
		{"mat2_stride_small", mat2(16, 5), "ACCESSOR_SMALL_BYTESTRIDE", Error, true},
		{"mat2_stride_unaligned", mat2(16, 6), "ACCESSOR_MATRIX_ALIGNMENT", Error, false}, // the view's VALUE_MULTIPLE_OF
		// Sparse indices: below the count, increasing; both reported.
		{"sparse_indices_ok", sparseIdx(0, 1, 3), "ACCESSOR_SPARSE_INDEX_OOB", Error, false},
		{"sparse_indices_oob", sparseIdx(2, 1, 4), "ACCESSOR_SPARSE_INDEX_OOB", Error, true},
		{"sparse_indices_order", sparseIdx(2, 1, 4), "ACCESSOR_SPARSE_INDICES_NON_INCREASING", Error, true},
		// Sparse indices and values are packed: no byteStride on their views.
		{"sparse_packed", sparse(0), "BUFFER_VIEW_INVALID_BYTE_STRIDE", Error, false},
		{"sparse_strided", sparse(4), "BUFFER_VIEW_INVALID_BYTE_STRIDE", Error, true},
		// A root collection element that is not an object is TYPE_MISMATCH
		// and nothing more.
		{"image_array_mismatch", fixture(`"images":[["uri","a.png"]]`), "TYPE_MISMATCH", Error, true},
		{"image_array_no_oneof", fixture(`"images":[["uri","a.png"]]`), "ONE_OF_MISMATCH", Error, false},
		{"image_array_not_unused", fixture(`"images":[["uri","a.png"]]`), "UNUSED_OBJECT", Info, false},
		{"primitive_array_element", fixture(`"meshes":[{"primitives":[[]]}]`), "UNDEFINED_PROPERTY", Error, false},
		{"primitive_empty_object", fixture(`"meshes":[{"primitives":[{}]}]`), "UNDEFINED_PROPERTY", Error, true},
		{"targets_empty_not_counted", fixture(`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}},{"attributes":{"POSITION":0},"targets":[{}]}]}]`), "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", Error, false},
		{"target_attribute_valid", fixture(`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":0}]}]}]`), "MESH_PRIMITIVE_INVALID_ATTRIBUTE", Error, false},
		{"target_attribute_invalid", fixture(`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"targets":[{"POSITION":0,"TEXCOORD_01":0}]}]}]`), "MESH_PRIMITIVE_INVALID_ATTRIBUTE", Error, true},
		{"targets_unequal", fixture(`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}},{"attributes":{"POSITION":0},"targets":[{"POSITION":0}]}]}]`), "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", Error, true},
		{"image_empty_oneof", fixture(`"images":[{}]`), "ONE_OF_MISMATCH", Error, true},
		// Tangent space: NORMAL and TANGENT, else generated from the normal map.
		{"tangent_space_given", tangentPrim(`"NORMAL":1,"TANGENT":2`, `"normalTexture":{"index":0}`), "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE", Warning, false},
		{"tangent_space_no_normal", tangentPrim(`"TANGENT":2`, `"normalTexture":{"index":0}`), "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE", Warning, true},
		{"tangent_space_none", tangentPrim(``, `"normalTexture":{"index":0}`), "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE", Warning, true},
		{"tangent_aniso_strength_only", tangentPrim(`"NORMAL":1,"TANGENT":2`, `"extensions":{"KHR_materials_anisotropy":{"anisotropyStrength":0.5}}`), "UNUSED_MESH_TANGENT", Info, true},
		{"tangent_aniso_texture", tangentPrim(`"NORMAL":1,"TANGENT":2`, `"extensions":{"KHR_materials_anisotropy":{"anisotropyTexture":{"index":0}}}`), "UNUSED_MESH_TANGENT", Info, false},
		{"tangent_space_clearcoat_no_map", tangentPrim(`"NORMAL":1`, `"extensions":{"KHR_materials_clearcoat":{"clearcoatNormalTexture":{"index":0}}}`), "MESH_PRIMITIVE_NO_TANGENT_SPACE", Error, true},
		{"tangent_space_clearcoat_map", tangentPrim(`"NORMAL":1`, `"normalTexture":{"index":0},"extensions":{"KHR_materials_clearcoat":{"clearcoatNormalTexture":{"index":0}}}`), "MESH_PRIMITIVE_NO_TANGENT_SPACE", Error, false},
		// KHR_texture_transform's texCoord replaces the texture info's.
		{"transform_texcoord_1", tangentPrim(`"NORMAL":1,"TANGENT":2`, `"emissiveTexture":{"index":0,"texCoord":1,"extensions":{"KHR_texture_transform":{"texCoord":1}}}`), "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", Error, false},
		{"transform_texcoord_base_3", tangentPrim(`"NORMAL":1,"TANGENT":2`, `"emissiveTexture":{"index":0,"texCoord":3,"extensions":{"KHR_texture_transform":{"texCoord":1}}}`), "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", Error, true},
		{"transform_texcoord_2", tangentPrim(`"NORMAL":1,"TANGENT":2`, `"emissiveTexture":{"index":0,"extensions":{"KHR_texture_transform":{"texCoord":2}}}`), "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", Error, true},
		// image.mimeType: jpeg and png, webp only with EXT_texture_webp.
		{"mime_webp_declared", fixture(`"extensionsUsed":["EXT_texture_webp"],"images":[{"uri":"a.webp","mimeType":"image/webp"}]`), "VALUE_NOT_IN_LIST", Warning, false},
		{"mime_webp_undeclared", fixture(`"images":[{"uri":"a.webp","mimeType":"image/webp"}]`), "VALUE_NOT_IN_LIST", Warning, true},
		// Two accessors in one buffer view without byteStride; one accessor
		// used twice is fine.
		{"view_one_accessor_twice", sharedView(`"COLOR_0":1,"COLOR_1":1`), "MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", Error, false},
		{"view_two_accessors", sharedView(`"COLOR_0":1,"COLOR_1":2`), "MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", Error, true},
		// Nodes.
		{"node_with_extras", node(`{"name":"a","extras":{}}`), "NODE_EMPTY", Info, false},
		{"node_empty", node(`{"name":"a","translation":[1,0,0]}`), "NODE_EMPTY", Info, true},
		{"node_weights_only", node(`{"weights":[1]}`), "NODE_EMPTY", Info, true},
		{"node_missing_mesh", node(`{"mesh":3}`), "NODE_EMPTY", Info, true},
		{"matrix_default", node(`{"matrix":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}`), "NODE_MATRIX_DEFAULT", Info, true},
		{"matrix_trs", node(`{"matrix":[2,0,0,0,0,2,0,0,0,0,2,0,1,2,3,1]}`), "NODE_MATRIX_NON_TRS", Error, false},
		{"matrix_non_trs", node(`{"matrix":[1,0,0,0.5,0,1,0,0,0,0,1,0,0,0,0,1]}`), "NODE_MATRIX_NON_TRS", Error, true},
		{"skin_common_root", skinned([]int{0, 1, 0, 0}, []float64{0.5, 0.5, 0, 0}), "SKIN_NO_COMMON_ROOT", Error, false},
		{"skin_joint_unresolved_resolved_root", fixture(`"nodes":[{"children":[1]},{}],"scenes":[{"nodes":[0]}],"scene":0,"skins":[{"joints":[0,1,5]}]`), "SKIN_NO_COMMON_ROOT", Error, false},
		{"skin_joints_all_unresolved", fixture(`"skins":[{"joints":[0]}]`), "SKIN_NO_COMMON_ROOT", Error, true},
		{"skin_no_root_skeleton", fixture(`"nodes":[{},{},{}],"scenes":[{"nodes":[0,1,2]}],"scene":0,"skins":[{"joints":[0,1],"skeleton":2}]`), "SKIN_SKELETON_INVALID", Error, true},
		{"skin_no_common_root", fixture(`"nodes":[{},{}],"scenes":[{"nodes":[0,1]}],"scene":0,"skins":[{"joints":[0,1]}]`), "SKIN_NO_COMMON_ROOT", Error, true},
		{"skeleton_only_unused", fixture(`"nodes":[{"children":[1]},{"name":"j"},{"name":"s"}],"scenes":[{"nodes":[0]}],"scene":0,"skins":[{"joints":[1],"skeleton":2}]`), "UNUSED_OBJECT", Info, true},
		{"unused_node", fixture(`"nodes":[{"name":"a"},{"name":"b"}],"scenes":[{"nodes":[0]}],"scene":0`), "UNUSED_OBJECT", Info, true},
		// Extensions.
		{"unsupported", fixture(`"extensionsUsed":["EXT_foo"]`), "UNSUPPORTED_EXTENSION", Info, true},
		{"unsupported_required", fixture(`"extensionsUsed":["EXT_foo"],"extensionsRequired":["EXT_foo"]`), "UNSUPPORTED_REQUIRED_EXTENSION", Error, true},
		{"unknown_extension_object", fixture(`"extensionsUsed":["EXT_foo"],"extensions":{"EXT_foo":{}}`), "TYPE_MISMATCH", Error, false},
		{"unknown_extension_number", fixture(`"extensionsUsed":["EXT_foo"],"extensions":{"EXT_foo":42}`), "TYPE_MISMATCH", Error, true},
		{"unknown_extension_null", fixture(`"extensionsUsed":["EXT_foo"],"extensions":{"EXT_foo":null}`), "TYPE_MISMATCH", Error, true},
		{"known_extension_array", fixture(`"extensionsUsed":["KHR_lights_punctual"],"extensions":{"KHR_lights_punctual":[]}`), "UNDEFINED_PROPERTY", Error, true},
		// Extensions inside extension objects' texture infos are found too.
		{"nested_transform_declared", fixture(`"extensionsUsed":["KHR_materials_sheen","KHR_texture_transform"],` + sheenTransform), "UNUSED_EXTENSION", Info, false},
		{"nested_transform_undeclared", fixture(`"extensionsUsed":["KHR_materials_sheen"],` + sheenTransform), "UNDECLARED_EXTENSION", Error, true},
		{"light_node_no_root_light", fixture(`"extensionsUsed":["KHR_lights_punctual"],"nodes":[{"extensions":{"KHR_lights_punctual":{"light":0}}}]`), "UNDEFINED_PROPERTY", Error, false},
		{"light_node_no_root_empty", fixture(`"extensionsUsed":["KHR_lights_punctual"],"nodes":[{"extensions":{"KHR_lights_punctual":{}}}]`), "UNDEFINED_PROPERTY", Error, true},
		{"supported_optional", fixture(`"extensionsUsed":["EXT_foo"]`), "UNSUPPORTED_REQUIRED_EXTENSION", Error, false},
		{"emissive_zero", fixture(`"extensionsUsed":["KHR_materials_emissive_strength"],"materials":[{"extensions":{"KHR_materials_emissive_strength":{"emissiveStrength":2}}}]`), "KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR", Warning, true},
		{"emissive_set", fixture(`"extensionsUsed":["KHR_materials_emissive_strength"],"materials":[{"emissiveFactor":[1,0,0],"extensions":{"KHR_materials_emissive_strength":{"emissiveStrength":2}}}]`), "KHR_MATERIALS_EMISSIVE_STRENGTH_ZERO_FACTOR", Warning, false},
		{"volume_alone", fixture(`"extensionsUsed":["KHR_materials_volume"],"materials":[{"doubleSided":true,"extensions":{"KHR_materials_volume":{}}}]`), "KHR_MATERIALS_VOLUME_NO_TRANSMISSION", Warning, true},
		{"volume_double_sided", fixture(`"extensionsUsed":["KHR_materials_volume"],"materials":[{"doubleSided":true,"extensions":{"KHR_materials_volume":{"thicknessFactor":0.5}}}]`), "KHR_MATERIALS_VOLUME_DOUBLE_SIDED", Warning, true},
		{"volume_double_sided_thin_walled", fixture(`"extensionsUsed":["KHR_materials_volume"],"materials":[{"doubleSided":true,"extensions":{"KHR_materials_volume":{}}}]`), "KHR_MATERIALS_VOLUME_DOUBLE_SIDED", Warning, false},
		{"transform_in_extension_texture", fixture(`"extensionsUsed":["KHR_materials_iridescence","KHR_texture_transform"],"images":[{"uri":"a.png"}],"textures":[{"source":0}],"materials":[{"extensions":{"KHR_materials_iridescence":{"iridescenceFactor":1,"iridescenceTexture":{"index":0,"extensions":{"KHR_texture_transform":{"scale":[2,2]}}}}}}]`), "UNUSED_EXTENSION", Info, false},
		{"transform_unused", fixture(`"extensionsUsed":["KHR_texture_transform"],"images":[{"uri":"a.png"}],"textures":[{"source":0}],"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}]`), "UNUSED_EXTENSION", Info, true},
		// An image's mimeType against its content; a data URI's media type
		// against its content; the EXT_texture_webp source must be WebP.
		{"mime_matches", fixture(`"images":[{"mimeType":"image/png","uri":"data:image/png;base64,` + onePNG + `"}]`), "IMAGE_MIME_TYPE_INVALID", Error, false},
		{"mime_differs", fixture(`"images":[{"mimeType":"image/jpeg","uri":"data:image/png;base64,` + onePNG + `"}]`), "IMAGE_MIME_TYPE_INVALID", Error, true},
		{"data_uri_percent_base64", fixture(`"buffers":[{"byteLength":1,"uri":"data:application/octet-stream;base64,AA%3D%3D"}]`), "INVALID_URI", Error, false},
		{"ext_used_not_string", fixture(`"extensionsUsed":[5]`), "ARRAY_TYPE_MISMATCH", Error, true},
		{"stride_252_too_big", fixture(`"buffers":[{"byteLength":256}],"bufferViews":[{"buffer":0,"byteLength":8,"byteStride":252}]`), "BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", Error, true},
		{"stride_256_range_only", fixture(`"buffers":[{"byteLength":256}],"bufferViews":[{"buffer":0,"byteLength":8,"byteStride":256}]`), "BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", Error, false},
		{"data_uri_not_image", fixture(`"images":[{"uri":"data:image/png;base64,AAAA"}]`), "INVALID_URI", Error, true},
		{"data_uri_media_differs", fixture(`"images":[{"uri":"data:image/jpeg;base64,` + onePNG + `"}]`), "INVALID_URI", Error, true},
		{"webp_source_png", fixture(`"extensionsUsed":["EXT_texture_webp"],"images":[{"uri":"data:image/png;base64,` + onePNG + `"}],"textures":[{"extensions":{"EXT_texture_webp":{"source":0}}}]`), "TEXTURE_INVALID_IMAGE_MIME_TYPE", Error, true},
		{"webp_source_webp", fixture(`"extensionsUsed":["EXT_texture_webp"],"images":[{"uri":"a.webp"}],"textures":[{"extensions":{"EXT_texture_webp":{"source":0}}}]`), "TEXTURE_INVALID_IMAGE_MIME_TYPE", Error, false},
		{"texture_webp_core", fixture(`"images":[{"uri":"a.webp"}],"textures":[{"source":0}]`), "TEXTURE_INVALID_IMAGE_MIME_TYPE", Error, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if update {
				os.MkdirAll(filepath.Join("testdata", "rules"), 0o755)
				os.WriteFile(filepath.Join("testdata", "rules", c.name+".gltf"), c.data, 0o644)
			}
			res, err := Decode(c.data, nil, Options{Known: func(string) bool { return false }})
			if err != nil {
				t.Fatalf("does not open: %v", err)
			}
			got := false
			for _, f := range res.Findings {
				if f.Code == c.code {
					if f.Severity != c.sev {
						t.Errorf("%s has severity %s, want %s", c.code, f.Severity, c.sev)
					}
					got = true
				}
			}
			if got != c.want {
				t.Errorf("%s found: %v, want %v; findings:\n%v", c.code, got, c.want, res.Findings)
			}
		})
	}
}

// TestKnownExtension checks Options.Known keeps a caller's extension from
// being UNSUPPORTED_EXTENSION (and, required, UNSUPPORTED_REQUIRED_EXTENSION).
func TestKnownExtension(t *testing.T) {
	data := fixture(`"extensionsUsed":["OMI_physics_body"],"extensionsRequired":["OMI_physics_body"]`)
	for _, known := range []bool{false, true} {
		res, err := Decode(data, nil, Options{Known: func(n string) bool { return known && n == "OMI_physics_body" }})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range res.Findings {
			if f.Code == "UNSUPPORTED_EXTENSION" || f.Code == "UNSUPPORTED_REQUIRED_EXTENSION" {
				n++
			}
		}
		if want := map[bool]int{false: 2, true: 0}[known]; n != want {
			t.Errorf("known=%v: %d unsupported findings, want %d: %v", known, n, want, res.Findings)
		}
	}
}

// TestCodesTable checks that docs/validation.md's table lists every
// Khronos code with whether it is checked, so the table cannot fall
// behind KhronosCodes.
func TestCodesTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "validation.md"))
	if err != nil {
		t.Fatalf("the validation codes page: %v", err)
	}
	_, table, ok := strings.Cut(string(readme), "Each Khronos code, checked or why not")
	if !ok {
		t.Fatal("docs/validation.md has no table of the Khronos codes")
	}
	readme = []byte(table)
	for _, k := range KhronosCodes {
		want := "| `" + k.Code + "` |"
		i := strings.Index(string(readme), want)
		if i < 0 {
			t.Errorf("docs/validation.md table lacks %s", k.Code)
			continue
		}
		line := string(readme[i:])
		line = line[:strings.Index(line, "\n")]
		if k.Checked != strings.HasSuffix(line, "| yes |") {
			t.Errorf("docs/validation.md says %q, checked is %v", line, k.Checked)
		}
	}
	if n := len(KhronosCodes); n < 150 {
		t.Errorf("only %d Khronos codes listed", n)
	}
}

// TestCheckDecodedData checks the hook for decoded (Draco, meshopt) data:
// the accessors named are checked like plain ones, the others are not.
func TestCheckDecodedData(t *testing.T) {
	// A triangle whose decoded indices reach vertex 3 of 3 and whose
	// decoded normal is not unit; max of POSITION is below the data.
	data := fixture(`"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0,`+
		`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,0.5,0]},`+
		`{"bufferView":1,"componentType":5126,"count":3,"type":"VEC3"},`+
		`{"bufferView":2,"componentType":5121,"count":3,"type":"SCALAR"}],`+
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1},"indices":2}]}]`,
		f32(0, 0, 0, 1, 0, 0, 0, 1, 0), f32(0, 0, 1, 0, 0, 1, 0, 0, 1.5), u8(0, 1, 3))
	res, err := Decode(data, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	codes := func(fs []Finding) map[string]bool {
		m := map[string]bool{}
		for _, f := range fs {
			m[f.Code+" "+f.Path] = true
		}
		return m
	}
	all := codes(CheckDecodedData(res.GLTF, []int{0, 1, 2}))
	for _, want := range []string{"ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND /accessors/0/max/1", "ACCESSOR_VECTOR3_NON_UNIT /accessors/1", "ACCESSOR_INDEX_OOB /accessors/2"} {
		if !all[want] {
			t.Errorf("no %s in %v", want, all)
		}
	}
	if only := CheckDecodedData(res.GLTF, []int{2}); len(only) != 1 || only[0].Code != "ACCESSOR_INDEX_OOB" {
		t.Errorf("indices only: %v, want one ACCESSOR_INDEX_OOB", only)
	}
}

// pngWith encodes a w x h grey PNG and inserts extra chunks (type, data)
// after IHDR, with their CRCs.
func pngWith(t *testing.T, w, h int, extra ...[2]string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	ihdrEnd := 8 + 8 + 13 + 4
	var chunks []byte
	for _, c := range extra {
		chunks = binary.BigEndian.AppendUint32(chunks, uint32(len(c[1])))
		body := append([]byte(c[0]), c[1]...)
		chunks = append(chunks, body...)
		chunks = binary.BigEndian.AppendUint32(chunks, crc32.ChecksumIEEE(body))
	}
	return append(append(append([]byte{}, data[:ihdrEnd]...), chunks...), data[ihdrEnd:]...)
}

// chrm packs cHRM chunk data.
func chrm(v ...uint32) string {
	var b []byte
	for _, x := range v {
		b = binary.BigEndian.AppendUint32(b, x)
	}
	return string(b)
}

// TestImageAndExtensionNotes checks IMAGE_NPOT_DIMENSIONS (only where a
// texture mipmaps or repeats), IMAGE_FEATURES_UNSUPPORTED, EXTRA_PROPERTY
// on lights and INCOMPLETE_EXTENSION_SUPPORT.
func TestImageAndExtensionNotes(t *testing.T) {
	img := func(p []byte, sampler string) []byte {
		doc := `"images":[{"uri":"data:image/png;base64,` + base64.StdEncoding.EncodeToString(p) + `"}],"textures":[{"source":0` + sampler + `}]`
		if sampler != "" {
			doc += `,"samplers":[{"minFilter":9729,"wrapS":33071,"wrapT":33071}]`
		}
		return fixture(doc)
	}
	phys := func(x, y uint32) [2]string {
		b := binary.BigEndian.AppendUint32(nil, x)
		b = binary.BigEndian.AppendUint32(b, y)
		return [2]string{"pHYs", string(append(b, 1))}
	}
	light := func(l string) []byte {
		return fixture(`"extensionsUsed":["KHR_lights_punctual"],"extensions":{"KHR_lights_punctual":{"lights":[` + l + `]}},` +
			`"nodes":[{"extensions":{"KHR_lights_punctual":{"light":0}}}],"scenes":[{"nodes":[0]}],"scene":0`)
	}
	cases := []struct {
		name string
		data []byte
		code string
		want bool
	}{
		{"pot_default_sampler", img(pngWith(t, 4, 8), ""), "IMAGE_NPOT_DIMENSIONS", false},
		{"npot_default_sampler", img(pngWith(t, 4, 6), ""), "IMAGE_NPOT_DIMENSIONS", true},
		{"npot_clamped_no_mipmaps", img(pngWith(t, 4, 6), `,"sampler":0`), "IMAGE_NPOT_DIMENSIONS", false},
		{"square_pixels", img(pngWith(t, 4, 4, phys(2835, 2835)), ""), "IMAGE_FEATURES_UNSUPPORTED", false},
		{"non_square_pixels", img(pngWith(t, 4, 4, phys(2835, 2834)), ""), "IMAGE_FEATURES_UNSUPPORTED", true},
		{"srgb_gamma", img(pngWith(t, 4, 4, [2]string{"gAMA", string(binary.BigEndian.AppendUint32(nil, 45455))}), ""), "IMAGE_FEATURES_UNSUPPORTED", false},
		{"srgb_primaries", img(pngWith(t, 4, 4, [2]string{"cHRM", chrm(31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)}), ""), "IMAGE_FEATURES_UNSUPPORTED", false},
		{"other_primaries", img(pngWith(t, 4, 4, [2]string{"cHRM", chrm(31270, 32900, 64000, 33000, 30000, 60000, 15000, 6001)}), ""), "IMAGE_FEATURES_UNSUPPORTED", true},
		{"other_gamma", img(pngWith(t, 4, 4, [2]string{"gAMA", string(binary.BigEndian.AppendUint32(nil, 100000))}), ""), "IMAGE_FEATURES_UNSUPPORTED", true},
		{"point_range", light(`{"type":"point","range":2}`), "EXTRA_PROPERTY", false},
		{"directional_range", light(`{"type":"directional","range":2}`), "EXTRA_PROPERTY", true},
		{"point_spot", light(`{"type":"point","spot":{}}`), "EXTRA_PROPERTY", true},
		{"light_used", light(`{"type":"point"}`), "UNUSED_OBJECT", false},
		{"pointer", fixture(`"extensionsUsed":["KHR_animation_pointer"],"nodes":[{}],"scenes":[{"nodes":[0]}],"scene":0,` +
			`"accessors":[{"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},{"componentType":5126,"count":2,"type":"VEC3"}],` +
			`"animations":[{"channels":[{"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/translation"}}}}],"samplers":[{"input":0,"output":1}]}]`),
			"INCOMPLETE_EXTENSION_SUPPORT", false},
		// KHR_animation_pointer pointers against the Object Model.
		{"pointer_translation_vec3", animPointer("/nodes/0/translation", "VEC3", ""), "KHR_ANIMATION_POINTER_VECTOR_SIZE_MISMATCH", false},
		{"pointer_translation_vec4", animPointer("/nodes/0/translation", "VEC4", ""), "KHR_ANIMATION_POINTER_VECTOR_SIZE_MISMATCH", true},
		{"pointer_node_exists", animPointer("/nodes/0/rotation", "VEC4", ""), "KHR_ANIMATION_POINTER_INVALID_POINTER", false},
		{"pointer_node_missing", animPointer("/nodes/2/rotation", "VEC4", ""), "KHR_ANIMATION_POINTER_INVALID_POINTER", true},
		{"pointer_zfar_written", animPointer("/cameras/0/perspective/znear", "SCALAR", ""), "KHR_ANIMATION_POINTER_INVALID_POINTER", false},
		{"pointer_zfar_unwritten", animPointer("/cameras/0/perspective/zfar", "SCALAR", ""), "KHR_ANIMATION_POINTER_INVALID_POINTER", true},
		{"pointer_unknown_extension", animPointer("/nodes/0/extensions/EXT_foo/bar", "SCALAR", ""), "INCOMPLETE_EXTENSION_SUPPORT", true},
		{"pointer_extras_key", animPointer("/nodes/0/extras/k", "SCALAR", ""), "KHR_ANIMATION_POINTER_CANNOT_VALIDATE_EXTRAS", true},
		{"pointer_extras_no_key", animPointer("/nodes/0/extras/j", "SCALAR", ""), "KHR_ANIMATION_POINTER_INVALID_POINTER", true},
		{"pointer_visibility_on", animPointer("/nodes/0/extensions/KHR_node_visibility/visible", "SCALAR", "STEP"), "KHR_ANIMATION_POINTER_INVALID_POINTER", false},
		{"pointer_visibility_off", animPointer("/nodes/1/extensions/KHR_node_visibility/visible", "SCALAR", "STEP"), "KHR_ANIMATION_POINTER_INVALID_POINTER", true},
		{"pointer_bool_step", animPointer("/nodes/0/extensions/KHR_node_visibility/visible", "SCALAR", "STEP"), "KHR_ANIMATION_POINTER_INTEGER_NON_STEP_INTERPOLATION", false},
		{"pointer_bool_linear", animPointer("/nodes/0/extensions/KHR_node_visibility/visible", "SCALAR", "LINEAR"), "KHR_ANIMATION_POINTER_INTEGER_NON_STEP_INTERPOLATION", true},
		// "pointer" is a valid path once KHR_animation_pointer is declared,
		// even on a channel whose target carries no extension object.
		{"pointer_path_declared", fixture(`"extensionsUsed":["KHR_animation_pointer"],` + pointerChannel), "VALUE_NOT_IN_LIST", false},
		{"pointer_path_undeclared", fixture(pointerChannel), "VALUE_NOT_IN_LIST", true},
		{"pointer_ext_bad_path", fixture(`"extensionsUsed":["KHR_animation_pointer"],"nodes":[{}],"accessors":[{"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},{"componentType":5126,"count":2,"type":"VEC3"}],` +
			`"animations":[{"channels":[{"sampler":0,"target":{"path":"path","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/translation"}}}}],"samplers":[{"input":0,"output":1}]}]`), "VALUE_NOT_IN_LIST", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Decode(c.data, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, f := range res.Findings {
				got = got || f.Code == c.code
			}
			if got != c.want {
				t.Errorf("%s found %v, want %v: %v", c.code, got, c.want, res.Findings)
			}
		})
	}
}

// TestHostileSkin checks a skin of 50,000 joints in one chain of nodes
// (every joint's walk to the root is long: quadratic work would take
// minutes) is checked in bounded time, and its common root found.
func TestHostileSkin(t *testing.T) {
	const n = 50000
	var b strings.Builder
	b.WriteString(`"nodes":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if i < n-1 {
			fmt.Fprintf(&b, `{"children":[%d]}`, i+1)
		} else {
			b.WriteString(`{"name":"leaf"}`)
		}
	}
	b.WriteString(`],"scenes":[{"nodes":[0]}],"scene":0,"skins":[{"joints":[`)
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "%d", i)
		if i > 0 {
			b.WriteByte(',')
		}
	}
	b.WriteString(`]}]`)
	start := time.Now()
	res, err := Decode(fixture(b.String()), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	for _, f := range res.Findings {
		if f.Code == "SKIN_NO_COMMON_ROOT" {
			t.Errorf("the chain has a common root (node 0): %v", f)
		}
	}
}

// pointerChannel is an animation whose only channel has the path "pointer"
// and no KHR_animation_pointer object on its target.
const pointerChannel = `"accessors":[{"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},{"componentType":5126,"count":2,"type":"VEC4"}],` +
	`"animations":[{"channels":[{"sampler":0,"target":{"path":"pointer"}}],"samplers":[{"input":0,"output":1}]}]`

// withViews is a glTF with buf as its one buffer (a data URI) and views as
// the JSON of its buffer views, for views fixture cannot describe.
func withViews(json string, buf []byte, views string) []byte {
	return []byte(fmt.Sprintf(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":%d,"uri":"data:application/octet-stream;base64,%s"}],"bufferViews":[%s],%s}`,
		len(buf), base64.StdEncoding.EncodeToString(buf), views, json))
}

// sheenTransform is a material whose KHR_materials_sheen texture has a
// KHR_texture_transform.
const sheenTransform = `"textures":[{}],"materials":[{"extensions":{"KHR_materials_sheen":{"sheenColorTexture":{"index":0,"extensions":{"KHR_texture_transform":{"offset":[0.1,0.2]}}}}}}]`

// onePNG is a 1x1 PNG, base64.
const onePNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVQYV2P4z/AfAAQAAf+I0P3MAAAAAElFTkSuQmCC"

// animPointer is a document whose one channel animates pointer ptr with an
// output accessor of type typ (unsigned bytes, for a bool) and the sampler
// interpolation interp ("" for the default). Node 0 has extras {"k":1} and
// KHR_node_visibility; node 1 has neither; camera 0 writes znear, not zfar.
func animPointer(ptr, typ, interp string) []byte {
	sm := `{"input":0,"output":1}`
	if interp != "" {
		sm = `{"input":0,"output":1,"interpolation":"` + interp + `"}`
	}
	return fixture(`"extensionsUsed":["KHR_animation_pointer","KHR_node_visibility"],` +
		`"nodes":[{"extras":{"k":1},"extensions":{"KHR_node_visibility":{"visible":true}}},{"name":"b"}],"scenes":[{"nodes":[0,1]}],"scene":0,` +
		`"cameras":[{"type":"perspective","perspective":{"yfov":1,"znear":0.1}}],` +
		`"accessors":[{"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},{"componentType":5121,"count":2,"type":"` + typ + `"}],` +
		`"animations":[{"channels":[{"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"` + ptr + `"}}}}],"samplers":[` + sm + `]}]`)
}

// tangentPrim is a primitive with POSITION, TEXCOORD_0 and _1 and the
// attributes attrs (NORMAL is accessor 1, TANGENT 2) whose material has the
// properties mat.
func tangentPrim(attrs, mat string) []byte {
	if attrs != "" {
		attrs = "," + attrs
	}
	return fixture(`"extensionsUsed":["KHR_materials_anisotropy","KHR_materials_clearcoat","KHR_texture_transform"],"textures":[{}],"materials":[{` + mat + `}],` +
		`"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0,` +
		`"accessors":[{"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,1]},{"componentType":5126,"count":3,"type":"VEC3"},{"componentType":5126,"count":3,"type":"VEC4"},{"componentType":5126,"count":3,"type":"VEC2"}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":3,"TEXCOORD_1":3` + attrs + `},"material":0}]}]`)
}

// sharedView is a primitive whose POSITION (accessor 0) and the attributes
// attrs (accessors 1 and 2, both in buffer view 0, no byteStride) are drawn.
func sharedView(attrs string) []byte {
	return fixture(`"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0,`+
		`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]},{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3"},{"bufferView":0,"byteOffset":12,"componentType":5126,"count":1,"type":"VEC3"}],`+
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0,`+attrs+`},"mode":0}]}]`, f32(0.5, 0.5, 0.5, 0.5, 0.5, 0.5))
}

// dupTargets is an animation with n channels, all animating node 0's
// translation.
func dupTargets(n int) []byte {
	chs := make([]string, n)
	for i := range chs {
		chs[i] = `{"sampler":0,"target":{"node":0,"path":"translation"}}`
	}
	return fixture(`"nodes":[{"name":"a"}],"scenes":[{"nodes":[0]}],"scene":0,` +
		`"accessors":[{"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},{"componentType":5126,"count":2,"type":"VEC3"}],` +
		`"animations":[{"channels":[` + strings.Join(chs, ",") + `],"samplers":[{"input":0,"output":1}]}]`)
}

// TestAnimationPointers checks where channel findings are reported: the
// pointers Khronos reports them at.
func TestAnimationPointers(t *testing.T) {
	res, err := Decode(dupTargets(3), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, f := range res.Findings {
		if f.Code == "ANIMATION_DUPLICATE_TARGETS" {
			got[f.Path]++
		}
	}
	want := map[string]int{"/animations/0/channels/0/target": 2, "/animations/0/channels/1/target": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("duplicate targets at %v, want %v", got, want)
	}
	bad := fixture(`"nodes":[{"name":"a"}],"scenes":[{"nodes":[0]}],"scene":0,` +
		`"accessors":[{"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},{"componentType":5126,"count":3,"type":"SCALAR"}],` +
		`"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":[{"input":0,"output":1}]}]`)
	res, err = Decode(bad, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if strings.HasPrefix(f.Code, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_") && f.Path != "/animations/0/channels/0/sampler" {
			t.Errorf("%s at %s, want /animations/0/channels/0/sampler", f.Code, f.Path)
		}
	}
}

// TestGLBChunks checks GLB chunk rules at their boundaries: an empty BIN
// chunk is GLB_EMPTY_BIN_CHUNK (not GLB_EMPTY_CHUNK), a BIN chunk after an
// unknown one is misplaced but still the buffer's data, and a header length
// past the end of the file, when the chunks end with it, is
// GLB_LENGTH_MISMATCH.
func TestGLBChunks(t *testing.T) {
	chunk := func(typ uint32, data []byte) []byte {
		b := binary.LittleEndian.AppendUint32(nil, uint32(len(data)))
		return append(binary.LittleEndian.AppendUint32(b, typ), data...)
	}
	glb := func(extra int, chunks ...[]byte) []byte {
		body := bytes.Join(chunks, nil)
		b := append([]byte("glTF"), binary.LittleEndian.AppendUint32(nil, 2)...)
		b = binary.LittleEndian.AppendUint32(b, uint32(12+len(body)+extra))
		return append(b, body...)
	}
	const jsonT, binT = 0x4E4F534A, 0x004E4942
	js := []byte(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":4}]}    `)
	four := []byte{0, 0, 0, 0}
	cases := []struct {
		name string
		data []byte
		code string
		want bool
	}{
		{"bin_second", glb(0, chunk(jsonT, js), chunk(binT, four)), "BUFFER_MISSING_GLB_DATA", false},
		{"bin_after_unknown_used", glb(0, chunk(jsonT, js), chunk(0x1234, four), chunk(binT, four)), "BUFFER_MISSING_GLB_DATA", false},
		{"bin_after_unknown_flagged", glb(0, chunk(jsonT, js), chunk(0x1234, four), chunk(binT, four)), "GLB_UNEXPECTED_BIN_CHUNK", true},
		{"bin_empty", glb(0, chunk(jsonT, js), chunk(binT, nil)), "GLB_EMPTY_CHUNK", false},
		{"bin_empty_info", glb(0, chunk(jsonT, js), chunk(binT, nil)), "GLB_EMPTY_BIN_CHUNK", true},
		{"length_exact", glb(0, chunk(jsonT, js), chunk(binT, four)), "GLB_LENGTH_MISMATCH", false},
		{"length_past_end", glb(4, chunk(jsonT, js), chunk(binT, four)), "GLB_LENGTH_MISMATCH", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Decode(c.data, nil, Options{})
			if err != nil {
				t.Fatalf("does not open: %v", err)
			}
			got := false
			for _, f := range res.Findings {
				got = got || f.Code == c.code
			}
			if got != c.want {
				t.Errorf("%s found %v, want %v: %v", c.code, got, c.want, res.Findings)
			}
		})
	}
}

// sparseIdx is a 4-element float accessor whose 3 sparse indices are idx.
func sparseIdx(idx ...int) []byte {
	return fixture(`"accessors":[{"componentType":5126,"count":4,"type":"SCALAR","sparse":{"count":3,"indices":{"bufferView":0,"componentType":5123},"values":{"bufferView":1}}}]`,
		u16(idx...), f32(1, 2, 3))
}

// TestLoadErrorPointer checks a document that cannot be read names where:
// the asset's version, or the root when there is no asset.
func TestLoadErrorPointer(t *testing.T) {
	for _, c := range []struct{ doc, code, ptr string }{
		{`{"asset":{"version":"3.0"}}`, "UNKNOWN_ASSET_MAJOR_VERSION", "/asset/version"},
		{`{"asset":{}}`, "UNDEFINED_PROPERTY", "/asset"},
		{`{}`, "UNDEFINED_PROPERTY", "/"},
	} {
		_, err := Decode([]byte(c.doc), nil, Options{})
		if ErrorCode(err) != c.code || ErrorPointer(err) != c.ptr {
			t.Errorf("%s: %s at %q, want %s at %q", c.doc, ErrorCode(err), ErrorPointer(err), c.code, c.ptr)
		}
	}
}

// skinMesh is a skinned node whose mesh's primitive has POSITION and the
// attributes attrs (JOINTS accessor 1, WEIGHTS accessor 2).
func skinMesh(attrs string) []byte {
	return fixture(`"nodes":[{"mesh":0,"skin":0},{"name":"j"}],"scenes":[{"nodes":[0,1]}],"scene":0,"skins":[{"joints":[1]}],` +
		`"accessors":[{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]},{"componentType":5121,"count":1,"type":"VEC4"},{"componentType":5126,"count":1,"type":"VEC4"}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0,` + attrs + `},"mode":0}]}]`)
}

// restartIdx is a point primitive of n vertices drawn by the ubyte indices
// 0, 1 and idx.
func restartIdx(idx, n int) []byte {
	return fixture(fmt.Sprintf(`"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0,`+
		`"accessors":[{"bufferView":0,"componentType":5126,"count":%d,"type":"VEC3","min":[0,0,0],"max":[0,0,0]},{"bufferView":1,"componentType":5121,"count":3,"type":"SCALAR"}],`+
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1,"mode":0}]}]`, n), make([]byte, 12*n), u8(0, 1, idx))
}
