// Runs per-image work on the intra-op thread pool with one image per task, so that
// images of very different cost (random crops, mixed sizes) balance across threads.
// An exception in a task must not leave it (a pool thread would std::terminate): each call
// runs behind the exception barrier, and once all have run the first failure is thrown on
// the op's thread as a StatusError naming the image, for the OpKernel's barrier to report.
#ifndef TFGPUAUG_CC_OPS_PARALLEL_H_
#define TFGPUAUG_CC_OPS_PARALLEL_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cc/kernels/common/exception_barrier.h"
#include "tensorflow/core/framework/op_kernel.h"
#include "tensorflow/core/platform/blocking_counter.h"
#include "tensorflow/core/platform/mutex.h"

namespace tfgpuaug {

// The first failure of the tasks of one parallel loop.
class TaskFailures {
 public:
  // Runs fn(i) behind the barrier, keeping the first failure.
  template <typename Fn>
  void Run(int64_t i, Fn&& fn) {
    if (failed_.load(std::memory_order_relaxed)) return;
    try {
      fn();
    } catch (...) {
      Status s = StatusFromCurrentException("image " + std::to_string(i), Status::Kind::kInternal);
      tensorflow::mutex_lock lock(mu_);
      if (!failed_.exchange(true)) first_ = std::move(s);
    }
  }
  // Throws the first failure on the calling (op) thread.
  void Rethrow() {
    if (failed_.load()) throw StatusError(first_);
  }

 private:
  std::atomic<bool> failed_{false};
  tensorflow::mutex mu_;
  Status first_;
};

// Images a worker decodes before resampling them (see ForEachImageInGroups), and the most
// decoded bytes it holds at once, so huge images are resampled one by one.
constexpr int kDecodeGroup = 4;
constexpr size_t kDecodeGroupBytes = size_t{16} << 20;

inline void ForEachImage(tensorflow::OpKernelContext* ctx, int64_t n,
                         const std::function<void(int64_t)>& fn) {
  auto* pool = ctx->device()->tensorflow_cpu_worker_threads()->workers;
  if (n <= 1 || pool == nullptr) {
    for (int64_t i = 0; i < n; ++i) fn(i);  // on the op's thread: its barrier catches
    return;
  }
  TaskFailures failures;
  pool->TransformRangeConcurrently(/*block_size=*/1, n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) failures.Run(i, [&] { fn(i); });
  });
  failures.Rethrow();
}

// Per-image work in two phases, run so that each worker does the first phase of a few
// images, then their second phases back to back. For decode + resize: on Intel cores,
// wide floating-point vectors (the AVX2 resampler) lower the clock for a while after they
// run, and alternating them with the scalar entropy decoder image by image made the
// decoding ~7% slower. `first` returns the bytes its state holds; a worker runs its second
// phases once it holds `group` images or more than `max_bytes`. Workers pull images from
// a shared counter, so uneven images still balance.
template <typename State>
void ForEachImageInGroups(tensorflow::OpKernelContext* ctx, int64_t n, int group, size_t max_bytes,
                          const std::function<size_t(int64_t, State*)>& first,
                          const std::function<void(int64_t, State*)>& second) {
  std::atomic<int64_t> next{0};
  TaskFailures failures;
  auto work = [&]() {
    std::vector<std::pair<int64_t, State>> pending;
    pending.reserve(group);
    size_t held = 0;
    for (;;) {
      const int64_t i = next.fetch_add(1);
      if (i < n) {
        pending.emplace_back(i, State());
        failures.Run(i, [&] { held += first(i, &pending.back().second); });
      }
      if (i >= n || int(pending.size()) == group || held > max_bytes) {
        for (auto& p : pending) failures.Run(p.first, [&] { second(p.first, &p.second); });
        pending.clear();
        held = 0;
      }
      if (i >= n) return;
    }
  };
  auto* pool = ctx->device()->tensorflow_cpu_worker_threads()->workers;
  const int64_t workers = pool == nullptr ? 1 : std::min<int64_t>(n, pool->NumThreads());
  if (workers <= 1) {
    work();
    failures.Rethrow();
    return;
  }
  // One loop per pool thread; the calling thread only waits, as in ForEachImage (a third
  // busy thread on a two-core machine costs more than it gains).
  tensorflow::BlockingCounter done(static_cast<int>(workers));
  for (int64_t k = 0; k < workers; ++k) {
    pool->Schedule([&]() {
      work();
      done.DecrementCount();
    });
  }
  done.Wait();
  failures.Rethrow();
}

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_OPS_PARALLEL_H_
