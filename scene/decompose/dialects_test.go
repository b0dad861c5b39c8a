package decompose_test

// The tests decode documents of every physics dialect (an external test
// file: the dialect packages import scene, which imports this package).
import _ "physview/scene/dialects"
