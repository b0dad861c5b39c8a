package xode

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// transform reads a <transform> element into a local matrix. absolute
// reports transform absolute="true" (the matrix is in world space); scale is
// the scale attribute (1 when absent).
func transform(e *element) (m mgl64.Mat4, absolute bool, scale float64, err error) {
	m = mgl64.Ident4()
	if e == nil {
		return m, false, 1, nil
	}
	absolute = e.Attr["absolute"] == "true"
	if scale, err = e.num("scale", 1); err != nil {
		return m, false, 1, err
	}
	if mx := e.child("matrix4f"); mx != nil {
		// XODE (like PyODE) writes row-vector matrices: the translation is
		// m30 m31 m32. Read row by row into a column-major matrix, which
		// transposes it into the column-vector convention.
		for i := 0; i < 4; i++ {
			for j := 0; j < 4; j++ {
				v, err := mx.num(fmt.Sprintf("m%d%d", i, j), mgl64.Ident4()[i*4+j])
				if err != nil {
					return m, false, 1, err
				}
				m[i*4+j] = v
			}
		}
		// Only affine matrices place anything: the last column of the
		// row-vector form (m03 m13 m23 m33) must be 0 0 0 1.
		m[3], m[7], m[11], m[15] = 0, 0, 0, 1
		return m, absolute, scale, nil
	}
	var t [3]float64
	if p := e.child("position"); p != nil {
		if t, err = p.vec(); err != nil {
			return m, false, 1, err
		}
	}
	r := mgl64.Ident4()
	if rot := e.child("rotation"); rot != nil {
		if r, err = rotation(rot); err != nil {
			return m, false, 1, err
		}
	}
	m = mgl64.Translate3D(t[0], t[1], t[2]).Mul4(r)
	if scale != 1 {
		m = m.Mul4(mgl64.Scale3D(scale, scale, scale))
	}
	return m, absolute, scale, nil
}

// angleUnit returns the factor that turns the element's angles into
// radians: aformat "degrees" or "radians" (the default, as PyODE reads it).
func angleUnit(e *element) (float64, error) {
	switch e.Attr["aformat"] {
	case "", "radians":
		return 1, nil
	case "degrees":
		return math.Pi / 180, nil
	}
	return 0, fmt.Errorf("line %d: <%s aformat=%q>: want degrees or radians", e.Line, e.Name, e.Attr["aformat"])
}

// rotation reads the one child of <rotation>: euler (about the fixed X, then
// Y, then Z axes), axisangle or quaternion.
func rotation(rot *element) (mgl64.Mat4, error) {
	for _, c := range rot.Children {
		switch c.Name {
		case "euler":
			u, err := angleUnit(c)
			if err != nil {
				return mgl64.Ident4(), err
			}
			a, err := c.vec()
			if err != nil {
				return mgl64.Ident4(), err
			}
			return mgl64.HomogRotate3DZ(a[2] * u).Mul4(mgl64.HomogRotate3DY(a[1] * u)).Mul4(mgl64.HomogRotate3DX(a[0] * u)), nil
		case "axisangle":
			u, err := angleUnit(c)
			if err != nil {
				return mgl64.Ident4(), err
			}
			ax, err := c.vec()
			if err != nil {
				return mgl64.Ident4(), err
			}
			ang, err := c.num("angle", 0)
			if err != nil {
				return mgl64.Ident4(), err
			}
			axis := mgl64.Vec3(ax)
			if axis.Len() == 0 {
				return mgl64.Ident4(), fmt.Errorf("line %d: <axisangle> has a zero axis", c.Line)
			}
			return mgl64.HomogRotate3D(ang*u, axis.Normalize()), nil
		case "quaternion":
			q, err := c.vec()
			if err != nil {
				return mgl64.Ident4(), err
			}
			w, err := c.num("w", 1)
			if err != nil {
				return mgl64.Ident4(), err
			}
			quat := mgl64.Quat{W: w, V: mgl64.Vec3(q)}
			if quat.Len() == 0 {
				return mgl64.Ident4(), fmt.Errorf("line %d: <quaternion> is zero", c.Line)
			}
			return quat.Normalize().Mat4(), nil
		}
	}
	return mgl64.Ident4(), nil
}

// mass is ODE's dMass: total mass, centre of gravity and the inertia tensor
// about the body's point of reference, all in body coordinates.
type mass struct {
	m float64
	c mgl64.Vec3
	I mgl64.Mat3
}

func diag(a, b, c float64) mgl64.Mat3 { return mgl64.Mat3{a, 0, 0, 0, b, 0, 0, 0, c} }

