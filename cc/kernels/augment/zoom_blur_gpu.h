// CUDA launcher of ZoomBlur (zoom_blur.h): a batch of images.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Bytes of device scratch ZoomBlurGpu needs for a batch (each sample's zooms' crops).
size_t ZoomBlurGpuScratchBytes(int batch);

// images [batch, h, w, c] (device) zoom-blurred into out (device, not aliasing them), sample b
// over arange(1, max_factors[b], steps[b]) (device doubles); scratch: ZoomBlurGpuScratchBytes.
Status ZoomBlurGpu(const uint8_t* images, const double* max_factors, const double* steps, int batch, int h,
                   int w, int c, void* scratch, uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_ZOOM_BLUR_GPU_H_
