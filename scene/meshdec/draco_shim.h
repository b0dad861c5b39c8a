/* Thin C interface over Debian's libdraco (C++), for cgo. */
#ifndef PHYSVIEW_DRACO_SHIM_H
#define PHYSVIEW_DRACO_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pv_draco pv_draco;

/* pv_draco_decode decodes a Draco mesh or point cloud, allocating at most
 * budget bytes in all. It returns NULL and writes a message to err (errlen
 * bytes) when the data is not valid or needs more memory than that. */
pv_draco *pv_draco_decode(const char *data, size_t len, size_t budget, char *err, size_t errlen);
/* pv_draco_points is the number of decoded points (glTF vertices). */
uint32_t pv_draco_points(const pv_draco *d);
/* pv_draco_faces is the number of triangles, -1 for a point cloud. */
int64_t pv_draco_faces(const pv_draco *d);
/* pv_draco_indices writes faces*3 vertex indices. */
void pv_draco_indices(const pv_draco *d, uint32_t *out);
/* pv_draco_attribute writes points*ncomp values of the attribute with
 * unique id uid, converted to the glTF component type ctype (5120 BYTE ..
 * 5126 FLOAT), tightly packed. It returns 0 on success, 1 when no attribute
 * has that id, 2 when a value cannot be converted. */
int pv_draco_attribute(const pv_draco *d, uint32_t uid, int ctype, int ncomp, void *out);
/* pv_draco_attribute_components is the number of components of the
 * attribute with unique id uid, or -1 when there is none. */
int pv_draco_attribute_components(const pv_draco *d, uint32_t uid);
void pv_draco_free(pv_draco *d);

#ifdef __cplusplus
}
#endif

#endif
