// Package glibcshim lets binaries that link cimgui-go build on glibc < 2.38
// (Debian 12 has 2.36). cimgui-go's prebuilt cimgui.a was compiled against
// glibc 2.38, whose headers turn sscanf into __isoc23_sscanf; older glibc
// lacks that symbol, so the link fails. Defining it here as a call to
// vsscanf is harmless on newer glibc, where the real symbol wins.
//
// The ui package imports it, so every binary and test that links giu gets it.
package glibcshim

/*
#include <stdarg.h>
#include <stdio.h>

__attribute__((weak)) int __isoc23_sscanf(const char *str, const char *format, ...) {
	va_list ap;
	va_start(ap, format);
	int n = vsscanf(str, format, ap);
	va_end(ap);
	return n;
}
*/
import "C"
