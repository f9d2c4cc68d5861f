// Non-temporal (streaming) stores for outputs too large to stay in cache: a batch of
// 640x640 float images is 78 MB. Ordinary stores may read every cache line they write (read
// for ownership); streaming stores write whole lines straight to memory. Measured in
// benchmarks/store_bandwidth.c and docs/architecture.md. CPU only.
#ifndef TFGPUAUG_CC_KERNELS_COMMON_STREAM_STORE_H_
#define TFGPUAUG_CC_KERNELS_COMMON_STREAM_STORE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#define TFGPUAUG_HAVE_STREAM_STORES 1
#else
#define TFGPUAUG_HAVE_STREAM_STORES 0
#endif

namespace tfgpuaug {

// Outputs (per image) from this size on are written with streaming stores: smaller ones are
// likely still in cache when the next op reads them.
constexpr size_t kStreamMinBytes = size_t{256} << 10;

// Whether an output of `bytes` is streamed. TFGPUAUG_DISABLE_STREAM_STORES turns streaming
// off; it is read on every call so that tests compare both paths in one process.
inline bool UseStreamStores(size_t bytes) {
  return TFGPUAUG_HAVE_STREAM_STORES && bytes >= kStreamMinBytes &&
         std::getenv("TFGPUAUG_DISABLE_STREAM_STORES") == nullptr;
}

// Copies `bytes` from src to dst: ordinary stores up to dst's first 16-byte boundary and
// after its last, streaming stores between.
inline void StreamCopy(void* dst, const void* src, size_t bytes) {
#if TFGPUAUG_HAVE_STREAM_STORES
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  const size_t head = std::min(bytes, (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16);
  std::memcpy(d, s, head);
  size_t i = head;
  for (; i + 16 <= bytes; i += 16) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
  }
  std::memcpy(d + i, s + i, bytes - i);
#else
  std::memcpy(dst, src, bytes);
#endif
}

// Fills n elements (1- or 4-byte T) at dst with v, streaming as StreamCopy.
template <typename T>
inline void StreamFill(T* dst, T v, size_t n) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 4, "StreamFill takes bytes or 4-byte values");
#if TFGPUAUG_HAVE_STREAM_STORES
  T pattern[16 / sizeof(T)];
  for (T& p : pattern) p = v;
  size_t i = 0;
  for (; i < n && reinterpret_cast<uintptr_t>(dst + i) % 16 != 0; ++i) dst[i] = v;
  const __m128i lanes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(pattern));
  constexpr size_t kPer = 16 / sizeof(T);
  for (; i + kPer <= n; i += kPer) _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), lanes);
  for (; i < n; ++i) dst[i] = v;
#else
  for (size_t i = 0; i < n; ++i) dst[i] = v;
#endif
}

// Orders the streaming stores before whatever publishes the output to another thread.
inline void StreamFence() {
#if TFGPUAUG_HAVE_STREAM_STORES
  _mm_sfence();
#endif
}

// Writes an output row by row: a large one through one buffer that stays in L1, streamed out
// as each row is done (fenced when the writer goes), a small one in place.
//   StreamedRows<float> rows(row_elems, height);
//   for each row: T* o = rows.Begin(dst); ...write o...; rows.End(dst);
template <typename T>
class StreamedRows {
 public:
  StreamedRows(size_t row_elems, size_t rows)
      : row_bytes_(row_elems * sizeof(T)),
        stream_(UseStreamStores(row_bytes_ * rows)),
        buffer_(stream_ ? row_elems : 0) {}
  ~StreamedRows() {
    if (stream_) StreamFence();
  }
  StreamedRows(const StreamedRows&) = delete;
  StreamedRows& operator=(const StreamedRows&) = delete;

  // Where to write the row that belongs at dst.
  T* Begin(T* dst) { return stream_ ? buffer_.data() : dst; }
  // The row written since Begin(dst) goes to dst.
  void End(T* dst) {
    if (stream_) StreamCopy(dst, buffer_.data(), row_bytes_);
  }

 private:
  size_t row_bytes_;
  bool stream_;
  std::vector<T> buffer_;
};

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_COMMON_STREAM_STORE_H_
