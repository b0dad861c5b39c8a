package render

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The prefiltered environments and the BRDF table are deterministic but
// cost about 200 ms of CPU per process, so they are kept on disk. A file
// is only ever used by the very build that wrote it: the key holds the
// running executable's Go build ID, which changes whenever any code that
// went into the binary changes, so the cache cannot go stale.

// CacheDirEnv is the environment variable that overrides the directory
// of the on-disk cache of prefiltered environments; the value "off"
// turns the cache off. Unset, the cache is in os.UserCacheDir()/physview.
const CacheDirEnv = "PHYSVIEW_CACHE_DIR"

const (
	// envCacheFormat is bumped whenever the file layout or the meaning of
	// the key changes.
	envCacheFormat = 1
	// lutSamples is the sample count computeLUT is run with.
	lutSamples = 128
	// envCacheHeader is the header's size: magic, format, float count
	// and the key.
	envCacheHeader = 8 + 4 + 4 + sha256.Size
)

// envCacheMagic starts every cache file.
var envCacheMagic = [8]byte{'p', 'h', 'y', 's', 'e', 'n', 'v', 0}

// envCacheName matches the files this cache writes (and their temporary
// files; prog-: the shader programs of progcache.go), capturing the
// generation; nothing else in the directory is
// ever removed.
var envCacheName = regexp.MustCompile(`^(?:env|lut|prog)-([0-9a-f]{16})(?:-[a-z0-9]+)?\.bin(?:\.tmp[0-9]*)?$`)

// crcTable is CRC-32C, which the hardware computes on amd64 and arm64.
var crcTable = crc32.MakeTable(crc32.Castagnoli)

// envDiskCache is the cache directory of one build.
type envDiskCache struct {
	dir string
	gen string // hex prefix of the generation hash: build and sizes
	sum [sha256.Size]byte
}

// newEnvDiskCache returns the cache in dir for the build buildID.
func newEnvDiskCache(dir, buildID string) *envDiskCache {
	h := sha256.New()
	// Everything that decides the data besides the code: the sizes, and
	// on amd64 whether math.Exp takes its FMA path (a binary copied to
	// another CPU would compute other last bits).
	fmt.Fprintf(h, "physview envcache\x00format %d\x00build %s\x00%s/%s fma %t\x00base %d mips %d lut %d/%d",
		envCacheFormat, buildID, runtime.GOOS, runtime.GOARCH, cpu.X86.HasAVX && cpu.X86.HasFMA,
		envBaseSize, envMips, lutSize, lutSamples)
	c := &envDiskCache{dir: dir}
	h.Sum(c.sum[:0])
	c.gen = hex.EncodeToString(c.sum[:8])
	return c
}

// defaultEnvCache is the cache of this process, or nil when it is off or
// there is no build ID to key it with.
var defaultEnvCache = sync.OnceValue(envCacheFromEnv)

// envCacheFromEnv makes the cache CacheDirEnv and the build ID describe.
func envCacheFromEnv() *envDiskCache {
	dir := os.Getenv(CacheDirEnv)
	if dir == "off" {
		return nil
	}
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		dir = filepath.Join(base, "physview")
	}
	id, err := executableBuildID()
	if err != nil || id == "" {
		return nil
	}
	return newEnvDiskCache(dir, id)
}

// executableBuildID returns the Go build ID of the running executable,
// read from its .note.go.buildid section alone. /proc/self/exe is the
// file that is running even if the path has been rebuilt since.
func executableBuildID() (string, error) {
	f, err := elf.Open("/proc/self/exe")
	if err != nil {
		exe, err2 := os.Executable()
		if err2 != nil {
			return "", fmt.Errorf("build ID: %w", err)
		}
		if f, err = elf.Open(exe); err != nil {
			return "", fmt.Errorf("build ID: %w", err)
		}
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return "", errors.New("build ID: no .note.go.buildid section")
	}
	note, err := s.Data()
	if err != nil {
		return "", fmt.Errorf("build ID: %w", err)
	}
	return parseGoBuildIDNote(note, f.ByteOrder)
}

