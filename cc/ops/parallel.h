// Runs per-image work on the intra-op thread pool with one image per task, so that
// images of very different cost (random crops, mixed sizes) balance across threads.
#ifndef TFGPUAUG_CC_OPS_PARALLEL_H_
#define TFGPUAUG_CC_OPS_PARALLEL_H_

#include <cstdint>
#include <functional>

#include "tensorflow/core/framework/op_kernel.h"

namespace tfgpuaug {

inline void ForEachImage(tensorflow::OpKernelContext* ctx, int64_t n,
                         const std::function<void(int64_t)>& fn) {
  auto* pool = ctx->device()->tensorflow_cpu_worker_threads()->workers;
  if (n <= 1 || pool == nullptr) {
    for (int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  pool->TransformRangeConcurrently(/*block_size=*/1, n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) fn(i);
  });
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_PARALLEL_H_
