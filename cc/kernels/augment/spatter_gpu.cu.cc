#include "cc/kernels/augment/spatter_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/spatter_rain.h"
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

// --- rain ------------------------------------------------------------------------------------

// Down the columns, zeroed below the cutout: the liquid's bytes.
__global__ void RainLevelKernel(int batch, int h, int w, SpatterMudBatch m, const double* blurred,
                                uint8_t* level) {
  const size_t n = size_t(h) * w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    const SpatterParams p = ParamsOf(m.params, b);
    if (p.intensity == 0.0) continue;
    const double* taps = m.taps1 + b * m.t1;
    const int y = static_cast<int>(e / w), x = static_cast<int>(e % w);
    const double v = SpatterBlurAt(taps + m.t1 / 2, SpatterReach(taps, m.t1), blurred + b * n + x, w, h, y);
    level[i] = RainLevel(v < p.cutout ? 0.0 : v);
  }
}

// |dx| + |dy| of Sobel's derivatives.
__global__ void RainMagnitudeKernel(int batch, int h, int w, SpatterMudBatch m, const uint8_t* level,
                                    int* magnitude) {
  const size_t n = size_t(h) * w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    if (m.params[4 * b + 3] == 0.0) continue;
    int dx, dy;
    RainSobel(level + b * n, h, w, static_cast<int>(e / w), static_cast<int>(e % w), &dx, &dy);
    magnitude[i] = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
  }
}

// Canny's classes before hysteresis.
__global__ void RainClassKernel(int batch, int h, int w, SpatterMudBatch m, const uint8_t* level,
                                const int* magnitude, uint8_t* cls) {
  const size_t n = size_t(h) * w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    if (m.params[4 * b + 3] == 0.0) continue;
    const int y = static_cast<int>(e / w), x = static_cast<int>(e % w);
    int dx, dy;
    RainSobel(level + b * n, h, w, y, x, &dx, &dy);
    cls[i] = RainCannyClass(magnitude + b * n, h, w, y, x, dx, dy);
  }
}

// One thread a sample: hysteresis, then the distance transform, truncated at 20.
__global__ void RainTraceKernel(int batch, int h, int w, SpatterMudBatch m, uint8_t* cls, uint32_t* stack,
                                float* work, float* distance) {
  const size_t n = size_t(h) * w, plane = size_t(h + 4) * (w + 4);
  for (size_t b = blockIdx.x * size_t(blockDim.x) + threadIdx.x; b < size_t(batch);
       b += size_t(blockDim.x) * gridDim.x) {
    if (m.params[4 * b + 3] == 0.0) continue;
    RainHysteresis(cls + b * n, h, w, stack + b * n);
    float* d = distance + b * n;
    RainDistance(cls + b * n, h, w, work + b * plane, d);
    for (size_t e = 0; e < n; ++e) d[e] = d[e] > 20.f ? 20.f : d[e];
  }
}

// A float32 plane blurred along its rows by the soften (3) or smooth (5) taps.
__global__ void RainRowKernel(int batch, int h, int w, SpatterMudBatch m, bool smooth, const float* src,
                              float* rows) {
  const size_t n = size_t(h) * w;
  float taps[5];
  for (int k = 0; k < 5; ++k) taps[k] = smooth ? RainSmoothTap(k) : (k < 3 ? RainSoftenTap(k) : 0.f);
  const int r = smooth ? 2 : 1;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    if (m.params[4 * b + 3] == 0.0) continue;
    const int x = static_cast<int>(e % w);
    rows[i] = SpatterBlurAt(taps + r, r, src + (i - x), 1, w, x);
  }
}

// The softened distance down the columns, as bytes; their histogram per sample.
__global__ void RainSoftenColumnKernel(int batch, int h, int w, SpatterMudBatch m, const float* rows,
                                       uint8_t* q, unsigned int* hist) {
  const size_t n = size_t(h) * w;
  float taps[3];
  for (int k = 0; k < 3; ++k) taps[k] = RainSoftenTap(k);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    if (m.params[4 * b + 3] == 0.0) continue;
    const int y = static_cast<int>(e / w), x = static_cast<int>(e % w);
    q[i] = RainDistanceByte(SpatterBlurAt(taps + 1, 1, rows + b * n + x, w, h, y));
    atomicAdd(hist + 256 * b + q[i], 1u);
  }
}

// One thread a sample: its equalisation table.
__global__ void RainTableKernel(int batch, size_t n, SpatterMudBatch m, const unsigned int* hist,
                                uint8_t* table) {
  for (size_t b = blockIdx.x * size_t(blockDim.x) + threadIdx.x; b < size_t(batch);
       b += size_t(blockDim.x) * gridDim.x) {
    if (m.params[4 * b + 3] == 0.0) continue;
    RainEqualizeTable(hist + 256 * b, static_cast<uint32_t>(n), table + 256 * b);
  }
}

// The equalised bytes back in [0, 1].
__global__ void RainEqualiseKernel(int batch, size_t n, SpatterMudBatch m, const uint8_t* q,
                                   const uint8_t* table, float* equalised) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n;
    if (m.params[4 * b + 3] == 0.0) continue;
    equalised[i] = float(table[256 * b + q[i]]) / 255.f;
  }
}

