#include "cc/kernels/resample/resample_gpu.h"

#include <cuda_runtime.h>

#include <algorithm>

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

// Both passes are one launch over the whole batch: blockIdx.y picks the job (DALI's batched
// resampling maps blocks to samples likewise), the x blocks stride over that job's elements.

// Pass 1: every source row, resampled horizontally into scratch [src_h, out_w, c].
template <typename In>
__global__ void ResampleRowsKernel(const ResampleJob* jobs, int first_job, int c, int out_w) {
  const ResampleJob j = jobs[first_job + blockIdx.y];  // a copy in registers
  const In* src = static_cast<const In*>(j.src);
  const size_t total = size_t(j.src_h) * out_w * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int k = e % c, x = (e / c) % out_w, r = e / (size_t(c) * out_w);
    const In* row = src + r * j.src_row_stride;
    j.scratch[e] = ResampleAt(j.ax, x, [&](int idx) { return Load(row, size_t(idx) * c + k); });
  }
}

// Pass 2: columns of scratch resampled vertically into the output.
template <typename Out>
__global__ void ResampleColumnsKernel(const ResampleJob* jobs, int first_job, int c, int out_h, int out_w) {
  const ResampleJob j = jobs[first_job + blockIdx.y];  // a copy in registers
  Out* out = static_cast<Out*>(j.out);
  const size_t total = size_t(out_h) * out_w * c;
  const size_t row = size_t(out_w) * c;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int i = e / row;
    const size_t col = e % row;
    const int x = col / c, k = col % c;
    const float v = ResampleAt(j.ay, i, [&](int idx) { return j.scratch[idx * row + col]; });
    StoreOut(out, (size_t(i) * out_w + OutputColumn(j.epilogue, x, out_w)) * c + k,
             ApplyEpilogue(j.epilogue, v, k));
  }
}

// x blocks per job: enough for the largest job, fewer per job as the batch grows (the grid
// as a whole stays around the cap GridBlocks uses for one image).
int BlocksPerJob(size_t largest, int jobs) {
  const int per = GridBlocks(largest);
  const int cap = std::max(8, 4096 / std::max(jobs, 1));
  return std::min(per, cap);
}

template <typename In, typename Out>
Status Resample(const ResampleJob* jobs, int n, int max_src_h, int c, int out_h, int out_w,
                cudaStream_t stream) {
  constexpr int kMaxGridY = 65535;
  for (int first = 0; first < n; first += kMaxGridY) {
    const int count = std::min(kMaxGridY, n - first);
    const dim3 rows(BlocksPerJob(size_t(max_src_h) * out_w * c, count), count);
    ResampleRowsKernel<In><<<rows, kThreadsPerBlock, 0, stream>>>(jobs, first, c, out_w);
    const dim3 columns(BlocksPerJob(size_t(out_h) * out_w * c, count), count);
    ResampleColumnsKernel<Out><<<columns, kThreadsPerBlock, 0, stream>>>(jobs, first, c, out_h, out_w);
  }
  return LaunchStatus("resample kernels");
}

}  // namespace

Status ResampleBatchGpu(const ResampleJob* device_jobs, int n, int max_src_h, int c, int out_h, int out_w,
                        bool in_is_float, bool out_is_float, cudaStream_t stream) {
  if (n == 0) return Status::Ok();
  return in_is_float
             ? (out_is_float ? Resample<float, float>(device_jobs, n, max_src_h, c, out_h, out_w, stream)
                             : Resample<float, uint8_t>(device_jobs, n, max_src_h, c, out_h, out_w, stream))
             : (out_is_float
                    ? Resample<uint8_t, float>(device_jobs, n, max_src_h, c, out_h, out_w, stream)
                    : Resample<uint8_t, uint8_t>(device_jobs, n, max_src_h, c, out_h, out_w, stream));
}

}  // namespace tfgpuaug
