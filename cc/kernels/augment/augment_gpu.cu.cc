#include <algorithm>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "cc/kernels/common/cuda_launch.h"

#include "cc/kernels/augment/augment_gpu.h"

namespace tfgpuaug {
namespace {

struct Scratch {
  uint32_t* hist;             // [B, 4, 256]
  unsigned long long* luma;   // [B]
  unsigned long long* light;  // [B, 2] iso_noise: sums of 510 L and of its square
  uint8_t* lut;               // [B, 4, 256]
  uint8_t* clahe;             // [B, kMaxClaheTiles, 256] clahe's tables per tile
  StageParams* stage;         // [B] the current stage's per-sample parameters
  uint8_t* image;             // [B, h, w, c] ping-pong buffer
};

size_t Align(size_t n) { return (n + 255) & ~size_t(255); }

bool NeedsStats(int op) { return NeedsHistogram(op) || NeedsLumaMean(op) || NeedsLightness(op); }

// Which optional passes each stage runs, read once from the host copy of the op ids: a pass
// (and scratch) no sample of a stage needs is skipped.
struct StagePasses {
  std::vector<uint8_t> stats, tile_luts;  // per stage: some sample needs statistics / clahe tables
  bool any_tile_luts = false;
};

StagePasses PlanPasses(const int32_t* host_ops, int batch, int num_stages) {
  StagePasses p;
  p.stats.assign(num_stages, 0);
  p.tile_luts.assign(num_stages, 0);
  for (int b = 0; b < batch; ++b) {
    for (int k = 0; k < num_stages; ++k) {
      const int op = int(host_ops[size_t(b) * num_stages + k]);
      p.stats[k] |= NeedsStats(op);
      p.tile_luts[k] |= NeedsTileLuts(op);
    }
  }
  for (uint8_t t : p.tile_luts) p.any_tile_luts |= t != 0;
  return p;
}

// clahe's tables take 64 KiB a sample: only batches that draw clahe get them.
size_t ClaheBytes(int batch, const StagePasses& passes) {
  return passes.any_tile_luts ? Align(size_t(batch) * kMaxClaheTiles * 256) : 0;
}

Scratch Carve(uint8_t* base, int batch, size_t clahe_bytes) {
  Scratch s;
  s.hist = reinterpret_cast<uint32_t*>(base);
  base += Align(size_t(batch) * 4 * 256 * sizeof(uint32_t));
  s.luma = reinterpret_cast<unsigned long long*>(base);
  base += Align(size_t(batch) * sizeof(unsigned long long));
  s.light = reinterpret_cast<unsigned long long*>(base);
  base += Align(size_t(batch) * 2 * sizeof(unsigned long long));
  s.lut = base;
  base += Align(size_t(batch) * 4 * 256);
  s.clahe = clahe_bytes > 0 ? base : nullptr;
  base += clahe_bytes;
  s.stage = reinterpret_cast<StageParams*>(base);
  base += Align(size_t(batch) * sizeof(StageParams));
  s.image = base;
  return s;
}

// Histograms (or luma sums) of sample first_sample + blockIdx.y, privatized: each block counts its
// share of the pixels in shared memory and adds the non-zero bins to the sample's global
// counts once, instead of one global atomic per pixel and channel.
constexpr int kStatsBlocksPerSample = 32;
constexpr int kMaxGridY = 65535;

__global__ void StatsKernel(const uint8_t* src, int first_sample, AugmentImage image_info, const int32_t* ops,
                            int stage, int num_stages, Scratch s) {
  __shared__ uint32_t hist[4 * 256];
  __shared__ unsigned long long luma, light_sq;
  const int b = first_sample + blockIdx.y;
  const int op = ops[b * num_stages + stage];  // the same for the whole block
  const bool histogram = NeedsHistogram(op), mean = !histogram && NeedsLumaMean(op);
  const bool light = NeedsLightness(op) && image_info.c >= 3;
  if (!histogram && !mean && !light) return;
  for (int i = threadIdx.x; i < 4 * 256; i += blockDim.x) hist[i] = 0;
  if (threadIdx.x == 0) luma = light_sq = 0;
  __syncthreads();
  const size_t pixels = size_t(image_info.h) * image_info.w;
  const uint8_t* image = src + b * pixels * image_info.c;
  unsigned long long local_luma = 0, local_sq = 0;  // light: luma holds the lightness sum
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < pixels;
       e += size_t(blockDim.x) * gridDim.x) {
    const uint8_t* p = image + e * image_info.c;
    if (histogram) {
      for (int k = 0; k < image_info.c; ++k) atomicAdd(&hist[k * 256 + p[k]], 1u);
    } else if (light) {
      const unsigned long long l = LightnessTimes510(p);
      local_luma += l;
      local_sq += l * l;
    } else {
      local_luma += image_info.c >= 3 ? RgbToLuma(p[0], p[1], p[2]) : p[0];
    }
  }
  if (local_luma != 0) atomicAdd(&luma, local_luma);
  if (local_sq != 0) atomicAdd(&light_sq, local_sq);
  __syncthreads();
  if (histogram) {
    for (int i = threadIdx.x; i < image_info.c * 256; i += blockDim.x) {
      if (hist[i] != 0) atomicAdd(&s.hist[b * 4 * 256 + i], hist[i]);
    }
  } else if (threadIdx.x == 0 && light) {
    if (luma != 0) atomicAdd(&s.light[2 * b], luma);
    if (light_sq != 0) atomicAdd(&s.light[2 * b + 1], light_sq);
  } else if (threadIdx.x == 0 && luma != 0) {
    atomicAdd(&s.luma[b], luma);
  }
}

__global__ void LutKernel(int batch, AugmentImage image_info, const int32_t* ops, const float* params,
                          const float* aux, int stage, int num_stages, Scratch s) {
  const int total = batch * image_info.c;
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += blockDim.x * gridDim.x) {
    const int b = e / image_info.c, k = e % image_info.c;
    const int op = ops[b * num_stages + stage];
    if (k == 0) {
      const int idx = b * num_stages + stage;
      s.stage[b] = PrepareStage(op, params[idx], aux + 2 * idx, image_info);
      if (NeedsLightness(op) && image_info.c >= 3) {
        SetLightnessStats(double(s.light[2 * b]), double(s.light[2 * b + 1]),
                          double(image_info.h) * image_info.w, &s.stage[b]);
      }
      if (NeedsTileLuts(op)) s.stage[b].clahe_luts = s.clahe + size_t(b) * kMaxClaheTiles * 256;
    }
    if (!IsLutOp(op)) continue;
    const double n = double(image_info.h) * image_info.w;
    // the statistics pass ran (and zeroed these) only for stages where a sample needs them
    const int mean = NeedsLumaMean(op) ? static_cast<int>(double(s.luma[b]) / n + 0.5) : 0;
    BuildLut(op, params[b * num_stages + stage], aux + 2 * (b * num_stages + stage), k,
             s.hist + (b * 4 + k) * 256, mean, s.lut + (b * 4 + k) * 256);
  }
}

