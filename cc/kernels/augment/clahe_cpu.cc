#include "cc/kernels/augment/clahe_cpu.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "cc/kernels/augment/clahe.h"
#include "cc/kernels/augment/clahe_avx2.h"
#include "cc/kernels/common/border.h"
#include "cc/kernels/common/simd_x86.h"

namespace tfgpuaug {
namespace {

// The 256-bin histogram of one tile of the extended image (reflect-101 past the bottom and
// right edges), value of pixel i at plane[i * stride]. Four interleaved counters: neighbouring
// pixels often share a value, and back-to-back increments of one counter wait on each other.
void TileHistogram(const uint8_t* plane, int stride, int h, int w, const ClaheGrid& g, int tx, int ty,
                   uint32_t* hist) {
  uint32_t part[4][256] = {};
  const int x0 = tx * g.tile_w, x1 = x0 + g.tile_w, inside = std::min(x1, w);
  for (int y = ty * g.tile_h; y < (ty + 1) * g.tile_h; ++y) {
    const uint8_t* row = plane + size_t(Reflect101(y, h)) * w * stride;
    int x = x0;
    for (; x + 4 <= inside; x += 4) {
      const uint8_t* p = row + size_t(x) * stride;
      ++part[0][p[0]];
      ++part[1][p[stride]];
      ++part[2][p[2 * stride]];
      ++part[3][p[3 * stride]];
    }
    for (; x < inside; ++x) ++part[0][row[size_t(x) * stride]];
    for (x = std::max(x0, w); x < x1; ++x) ++part[1][row[size_t(Reflect101(x, w)) * stride]];
  }
  for (int v = 0; v < 256; ++v) hist[v] = part[0][v] + part[1][v] + part[2][v] + part[3][v];
}

// Every tile's table (tables [tiles_y][tiles_x][256]). An AVX2 clone where the CPU has it: the
// table's clipping and scaling loops vectorize eight bins a step (SSE2 has no unsigned 32-bit
// minimum), the same integer and float operations either way.
TFGPUAUG_VECTOR_CLONES void TileTables(const uint8_t* plane, int stride, int h, int w, const ClaheGrid& g,
                                       float clip_limit, uint8_t* luts) {
  const int64_t tile_pixels = int64_t(g.tile_w) * g.tile_h;
  const int64_t clip = ClaheClipCount(clip_limit, tile_pixels);
  for (int ty = 0; ty < g.tiles_y; ++ty) {
    for (int tx = 0; tx < g.tiles_x; ++tx) {
      uint32_t hist[256];
      TileHistogram(plane, stride, h, w, g, tx, ty, hist);
      ClaheTileLut(hist, tile_pixels, clip, luts + (size_t(ty) * g.tiles_x + tx) * 256);
    }
  }
}

}  // namespace

void ClaheCpu(const uint8_t* src, const AugmentImage& image_info, const ClaheGrid& g, float clip_limit,
              uint8_t* dst) {
  const int h = image_info.h, w = image_info.w, c = image_info.c;
  const size_t n = size_t(h) * w;
  // Scratch per pool thread, reused; raw pointers below so the loops do not look up the
  // thread-local storage on every access.
  thread_local std::vector<uint8_t> scratch;
  thread_local std::vector<ClaheTaps> column_taps;
  scratch.resize(size_t(g.tiles_x) * g.tiles_y * 256);
  column_taps.resize(w);
  uint8_t* luts = scratch.data();
  // The L*a*b* image lives in the tail of dst (src is never dst: the stages ping-pong): one image
  // fewer in the cache. Output row y ends where L*a*b* row y + 1 begins or before, and row y's
  // L*a*b* is read before row y is written, so nothing is overwritten before it is read.
  uint8_t* lab = dst + (c >= 3 ? size_t(c - 3) * n : 0);
  ClaheTaps* columns = column_taps.data();
  const uint8_t* plane = src;  // the equalised value of pixel i at plane[i * stride]
  int stride = c;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  const bool avx2 = c >= 3 && CpuHasAvx2();
#else
  const bool avx2 = false;
#endif
  if (c >= 3) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
    if (avx2) LabFromRgbAvx2(src, n, c, lab);
#endif
    if (!avx2)
      for (size_t i = 0; i < n; ++i) LabFromRgbOpenCv(src + i * c, lab + 3 * i);
    plane = lab;
    stride = 3;
  }
  TileTables(plane, stride, h, w, g, clip_limit, luts);
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (avx2) return ClaheApplyRgbAvx2(lab, luts, g, src, h, w, c, dst);
#endif
  for (int x = 0; x < w; ++x) columns[x] = ClaheTapsOf(x, g.tile_w, g.tiles_x);
  for (int y = 0; y < h; ++y) {
    const ClaheTaps rows = ClaheTapsOf(y, g.tile_h, g.tiles_y);
    for (int x = 0; x < w; ++x) {
      const size_t i = size_t(y) * w + x;
      const uint8_t v = ClaheValue(luts, g.tiles_x, rows, columns[x], plane[i * stride]);
      uint8_t* o = dst + i * c;
      if (c >= 3) {
        RgbFromLabOpenCv(v, lab[3 * i + 1], lab[3 * i + 2], o);
      } else {
        o[0] = v;
      }
      for (int k = c >= 3 ? 3 : 1; k < c; ++k) o[k] = src[i * c + k];
    }
  }
}

}  // namespace tfgpuaug