// shapeMass is dMassSetSphere/Box/Capsule/Cylinder for density rho.
// Capsules and cylinders run along Z, as in ODE.
func shapeMass(e *element, rho float64) (mass, error) {
	switch e.Name {
	case "sphere":
		r, err := e.num("radius", 1)
		if err != nil {
			return mass{}, err
		}
		m := rho * 4 / 3 * math.Pi * r * r * r
		i := 0.4 * m * r * r
		return mass{m: m, I: diag(i, i, i)}, nil
	case "box":
		s, err := e.vec("sizex", "sizey", "sizez")
		if err != nil {
			return mass{}, err
		}
		m := rho * s[0] * s[1] * s[2]
		return mass{m: m, I: diag(m/12*(s[1]*s[1]+s[2]*s[2]), m/12*(s[0]*s[0]+s[2]*s[2]), m/12*(s[0]*s[0]+s[1]*s[1]))}, nil
	case "cappedCylinder", "capsule":
		r, l, err := radiusLength(e)
		if err != nil {
			return mass{}, err
		}
		m1 := math.Pi * r * r * l * rho
		m2 := 4.0 / 3 * math.Pi * r * r * r * rho
		ia := m1*(0.25*r*r+l*l/12) + m2*(0.4*r*r+0.375*r*l+0.25*l*l)
		ib := (m1*0.5 + m2*0.4) * r * r
		return mass{m: m1 + m2, I: diag(ia, ia, ib)}, nil
	case "cylinder":
		r, l, err := radiusLength(e)
		if err != nil {
			return mass{}, err
		}
		m := math.Pi * r * r * l * rho
		ia := m * (0.25*r*r + l*l/12)
		return mass{m: m, I: diag(ia, ia, 0.5*m*r*r)}, nil
	}
	return mass{}, fmt.Errorf("line %d: <mass_shape> cannot hold <%s>", e.Line, e.Name)
}

// radiusLength reads the radius and length of a capped cylinder or cylinder.
func radiusLength(e *element) (r, l float64, err error) {
	if r, err = e.num("radius", 1); err != nil {
		return 0, 0, err
	}
	l, err = e.num("length", 1)
	return r, l, err
}

// translate moves the mass by t (dMassTranslate: parallel axis theorem).
func (a *mass) translate(t mgl64.Vec3) {
	// I about the reference point = I_cog + m (|c|^2 E - c c^T); recompute
	// for the moved centre.
	icog := a.I.Sub(pointInertia(a.m, a.c))
	a.c = a.c.Add(t)
	a.I = icog.Add(pointInertia(a.m, a.c))
}

// rotate turns the mass by R (dMassRotate).
func (a *mass) rotate(r mgl64.Mat3) {
	icog := a.I.Sub(pointInertia(a.m, a.c))
	icog = r.Mul3(icog).Mul3(r.Transpose())
	a.c = r.Mul3x1(a.c)
	a.I = icog.Add(pointInertia(a.m, a.c))
}

// add adds b to a (dMassAdd).
func (a *mass) add(b mass) {
	total := a.m + b.m
	if total > 0 {
		a.c = a.c.Mul(a.m / total).Add(b.c.Mul(b.m / total))
	}
	a.m = total
	a.I = a.I.Add(b.I)
}

// adjust scales the mass to total (dMassAdjust).
func (a *mass) adjust(total float64) {
	if a.m == 0 {
		return
	}
	s := total / a.m
	a.m = total
	a.I = a.I.Mul(s)
}

// pointInertia is the inertia about the origin of a point mass m at c.
func pointInertia(m float64, c mgl64.Vec3) mgl64.Mat3 {
	d := c.Dot(c)
	return mgl64.Mat3{
		m * (d - c[0]*c[0]), -m * c[1] * c[0], -m * c[2] * c[0],
		-m * c[0] * c[1], m * (d - c[1]*c[1]), -m * c[2] * c[1],
		-m * c[0] * c[2], -m * c[1] * c[2], m * (d - c[2]*c[2]),
	}
}

// principal returns the inertia about the centre of gravity as principal
// moments and the rotation (quaternion) to the principal axes: the Jacobi
// eigenvalue method on the symmetric 3x3 tensor.
func (a mass) principal() ([3]float64, mgl64.Quat) {
	s := a.I.Sub(pointInertia(a.m, a.c))
	v := mgl64.Ident3()
	for sweep := 0; sweep < 50; sweep++ {
		off := math.Abs(s.At(0, 1)) + math.Abs(s.At(0, 2)) + math.Abs(s.At(1, 2))
		if off < 1e-15*(math.Abs(s.At(0, 0))+math.Abs(s.At(1, 1))+math.Abs(s.At(2, 2))+1e-300) {
			break
		}
		for p := 0; p < 2; p++ {
			for q := p + 1; q < 3; q++ {
				apq := s.At(p, q)
				if apq == 0 {
					continue
				}
				theta := (s.At(q, q) - s.At(p, p)) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				sn := t * c
				j := mgl64.Ident3()
				j.Set(p, p, c)
				j.Set(q, q, c)
				j.Set(p, q, sn)
				j.Set(q, p, -sn)
				s = j.Transpose().Mul3(s).Mul3(j)
				v = v.Mul3(j)
			}
		}
	}
	if v.Det() < 0 {
		v.SetCol(2, v.Col(2).Mul(-1))
	}
	m4 := v.Mat4()
	return [3]float64{s.At(0, 0), s.At(1, 1), s.At(2, 2)}, mgl64.Mat4ToQuat(m4).Normalize()
}
