// CPU loops of the unsharp mask (unsharp_mask.h): four passes over float planes, AVX2 where the
// CPU has it (the same operations in the same order as the per-element functions). CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_UNSHARP_MASK_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_UNSHARP_MASK_CPU_H_

#include <cstddef>
#include <cstdint>

namespace tfgpuaug {

// Floats of scratch UnsharpMaskCpu needs for an h x w x c image.
inline size_t UnsharpScratchFloats(int h, int w, int c) { return 3 * size_t(h) * w * c; }

// One image [h, w, c]: `weights` the symmetric kernel of `taps` (odd) values, `alpha` the
// sharpening amount, `threshold` in levels; scratch of UnsharpScratchFloats.
void UnsharpMaskCpu(const uint8_t* image, int h, int w, int c, const float* weights, int taps, float alpha,
                    float threshold, float* scratch, uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_UNSHARP_MASK_CPU_H_
