package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Linked shader programs are kept on disk as the driver's own binaries
// (glGetProgramBinary), beside the prefiltered environments and under the
// same generations (envcache.go). A program read back with
// glProgramBinary is the very program the link made, so it draws the same
// pixels, but no GLSL is compiled: Mesa then never builds its compiler's
// tables of built-in functions, which stay in memory until the context
// ends (6.5 MB, about 45 ms of CPU at the first compile of a process). A
// screenshot of a file without textures peaked 6.5 MB lower
// (docs/rendering.md, Memory).

// progCacheFormat is bumped whenever the file layout or the key changes.
const progCacheFormat = 1

// progCacheHeader is a file's header: magic, format, the driver's binary
// format, the payload's length and the key.
const progCacheHeader = 8 + 4 + 4 + 4 + sha256.Size

// progCacheMagic starts every program file.
var progCacheMagic = [8]byte{'p', 'h', 'y', 's', 'p', 'r', 'o', 'g'}

// progDriver is what names the driver a binary is for (GL_VENDOR,
// GL_RENDERER, GL_VERSION), read once from the first context: a binary is
// only offered to the driver that wrote it (the driver checks too, and a
// binary it refuses is compiled again and rewritten).
var progDriver = struct {
	sync.Mutex
	s string
}{}

// programCache returns the cache programs are read from and written to,
// and the key of the program made of vert and frag; nil when the cache is
// off or the driver has no binary format.
func programCache(vert, frag string) (*envDiskCache, [sha256.Size]byte) {
	c := defaultEnvCache()
	if c == nil {
		return nil, [sha256.Size]byte{}
	}
	progDriver.Lock()
	if progDriver.s == "" {
		var formats int32
		gl.GetIntegerv(gl.NUM_PROGRAM_BINARY_FORMATS, &formats)
		progDriver.s = "none"
		if formats > 0 {
			progDriver.s = gl.GoStr(gl.GetString(gl.VENDOR)) + "\x00" + gl.GoStr(gl.GetString(gl.RENDERER)) + "\x00" + gl.GoStr(gl.GetString(gl.VERSION))
		}
	}
	driver := progDriver.s
	progDriver.Unlock()
	if driver == "none" {
		return nil, [sha256.Size]byte{}
	}
	h := sha256.New()
	fmt.Fprintf(h, "program %d\x00%s\x00", progCacheFormat, driver)
	h.Write(c.sum[:])
	fmt.Fprintf(h, "%d\x00%s\x00%d\x00%s", len(vert), vert, len(frag), frag)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return c, key
}

// progPath is the file of the program with key.
func (c *envDiskCache) progPath(key [sha256.Size]byte) string {
	return filepath.Join(c.dir, "prog-"+c.gen+"-"+hex.EncodeToString(key[:8])+".bin")
}

// loadProgram makes a program from the binary stored under key; 0 when
// there is none or the driver refuses it.
func (c *envDiskCache) loadProgram(key [sha256.Size]byte) uint32 {
	format, bin, err := c.readProgram(key)
	if err != nil {
		return 0
	}
	id := gl.CreateProgram()
	gl.ProgramBinary(id, format, gl.Ptr(bin), int32(len(bin)))
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		gl.DeleteProgram(id)
		// A refused binary may leave an error flag: it is not the
		// picture's (RenderImage reports any error it finds). GL keeps
		// one flag per kind, so a few reads clear them.
		for i := 0; i < 8 && gl.GetError() != gl.NO_ERROR; i++ {
		}
		return 0
	}
	programsLoaded.Add(1)
	// Its time of use, for the bound on the programs kept (prune).
	now := time.Now()
	os.Chtimes(c.progPath(key), now, now)
	return id
}

// maxProgramFile bounds the size of a program file read: Mesa's binaries
// of these shaders are tens to hundreds of kilobytes.
const maxProgramFile = 64 << 20

// programsLoaded counts the programs read from the cache (for tests).
var programsLoaded atomic.Int64

// readProgram returns the driver's format and binary stored under key if
// the file's header, key, length and checksum are right.
func (c *envDiskCache) readProgram(key [sha256.Size]byte) (uint32, []byte, error) {
	path := c.progPath(key)
	b, err := readCacheFile(path, maxProgramFile)
	if err != nil {
		return 0, nil, fmt.Errorf("program cache: %w", err)
	}
	if len(b) < progCacheHeader+4+1 {
		return 0, nil, fmt.Errorf("program cache %s: %d bytes", path, len(b))
	}
	n := binary.LittleEndian.Uint32(b[16:])
	switch {
	case !bytes.Equal(b[:8], progCacheMagic[:]):
		return 0, nil, fmt.Errorf("program cache %s: not a program file", path)
	case binary.LittleEndian.Uint32(b[8:]) != progCacheFormat:
		return 0, nil, fmt.Errorf("program cache %s: format %d", path, binary.LittleEndian.Uint32(b[8:]))
	case uint64(len(b)) != uint64(progCacheHeader)+uint64(n)+4:
		return 0, nil, fmt.Errorf("program cache %s: %d bytes for a binary of %d", path, len(b), n)
	case !bytes.Equal(b[20:progCacheHeader], key[:]):
		return 0, nil, fmt.Errorf("program cache %s: other key", path)
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, crcTable) != binary.LittleEndian.Uint32(b[len(body):]) {
		return 0, nil, fmt.Errorf("program cache %s: checksum mismatch", path)
	}
	return binary.LittleEndian.Uint32(b[12:]), body[progCacheHeader:], nil
}

// storeProgram writes linked program id's binary under key; a driver that
// gives none stores nothing.
func (c *envDiskCache) storeProgram(key [sha256.Size]byte, id uint32) error {
	var n int32
	gl.GetProgramiv(id, gl.PROGRAM_BINARY_LENGTH, &n)
	if n <= 0 {
		return nil
	}
	bin := make([]byte, n)
	var format uint32
	var got int32
	gl.GetProgramBinary(id, n, &got, &format, gl.Ptr(bin))
	if got <= 0 || got > n {
		return fmt.Errorf("program cache: the driver gave %d bytes of %d", got, n)
	}
	return c.writeFile(c.progPath(key), programFile(key, format, bin[:got]))
}

// programFile is the file of binary bin of the driver's format under key:
// header, binary, checksum.
func programFile(key [sha256.Size]byte, format uint32, bin []byte) []byte {
	b := make([]byte, progCacheHeader+len(bin)+4)
	copy(b, progCacheMagic[:])
	binary.LittleEndian.PutUint32(b[8:], progCacheFormat)
	binary.LittleEndian.PutUint32(b[12:], format)
	binary.LittleEndian.PutUint32(b[16:], uint32(len(bin)))
	copy(b[20:], key[:])
	copy(b[progCacheHeader:], bin)
	body := b[:len(b)-4]
	binary.LittleEndian.PutUint32(b[len(body):], crc32.Checksum(body, crcTable))
	return b
}
