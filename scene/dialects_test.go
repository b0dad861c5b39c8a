package scene_test

// The dialect packages import scene, so the tests of package scene cannot
// import them; this external test file links them into the test binary,
// whose internal tests then decode every dialect.
import _ "physview/scene/dialects"
