module physview

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/qmuntal/gltf v0.28.0
)
