#include "cc/kernels/augment/superpixels_gpu.h"

#include <cmath>

#include <cuda_runtime.h>

#include "cc/kernels/augment/superpixels.h"
#include "cc/kernels/common/cuda_launch.h"

namespace tfgpuaug {
namespace {

// One image's scratch: the parts every block's share starts with, 8-byte aligned.
struct ImageScratch {
  double* best;                 // [h w]
  unsigned long long* counts;   // [3 k] pixels, row sum, column sum of each label
  unsigned long long* sums;     // [c k]
  int32_t* labels;              // [h w]
  int32_t* centres;             // [2 k] column, row
  uint8_t* chosen;              // [k]
  unsigned long long* nearest;  // [h w] a round's least distance (its bits: distances are not negative)
  int32_t* first;               // [h w] the first centre at that distance
};

__host__ __device__ size_t Aligned(size_t bytes) { return (bytes + 7) & ~size_t{7}; }

// The parts' offsets in bytes, in the order ImageScratch lists them, and the total.
struct ImageOffsets {
  size_t counts, sums, labels, centres, chosen, nearest, first, bytes;
};

__host__ __device__ ImageOffsets ImageOffsetsOf(int h, int w, int c, int k) {
  const size_t pixels = size_t(h) * w;
  ImageOffsets o;
  o.counts = Aligned(pixels * sizeof(double));
  o.sums = o.counts + Aligned(3 * size_t(k) * sizeof(unsigned long long));
  o.labels = o.sums + Aligned(size_t(c) * k * sizeof(unsigned long long));
  o.centres = o.labels + Aligned(pixels * sizeof(int32_t));
  o.chosen = o.centres + Aligned(2 * size_t(k) * sizeof(int32_t));
  o.nearest = o.chosen + Aligned(size_t(k));
  o.first = o.nearest + Aligned(pixels * sizeof(unsigned long long));
  o.bytes = o.first + Aligned(pixels * sizeof(int32_t));
  return o;
}

__device__ ImageScratch ImageLayout(int h, int w, int c, int k, uint8_t* base) {
  const ImageOffsets o = ImageOffsetsOf(h, w, c, k);
  return ImageScratch{reinterpret_cast<double*>(base),
                      reinterpret_cast<unsigned long long*>(base + o.counts),
                      reinterpret_cast<unsigned long long*>(base + o.sums),
                      reinterpret_cast<int32_t*>(base + o.labels),
                      reinterpret_cast<int32_t*>(base + o.centres),
                      base + o.chosen,
                      reinterpret_cast<unsigned long long*>(base + o.nearest),
                      reinterpret_cast<int32_t*>(base + o.first)};
}

// The most labels a sample of m flags may have on an h x w image (at least 1).
int MostLabels(int h, int w, int m) {
  int most = 1;
  const long long pixels = static_cast<long long>(h) * w;
  const int last = pixels < m ? static_cast<int>(pixels) : m;  // beyond h w segments the step stays 1
  for (int n = 1; n <= last; ++n) {
    const int k = SlicCentres(h, w, n);
    if (k > most) most = k;
  }
  return most;
}

// A non-negative double's bits, which order as the values do.
__device__ unsigned long long DistanceBits(double d) {
  return static_cast<unsigned long long>(__double_as_longlong(d));
}

// Calls fn(i, y, x, d) for each centre i and each pixel (y, x) of its window: the distance pairs
// the CPU's window loop visits, spread over the block's threads.
template <typename Fn>
__device__ void ForEachWindowPixel(const uint8_t* image, int h, int w, int c, int k, int step,
                                   const double* colours, const ImageScratch& s, Fn fn) {
  const long long side = 2 * step + 1, window = side * side, items = window * k;
  for (long long e = threadIdx.x; e < items; e += blockDim.x) {
    const int i = static_cast<int>(e / window), r = static_cast<int>(e % window);
    const int dy = static_cast<int>(r / side) - step, dx = static_cast<int>(r % side) - step;
    const int cx = s.centres[2 * i], cy = s.centres[2 * i + 1];
    const int y = cy + dy, x = cx + dx;
    if (y < 0 || y >= h || x < 0 || x >= w) continue;
    const double d =
        SlicColourDistance(image + (size_t(y) * w + x) * c, image + (size_t(cy) * w + cx) * c, c, colours) +
        SlicSpatialDistance(static_cast<long long>(dy) * dy + static_cast<long long>(dx) * dx, step);
    fn(i, size_t(y) * w + x, d);
  }
}

// Each pixel's label after one round, as the CPU's loop over the centres in order leaves it: the
// least distance among the windows that hold the pixel, taken by its first centre, where it is
// below the pixel's best so far. Three passes between barriers: the least distance, the first
// centre at it, the update; about 4 x pixels distances each (the windows overlap so).
__device__ void AssignRound(const uint8_t* image, int h, int w, int c, int k, int step, const double* colours,
                            const ImageScratch& s) {
  const size_t pixels = size_t(h) * w;
  for (size_t p = threadIdx.x; p < pixels; p += blockDim.x) {
    s.nearest[p] = ~0ull;
    s.first[p] = k;
  }
  __syncthreads();
  ForEachWindowPixel(image, h, w, c, k, step, colours, s,
                     [&](int, size_t p, double d) { atomicMin(s.nearest + p, DistanceBits(d)); });
  __syncthreads();
  ForEachWindowPixel(image, h, w, c, k, step, colours, s, [&](int i, size_t p, double d) {
    if (DistanceBits(d) == s.nearest[p]) atomicMin(s.first + p, i);
  });
  __syncthreads();
  for (size_t p = threadIdx.x; p < pixels; p += blockDim.x) {
    if (s.nearest[p] == ~0ull) continue;  // no window holds it (none can: the windows tile the image)
    const double d = __longlong_as_double(static_cast<long long>(s.nearest[p]));
    if (d < s.best[p]) {
      s.best[p] = d;
      s.labels[p] = s.first[p];
    }
  }
}

__global__ void SuperpixelsKernel(const uint8_t* images, int h, int w, int c, const int32_t* segments,
                                  const uint8_t* flags, int m, uint8_t* scratch, size_t image_scratch,
                                  int most_labels, uint8_t* out) {
  __shared__ int any_flag, top_byte;
  __shared__ double colours[256];
  const size_t pixels = size_t(h) * w, bytes = pixels * c;
  const uint8_t* image = images + blockIdx.x * bytes;
  uint8_t* result = out + blockIdx.x * bytes;
  const int n = SlicSegments(segments[blockIdx.x], m);
  const uint8_t* sample_flags = flags + size_t(blockIdx.x) * m;
  if (threadIdx.x == 0) {
    any_flag = SlicAnyFlag(sample_flags, n) ? 1 : 0;
    top_byte = 0;
  }
  __syncthreads();
  int top = 0;
  for (size_t e = threadIdx.x; e < bytes; e += blockDim.x) {
    result[e] = image[e];
    if (image[e] > top) top = image[e];
  }
  atomicMax(&top_byte, top);
  __syncthreads();
  if (!any_flag) return;  // every thread of the block leaves here together
  const ImageScratch s = ImageLayout(h, w, c, most_labels, scratch + size_t(blockIdx.x) * image_scratch);
  const int step = SlicStep(h, w, n), k = SlicCentres(h, w, n);
  const double denominator = static_cast<double>(top_byte) + 1e-6;
  for (int v = threadIdx.x; v < 256; v += blockDim.x) colours[v] = static_cast<double>(v) / denominator;
  for (size_t p = threadIdx.x; p < pixels; p += blockDim.x) {
    s.best[p] = HUGE_VAL;  // +infinity: any distance improves on it
    s.labels[p] = 0;
  }
  for (int i = threadIdx.x; i < k; i += blockDim.x)
    SlicStart(i, w, step, s.centres + 2 * i, s.centres + 2 * i + 1);
  __syncthreads();
  for (int round = 0; round < kSlicRounds && k > 0; ++round) {
    AssignRound(image, h, w, c, k, step, colours, s);
    for (int i = threadIdx.x; i < 3 * k; i += blockDim.x) s.counts[i] = 0;
    __syncthreads();
    for (size_t p = threadIdx.x; p < pixels; p += blockDim.x) {
      unsigned long long* at = s.counts + 3 * size_t(s.labels[p]);
      atomicAdd(at, 1ull);
      atomicAdd(at + 1, static_cast<unsigned long long>(p / w));
      atomicAdd(at + 2, static_cast<unsigned long long>(p % w));
    }
    __syncthreads();
    for (int i = threadIdx.x; i < k; i += blockDim.x) {
      const unsigned long long count = s.counts[3 * i];
      if (count == 0) continue;
      s.centres[2 * i] = static_cast<int32_t>(s.counts[3 * i + 2] / count);
      s.centres[2 * i + 1] = static_cast<int32_t>(s.counts[3 * i + 1] / count);
    }
    __syncthreads();
  }
  const int labels = k > 0 ? k : 1;
  for (int i = threadIdx.x; i < c * labels; i += blockDim.x) s.sums[i] = 0;
  if (k == 0 && threadIdx.x == 0) s.counts[0] = pixels;
  __syncthreads();
  for (size_t e = threadIdx.x; e < bytes; e += blockDim.x) {
    atomicAdd(s.sums + size_t(s.labels[e / c]) * c + e % c, static_cast<unsigned long long>(image[e]));
  }
  if (threadIdx.x == 0) SlicChosen(s.counts, k, sample_flags, n, s.chosen);
  __syncthreads();
  for (size_t e = threadIdx.x; e < bytes; e += blockDim.x) {
    const int label = s.labels[e / c];
    if (s.chosen[label]) result[e] = SlicRoundedMean(s.sums[size_t(label) * c + e % c], s.counts[3 * label]);
  }
}

}  // namespace

size_t SuperpixelsGpuScratchBytes(int batch, int h, int w, int c, int m) {
  if (batch == 0 || h == 0 || w == 0) return 1;
  return size_t(batch) * ImageOffsetsOf(h, w, c, MostLabels(h, w, m)).bytes;
}

Status SuperpixelsGpu(const uint8_t* images, int batch, int h, int w, int c, const int32_t* segments,
                      const uint8_t* flags, int m, uint8_t* scratch, uint8_t* out, cudaStream_t stream) {
  if (batch == 0 || h == 0 || w == 0 || c == 0) return Status::Ok();  // a grid of no blocks is an error
  const int most = MostLabels(h, w, m);
  const size_t image_scratch = ImageOffsetsOf(h, w, c, most).bytes;
  SuperpixelsKernel<<<batch, kThreadsPerBlock, 0, stream>>>(images, h, w, c, segments, flags, m, scratch,
                                                            image_scratch, most, out);
  return LaunchStatus("superpixels kernel");
}

}  // namespace tfgpuaug
