#include <string>

#include <cuda_runtime.h>

#include "cc/kernels/cuda_launch.h"

#include "cc/kernels/geometry_gpu.h"

namespace tfgpuaug {
namespace {

Status Check(const char* what) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return Status::Ok();
  return CudaError(e, what);
}

template <typename T>
__device__ float Load(const T* p, size_t i) { return static_cast<float>(p[i]); }

template <typename T>
__device__ void StoreOut(T* p, size_t i, float v);
template <>
__device__ void StoreOut<float>(float* p, size_t i, float v) { p[i] = v; }
template <>
__device__ void StoreOut<uint8_t>(uint8_t* p, size_t i, float v) { p[i] = SaturateToUint8(v); }

// Pass 1: every source row, resampled horizontally into scratch [src_h, out_w, c].
template <typename In>
__global__ void ResampleRowsKernel(const In* src, int src_h, long stride, ResampleAxis ax, int c,
                                   int out_w, float* scratch) {
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
__global__ void ResampleColumnsKernel(const float* scratch, ResampleAxis ay, int c, int out_h,
                                      int out_w, Epilogue epilogue, Out* out) {
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
  return Check("resample kernels");
}

struct Mean4 {
  float v[4];
};

__global__ void CmnKernel(const uint8_t* images, int batch, CmnParams p, const int32_t* offsets,
                          const bool* mirror, Mean4 mean, Mean4 inv_std, void* out) {
  const size_t per = size_t(p.crop_h) * p.crop_w * p.out_channels;
  const size_t in_per = size_t(p.in_h) * p.in_w * p.channels;
  const size_t total = per * batch;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = e / per;
    const size_t r = e % per;  // NHWC order of the element; stored at its layout's index
    const int k = r % p.out_channels, x = (r / p.out_channels) % p.crop_w,
              y = r / (size_t(p.out_channels) * p.crop_w);
    const float v = CmnValue(images + b * in_per, p, offsets[2 * b], offsets[2 * b + 1],
                             mirror[b], mean.v, inv_std.v, y, x, k);
    CmnStore(out, b * per + CmnOutputIndex(p, y, x, k), p.type, v);
  }
}

__global__ void FlipKernel(const uint8_t* images, int batch, int h, int w, size_t pixel_bytes,
                           const bool* horizontal, const bool* vertical, uint8_t* out) {
  const size_t per = size_t(h) * w * pixel_bytes, total = per * batch;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = e / per;
    const size_t r = e % per;
    const int byte = r % pixel_bytes, x = (r / pixel_bytes) % w, y = r / (pixel_bytes * w);
    const int sy = FlipSource(y, h, vertical[b]), sx = FlipSource(x, w, horizontal[b]);
    out[e] = images[b * per + (size_t(sy) * w + sx) * pixel_bytes + byte];
  }
}

__global__ void WarpAffineKernel(const uint8_t* images, int batch, AffineParams p,
                                 const float* matrices, uint8_t* out) {
  const size_t per = size_t(p.out_h) * p.out_w * p.channels;
  const size_t in_per = size_t(p.in_h) * p.in_w * p.channels;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < per * batch;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = e / per;
    const size_t r = e % per;
    const int k = r % p.channels, x = (r / p.channels) % p.out_w, y = r / (size_t(p.channels) * p.out_w);
    out[e] = AffineSample(images + b * in_per, p, matrices + 6 * b, y, x, k);
  }
}

}  // namespace

Status ResampleBatchGpu(const ResampleJob* jobs, int n, int c, int out_h, int out_w,
                        bool in_is_float, bool out_is_float, cudaStream_t stream) {
  for (int i = 0; i < n; ++i) {
    Status s = in_is_float
                   ? (out_is_float ? Resample<float, float>(jobs[i], c, out_h, out_w, stream)
                                   : Resample<float, uint8_t>(jobs[i], c, out_h, out_w, stream))
                   : (out_is_float ? Resample<uint8_t, float>(jobs[i], c, out_h, out_w, stream)
                                   : Resample<uint8_t, uint8_t>(jobs[i], c, out_h, out_w, stream));
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Status CropMirrorNormalizeGpu(const uint8_t* images, int batch, const CmnParams& p,
                              const int32_t* offsets, const bool* mirror, const float* mean4,
                              const float* inv_std4, void* out, cudaStream_t stream) {
  Mean4 mean, inv;
  for (int k = 0; k < 4; ++k) {
    mean.v[k] = mean4[k];
    inv.v[k] = inv_std4[k];
  }
  const size_t total = size_t(batch) * p.crop_h * p.crop_w * p.out_channels;
  CmnKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, p, offsets, mirror, mean, inv, out);
  return Check("crop_mirror_normalize kernel");
}

Status FlipGpu(const uint8_t* images, int batch, int h, int w, int c, size_t element_bytes,
               const bool* horizontal, const bool* vertical, uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * h * w * c * element_bytes;
  FlipKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, h, w, c * element_bytes,
                                                     horizontal, vertical, out);
  return Check("flip kernel");
}

Status WarpAffineGpu(const uint8_t* images, int batch, const AffineParams& p,
                     const float* matrices, uint8_t* out, cudaStream_t stream) {
  const size_t total = size_t(batch) * p.out_h * p.out_w * p.channels;
  WarpAffineKernel<<<GridBlocks(total), kThreadsPerBlock, 0, stream>>>(images, batch, p, matrices, out);
  return Check("warp_affine kernel");
}

}  // namespace tfgpuaug