// The relief of the equalised layer, clipped.
__global__ void RainReliefKernel(int batch, int h, int w, SpatterMudBatch m, const float* equalised,
                                 float* relief) {
  const size_t n = size_t(h) * w;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    if (m.params[4 * b + 3] == 0.0) continue;
    relief[i] = RainRelief(equalised + b * n, h, w, static_cast<int>(e / w), static_cast<int>(e % w));
  }
}

// The smoothed relief down the columns times the liquid's bytes; the peak per sample.
__global__ void RainSmoothColumnKernel(int batch, int h, int w, SpatterMudBatch m, const float* rows,
                                       const uint8_t* level, float* drops, unsigned int* peaks) {
  const size_t n = size_t(h) * w;
  float taps[5];
  for (int k = 0; k < 5; ++k) taps[k] = RainSmoothTap(k);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n, e = i - b * n;
    if (m.params[4 * b + 3] == 0.0) continue;
    const int y = static_cast<int>(e / w), x = static_cast<int>(e % w);
    drops[i] = float(level[i]) * SpatterBlurAt(taps + 2, 2, rows + b * n + x, w, h, y);
    atomicMax(peaks + b, __float_as_uint(drops[i]));
  }
}

// Each pixel's three bytes under its drop (or copied where the sample is left alone).
__global__ void RainDropKernel(const uint8_t* images, int batch, size_t n, SpatterMudBatch m,
                               const float* drops, const unsigned int* peaks, uint8_t* out) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n * batch;
       i += size_t(blockDim.x) * gridDim.x) {
    const size_t b = i / n;
    const double intensity = m.params[4 * b + 3];
    if (intensity == 0.0) {
      for (int k = 0; k < 3; ++k) out[3 * i + k] = images[3 * i + k];
      continue;
    }
    const float peak = __uint_as_float(peaks[b]);
    const float v = drops[i] * (peak > 0.f ? 1.f / peak : 0.f);
    for (int k = 0; k < 3; ++k)
      out[3 * i + k] = RainByte(images[3 * i + k], v, m.colour[k] / 255.0, intensity * 0.9);
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

// The rain's scratch: the liquid's two float64 planes (then four float32 ones: distances and
// later drops, row blurs and before them magnitudes, the equalised layer and before it the
// hysteresis stack, the relief), three byte planes, the distance transform's planes, the
// histograms, tables and peaks.
size_t SpatterRainGpuScratchBytes(int batch, int h, int w) {
  const size_t n = size_t(h) * w * batch, work = size_t(h + 4) * (w + 4) * batch;
  return 2 * n * sizeof(double) + 3 * n + work * sizeof(float) +
         256 * size_t(batch) * (sizeof(unsigned int) + 1) + size_t(batch) * sizeof(unsigned int) + 16;
}

Status SpatterRainGpu(const uint8_t* images, int batch, int h, int w, const SpatterMudBatch& rain,
                      void* scratch, uint8_t* out, cudaStream_t stream) {
  const size_t n = size_t(h) * w, total = n * batch;
  if (total == 0) return Status::Ok();  // nothing to launch (a grid of no blocks is an error)
  double* liquid = static_cast<double*>(scratch);
  double* blurred = liquid + total;
  float* distance = reinterpret_cast<float*>(liquid);  // the float32 planes reuse the liquid's
  float* rows = distance + total;
  float* equalised = rows + total;
  float* relief = equalised + total;
  float* work = reinterpret_cast<float*>(blurred + total);
  unsigned int* hist = reinterpret_cast<unsigned int*>(work + size_t(h + 4) * (w + 4) * batch);
  unsigned int* peaks = hist + 256 * size_t(batch);
  uint8_t* level = reinterpret_cast<uint8_t*>(peaks + batch);
  uint8_t* cls = level + total;
  uint8_t* q = cls + total;
  uint8_t* table = q + total;
  TFGPUAUG_RETURN_IF_ERROR(CudaStatus(
      cudaMemsetAsync(hist, 0, sizeof(unsigned int) * (257 * size_t(batch)), stream), "spatter histograms"));
  const int blocks = GridBlocks(total), samples = GridBlocks(batch);
  LiquidKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, n, rain, liquid);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter liquid kernel"));
  LiquidRowKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, liquid, blurred);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter liquid row kernel"));
  RainLevelKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, blurred, level);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain level kernel"));
  int* magnitude = reinterpret_cast<int*>(rows);
  RainMagnitudeKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, level, magnitude);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain magnitude kernel"));
  RainClassKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, level, magnitude, cls);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain class kernel"));
  uint32_t* stack = reinterpret_cast<uint32_t*>(equalised);
  RainTraceKernel<<<samples, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, cls, stack, work, distance);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain trace kernel"));
  RainRowKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, false, distance, rows);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain soften row kernel"));
  RainSoftenColumnKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, rows, q, hist);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain soften column kernel"));
  RainTableKernel<<<samples, kThreadsPerBlock, 0, stream>>>(batch, n, rain, hist, table);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain table kernel"));
  RainEqualiseKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, n, rain, q, table, equalised);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain equalise kernel"));
  RainReliefKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, equalised, relief);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain relief kernel"));
  RainRowKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, true, relief, rows);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain smooth row kernel"));
  float* drops = distance;
  RainSmoothColumnKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(batch, h, w, rain, rows, level, drops,
                                                                  peaks);
  TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("spatter rain smooth column kernel"));
  RainDropKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(images, batch, n, rain, drops, peaks, out);
  return LaunchStatus("spatter rain drop kernel");
}

}  // namespace tfgpuaug
