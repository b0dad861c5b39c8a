#include <sys/mman.h>

#include "cdec.h"

unsigned char *pixels(size_t n) {
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void pixfree(void *p, size_t n) {
	if (p) munmap(p, n);
}
