package scene

// The KHR documents the joint rules tests build (scene/khr/rules_test.go
// has the same helpers for the KHR rules).

// khrDoc is a KHR physics document: shapes, the rigid-bodies root object
// and the nodes are given as JSON; one mesh (a triangle) is there for
// geometry.mesh and geometry.node.
func khrDoc(shapes, root, nodes string) []byte {
	return []byte(`{"asset":{"version":"2.0"},"extensionsUsed":["KHR_implicit_shapes","KHR_physics_rigid_bodies"],` +
		`"extensions":{"KHR_implicit_shapes":{"shapes":[` + shapes + `]},"KHR_physics_rigid_bodies":{` + root + `}},` +
		`"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],` +
		`"bufferViews":[{"buffer":0,"byteLength":36,"target":34962}],` +
		`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],` +
		`"nodes":[{"mesh":0},` + nodes + `],"scenes":[{"nodes":[0,1]}],"scene":0}`)
}

// body is node 1 with a KHR_physics_rigid_bodies block.
func body(block string) string {
	return `{"extensions":{"KHR_physics_rigid_bodies":` + block + `}}`
}
