// CUDA launcher of Albumentations' Superpixels (superpixels.h): a batch of images, one block each.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SUPERPIXELS_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SUPERPIXELS_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Bytes of device scratch SuperpixelsGpu needs for a batch [batch, h, w, c] whose samples have
// m flags each (segment counts are clamped to [1, m]).
size_t SuperpixelsGpuScratchBytes(int batch, int h, int w, int c, int m);

// images [batch, h, w, c], segments [batch] (int32), flags [batch, m] (0 or 1), scratch, out: all
// on the device, out not aliasing images. One block an image: a thread a pixel in each round.
Status SuperpixelsGpu(const uint8_t* images, int batch, int h, int w, int c, const int32_t* segments,
                      const uint8_t* flags, int m, uint8_t* scratch, uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SUPERPIXELS_GPU_H_
