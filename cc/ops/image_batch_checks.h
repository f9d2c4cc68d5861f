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

// An optional per-pixel plane of a checked batch: [B, H, W] matching the images, or no elements
// (`absent` says what that means to the op).
inline absl::Status CheckPixelPlane(const tensorflow::Tensor& plane, const tensorflow::Tensor& images,
                                    const char* name, const char* absent) {
  if (plane.NumElements() == 0 ||
      (plane.dims() == 3 && plane.dim_size(0) == images.dim_size(0) &&
       plane.dim_size(1) == images.dim_size(1) && plane.dim_size(2) == images.dim_size(2))) {
    return absl::OkStatus();
  }
  return tensorflow::errors::InvalidArgument("need ", name, " [B, H, W] (or no elements: ", absent,
                                             ") for images ", images.shape().DebugString(), ", got ",
                                             plane.shape().DebugString());
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_IMAGE_BATCH_CHECKS_H_
