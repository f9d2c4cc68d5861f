#include "cc/kernels/augment/plasma_gpu.h"

#include <cuda_runtime.h>

#include "cc/kernels/augment/plasma.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

#define TFGPUAUG_GRID_STRIDE(e, total)                                        \
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < (total); \
       e += size_t(blockDim.x) * gridDim.x)

// The starting 3 x 3 grids: uniform in [-1, 1).
__global__ void StartKernel(const int32_t* seeds, int batch, size_t per, float* grid) {
  TFGPUAUG_GRID_STRIDE(e, size_t(batch) * 9) {
    grid[(e / 9) * per + e % 9] = PlasmaNoise(static_cast<uint32_t>(seeds[e / 9]), 0, uint32_t(e % 9), 1.f);
  }
}

// The old points of grid [g, g] plus noise at the even rows and columns of next [n, n].
__global__ void OldKernel(const int32_t* seeds, int batch, size_t per, int step, float scale,
                          const float* grid, int g, float* next) {
  const int n = 2 * g - 1;
  TFGPUAUG_GRID_STRIDE(e, size_t(batch) * g * g) {
    const size_t b = e / (size_t(g) * g), i = e - b * g * g;
    const int r = int(i / g), c = int(i % g);
    const uint32_t at = uint32_t(2 * r) * uint32_t(n) + uint32_t(2 * c);
    next[b * per + at] = grid[b * per + i] + PlasmaNoise(static_cast<uint32_t>(seeds[b]), step, at, scale);
  }
}

// The diamonds: odd rows and columns, from their four diagonal neighbours.
__global__ void DiamondKernel(const int32_t* seeds, int batch, size_t per, int step, float scale, int n,
                              float* next) {
  const int m = (n - 1) / 2;
  TFGPUAUG_GRID_STRIDE(e, size_t(batch) * m * m) {
    const size_t b = e / (size_t(m) * m), i = e - b * m * m;
    const int y = 2 * int(i / m) + 1, x = 2 * int(i % m) + 1;
    float* grid = next + b * per;
    const float* up = grid + size_t(y - 1) * n;
    const float* down = grid + size_t(y + 1) * n;
    grid[size_t(y) * n + x] = PlasmaPoint(
        up[x - 1], up[x + 1], down[x - 1], down[x + 1],
        PlasmaNoise(static_cast<uint32_t>(seeds[b]), step, uint32_t(y) * uint32_t(n) + uint32_t(x), scale));
  }
}

// The edge points (row + column odd), from their four side neighbours (zero past the border);
// their neighbours are never edge points, so one launch writes them all.
__global__ void EdgeKernel(const int32_t* seeds, int batch, size_t per, int step, float scale, int n,
                           float* next) {
  TFGPUAUG_GRID_STRIDE(e, size_t(batch) * n * n) {
    const size_t b = e / (size_t(n) * n), i = e - b * n * n;
    const int y = int(i / n), x = int(i % n);
    if ((x + y) % 2 == 0) continue;
    float* row = next + b * per + size_t(y) * n;
    const float north = y > 0 ? row[x - n] : 0.f, south = y < n - 1 ? row[x + n] : 0.f;
    const float west = x > 0 ? row[x - 1] : 0.f, east = x < n - 1 ? row[x + 1] : 0.f;
    row[x] = PlasmaPoint(north, west, east, south,
                         PlasmaNoise(static_cast<uint32_t>(seeds[b]), step, uint32_t(i), scale));
  }
}