// clahe's tables of sample blockIdx.x, one tile after another: the tile's
// histogram in shared memory (its reflected extension included), then one thread turns it
// into the table. Samples of other ops return at once.
__global__ void ClaheLutKernel(const uint8_t* src, AugmentImage image_info, const int32_t* ops, int stage,
                               int num_stages, Scratch s) {
  __shared__ uint32_t hist[256];
  const int b = blockIdx.x;
  if (!NeedsTileLuts(ops[b * num_stages + stage])) return;
  const StageParams& p = s.stage[b];  // LutKernel prepared it
  const ClaheGrid g = p.clahe;
  const int64_t tile_pixels = int64_t(g.tile_w) * g.tile_h;
  const int64_t clip = ClaheClipCount(p.param, tile_pixels);
  const uint8_t* image = src + size_t(b) * image_info.h * image_info.w * image_info.c;
  for (int tile = 0; tile < g.tiles_x * g.tiles_y; ++tile) {
    for (int i = threadIdx.x; i < 256; i += blockDim.x) hist[i] = 0;
    __syncthreads();
    const int ty = tile / g.tiles_x, tx = tile % g.tiles_x;
    for (int64_t e = threadIdx.x; e < tile_pixels; e += blockDim.x) {
      const int y = ty * g.tile_h + int(e / g.tile_w), x = tx * g.tile_w + int(e % g.tile_w);
      const uint8_t* px = ClaheSourcePixel(image, image_info.h, image_info.w, image_info.c, y, x);
      atomicAdd(&hist[ClaheInput(px, image_info.c)], 1u);
    }
    __syncthreads();
    if (threadIdx.x == 0)
      ClaheTileLut(hist, tile_pixels, clip, s.clahe + (size_t(b) * kMaxClaheTiles + tile) * 256);
    __syncthreads();
  }
}

