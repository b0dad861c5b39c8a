package render

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
)

// program is a linked shader program with its uniform locations cached.
type program struct {
	id       uint32
	uniforms map[string]int32
}

func compile(kind uint32, src string) (uint32, error) {
	sh := gl.CreateShader(kind)
	csrc, free := gl.Strs(src + "\x00")
	gl.ShaderSource(sh, 1, csrc, nil)
	free()
	gl.CompileShader(sh)
	var ok int32
	gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		log := infoLog(sh, gl.GetShaderiv, gl.GetShaderInfoLog)
		gl.DeleteShader(sh)
		return 0, fmt.Errorf("shader: %s", log)
	}
	return sh, nil
}

// infoLog reads the compile or link log of a shader or program.
func infoLog(id uint32, param func(uint32, uint32, *int32), read func(uint32, int32, *int32, *uint8)) string {
	var n int32
	param(id, gl.INFO_LOG_LENGTH, &n)
	log := strings.Repeat("\x00", int(n+1))
	read(id, n, nil, gl.Str(log))
	return strings.TrimRight(log, "\x00")
}

// newProgram links vert and frag into a program, or reads the program
// linked from them before from the disk cache (progcache.go).
func newProgram(vert, frag string) (*program, error) {
	cache, key := programCache(vert, frag)
	if cache != nil {
		if id := cache.loadProgram(key); id != 0 {
			return &program{id: id, uniforms: map[string]int32{}}, nil
		}
	}
	vs, err := compile(gl.VERTEX_SHADER, vert)
	if err != nil {
		return nil, err
	}
	fs, err := compile(gl.FRAGMENT_SHADER, frag)
	if err != nil {
		gl.DeleteShader(vs)
		return nil, err
	}
	id := gl.CreateProgram()
	gl.AttachShader(id, vs)
	gl.AttachShader(id, fs)
	if cache != nil {
		gl.ProgramParameteri(id, gl.PROGRAM_BINARY_RETRIEVABLE_HINT, gl.TRUE)
	}
	gl.LinkProgram(id)
	gl.DeleteShader(vs)
	gl.DeleteShader(fs)
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		log := infoLog(id, gl.GetProgramiv, gl.GetProgramInfoLog)
		gl.DeleteProgram(id)
		return nil, fmt.Errorf("link: %s", log)
	}
	if cache != nil {
		cache.storeProgram(key, id) // a cache that cannot be written only costs time
	}
	return &program{id: id, uniforms: map[string]int32{}}, nil
}

func (p *program) loc(name string) int32 {
	if l, ok := p.uniforms[name]; ok {
		return l
	}
	l := gl.GetUniformLocation(p.id, gl.Str(name+"\x00"))
	p.uniforms[name] = l
	return l
}

func (p *program) mat4(name string, m mgl32.Mat4) { gl.UniformMatrix4fv(p.loc(name), 1, false, &m[0]) }
func (p *program) mat3(name string, m mgl32.Mat3) { gl.UniformMatrix3fv(p.loc(name), 1, false, &m[0]) }
func (p *program) vec4(name string, v [4]float32) { gl.Uniform4f(p.loc(name), v[0], v[1], v[2], v[3]) }
func (p *program) vec3(name string, v [3]float32) { gl.Uniform3f(p.loc(name), v[0], v[1], v[2]) }
func (p *program) vec2(name string, v [2]float32) { gl.Uniform2f(p.loc(name), v[0], v[1]) }
func (p *program) float(name string, f float32)   { gl.Uniform1f(p.loc(name), f) }
func (p *program) int(name string, i int32)       { gl.Uniform1i(p.loc(name), i) }
func (p *program) bool(name string, b bool) {
	if b {
		gl.Uniform1i(p.loc(name), 1)
	} else {
		gl.Uniform1i(p.loc(name), 0)
	}
}
