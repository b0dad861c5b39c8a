// Package meshdec decodes compressed glTF geometry: KHR_draco_mesh_compression
// through a thin cgo shim over Debian's libdraco (draco_shim.cc), and
// EXT_meshopt_compression / KHR_meshopt_compression buffer views through
// Debian's libmeshoptimizer. It knows bytes, counts and glTF component type
// codes, not documents: package scene decides what to decode and where the
// results go.
//
// Every size that reaches the C code is checked first (MaxInput, MaxOutput),
// and every precondition the C libraries assert is checked in Go, so hostile
// input gives an error, never an abort.
package meshdec

// MaxInput is the largest compressed block handed to a decoder (256 MiB).
const MaxInput = 256 << 20

// MaxOutput is the largest decoded block (1 GiB): a count or stride from a
// file that asks for more is refused before memory is reserved.
const MaxOutput = 1 << 30

// ComponentSize returns the byte size of a glTF component type code (5120
// BYTE .. 5126 FLOAT), or 0 for an unknown code.
func ComponentSize(ctype int) int {
	switch ctype {
	case 5120, 5121:
		return 1
	case 5122, 5123:
		return 2
	case 5125, 5126:
		return 4
	}
	return 0
}
