// The checks every per-image uint8 op makes of its [B, H, W, C] batch before it sizes anything:
// rank 4, and sides that the kernels' int arithmetic holds.
#ifndef TFGPUAUG_CC_OPS_IMAGE_BATCH_CHECKS_H_
#define TFGPUAUG_CC_OPS_IMAGE_BATCH_CHECKS_H_

#include <cstdint>

#include "tensorflow/core/framework/tensor.h"
#include "tensorflow/core/platform/errors.h"

namespace tfgpuaug {

inline absl::Status CheckImageBatch(const tensorflow::Tensor& images) {
  if (images.dims() != 4) {
    return tensorflow::errors::InvalidArgument("images must be [B, H, W, C], got ",
                                               images.shape().DebugString());
  }
  if (images.dim_size(1) >= (int64_t{1} << 30) || images.dim_size(2) >= (int64_t{1} << 30) ||
      images.dim_size(3) >= 1024) {
    return tensorflow::errors::InvalidArgument("images too large: ", images.shape().DebugString());
  }
  return absl::OkStatus();
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_IMAGE_BATCH_CHECKS_H_
