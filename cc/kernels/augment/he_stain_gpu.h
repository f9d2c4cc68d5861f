// CUDA launcher of Albumentations' HEStain jitter (he_stain.h): a batch of RGB images.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_HE_STAIN_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_HE_STAIN_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// The batch's jitter, every array on the device: densities [256], thresholds [255], cells
// [kHeCells], projections and matrices [batch, 2, 3], scales and shifts [batch, 2], apply [batch].
struct HeStainBatch {
  const float* densities;
  const double* thresholds;
  const uint8_t* cells;
  const double* projections;
  const double* matrices;
  const double* scales;
  const double* shifts;
  const uint8_t* apply;
  bool background;
};

// images [batch, pixels, 3] (device) -> out (device, not aliasing them): one thread a pixel; a
// sample not applied is copied.
Status HeStainGpu(const uint8_t* images, int batch, size_t pixels, const HeStainBatch& jitter, uint8_t* out,
                  cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_HE_STAIN_GPU_H_
