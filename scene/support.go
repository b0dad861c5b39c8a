package scene

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// shownExtensions are the glTF extensions the viewer honours beyond the
// ones a registered codec owns (physics, variants): it reads them and the
// picture shows what they mean. Everything else in extensionsUsed is listed
// as a finding, and refused when the file requires it.
var shownExtensions = map[string]bool{
	extDraco:                              true,
	extMeshopt:                            true,
	extMeshoptKHR:                         true,
	extMeshQuantize:                       true,
	"KHR_lights_punctual":                 true,
	"EXT_lights_image_based":              true, // the file's environment, in the View tab's list
	"KHR_texture_transform":               true,
	"KHR_materials_emissive_strength":     true,
	"KHR_materials_unlit":                 true,
	"KHR_materials_sheen":                 true,
	"KHR_materials_specular":              true,
	"KHR_materials_ior":                   true,
	"KHR_materials_clearcoat":             true,
	"KHR_materials_transmission":          true,
	"KHR_materials_volume":                true,
	"KHR_materials_dispersion":            true,
	"KHR_materials_iridescence":           true,
	"KHR_materials_anisotropy":            true,
	"KHR_materials_diffuse_transmission":  true,
	"KHR_materials_pbrSpecularGlossiness": true, // the specular-glossiness workflow, drawn as such
	"KHR_materials_diffuse_roughness":     true, // draft: energy-conserving Oren-Nayar
	"KHR_materials_fuzz":                  true, // draft: sheen's successor, on top of everything
	"KHR_materials_coat":                  true, // draft: clearcoat's successor, with its IOR and colour
	"EXT_texture_webp":                    true,
	"KHR_texture_basisu":                  true, // KTX2, decoded by render/imgdec/ktx2
	"EXT_texture_avif":                    true, // decoded by render/imgdec (libavif)
	"KHR_xmp_json_ld":                     true, // metadata: nothing to draw
	"GODOT_single_root":                   true, // Godot's note that the file has one root node: nothing to draw
}

var shownMu sync.RWMutex

// RegisterShownExtension records that the viewer honours extension name
// (a package that draws or reads it calls this from init), so files that
// use or require it open without a finding.
func RegisterShownExtension(name string) {
	shownMu.Lock()
	defer shownMu.Unlock()
	shownExtensions[name] = true
}

// ExtensionShown reports whether the viewer honours extension name.
func ExtensionShown(name string) bool {
	if slices.Contains(ownedExtensions, name) {
		return true
	}
	shownMu.RLock()
	defer shownMu.RUnlock()
	return shownExtensions[name]
}

// extensionHints say what to do with a file that requires an extension the
// viewer does not honour.
var extensionHints = map[string]string{}

// ExtensionHint says what a user can do with a file that requires
// extension name, which the viewer cannot honour.
func ExtensionHint(name string) string {
	if h, ok := extensionHints[name]; ok {
		return h
	}
	return "open it in a tool that supports it, or write the file without it (for example with gltf-transform, npm @gltf-transform/cli)"
}

// UnsupportedExtensions returns the extensions in the file's
// extensionsUsed that the viewer cannot honour, split by whether
// extensionsRequired names them.
func (d *Document) UnsupportedExtensions() (required, optional []string) {
	if d.GLTF == nil {
		return nil, nil
	}
	for _, name := range d.GLTF.ExtensionsUsed {
		if ExtensionShown(name) {
			continue
		}
		if slices.Contains(d.GLTF.ExtensionsRequired, name) {
			required = append(required, name)
		} else {
			optional = append(optional, name)
		}
	}
	// A required extension missing from extensionsUsed is required all the same.
	for _, name := range d.GLTF.ExtensionsRequired {
		if !ExtensionShown(name) && !slices.Contains(required, name) {
			required = append(required, name)
		}
	}
	return required, optional
}

// UnsupportedError is why a file is refused for viewing: it requires
// extensions the viewer cannot honour.
type UnsupportedError struct {
	// Path is the file.
	Path string
	// Extensions are the required extensions the viewer cannot honour.
	Extensions []string
}

// Error names the file, the extension and what to do, in one line.
func (e *UnsupportedError) Error() string {
	name := e.Extensions[0]
	more := ""
	if len(e.Extensions) > 1 {
		more = fmt.Sprintf(" (also %s)", strings.Join(e.Extensions[1:], ", "))
	}
	file := e.Path
	if file == "" {
		file = "the file"
	}
	return fmt.Sprintf("%s: requires extension %s%s, which this viewer cannot show: %s", file, name, more, ExtensionHint(name))
}

// CheckRequired returns an *UnsupportedError when the file requires an
// extension the viewer cannot honour; viewing (the window, screenshot,
// simulate) refuses such a file, validation and conversion read it.
func (d *Document) CheckRequired() error {
	req, _ := d.UnsupportedExtensions()
	if len(req) == 0 {
		return nil
	}
	return &UnsupportedError{Path: d.Path, Extensions: req}
}
