package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Camera is an orbit camera: it looks at Target from Distance away, turned
// by Yaw about +Y and tilted by Pitch (radians).
type Camera struct {
	Target   mgl64.Vec3
	Distance float64
	Yaw      float64
	Pitch    float64
	// FovY is the vertical field of view in radians.
	FovY float64
	// Radius is the size of what is framed; it sets the near and far planes
	// so that both a millimetre part and a 60 m scene show.
	Radius float64
}

// NewCamera returns a camera framing the box [min, max].
func NewCamera(min, max mgl64.Vec3) Camera {
	c := Camera{Yaw: math.Pi / 5, Pitch: -math.Pi / 8, FovY: math.Pi / 4}
	c.Frame(min, max)
	return c
}

// Frame points the camera at the centre of [min, max] from a distance at
// which the whole box fits, keeping the direction.
func (c *Camera) Frame(min, max mgl64.Vec3) {
	center := min.Add(max).Mul(0.5)
	r := max.Sub(min).Len() / 2
	if r <= 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		r = 1
	}
	c.Target = center
	c.Radius = r
	c.Distance = r / math.Sin(c.FovY/2) * 1.05
}

// Eye returns the camera position.
func (c Camera) Eye() mgl64.Vec3 {
	dir := mgl64.Vec3{
		math.Cos(c.Pitch) * math.Sin(c.Yaw),
		-math.Sin(c.Pitch),
		math.Cos(c.Pitch) * math.Cos(c.Yaw),
	}
	return c.Target.Add(dir.Mul(c.Distance))
}

// View returns the world-to-camera matrix.
func (c Camera) View() mgl64.Mat4 {
	return mgl64.LookAtV(c.Eye(), c.Target, mgl64.Vec3{0, 1, 0})
}

// Planes returns the near and far clip distances: tight around what is
// framed, so depth precision holds at any scale.
func (c Camera) Planes() (near, far float64) {
	r := math.Max(c.Radius, 1e-6)
	far = c.Distance + r*4
	near = math.Max(c.Distance-r*4, far*1e-4)
	return near, far
}

// Projection returns the perspective projection for a viewport aspect ratio.
func (c Camera) Projection(aspect float64) mgl64.Mat4 {
	near, far := c.Planes()
	return mgl64.Perspective(c.FovY, aspect, near, far)
}

// Orbit turns the camera by dx, dy radians, keeping the pitch short of the poles.
func (c *Camera) Orbit(dx, dy float64) {
	c.Yaw -= dx
	c.Pitch = mgl64.Clamp(c.Pitch+dy, -math.Pi/2+0.01, math.Pi/2-0.01)
}

// Pan moves the target in the view plane by dx, dy pixels of a viewport
// height pixels tall, so the point under the cursor follows it.
func (c *Camera) Pan(dx, dy, height float64) {
	if height <= 0 {
		return
	}
	perPixel := 2 * c.Distance * math.Tan(c.FovY/2) / height
	view := c.View()
	right := mgl64.Vec3{view[0], view[4], view[8]}
	up := mgl64.Vec3{view[1], view[5], view[9]}
	c.Target = c.Target.Sub(right.Mul(dx * perPixel)).Add(up.Mul(dy * perPixel))
}

// Zoom moves closer for positive steps (mouse wheel notches), never through the target.
func (c *Camera) Zoom(steps float64) {
	c.Distance *= math.Pow(0.85, steps)
	c.Distance = math.Max(c.Distance, c.Radius*1e-3)
}

// CameraFromNode returns an orbit camera that sees what glTF camera node n
// sees (roll is dropped), orbiting at the distance of the scene centre.
func CameraFromNode(world mgl64.Mat4, yfov float64, center mgl64.Vec3, radius float64) Camera {
	eye := world.Col(3).Vec3()
	forward := world.Mul4x1(mgl64.Vec4{0, 0, -1, 0}).Vec3().Normalize()
	dist := math.Max(center.Sub(eye).Dot(forward), radius*0.1)
	if dist <= 0 || math.IsNaN(dist) {
		dist = 1
	}
	back := forward.Mul(-1)
	c := Camera{
		Target:   eye.Add(forward.Mul(dist)),
		Distance: dist,
		Pitch:    -math.Asin(mgl64.Clamp(back[1], -1, 1)),
		Yaw:      math.Atan2(back[0], back[2]),
		FovY:     yfov,
		Radius:   radius,
	}
	if c.FovY <= 0 || c.FovY >= math.Pi {
		c.FovY = math.Pi / 4
	}
	return c
}
