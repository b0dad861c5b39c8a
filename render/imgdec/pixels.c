#include <pthread.h>
#include <sys/mman.h>

#include "cdec.h"

// A load decodes many images of a few sizes (a model's textures are mostly
// 2048x2048 or 1024x1024), so while more decodes are expected a freed
// buffer is kept for the next request of exactly its size: a reused buffer
// costs no page faults and no zeroing by the kernel. Only a few are kept,
// and none once no decode is expected, so that the peak memory of a load
// does not grow by them.
#define POOL_SLOTS 4
#define POOL_MIN (1 << 20)

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
	void *p;
	size_t n;
} pool[POOL_SLOTS];
static long expecting;

unsigned char *pixels(size_t n) {
	if (n >= POOL_MIN) {
		pthread_mutex_lock(&pool_mu);
		for (int i = 0; i < POOL_SLOTS; i++) {
			if (pool[i].p && pool[i].n == n) {
				void *p = pool[i].p;
				pool[i].p = NULL;
				pthread_mutex_unlock(&pool_mu);
				return p;
			}
		}
		pthread_mutex_unlock(&pool_mu);
	}
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void pixfree(void *p, size_t n) {
	if (!p) return;
	if (n >= POOL_MIN) {
		pthread_mutex_lock(&pool_mu);
		if (expecting > 0) {
			for (int i = 0; i < POOL_SLOTS; i++) {
				if (!pool[i].p) {
					pool[i].p = p;
					pool[i].n = n;
					pthread_mutex_unlock(&pool_mu);
					return;
				}
			}
		}
		pthread_mutex_unlock(&pool_mu);
	}
	munmap(p, n);
}

void pixdrop(void *p, size_t n) {
	if (p) munmap(p, n);
}

void pixexpect(long delta) {
	void *drop[POOL_SLOTS];
	size_t dropn[POOL_SLOTS];
	int k = 0;
	pthread_mutex_lock(&pool_mu);
	expecting += delta;
	if (expecting <= 0) {
		expecting = 0;
		for (int i = 0; i < POOL_SLOTS; i++) {
			if (pool[i].p) {
				drop[k] = pool[i].p;
				dropn[k++] = pool[i].n;
				pool[i].p = NULL;
			}
		}
	}
	pthread_mutex_unlock(&pool_mu);
	for (int i = 0; i < k; i++) munmap(drop[i], dropn[i]);
}

size_t pixpooled(void) {
	size_t total = 0;
	pthread_mutex_lock(&pool_mu);
	for (int i = 0; i < POOL_SLOTS; i++) {
		if (pool[i].p) total += pool[i].n;
	}
	pthread_mutex_unlock(&pool_mu);
	return total;
}
