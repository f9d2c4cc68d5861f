// Float scratch for per-image work on the intra-op pool's threads: each thread keeps one
// buffer across images and calls (a batch's worth of fresh pages from allocate_temp cost more
// than the work: 115 MB for UnsharpMask at 224x224), up to 16 MB; larger requests use the
// caller's own buffer, freed when the image is done.
#ifndef TFGPUAUG_CC_OPS_THREAD_SCRATCH_H_
#define TFGPUAUG_CC_OPS_THREAD_SCRATCH_H_

#include <cstddef>
#include <vector>

namespace tfgpuaug {

constexpr size_t kKeptScratchFloats = size_t{4} << 20;

// `floats` of scratch: the thread's kept buffer, or `own` (resized) beyond the kept size.
inline float* PoolThreadScratch(size_t floats, std::vector<float>& own) {
  thread_local std::vector<float> kept;
  std::vector<float>& scratch = floats <= kKeptScratchFloats ? kept : own;
  if (scratch.size() < floats) scratch.resize(floats);
  return scratch.data();
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_THREAD_SCRATCH_H_
