#include "cc/kernels/masks/connected_components.h"

#include <cstddef>

namespace tfgpuaug {
namespace {

// The root of pixel p, halving the path on the way (each visited pixel then points two up).
inline int32_t Root(int32_t* parent, int32_t p) {
  while (parent[p] != p) {
    parent[p] = parent[parent[p]];
    p = parent[p];
  }
  return p;
}

// Joins the trees of a and b under the smaller root: every root is then its component's first
// pixel in raster order, which the second pass numbers by.
inline void Join(int32_t* parent, int32_t a, int32_t b) {
  a = Root(parent, a);
  b = Root(parent, b);
  if (a < b) {
    parent[b] = a;
  } else if (b < a) {
    parent[a] = b;
  }
}

}  // namespace

int32_t LabelComponents(const uint8_t* mask, int h, int w, bool eight_connected, int32_t* labels,
                        std::vector<int32_t>* parent_storage) {
  const size_t n = size_t(h) * w;
  parent_storage->resize(n);
  int32_t* parent = parent_storage->data();
  // First pass: each pixel joins the neighbours of its value already seen (left; the row above:
  // above, and with 8-connectivity above-left and above-right).
  for (int y = 0; y < h; ++y) {
    const uint8_t* row = mask + size_t(y) * w;
    const uint8_t* up = y > 0 ? row - w : row;  // read only when y > 0
    for (int x = 0; x < w; ++x) {
      const int32_t p = int32_t(size_t(y) * w + x);
      parent[p] = p;
      const uint8_t v = row[x];
      if (v == 0) continue;
      if (x > 0 && row[x - 1] == v) Join(parent, p, p - 1);
      if (y == 0) continue;
      if (up[x] == v) Join(parent, p, p - w);
      if (!eight_connected) continue;
      if (x > 0 && up[x - 1] == v) Join(parent, p, p - w - 1);
      if (x + 1 < w && up[x + 1] == v) Join(parent, p, p - w + 1);
    }
  }
  // Second pass, in raster order: a root is its component's first pixel, so its number is set
  // before any other pixel of the component asks for it.
  int32_t count = 0;
  for (size_t p = 0; p < n; ++p) {
    if (mask[p] == 0) {
      labels[p] = 0;
      continue;
    }
    const int32_t root = Root(parent, int32_t(p));
    labels[p] = root == int32_t(p) ? ++count : labels[root];
  }
  return count;
}

}  // namespace tfgpuaug
