#include "cc/kernels/augment/zoom_blur_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/zoom_blur.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// Each sample's zoom count and its zooms' axes (down, across), computed once a batch.
struct ZoomPlan {
  int* counts;     // [batch]
  ZoomAxis* axes;  // [batch, kMostZooms, 2]
};

ZoomPlan PlanIn(void* scratch, int batch) {
  ZoomPlan plan;
  plan.axes = static_cast<ZoomAxis*>(scratch);
  plan.counts = reinterpret_cast<int*>(plan.axes + size_t(batch) * kMostZooms * 2);
  return plan;
}

// One thread a (sample, zoom).
__global__ void ZoomAxesKernel(const double* max_factors, const double* steps, int batch, int h, int w,
                               ZoomPlan plan) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * kMostZooms;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = static_cast<int>(e / kMostZooms), k = static_cast<int>(e % kMostZooms);
    const int zooms = ZoomCount(max_factors[b], steps[b]);
    if (k == 0) plan.counts[b] = zooms;
    if (k >= zooms) continue;
    const double factor = ZoomFactor(steps[b], k);
    plan.axes[e * 2] = ZoomAxisOf(h, factor);
    plan.axes[e * 2 + 1] = ZoomAxisOf(w, factor);
  }
}

// One thread an output byte: its zooms' resampled values summed in order, as the CPU does.
__global__ void ZoomBlurKernel(const uint8_t* images, int batch, int h, int w, int c, ZoomPlan plan,
                               uint8_t* out) {
  const size_t per_image = size_t(h) * w * c, row = size_t(w) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < size_t(batch) * per_image;
       e += size_t(blockDim.x) * gridDim.x) {
    const size_t b = e / per_image, i = e - b * per_image;
    const int y = static_cast<int>(i / row), x = static_cast<int>(i % row / c), ch = static_cast<int>(i % c);
    const uint8_t* image = images + b * per_image;
    const int zooms = plan.counts[b];
    const float unit = ZoomUnit(image[i]);
    float sum = zooms > 0 ? unit : 0.f;  // factor 1 is the identity
    for (int k = 1; k < zooms; ++k) {
      const ZoomAxis* axes = plan.axes + (b * kMostZooms + k) * 2;
      const ZoomTap ty = ZoomTapAt(axes[0], y), tx = ZoomTapAt(axes[1], x);
      const uint8_t* r0 = image + size_t(ty.first) * row + ch;
      const uint8_t* r1 = image + size_t(ty.second) * row + ch;
      sum += ZoomBilinear(ZoomUnit(r0[size_t(tx.first) * c]), ZoomUnit(r0[size_t(tx.second) * c]),
                          ZoomUnit(r1[size_t(tx.first) * c]), ZoomUnit(r1[size_t(tx.second) * c]), tx, ty);
    }
    out[e] = ZoomBlurByte(unit, sum, zooms);
  }
}

}  // namespace

size_t ZoomBlurGpuScratchBytes(int batch) {
  return size_t(batch) * (kMostZooms * 2 * sizeof(ZoomAxis) + sizeof(int));
}

Status ZoomBlurGpu(const uint8_t* images, const double* max_factors, const double* steps, int batch, int h,
                   int w, int c, void* scratch, uint8_t* out, cudaStream_t stream) {
  const size_t bytes = size_t(batch) * h * w * c;
  if (bytes == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  const ZoomPlan plan = PlanIn(scratch, batch);
  ZoomAxesKernel<<<GridBlocks(size_t(batch) * kMostZooms), kThreadsPerBlock, 0, stream>>>(max_factors, steps,
                                                                                          batch, h, w, plan);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("zoom blur axes kernel"));
  ZoomBlurKernel<<<GridBlocks(bytes), kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c, plan, out);
  return LaunchStatus("zoom blur kernel");
}

}  // namespace tfgpuaug
