// Thin C interface over Debian's libdraco (C++), for cgo; see draco_shim.h.

#include "draco_shim.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "draco/compression/decode.h"
#include "draco/mesh/mesh.h"
#include "draco/point_cloud/point_cloud.h"

struct pv_draco {
  std::unique_ptr<draco::PointCloud> pc;
  const draco::Mesh *mesh;  // pc as a mesh, or nullptr for a point cloud
};

// libdraco allocates for the counts a stream declares before it reads the
// data, so a few damaged bytes can ask for gigabytes (found by fuzzing: a
// 200-byte stream was killed for memory after 40 s). While this thread
// decodes, every C++ allocation is counted against a budget and one past
// it throws std::bad_alloc, which pv_draco_decode catches. The replacement
// operator new is the program's (C++ allows one); outside a decode it is
// plain malloc, as the library's own.
namespace {
thread_local bool counting = false;
thread_local size_t budget_left = 0;
}  // namespace

void *operator new(size_t n) {
  if (counting) {
    if (n > budget_left) throw std::bad_alloc();
    budget_left -= n;
  }
  void *p = std::malloc(n ? n : 1);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void *operator new[](size_t n) { return operator new(n); }
void *operator new(size_t n, const std::nothrow_t &) noexcept {
  try {
    return operator new(n);
  } catch (...) {
    return nullptr;
  }
}
void *operator new[](size_t n, const std::nothrow_t &t) noexcept { return operator new(n, t); }
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t) noexcept { std::free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }

namespace {
// budgeted counts allocations for its lifetime.
struct budgeted {
  explicit budgeted(size_t budget) {
    counting = true;
    budget_left = budget;
  }
  ~budgeted() { counting = false; }
};
}  // namespace

static void set_err(char *err, size_t errlen, const char *msg) {
  if (err == nullptr || errlen == 0) return;
  std::strncpy(err, msg, errlen - 1);
  err[errlen - 1] = 0;
}

extern "C" pv_draco *pv_draco_decode(const char *data, size_t len, size_t budget, char *err, size_t errlen) {
  try {
    budgeted scope(budget);
    draco::DecoderBuffer buf;
    buf.Init(data, len);
    draco::Decoder dec;
    auto res = dec.DecodePointCloudFromBuffer(&buf);
    if (!res.ok()) {
      set_err(err, errlen, res.status().error_msg());
      return nullptr;
    }
    pv_draco *d = new pv_draco;
    d->pc = std::move(res).value();
    d->mesh = dynamic_cast<const draco::Mesh *>(d->pc.get());
    return d;
  } catch (const std::bad_alloc &) {
    set_err(err, errlen, "the stream needs more memory than its size allows (damaged counts)");
  } catch (...) {
    set_err(err, errlen, "decoder exception");
  }
  return nullptr;
}

extern "C" uint32_t pv_draco_points(const pv_draco *d) { return d->pc->num_points(); }

extern "C" int64_t pv_draco_faces(const pv_draco *d) {
  return d->mesh ? static_cast<int64_t>(d->mesh->num_faces()) : -1;
}

extern "C" void pv_draco_indices(const pv_draco *d, uint32_t *out) {
  if (!d->mesh) return;
  const uint32_t n = d->mesh->num_faces();
  for (uint32_t i = 0; i < n; i++) {
    const draco::Mesh::Face &f = d->mesh->face(draco::FaceIndex(i));
    out[3 * i] = f[0].value();
    out[3 * i + 1] = f[1].value();
    out[3 * i + 2] = f[2].value();
  }
}

extern "C" int pv_draco_attribute_components(const pv_draco *d, uint32_t uid) {
  const draco::PointAttribute *a = d->pc->GetAttributeByUniqueId(uid);
  return a ? a->num_components() : -1;
}

template <typename T>
static int read_attr(const draco::PointAttribute *a, uint32_t n, int ncomp, void *out) {
  T *o = static_cast<T *>(out);
  for (uint32_t i = 0; i < n; i++) {
    if (!a->ConvertValue<T>(a->mapped_index(draco::PointIndex(i)), static_cast<int8_t>(ncomp), o + static_cast<size_t>(i) * ncomp)) {
      return 2;
    }
  }
  return 0;
}

extern "C" int pv_draco_attribute(const pv_draco *d, uint32_t uid, int ctype, int ncomp, void *out) {
  const draco::PointAttribute *a = d->pc->GetAttributeByUniqueId(uid);
  if (a == nullptr) return 1;
  const uint32_t n = d->pc->num_points();
  switch (ctype) {
    case 5120: return read_attr<int8_t>(a, n, ncomp, out);
    case 5121: return read_attr<uint8_t>(a, n, ncomp, out);
    case 5122: return read_attr<int16_t>(a, n, ncomp, out);
    case 5123: return read_attr<uint16_t>(a, n, ncomp, out);
    case 5125: return read_attr<uint32_t>(a, n, ncomp, out);
    case 5126: return read_attr<float>(a, n, ncomp, out);
  }
  return 2;
}

extern "C" void pv_draco_free(pv_draco *d) { delete d; }
