// Per-channel level histograms of uint8 images (HistogramMatching's statistics): one read of
// the bytes, where a TensorFlow bincount first widened them to int32 and added offsets (three
// passes over four times the bytes). CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_CHANNEL_HISTOGRAMS_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_CHANNEL_HISTOGRAMS_CPU_H_

#include <cstdint>

namespace tfgpuaug {

// counts [c, 256]: how many of the `pixels` pixels of `image` hold each level in each channel.
// `scratch` holds 2 c 256 counters (two interleaved histograms, so that runs of one level do not
// wait on their own increments).
void ChannelHistogramsCpu(const uint8_t* image, int64_t pixels, int c, uint32_t* scratch, int32_t* counts);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_CHANNEL_HISTOGRAMS_CPU_H_