// One thread per pixel; stage parameters (affine matrices, noise seeds) were derived once
// per sample in LutKernel by the same inline function the CPU uses.
__global__ void ApplyKernel(const uint8_t* src, int batch, AugmentImage image_info, const int32_t* ops,
                            int stage, int num_stages, Scratch s, uint8_t* dst) {
  const size_t pixels = size_t(image_info.h) * image_info.w, total = pixels * batch;
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < total;
       e += size_t(blockDim.x) * gridDim.x) {
    const int b = e / pixels;
    const size_t r = e % pixels;
    const int x = r % image_info.w, y = r / image_info.w;
    const int idx = b * num_stages + stage;
    const int op = ops[idx];
    const uint8_t* img = src + b * pixels * image_info.c;
    uint8_t* out = dst + e * image_info.c;
    if (IsLutOp(op)) {
      for (int k = 0; k < image_info.c; ++k) out[k] = s.lut[(b * 4 + k) * 256 + img[r * image_info.c + k]];
    } else {
      AugmentPixel(s.stage[b], img, image_info, y, x, out);
    }
  }
}

}  // namespace

size_t AugmentGpuScratchBytes(int batch, size_t image_bytes, const int32_t* host_ops, int num_stages) {
  return Align(size_t(batch) * 4 * 256 * sizeof(uint32_t)) +
         Align(size_t(batch) * sizeof(unsigned long long)) +
         Align(size_t(batch) * 2 * sizeof(unsigned long long)) + Align(size_t(batch) * 4 * 256) +
         ClaheBytes(batch, PlanPasses(host_ops, batch, num_stages)) +
         Align(size_t(batch) * sizeof(StageParams)) + size_t(batch) * image_bytes;
}

Status AugmentBatchGpu(const uint8_t* images, int batch, const AugmentImage& image_info, const int32_t* ops,
                       const int32_t* host_ops, const float* params, const float* aux, int num_stages,
                       uint8_t* scratch, uint8_t* out, cudaStream_t stream) {
  const size_t image_bytes = size_t(image_info.h) * image_info.w * image_info.c;
  const StagePasses passes = PlanPasses(host_ops, batch, num_stages);
  const Scratch s = Carve(scratch, batch, ClaheBytes(batch, passes));
  if (batch == 0) return Status::Ok();
  if (num_stages == 0) {
    return CudaStatus(cudaMemcpyAsync(out, images, image_bytes * batch, cudaMemcpyDeviceToDevice, stream),
                      "augment copy");
  }
  const uint8_t* src = images;
  for (int k = 0; k < num_stages; ++k) {
    uint8_t* dst = ((num_stages - 1 - k) % 2 == 0) ? out : s.image;
    if (passes.stats[k]) {
      TFGPUAUG_RETURN_IF_ERROR(
          CudaStatus(cudaMemsetAsync(s.hist, 0, size_t(batch) * 4 * 256 * sizeof(uint32_t), stream),
                     "augment statistics"));
      TFGPUAUG_RETURN_IF_ERROR(
          CudaStatus(cudaMemsetAsync(s.luma, 0, size_t(batch) * sizeof(unsigned long long), stream),
                     "augment statistics"));
      TFGPUAUG_RETURN_IF_ERROR(
          CudaStatus(cudaMemsetAsync(s.light, 0, size_t(batch) * 2 * sizeof(unsigned long long), stream),
                     "augment statistics"));
      const int stats_x = std::min(kStatsBlocksPerSample, GridBlocks(size_t(image_info.h) * image_info.w));
      // grid y is at most 65535: larger batches take one launch per 65535 samples
      for (int first = 0; first < batch; first += kMaxGridY) {
        const int count = std::min(kMaxGridY, batch - first);
        StatsKernel<<<dim3(stats_x, count), kThreadsPerBlock, 0, stream>>>(src, first, image_info, ops, k,
                                                                           num_stages, s);
      }
    }
    LutKernel<<<GridBlocks(size_t(batch) * image_info.c), kThreadsPerBlock, 0, stream>>>(
        batch, image_info, ops, params, aux, k, num_stages, s);
    if (passes.tile_luts[k])
      ClaheLutKernel<<<batch, kThreadsPerBlock, 0, stream>>>(src, image_info, ops, k, num_stages, s);
    ApplyKernel<<<GridBlocks(size_t(image_info.h) * image_info.w * batch), kThreadsPerBlock, 0, stream>>>(
        src, batch, image_info, ops, k, num_stages, s, dst);
    TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("augment kernels"));
    src = dst;
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
