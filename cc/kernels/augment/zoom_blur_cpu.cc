#include "cc/kernels/augment/zoom_blur_cpu.h"

#include <algorithm>
#include <vector>

#include "cc/kernels/augment/zoom_blur.h"
#include "cc/kernels/augment/zoom_blur_avx2.h"

namespace tfgpuaug {

size_t ZoomBlurScratchFloats(int h, int w, int c) {
  return std::max(size_t(h) * w * c, ZoomBlurAvx2ScratchFloats(h, w, c));
}

void ZoomBlurScalar(const uint8_t* image, int h, int w, int c, double max_factor, double step, float* sums,
                    uint8_t* out) {
  const int zooms = ZoomCount(max_factor, step);
  const size_t values = size_t(h) * w * c;
  float unit[256];  // ZoomUnit of every byte: a lookup in place of a division a tap
  for (int v = 0; v < 256; ++v) unit[v] = ZoomUnit(static_cast<uint8_t>(v));
  // factor 1 is the identity (weights 1 and 0): the image itself, as the general taps give it
  for (size_t i = 0; i < values; ++i) sums[i] = zooms > 0 ? unit[image[i]] : 0.f;
  std::vector<ZoomTap> columns(w);
  for (int k = 1; k < zooms; ++k) {
    const double factor = ZoomFactor(step, k);
    const ZoomAxis down = ZoomAxisOf(h, factor), across = ZoomAxisOf(w, factor);
    for (int x = 0; x < w; ++x) columns[x] = ZoomTapAt(across, x);
    for (int y = 0; y < h; ++y) {
      const ZoomTap ty = ZoomTapAt(down, y);
      const uint8_t* r0 = image + size_t(ty.first) * w * c;
      const uint8_t* r1 = image + size_t(ty.second) * w * c;
      float* row = sums + size_t(y) * w * c;
      for (int x = 0; x < w; ++x) {
        const ZoomTap& tx = columns[x];
        for (int ch = 0; ch < c; ++ch) {
          row[x * c + ch] += ZoomBilinear(unit[r0[tx.first * c + ch]], unit[r0[tx.second * c + ch]],
                                          unit[r1[tx.first * c + ch]], unit[r1[tx.second * c + ch]], tx, ty);
        }
      }
    }
  }
  for (size_t i = 0; i < values; ++i) out[i] = ZoomBlurByte(unit[image[i]], sums[i], zooms);
}

void ZoomBlurCpu(const uint8_t* image, int h, int w, int c, double max_factor, double step, float* scratch,
                 uint8_t* out) {
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2() && ZoomBlurAvx2(image, h, w, c, max_factor, step, scratch, out)) return;
#endif
  ZoomBlurScalar(image, h, w, c, max_factor, step, scratch, out);
}

}  // namespace tfgpuaug
