package scene

// RawDiff lets the external tests compare saved bytes as edit_test.go does.
var RawDiff = rawDiff
