#include "cc/kernels/augment/channel_histograms_cpu.h"

#include <algorithm>
#include <cstddef>

namespace tfgpuaug {
namespace {

template <int kChannels>
void Count(const uint8_t* image, int64_t pixels, int c, uint32_t* even, uint32_t* odd) {
  const int channels = kChannels == 0 ? c : kChannels;
  int64_t p = 0;
  for (; p + 1 < pixels; p += 2) {
    const uint8_t* a = image + p * channels;
    for (int k = 0; k < channels; ++k) {
      ++even[k * 256 + a[k]];
      ++odd[k * 256 + a[channels + k]];
    }
  }
  if (p < pixels) {
    for (int k = 0; k < channels; ++k) ++even[k * 256 + image[p * channels + k]];
  }
}

}  // namespace

void ChannelHistogramsCpu(const uint8_t* image, int64_t pixels, int c, uint32_t* scratch, int32_t* counts) {
  const size_t bins = size_t(c) * 256;
  uint32_t* even = scratch;
  uint32_t* odd = scratch + bins;
  std::fill(scratch, scratch + 2 * bins, 0u);
  if (c == 3) {
    Count<3>(image, pixels, c, even, odd);
  } else if (c == 1) {
    Count<1>(image, pixels, c, even, odd);
  } else {
    Count<0>(image, pixels, c, even, odd);
  }
  for (size_t i = 0; i < bins; ++i) counts[i] = static_cast<int32_t>(even[i] + odd[i]);
}

}  // namespace tfgpuaug