// parseGoBuildIDNote returns the build ID from the ELF note the Go linker
// writes: name "Go", type 4, the ID as its descriptor.
func parseGoBuildIDNote(note []byte, bo binary.ByteOrder) (string, error) {
	for len(note) >= 12 {
		namesz, descsz, typ := bo.Uint32(note), bo.Uint32(note[4:]), bo.Uint32(note[8:])
		name := 12 + (uint64(namesz)+3)&^3
		end := name + (uint64(descsz)+3)&^3
		if end > uint64(len(note)) {
			break
		}
		// The linker writes the name padded, "Go\x00\x00" (namesz 4).
		if typ == 4 && (namesz == 3 || namesz == 4) && string(note[12:15]) == "Go\x00" {
			return string(note[name : name+uint64(descsz)]), nil
		}
		note = note[end:]
	}
	return "", errors.New("build ID: no Go note")
}

// envSlug is environment e's part of its file name.
func envSlug(e Environment) string {
	return strings.ToLower(strings.ReplaceAll(e.String(), " ", ""))
}

// envPath and lutPath are the files of environment e and of the table.
func (c *envDiskCache) envPath(e Environment) string {
	return filepath.Join(c.dir, "env-"+c.gen+"-"+envSlug(e)+".bin")
}

func (c *envDiskCache) lutPath() string {
	return filepath.Join(c.dir, "lut-"+c.gen+".bin")
}

// key is the key stored in a file: the generation and what the file is.
func (c *envDiskCache) key(what string) [sha256.Size]byte {
	return sha256.Sum256(append(c.sum[:], what...))
}

func envKey(e Environment) string { return fmt.Sprintf("env %d", e) }

const lutKey = "lut"

// envFloats is the number of floats an environment is stored as: the
// specular levels, level by level and face by face, then the irradiance.
func envFloats() int {
	n := 9 * 3
	for level := 0; level < envMips; level++ {
		s := envBaseSize >> level
		n += 6 * 3 * s * s
	}
	return n
}

// loadEnv reads environment e from the cache; any error is a miss.
func (c *envDiskCache) loadEnv(e Environment) (*envMaps, error) {
	start := time.Now()
	fl, err := c.read(c.envPath(e), c.key(envKey(e)), envFloats())
	if err != nil {
		return nil, err
	}
	m := &envMaps{}
	for level := 0; level < envMips; level++ {
		s := envBaseSize >> level
		for f := 0; f < 6; f++ {
			m.specular[level][f] = fl[: 3*s*s : 3*s*s]
			fl = fl[3*s*s:]
		}
	}
	for k := range m.sh {
		copy(m.sh[k][:], fl[3*k:])
	}
	m.elapsed = time.Since(start)
	return m, nil
}

// storeEnv writes environment e to the cache.
func (c *envDiskCache) storeEnv(e Environment, m *envMaps) error {
	fl := make([]float32, 0, envFloats())
	for level := 0; level < envMips; level++ {
		s := envBaseSize >> level
		for f := 0; f < 6; f++ {
			if len(m.specular[level][f]) != 3*s*s {
				return fmt.Errorf("store %s: level %d face %d has %d floats, want %d", e, level, f, len(m.specular[level][f]), 3*s*s)
			}
			fl = append(fl, m.specular[level][f]...)
		}
	}
	for k := range m.sh {
		fl = append(fl, m.sh[k][:]...)
	}
	return c.write(c.envPath(e), c.key(envKey(e)), fl)
}

// loadLUT reads the BRDF table from the cache; any error is a miss.
func (c *envDiskCache) loadLUT() (*brdfLUT, error) {
	start := time.Now()
	fl, err := c.read(c.lutPath(), c.key(lutKey), 3*lutSize*lutSize)
	if err != nil {
		return nil, err
	}
	return &brdfLUT{data: fl, elapsed: time.Since(start)}, nil
}

// storeLUT writes the BRDF table to the cache.
func (c *envDiskCache) storeLUT(l *brdfLUT) error {
	if len(l.data) != 3*lutSize*lutSize {
		return fmt.Errorf("store BRDF table: %d floats, want %d", len(l.data), 3*lutSize*lutSize)
	}
	return c.write(c.lutPath(), c.key(lutKey), l.data)
}

