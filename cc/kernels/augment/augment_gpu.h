// CUDA launcher of the batched augment op: each stage is a statistics pass (histograms
// and luma sums, only when a sample needs them), a lookup-table pass, clahe's tile-table
// pass (only when a sample draws clahe) and one apply pass over the whole batch.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/augment/augment.h"
#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Device scratch the launcher needs for a batch of `batch` images of `image_bytes` each
// running the ops of host_ops [B, K] (host memory; clahe's tables only when drawn).
size_t AugmentGpuScratchBytes(int batch, size_t image_bytes, const int32_t* host_ops, int num_stages);

// images/out: [B, h, w, c] device; ops [B, K], params [B, K], aux [B, K, 2] device; host_ops
// is the host copy of ops, which decides the passes each stage launches.
Status AugmentBatchGpu(const uint8_t* images, int batch, const AugmentImage& image_info, const int32_t* ops,
                       const int32_t* host_ops, const float* params, const float* aux, int num_stages,
                       uint8_t* scratch, uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_AUGMENT_GPU_H_
