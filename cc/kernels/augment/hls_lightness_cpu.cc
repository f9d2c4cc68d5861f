#include "cc/kernels/augment/hls_lightness_cpu.h"

#include <algorithm>

#include "cc/kernels/augment/hls8.h"
#include "cc/kernels/augment/hls_lightness_avx2.h"

namespace tfgpuaug {

void HlsLightnessCpu(const uint8_t* image, int64_t pixels, const int32_t* table, const int32_t* levels,
                     uint8_t* out) {
  int64_t p = 0;
#if TFGPUAUG_HAVE_AVX2_LOOPS
  if (CpuHasAvx2()) {  // eight pixels a step, the same bytes
    p = pixels / 8 * 8;
    const bool keeps_all = std::all_of(table, table + 256, [](int32_t entry) { return entry < 0; });
    HlsLightnessAvx2(image, p, table, levels, keeps_all, out);
  }
#endif
  for (; p < pixels; ++p) {
    HlsLightnessPixel(image + 3 * p, table, levels == nullptr ? -1 : levels[p], out + 3 * p);
  }
}

}  // namespace tfgpuaug