// littleEndian is whether this machine stores floats as the files do, so
// a file's payload can be used in place.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// read returns the n floats of the file at path if its header, key, size
// and checksum are right. On a little-endian machine the floats are the
// file's own buffer, not a copy.
func (c *envDiskCache) read(path string, key [sha256.Size]byte, n int) ([]float32, error) {
	b, err := readCacheFile(path, int64(envCacheHeader)+4*int64(n)+4)
	if err != nil {
		return nil, fmt.Errorf("env cache: %w", err)
	}
	if len(b) != envCacheHeader+4*n+4 {
		return nil, fmt.Errorf("env cache %s: %d bytes, want %d", path, len(b), envCacheHeader+4*n+4)
	}
	switch {
	case !bytes.Equal(b[:8], envCacheMagic[:]):
		return nil, fmt.Errorf("env cache %s: not a cache file", path)
	case binary.LittleEndian.Uint32(b[8:]) != envCacheFormat:
		return nil, fmt.Errorf("env cache %s: format %d", path, binary.LittleEndian.Uint32(b[8:]))
	case binary.LittleEndian.Uint32(b[12:]) != uint32(n):
		return nil, fmt.Errorf("env cache %s: %d floats, want %d", path, binary.LittleEndian.Uint32(b[12:]), n)
	case !bytes.Equal(b[16:envCacheHeader], key[:]):
		return nil, fmt.Errorf("env cache %s: other key", path)
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, crcTable) != binary.LittleEndian.Uint32(b[len(body):]) {
		return nil, fmt.Errorf("env cache %s: checksum mismatch", path)
	}
	payload := body[envCacheHeader:]
	if littleEndian && uintptr(unsafe.Pointer(&payload[0]))%4 == 0 {
		return unsafe.Slice((*float32)(unsafe.Pointer(&payload[0])), n), nil
	}
	fl := make([]float32, n)
	for i := range fl {
		fl[i] = math.Float32frombits(binary.LittleEndian.Uint32(payload[4*i:]))
	}
	return fl, nil
}

// readCacheFile reads the cache file at path if it is a regular file of
// at most max bytes. Anything else there (a FIFO, whose open would wait
// for a writer; a link to a device that never ends; a huge file) is an
// error before it is opened.
func readCacheFile(path string, max int64) ([]byte, error) {
	regular := func(info fs.FileInfo) error {
		switch {
		case !info.Mode().IsRegular():
			return fmt.Errorf("%s: not a regular file (%v)", path, info.Mode().Type())
		case info.Size() > max:
			return fmt.Errorf("%s: %d bytes, more than %d", path, info.Size(), max)
		}
		return nil
	}
	info, err := os.Stat(path)
	if err == nil {
		err = regular(info)
	}
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file opened, should another have taken its name since.
	if info, err = f.Stat(); err == nil {
		err = regular(info)
	}
	if err != nil {
		return nil, err
	}
	b := make([]byte, info.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// write stores fl under key at path: to a temporary file in the same
// directory, renamed over path, so that a reader (or a second process
// writing the same file) only ever sees a whole file. Then it removes
// the files of other generations.
func (c *envDiskCache) write(path string, key [sha256.Size]byte, fl []float32) error {
	b := make([]byte, envCacheHeader+4*len(fl)+4)
	copy(b, envCacheMagic[:])
	binary.LittleEndian.PutUint32(b[8:], envCacheFormat)
	binary.LittleEndian.PutUint32(b[12:], uint32(len(fl)))
	copy(b[16:], key[:])
	p := b[envCacheHeader:]
	for i, v := range fl {
		binary.LittleEndian.PutUint32(p[4*i:], math.Float32bits(v))
	}
	body := b[:len(b)-4]
	binary.LittleEndian.PutUint32(b[len(body):], crc32.Checksum(body, crcTable))
	return c.writeFile(path, b)
}

// writeFile writes b to path through a temporary file in the same
// directory, renamed over path, then prunes the other generations.
func (c *envDiskCache) writeFile(path string, b []byte) error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return fmt.Errorf("env cache: %w", err)
	}
	tmp, err := os.CreateTemp(c.dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("env cache: %w", err)
	}
	_, err = tmp.Write(b)
	if err2 := tmp.Close(); err == nil {
		err = err2
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("env cache: write %s: %w", path, err)
	}
	return c.prune()
}

