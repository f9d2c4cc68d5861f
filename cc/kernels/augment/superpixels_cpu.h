// CPU loop of Albumentations' Superpixels (superpixels.h): one image at a time, the SLIC rounds
// centre by centre over their windows, as Albumentations' own loop runs them. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SUPERPIXELS_CPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SUPERPIXELS_CPU_H_

#include <cstddef>
#include <cstdint>

namespace tfgpuaug {

// Bytes of scratch SuperpixelsCpu needs for an image [h, w, c] cut into n segments (n >= 1).
size_t SuperpixelsScratchBytes(int h, int w, int c, int n);

// Image [h, w, c] through a sample's Superpixels (n segments, n >= 1; flags [at least n], 0 or 1)
// into out (which may not alias it); scratch of SuperpixelsScratchBytes, 8-byte aligned.
void SuperpixelsCpu(const uint8_t* image, int h, int w, int c, int n, const uint8_t* flags, uint8_t* scratch,
                    uint8_t* out);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SUPERPIXELS_CPU_H_
