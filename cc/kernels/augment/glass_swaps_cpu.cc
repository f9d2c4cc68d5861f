#include "cc/kernels/augment/glass_swaps_cpu.h"

#include <cstring>

#include "cc/kernels/augment/glass_swaps.h"

namespace tfgpuaug {
namespace {

// One round: every chooser takes its target's pixel, then every target its last chooser's.
template <int kChannels>
void SwapRound(const uint8_t* before, const int64_t* targets, int64_t choosers, int64_t rows, int h, int w,
               int c, int max_delta, uint8_t* out) {
  const int channels = kChannels > 0 ? kChannels : c;
  for (int64_t k = 0; k < choosers; ++k) {
    const int64_t p = GlassChooserPixel(k, rows, h, w, max_delta);
    std::memcpy(out + p * channels, before + targets[k] * channels, channels);
  }
  for (int64_t k = 0; k < choosers; ++k) {  // in order: the last chooser of a target wins
    const int64_t p = GlassChooserPixel(k, rows, h, w, max_delta);
    std::memcpy(out + targets[k] * channels, before + p * channels, channels);
  }
}

}  // namespace

void GlassSwapsCpu(const uint8_t* image, int h, int w, int c, int max_delta, int iterations, uint32_t seed,
                   uint8_t* before, int64_t* targets, uint8_t* out) {
  const size_t bytes = size_t(h) * w * c;
  std::memcpy(out, image, bytes);
  const int64_t rows = GlassInteriorRows(h, max_delta), choosers = rows * GlassInteriorRows(w, max_delta);
  if (choosers == 0) return;
  for (int it = 0; it < iterations; ++it) {
    std::memcpy(before, out, bytes);
    for (int64_t k = 0; k < choosers; ++k) {
      targets[k] =
          GlassTargetPixel(seed, it, choosers, k, GlassChooserPixel(k, rows, h, w, max_delta), w, max_delta);
    }
    if (c == 3) {
      SwapRound<3>(before, targets, choosers, rows, h, w, c, max_delta, out);
    } else if (c == 1) {
      SwapRound<1>(before, targets, choosers, rows, h, w, c, max_delta, out);
    } else if (c == 4) {
      SwapRound<4>(before, targets, choosers, rows, h, w, c, max_delta, out);
    } else {
      SwapRound<0>(before, targets, choosers, rows, h, w, c, max_delta, out);
    }
  }
}

}  // namespace tfgpuaug