// staleTemp is how old a temporary file must be to count as left behind
// by a process that died while writing.
const staleTemp = time.Hour

// keepGenerations is how many generations (builds) keep their files: the
// current one and the most recently written others, so that an installed
// viewer and a development build used in turn do not delete each other's
// files at every start, while rebuilt binaries do not pile up files.
const keepGenerations = 3

// maxProgramFiles bounds the program files (progcache.go) kept of the
// current generation: each material's combination of features is a
// program of its own, so files with many materials would otherwise add
// files (20 KB each) without end. The least recently used go first.
var maxProgramFiles = 1024

// prune removes the cache files of all but the keepGenerations most
// recently written generations (other builds or sizes; the current one
// is always kept), temporary files left behind, and the least recently
// used program files of the current generation past maxProgramFiles.
// Only names this cache writes are touched.
func (c *envDiskCache) prune() error {
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return fmt.Errorf("env cache: prune: %w", err)
	}
	type file struct {
		name, gen string
		temp      bool
		mod       time.Time
	}
	var files []file
	newest := map[string]time.Time{}
	for _, ent := range ents {
		m := envCacheName.FindStringSubmatch(ent.Name())
		if m == nil || !ent.Type().IsRegular() {
			continue
		}
		info, err := ent.Info()
		if err != nil {
			continue
		}
		f := file{ent.Name(), m[1], strings.Contains(ent.Name(), ".tmp"), info.ModTime()}
		files = append(files, f)
		if !f.temp && f.mod.After(newest[f.gen]) {
			newest[f.gen] = f.mod
		}
	}
	var others []string
	for g := range newest {
		if g != c.gen {
			others = append(others, g)
		}
	}
	sort.Slice(others, func(i, j int) bool { return newest[others[i]].After(newest[others[j]]) })
	keep := map[string]bool{c.gen: true}
	for _, g := range others[:min(len(others), keepGenerations-1)] {
		keep[g] = true
	}
	// The current generation's programs past the bound, oldest first (a
	// program read is touched: loadProgram).
	var progs []file
	for _, f := range files {
		if !f.temp && f.gen == c.gen && strings.HasPrefix(f.name, "prog-") {
			progs = append(progs, f)
		}
	}
	evict := map[string]bool{}
	if len(progs) > maxProgramFiles {
		sort.Slice(progs, func(i, j int) bool { return progs[i].mod.Before(progs[j].mod) })
		for _, f := range progs[:len(progs)-maxProgramFiles] {
			evict[f.name] = true
		}
	}
	var errs []error
	for _, f := range files {
		switch {
		case evict[f.name]:
		case f.temp && time.Since(f.mod) < staleTemp:
			continue // another process may be writing it
		case !f.temp && keep[f.gen]:
			continue
		}
		if err := os.Remove(filepath.Join(c.dir, f.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("env cache: prune: %w", err))
		}
	}
	return errors.Join(errs...)
}

// cachedPrefilter returns environment e from the disk cache, or computes
// it and stores it there. The store happens before the caller is told
// the maps are ready, so a screenshot that exits right after its frame
// still leaves a whole file for the next run.
func cachedPrefilter(c *envDiskCache, e Environment) *envMaps {
	if c != nil {
		if m, err := c.loadEnv(e); err == nil {
			return m
		}
	}
	m := prefilter(radianceFunc(e))
	if c != nil {
		c.storeEnv(e, m) // a cache that cannot be written only costs time
	}
	return m
}

// cachedLUT is cachedPrefilter for the BRDF table.
func cachedLUT(c *envDiskCache) *brdfLUT {
	if c != nil {
		if l, err := c.loadLUT(); err == nil {
			return l
		}
	}
	l := computeLUT(lutSize, lutSamples)
	if c != nil {
		c.storeLUT(l)
	}
	return l
}
