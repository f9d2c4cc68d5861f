// Scratch for per-image work on the intra-op pool's threads: each thread keeps one buffer of
// each element type across images and calls (a batch's worth of fresh pages from allocate_temp
// cost more than the work: 115 MB for UnsharpMask at 224x224), up to 16 MB; larger requests
// use the caller's own buffer, freed when the image is done. One buffer a type: a caller that
// needs two at once takes them of different types.
#ifndef TFGPUAUG_CC_OPS_THREAD_SCRATCH_H_
#define TFGPUAUG_CC_OPS_THREAD_SCRATCH_H_

#include <cstddef>
#include <vector>

namespace tfgpuaug {

constexpr size_t kKeptScratchBytes = size_t{16} << 20;

// `count` elements of scratch: the thread's kept buffer of T, or `own` (resized) beyond the
// kept size. Not zeroed between uses.
template <typename T>
T* PoolThreadScratch(size_t count, std::vector<T>& own) {
  thread_local std::vector<T> kept;
  std::vector<T>& scratch = count <= kKeptScratchBytes / sizeof(T) ? kept : own;
  if (scratch.size() < count) scratch.resize(count);
  return scratch.data();
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_THREAD_SCRATCH_H_
