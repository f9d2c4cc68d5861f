// Bilinear affine warp of 1-, 3- or 4-channel uint8 images, eight output pixels per AVX2
// step (coordinates, neighbour gathers and blends in 8 float lanes). Every lane runs the
// same IEEE operations, in the same order, as AffineSamplePixelT (the per-pixel function
// the CUDA kernel runs), so the output is bit-identical to it. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_WARP_WARP_AVX2_H_
#define TFGPUAUG_CC_KERNELS_WARP_WARP_AVX2_H_

#include <cstdint>

#include "cc/kernels/warp/warp.h"

namespace tfgpuaug {

// Warps `image` by the 2x3 matrix m (PIL's convention, see warp.h) into out, with
// p.interpolation bilinear. Returns false, writing nothing, when this CPU or build has no
// AVX2 or the channel count is not 1, 3 or 4: the caller then runs its own loop.
bool WarpAffineBilinearAvx2(const uint8_t* image, const AffineParams& p, const float* m, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_WARP_AVX2_H_
