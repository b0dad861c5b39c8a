// Package report builds and writes what the viewer's subcommands print:
// the inspect report, the validation reports (text, the Khronos
// glTF-Validator JSON layout and SARIF 2.1.0) and the simulation's final
// body states. It imports neither GL, giu nor the simulation (ODE), so
// cmd/viewer keeps only the flags, the calls and the exit statuses; a test
// checks that with go list -deps.
package report
