#include "cc/kernels/common/large_block_pool.h"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFGPUAUG_POOL_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TFGPUAUG_POOL_ASAN 1
#endif
#ifdef TFGPUAUG_POOL_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace tfgpuaug {
namespace {

// Under AddressSanitizer a freed block is poisoned while it waits for reuse, so a use after
// release is still reported as it would be after free.
void Poison(const void* p, size_t bytes) {
#ifdef TFGPUAUG_POOL_ASAN
  ASAN_POISON_MEMORY_REGION(p, bytes);
#else
  (void)p;
  (void)bytes;
#endif
}
void Unpoison(const void* p, size_t bytes) {
#ifdef TFGPUAUG_POOL_ASAN
  ASAN_UNPOISON_MEMORY_REGION(p, bytes);
#else
  (void)p;
  (void)bytes;
#endif
}

// 0 for sizes no mapping could have (above a quarter of the address space), so that neither
// the rounding nor MapAligned's extra granule can wrap around.
size_t RoundUpToGranule(size_t bytes) {
  const size_t g = LargeBlockPool::kBlockGranule;
  return bytes > SIZE_MAX / 4 ? 0 : (bytes + g - 1) / g * g;
}

// `bytes` (a multiple of the granule) of fresh anonymous memory starting on a granule
// boundary, so that the kernel can back all of it with huge pages; null on failure.
void* MapAligned(size_t bytes) {
  const size_t g = LargeBlockPool::kBlockGranule;
  void* raw = mmap(nullptr, bytes + g, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (begin + g - 1) / g * g;
  if (aligned > begin) munmap(raw, aligned - begin);
  const uintptr_t end = begin + bytes + g, used_end = aligned + bytes;
  if (end > used_end) munmap(reinterpret_cast<void*>(used_end), end - used_end);
  void* block = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(block, bytes, MADV_HUGEPAGE);  // a hint: refused where huge pages are off
#endif
  return block;
}

}  // namespace

LargeBlockPool::LargeBlockPool(size_t min_bytes, size_t max_cached_bytes)
    : min_bytes_(min_bytes), max_cached_bytes_(max_cached_bytes) {}

LargeBlockPool::~LargeBlockPool() {
  for (const Block& b : cached_) {
    Unpoison(b.start, b.bytes);
    munmap(b.start, b.bytes);
  }
}

void* LargeBlockPool::Acquire(size_t bytes) {
  if (max_cached_bytes_ == 0 || bytes < min_bytes_) return nullptr;
  const size_t want = RoundUpToGranule(bytes);
  if (want == 0) return nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // the smallest freed block that fits without wasting more than a quarter of it; of equal
    // ones the most recently released, whose lines are likeliest still in cache
    auto best = cached_.rend();
    for (auto it = cached_.rbegin(); it != cached_.rend(); ++it) {
      if (it->bytes >= want && it->bytes - want <= it->bytes / 4 &&
          (best == cached_.rend() || it->bytes < best->bytes))
        best = it;
    }
    if (best != cached_.rend()) {
      const Block b = *best;
      cached_.erase(std::next(best).base());
      stats_.cached_bytes -= b.bytes;
      live_.emplace(b.start, b.bytes);
      ++stats_.reused;
      Unpoison(b.start, b.bytes);
      return b.start;
    }
  }
  void* block = MapAligned(want);
  if (block == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  live_.emplace(block, want);
  ++stats_.mapped;
  return block;
}

bool LargeBlockPool::Release(void* block) {
  std::deque<Block> unmap;  // unmapped outside the lock
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.find(block);
    if (it == live_.end()) return false;
    const Block b{block, it->second};
    live_.erase(it);
    if (b.bytes > max_cached_bytes_) {
      unmap.push_back(b);
    } else {
      Poison(b.start, b.bytes);
      cached_.push_back(b);
      stats_.cached_bytes += b.bytes;
      while (stats_.cached_bytes > max_cached_bytes_) {
        unmap.push_back(cached_.front());
        stats_.cached_bytes -= cached_.front().bytes;
        cached_.pop_front();
      }
    }
    stats_.unmapped += unmap.size();
  }
  for (const Block& b : unmap) {
    Unpoison(b.start, b.bytes);
    munmap(b.start, b.bytes);
  }
  return true;
}

LargeBlockPool::Stats LargeBlockPool::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  Stats s = stats_;
  s.live_blocks = live_.size();
  s.cached_blocks = cached_.size();
  return s;
}

LargeBlockPool& LargeBlockPool::Host() {
  static LargeBlockPool* pool = [] {
    size_t megabytes = 1024;
    if (const char* env = std::getenv("TFGPUAUG_HOST_POOL_MB")) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(env, &end, 10);
      if (end != env && *end == '\0' && v <= (SIZE_MAX >> 20)) {
        megabytes = static_cast<size_t>(v);
      } else {
        std::fprintf(stderr, "tfgpuaug: TFGPUAUG_HOST_POOL_MB=%s is not a whole number of MiB; using 1024\n",
                     env);
      }
    }
    return new LargeBlockPool(kHostMinBytes, megabytes << 20);
  }();
  return *pool;
}

}  // namespace tfgpuaug
