// AVX2 loop of the CPU remap: eight output pixels a step, bit for bit RemapPixel's bilinear
// arithmetic (remap.h, which the CUDA kernel runs). Callers check CpuHasAvx2() first. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_WARP_REMAP_AVX2_H_
#define TFGPUAUG_CC_KERNELS_WARP_REMAP_AVX2_H_

#include <cstdint>

#include "cc/kernels/common/simd_x86.h"
#include "cc/kernels/warp/remap.h"

namespace tfgpuaug {

#if TFGPUAUG_HAVE_AVX2_LOOPS
// The bilinear remap of eight output pixels (their map entries: eight x, y pairs) of an image of
// c channels (1, 3 or 4) and in_h x in_w pixels, when every one of them has its four neighbours
// inside the image and, for c below 4, above its last row (the gathers read four bytes a pixel);
// returns false and writes nothing otherwise. The image's byte count must fit an int32.
bool RemapBilinear8Avx2(const uint8_t* image, int in_h, int in_w, int c, const float* map, uint8_t* out);

// The same for eight pixels anywhere (neighbours outside resolved by p's border rule, the fill
// for constant), the taps read byte by byte; returns false and writes nothing when a map entry
// is NaN or far away (RemapCoordinateUsable). p.channels is 1 to 4.
bool RemapBilinearBorder8Avx2(const uint8_t* image, const RemapParams& p, const float* map, uint8_t* out);

// Channel ch (0..2) of the first pixels of an RGB image rewritten from a plane, sixteen pixels a
// step; returns how many pixels it did (a multiple of 16), the caller does the rest.
int64_t PutRgbChannelAvx2(const uint8_t* plane, int ch, int64_t pixels, uint8_t* image);
#endif

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_REMAP_AVX2_H_
