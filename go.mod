module physview

go 1.26.8

require github.com/qmuntal/gltf v0.28.0
