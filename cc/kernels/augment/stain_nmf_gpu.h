// CUDA launcher of Albumentations' "vahadane" stain fit (stain_nmf.h): one block an image.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_STAIN_NMF_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_STAIN_NMF_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Floats of device scratch StainNmfGpu needs: every image's concentrations.
size_t StainNmfGpuScratchFloats(int batch, size_t pixels);

// images [batch, pixels, 3] RGB, densities [256], scratch, rows [batch, 2, 3] (float32): all on the
// device. A block an image, a thread a lane of the sums: the CPU loop's bits.
Status StainNmfGpu(const uint8_t* images, int batch, size_t pixels, const float* densities, float* scratch,
                   float* rows, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_STAIN_NMF_GPU_H_
