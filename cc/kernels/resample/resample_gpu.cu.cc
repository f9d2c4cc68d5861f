#include "cc/kernels/resample/resample_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

template <typename T>
__device__ float Load(const T* p, size_t i) {
  return static_cast<float>(p[i]);
}

template <typename T>
__device__ void StoreOut(T* p, size_t i, float v);
template <>
__device__ void StoreOut<float>(float* p, size_t i, float v) {
  p[i] = v;
}
template <>
__device__ void StoreOut<uint8_t>(uint8_t* p, size_t i, float v) {
  p[i] = SaturateToUint8(v);
}

// Pass 1: every source row, resampled horizontally into scratch [src_h, out_w, c].
template <typename In>
__global__ void ResampleRowsKernel(const In* src, int src_h, long stride, ResampleAxis ax, int c, int out_w,
                                   float* scratch) {
  const size_t total = size_t(src_h) * out_w * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int k = e % c, j = (e / c) % out_w, r = e / (size_t(c) * out_w);
    const In* row = src + r * stride;
    scratch[e] = ResampleAt(ax, j, [&](int idx) { return Load(row, size_t(idx) * c + k); });
  }
}

// Pass 2: columns of scratch resampled vertically into the output.
template <typename Out>
__global__ void ResampleColumnsKernel(const float* scratch, ResampleAxis ay, int c, int out_h, int out_w,
                                      Epilogue epilogue, Out* out) {
  const size_t total = size_t(out_h) * out_w * c;
  const size_t row = size_t(out_w) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int i = e / row;
    const size_t col = e % row;
    const int j = col / c, k = col % c;
    const float v = ResampleAt(ay, i, [&](int idx) { return scratch[idx * row + col]; });
    StoreOut(out, (size_t(i) * out_w + OutputColumn(epilogue, j, out_w)) * c + k,
             ApplyEpilogue(epilogue, v, k));
  }
}

template <typename In, typename Out>
Status Resample(const ResampleJob& j, int c, int out_h, int out_w, cudaStream_t stream) {
  ResampleRowsKernel<In><<<GridBlocks(size_t(j.src_h) * out_w * c), kThreadsPerBlock, 0, stream>>>(
      static_cast<const In*>(j.src), j.src_h, j.src_row_stride, j.ax, c, out_w, j.scratch);
  ResampleColumnsKernel<Out><<<GridBlocks(size_t(out_h) * out_w * c), kThreadsPerBlock, 0, stream>>>(
      j.scratch, j.ay, c, out_h, out_w, j.epilogue, static_cast<Out*>(j.out));
  return LaunchStatus("resample kernels");
}

}  // namespace

Status ResampleBatchGpu(const ResampleJob* jobs, int n, int c, int out_h, int out_w, bool in_is_float,
                        bool out_is_float, cudaStream_t stream) {
  for (int i = 0; i < n; ++i) {
    Status s = in_is_float ? (out_is_float ? Resample<float, float>(jobs[i], c, out_h, out_w, stream)
                                           : Resample<float, uint8_t>(jobs[i], c, out_h, out_w, stream))
                           : (out_is_float ? Resample<uint8_t, float>(jobs[i], c, out_h, out_w, stream)
                                           : Resample<uint8_t, uint8_t>(jobs[i], c, out_h, out_w, stream));
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
