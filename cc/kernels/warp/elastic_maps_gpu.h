// CUDA launcher of the elastic maps (elastic_maps.h): a noise kernel (one thread per element,
// the sample's peak by an atomic max), then the row blur and the column blur, one thread per
// element, each summing as the CPU loops do.
#ifndef TFGPUAUG_CC_KERNELS_WARP_ELASTIC_MAPS_GPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_ELASTIC_MAPS_GPU_H_

#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/common/status.h"
#include "cc/kernels/warp/elastic_maps.h"

namespace tfgpuaug {

// Device floats of scratch a batch needs (the row-blurred fields, then one peak per sample).
inline int64_t ElasticScratchFloatsGpu(const ElasticShape& s, int batch) {
  return int64_t{batch} * (int64_t{s.fields} * s.h * s.w + 1);
}

// seeds [batch], alphas [batch], kernel [s.taps] (device) -> maps [batch, h, w, 2] (device).
Status ElasticMapsGpu(const ElasticShape& s, int batch, const float* kernel, const int32_t* seeds,
                      const float* alphas, float* scratch, float* maps, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_ELASTIC_MAPS_GPU_H_