// One block a sample: the least and largest of rows x cols of its grid (row stride n).
__global__ void BoundsKernel(const float* grid, size_t per, int n, int rows, int cols, float* bounds) {
  __shared__ float low[kThreadsPerBlock], high[kThreadsPerBlock];
  const float* g = grid + blockIdx.x * per;
  float lo = g[0], hi = g[0];
  for (size_t i = threadIdx.x; i < size_t(rows) * cols; i += blockDim.x) {
    const float v = g[(i / cols) * n + i % cols];
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  low[threadIdx.x] = lo;
  high[threadIdx.x] = hi;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (int(threadIdx.x) < half) {
      low[threadIdx.x] =
          low[threadIdx.x + half] < low[threadIdx.x] ? low[threadIdx.x + half] : low[threadIdx.x];
      high[threadIdx.x] =
          high[threadIdx.x + half] > high[threadIdx.x] ? high[threadIdx.x + half] : high[threadIdx.x];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    bounds[2 * blockIdx.x] = low[0];
    bounds[2 * blockIdx.x + 1] = high[0];
  }
}

// (v - low) * scale over each [n, n] grid.
__global__ void NormalizeKernel(const float* bounds, int batch, size_t per, int n, float* grid) {
  TFGPUAUG_GRID_STRIDE(e, size_t(batch) * n * n) {
    const size_t b = e / (size_t(n) * n), i = e - b * n * n;
    const float lo = bounds[2 * b];
    grid[b * per + i] = (grid[b * per + i] - lo) * PlasmaScale(lo, bounds[2 * b + 1]);
  }
}

// The crop [h, w] of each grid normalised and clipped to [0, 1].
__global__ void FinishKernel(const float* grid, const float* bounds, int batch, size_t per, int n, int h,
                             int w, float* out) {
  TFGPUAUG_GRID_STRIDE(e, size_t(batch) * h * w) {
    const size_t b = e / (size_t(h) * w), i = e - b * h * w;
    const float lo = bounds[2 * b];
    const float v = (grid[b * per + (i / w) * n + i % w] - lo) * PlasmaScale(lo, bounds[2 * b + 1]);
    out[e] = v < 0.f ? 0.f : (v > 1.f ? 1.f : v);
  }
}

#undef TFGPUAUG_GRID_STRIDE

}  // namespace

Status PlasmaPatternGpu(const int32_t* seeds, int batch, int h, int w, const PlasmaScales& scales, int steps,
                        float* grid_a, float* grid_b, float* bounds, float* out, cudaStream_t stream) {
  if (size_t(batch) * h * w == 0) return Status::Ok();  // nothing to launch
  const int side = (1 << (steps + 1)) + 1;
  const size_t per = size_t(side) * side;
  float* grid = grid_a;
  float* next = grid_b;
  StartKernel<<<GridBlocks(size_t(batch) * 9), kThreadsPerBlock, 0, stream>>>(seeds, batch, per, grid);
  int g = 3;
  for (int s = 0; s < steps; ++s) {
    const int n = 2 * g - 1;
    const float scale = scales.value[s];
    OldKernel<<<GridBlocks(size_t(batch) * g * g), kThreadsPerBlock, 0, stream>>>(seeds, batch, per, s + 1,
                                                                                  scale, grid, g, next);
    DiamondKernel<<<GridBlocks(size_t(batch) * (g - 1) * (g - 1)), kThreadsPerBlock, 0, stream>>>(
        seeds, batch, per, s + 1, scale, n, next);
    EdgeKernel<<<GridBlocks(size_t(batch) * n * n), kThreadsPerBlock, 0, stream>>>(seeds, batch, per, s + 1,
                                                                                   scale, n, next);
    BoundsKernel<<<batch, kThreadsPerBlock, 0, stream>>>(next, per, n, n, n, bounds);
    NormalizeKernel<<<GridBlocks(size_t(batch) * n * n), kThreadsPerBlock, 0, stream>>>(bounds, batch, per, n,
                                                                                        next);
    TFGPUAUG_RETURN_IF_ERROR(LaunchStatus("plasma step kernels"));
    float* t = grid;
    grid = next;
    next = t;
    g = n;
  }
  BoundsKernel<<<batch, kThreadsPerBlock, 0, stream>>>(grid, per, g, h, w, bounds);
  FinishKernel<<<GridBlocks(size_t(batch) * h * w), kThreadsPerBlock, 0, stream>>>(grid, bounds, batch, per,
                                                                                   g, h, w, out);
  return LaunchStatus("plasma finishing kernels");
}

}  // namespace tfgpuaug
