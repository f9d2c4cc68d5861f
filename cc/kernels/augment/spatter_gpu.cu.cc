#include "cc/kernels/augment/spatter_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// Sample b's draws (the intensity 0 of a sample left alone skips every kernel but the copy).
__device__ SpatterParams ParamsOf(const double* params, size_t b) {
  return SpatterParams{params[4 * b], params[4 * b + 1], params[4 * b + 2], params[4 * b + 3]};
}

// The liquid layer [batch][h][w] (float64): mean + std z.
__global__ void LiquidKernel(int batch, size_t n, SpatterMudBatch m, double* liquid) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n;
    const SpatterParams p = ParamsOf(m.params, b);
    if (p.intensity == 0.0) continue;
    liquid[i] = SpatterLiquid(static_cast<uint32_t>(m.seeds[b]), static_cast<uint32_t>(i - b * n), p);
  }
}

// The liquid blurred along its rows.
__global__ void LiquidRowKernel(int batch, int h, int w, SpatterMudBatch m, const double* liquid,
                                double* blurred) {
  const size_t n = size_t(h) * w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    if (m.params[4 * b + 3] == 0.0) continue;
    const double* taps = m.taps1 + b * m.t1;
    const int x = static_cast<int>(e % w);
    blurred[i] = SpatterBlurAt(taps + m.t1 / 2, SpatterReach(taps, m.t1), liquid + (i - x), 1, w, x);
  }
}

// Down the columns, then the cutout: the marks, counted per sample.
__global__ void MarkKernel(int batch, int h, int w, SpatterMudBatch m, const double* blurred, uint8_t* marks,
                           unsigned int* counts) {
  const size_t n = size_t(h) * w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    const SpatterParams p = ParamsOf(m.params, b);
    if (p.intensity == 0.0) continue;
    const double* taps = m.taps1 + b * m.t1;
    const int y = static_cast<int>(e / w), x = static_cast<int>(e % w);
    const double v = SpatterBlurAt(taps + m.t1 / 2, SpatterReach(taps, m.t1), blurred + b * n + x, w, h, y);
    marks[i] = SpatterMarked(v, p.cutout);
    if (marks[i]) atomicAdd(counts + b, 1u);
  }
}

// Samples with no mark: the first max(1, int(0.1 n)) entries of the sample's permutation.
__global__ void FallbackKernel(int batch, size_t n, SpatterMudBatch m, const unsigned int* counts,
                               uint8_t* marks) {
  const uint32_t count = static_cast<uint32_t>(n), k = SpatterFallbackCount(count);
  const int half = SpatterHalfBits(count);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < size_t(k) * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / k;
    if (counts[b] != 0 || m.params[4 * b + 3] == 0.0) continue;
    marks[b * n + SpatterPermuted(static_cast<uint32_t>(i - b * k), count, half, uint32_t(m.seeds[b]))] = 1;
  }
}

// The marks blurred along their rows (float32).
__global__ void MaskRowKernel(int batch, int h, int w, SpatterMudBatch m, const uint8_t* marks, float* rows) {
  const size_t n = size_t(h) * w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    if (m.params[4 * b + 3] == 0.0) continue;
    const float* taps = m.taps2 + b * m.t2;
    const int x = static_cast<int>(e % w);
    rows[i] = SpatterBlurAt(taps + m.t2 / 2, SpatterReach(taps, m.t2), marks + (i - x), 1, w, x);
  }
}

// Down the columns: the blurred mask, its peak per sample as float bits (non-negative floats
// order as their bits).
__global__ void MaskColumnKernel(int batch, int h, int w, SpatterMudBatch m, const float* rows, float* mask,
                                 unsigned int* peaks) {
  const size_t n = size_t(h) * w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    if (m.params[4 * b + 3] == 0.0) continue;
    const float* taps = m.taps2 + b * m.t2;
    const int y = static_cast<int>(e / w), x = static_cast<int>(e % w);
    mask[i] = SpatterBlurAt(taps + m.t2 / 2, SpatterReach(taps, m.t2), rows + b * n + x, w, h, y);
    atomicMax(peaks + b, __float_as_uint(mask[i]));
  }
}

// Each pixel's three bytes through the mud (or copied where the sample is left alone).
__global__ void MudKernel(const uint8_t* images, int batch, size_t n, SpatterMudBatch m, const float* mask,
                          const unsigned int* peaks, uint8_t* out) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n;
    const double intensity = m.params[4 * b + 3];
    if (intensity == 0.0) {
      for (int k = 0; k < 3; ++k) out[3 * i + k] = images[3 * i + k];
      continue;
    }
    const float v =
        SpatterMask(mask[i], __uint_as_float(peaks[b]), i == b * n, static_cast<float>(intensity));
    for (int k = 0; k < 3; ++k) out[3 * i + k] = SpatterMudByte(images[3 * i + k], v, m.colour[k]);
  }
}

// The scratch's parts: two float64 planes a sample, the marks, the counts and peaks.
struct GpuScratch {
  double *liquid, *blurred;
  uint8_t* marks;
  unsigned int *counts, *peaks;
};

GpuScratch Carve(void* scratch, int batch, size_t n) {
  GpuScratch s;
  s.liquid = static_cast<double*>(scratch);
  s.blurred = s.liquid + n * batch;
  s.counts = reinterpret_cast<unsigned int*>(s.blurred + n * batch);
  s.peaks = s.counts + batch;
  s.marks = reinterpret_cast<uint8_t*>(s.peaks + batch);
  return s;
}

}  // namespace

size_t SpatterMudGpuScratchBytes(int batch, int h, int w) {
  const size_t n = size_t(h) * w;
  return 2 * n * batch * sizeof(double) + 2 * size_t(batch) * sizeof(unsigned int) + n * batch;
}

Status SpatterMudGpu(const uint8_t* images, int batch, int h, int w, const SpatterMudBatch& mud,
                     void* scratch, uint8_t* out, cudaStream_t stream) {
  const size_t n = size_t(h) * w, total = n * batch;
  if (total == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  const GpuScratch s = Carve(scratch, batch, n);
  TFGPUAUG_RETURN_IF_ERROR(CudaStatus(cudaMemsetAsync(s.counts, 0, 2 * sizeof(unsigned int) * batch, stream),
                                      "spatter counts and peaks"));
  const int blocks = GridBlocks(total);
  LiquidKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, n, mud, s.liquid);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter liquid kernel"));
  LiquidRowKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, mud, s.liquid, s.blurred);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter liquid row kernel"));
  MarkKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, mud, s.blurred, s.marks, s.counts);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter mark kernel"));
  const size_t fallback = size_t(SpatterFallbackCount(static_cast<uint32_t>(n))) * batch;
  FallbackKernel<<<GridBlocks(fallback), kThreadsPerBlock, 0, stream>>>(batch, n, mud, s.counts, s.marks);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter fallback kernel"));
  // the float32 planes of the mask reuse the liquid's memory (read before they are written)
  float* rows = reinterpret_cast<float*>(s.liquid);
  float* mask = rows + total;
  MaskRowKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, mud, s.marks, rows);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter mask row kernel"));
  MaskColumnKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, mud, rows, mask, s.peaks);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter mask column kernel"));
  MudKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(images, batch, n, mud, mask, s.peaks, out);
  return LaunchStatus("spatter mud kernel");
}

}  // namespace tfgpuaug
