// Large host buffers kept for reuse. A CPU input pipeline allocates its batch outputs afresh
// every step, and glibc serves allocations above its mmap threshold (at most 32 MiB; a float
// batch of 64 224x224 RGB images is 38.5 MiB) with a fresh mapping that is returned on free, so
// every batch first-touches ~9,400 new pages: on the 2-core VM this was measured on, a third
// of the train pipeline's CPU time went to those page faults. Blocks here are mapped once
// (2 MiB aligned, transparent huge pages asked for), handed back on release and reused by the
// next request of about the same size; freed blocks beyond a byte budget are unmapped, oldest
// first.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_LARGE_BLOCK_POOL_H_
#define TFGPUAUG_CC_KERNELS_COMMON_LARGE_BLOCK_POOL_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_map>

namespace tfgpuaug {

class LargeBlockPool {
 public:
  static constexpr size_t kBlockGranule = size_t{2} << 20;  // a huge page: sizes round up to it
  static constexpr size_t kHostMinBytes = size_t{8} << 20;  // Host()'s smallest request served

  // Requests below min_bytes are not served (Acquire returns null: allocate them as usual);
  // at most max_cached_bytes of freed blocks are kept. max_cached_bytes 0: nothing is served.
  LargeBlockPool(size_t min_bytes, size_t max_cached_bytes);
  LargeBlockPool(const LargeBlockPool&) = delete;
  LargeBlockPool& operator=(const LargeBlockPool&) = delete;
  ~LargeBlockPool();

  // A block of at least `bytes`, 2 MiB aligned, its contents unspecified; null when the request
  // is below the minimum, the pool is off, or the mapping failed.
  void* Acquire(size_t bytes);
  // Takes back a block Acquire returned (true); false, untouched, for any other pointer.
  bool Release(void* block);

  struct Stats {
    size_t live_blocks = 0, cached_blocks = 0, cached_bytes = 0;
    uint64_t mapped = 0, reused = 0, unmapped = 0;  // since construction
  };
  Stats stats() const;

  // The process's pool for host outputs, never destroyed (tensors may outlive static
  // destructors). TFGPUAUG_HOST_POOL_MB sets the freed bytes it keeps (default 1024; 0 turns
  // it off); requests of kHostMinBytes and more are served.
  static LargeBlockPool& Host();

 private:
  struct Block {
    void* start;
    size_t bytes;
  };

  const size_t min_bytes_, max_cached_bytes_;
  mutable std::mutex mu_;
  std::unordered_map<void*, size_t> live_;  // block -> its mapped bytes
  std::deque<Block> cached_;                // freed blocks, oldest first
  Stats stats_;
};

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_LARGE_BLOCK_POOL_H_
