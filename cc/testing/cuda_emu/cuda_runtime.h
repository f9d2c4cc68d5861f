// CUDA emulation, device side: kernels compile as host C++ and run block by block on the
// calling thread, each CUDA thread a fiber that switches at __syncthreads (cuda_emu.cc).
// A launch `K<<<grid, block, shared, stream>>>(args)` is rewritten by the build
// (build_tools/cuda_emu_rewrite.py) into `::cuda_emu::LaunchConfig(grid, block, shared,
// stream).Launch(K, args)`. What this cannot see is listed in README.md.
#ifndef TFGPUAUG_CC_TESTING_CUDA_EMU_CUDA_RUNTIME_H_
#define TFGPUAUG_CC_TESTING_CUDA_EMU_CUDA_RUNTIME_H_

#include <cmath>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cuda_runtime_api.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__ __restrict
// One block runs at a time on a host thread, and its threads are fibers of that thread:
// thread_local storage is exactly one block's shared memory.
#define __shared__ static thread_local

namespace cuda_emu {

struct ThreadState {
  dim3 thread_idx, block_idx, block_dim, grid_dim;
};

// The CUDA thread running now on this host thread.
ThreadState& Current();
// A block-wide barrier: this fiber waits until every thread of its block reaches one.
void SyncThreads();

// Runs `body` once per CUDA thread of the grid; errors are recorded as the launch's error.
// `body` is called on fibers with small stacks: kernels must not recurse deeply.
void RunGrid(dim3 grid, dim3 block, void (*body)(void*), void* context);

// What a GPU refuses before running anything (CUDA's limits for every current device).
cudaError_t CheckLaunch(dim3 grid, dim3 block, size_t shared_bytes);
// Sets this host thread's last error (cudaGetLastError reads and clears it).
void SetLastError(cudaError_t error, const char* what);
// Whether `p` is inside memory a kernel may read: cudaMalloc'd or pinned host memory.
bool IsDeviceAccessible(const void* p);

template <typename T>
bool PointerOk(const T&) {
  return true;
}
template <typename T>
bool PointerOk(T* p) {
  return p == nullptr || IsDeviceAccessible(p);
}

class LaunchConfig {
 public:
  LaunchConfig(dim3 grid, dim3 block, size_t shared_bytes = 0, cudaStream_t stream = nullptr)
      : grid_(grid), block_(block), shared_(shared_bytes) {
    (void)stream;  // every stream runs in issue order on the calling thread
  }

  // Kernel arguments are converted to the kernel's parameter types and copied, as a launch does;
  // a pointer argument that is not device-accessible memory fails the launch.
  template <typename... Params, typename... Args>
  void Launch(void (*kernel)(Params...), Args&&... args) const {
    static_assert(sizeof...(Params) == sizeof...(Args), "kernel launched with the wrong number of arguments");
    const cudaError_t refused = CheckLaunch(grid_, block_, shared_);
    if (refused != cudaSuccess) return;
    struct Bound {
      void (*kernel)(Params...);
      std::tuple<std::decay_t<Params>...> params;
    } bound{kernel, std::tuple<std::decay_t<Params>...>(static_cast<Params>(std::forward<Args>(args))...)};
    const bool pointers_ok = std::apply([](const auto&... p) { return (PointerOk(p) && ...); }, bound.params);
    if (!pointers_ok) {
      SetLastError(cudaErrorIllegalAddress, "a kernel argument points at memory a GPU cannot read");
      return;
    }
    RunGrid(
        grid_, block_,
        [](void* context) {
          auto* b = static_cast<Bound*>(context);
          std::apply(b->kernel, b->params);  // each thread gets its own copy of the parameters
        },
        &bound);
  }

 private:
  dim3 grid_, block_;
  size_t shared_;
};

}  // namespace cuda_emu

#define threadIdx (::cuda_emu::Current().thread_idx)
#define blockIdx (::cuda_emu::Current().block_idx)
#define blockDim (::cuda_emu::Current().block_dim)
#define gridDim (::cuda_emu::Current().grid_dim)
#define __syncthreads() ::cuda_emu::SyncThreads()

// Atomics: the compiler's builtins, so that ThreadSanitizer sees them as atomic.
template <typename T>
inline T atomicAdd(T* address, T value) {
  static_assert(std::is_integral<T>::value, "the emulator implements integer atomicAdd only");
  return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}
inline float atomicAdd(float* address, float value) {
  float old, next;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  do {
    next = old + value;
  } while (!__atomic_compare_exchange(address, &old, &next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return old;
}
template <typename T>
inline T atomicMax(T* address, T value) {
  T old = __atomic_load_n(address, __ATOMIC_RELAXED);
  while (old < value &&
         !__atomic_compare_exchange_n(address, &old, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}

template <typename T>
inline T atomicMin(T* address, T value) {
  T old = __atomic_load_n(address, __ATOMIC_RELAXED);
  while (value < old &&
         !__atomic_compare_exchange_n(address, &old, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
}

inline unsigned int __float_as_uint(float f) {
  unsigned int u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float __uint_as_float(unsigned int u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline long long __double_as_longlong(double d) {
  long long u;
  std::memcpy(&u, &d, 8);
  return u;
}
inline double __longlong_as_double(long long u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

#endif  // TFGPUAUG_CC_TESTING_CUDA_EMU_CUDA_RUNTIME_H_
