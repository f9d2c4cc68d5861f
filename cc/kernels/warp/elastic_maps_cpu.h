// CPU driver of the elastic maps (elastic_maps.h): one sample per call, the noise eight lanes
// at a time with AVX2 where the CPU has it, the blur as vectorised multiply-adds along the
// rows, then along the rows of the transposed planes, in the order the per-element function
// sums. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_WARP_ELASTIC_MAPS_CPU_H_
#define TFGPUAUG_CC_KERNELS_WARP_ELASTIC_MAPS_CPU_H_

#include <cstdint>

#include "cc/kernels/warp/elastic_maps.h"

namespace tfgpuaug {

// ElasticNoise elements [0, count) of one seed into out (AVX2 where the CPU has it); returns
// their largest magnitude.
float ElasticNoiseCpu(uint32_t seed, uint32_t count, bool gaussian, float* out);

// ElasticLeftWeight / ElasticRightWeight of every position of an axis of n: left[n], right[n].
void ElasticEdgeWeights(const float* kernel, int taps, int n, float* left, float* right);

// The edge weights of both axes (ElasticEdgeWeights of the columns, w, and the rows, h).
struct ElasticEdges {
  const float *left_w, *right_w, *left_h, *right_h;
};

// Floats of scratch one sample needs.
inline int64_t ElasticScratchFloats(const ElasticShape& s) { return int64_t{s.fields} * s.h * s.w; }

// One sample's maps [h][w][2] from its seed and alpha; `scratch` holds ElasticScratchFloats.
void ElasticMapsCpu(const ElasticShape& s, const float* kernel, const ElasticEdges& edges, uint32_t seed,
                    float alpha, float* scratch, float* maps);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_WARP_ELASTIC_MAPS_CPU_H_
