// CUDA emulation: the runtime API on host memory and the block scheduler. See README.md.
#include <sys/mman.h>
#include <ucontext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cuda_runtime.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TFGPUAUG_EMU_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define TFGPUAUG_EMU_TSAN 1
#endif
#if TFGPUAUG_EMU_TSAN
// ThreadSanitizer's fiber API: each CUDA thread is a TSan fiber, and a barrier is a
// release/acquire on the block's barrier word, so two threads of a block touching the same
// memory between barriers is a reported race.
extern "C" {
void* __tsan_get_current_fiber(void);
void* __tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void* fiber);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
void __tsan_release(void* addr);
void __tsan_acquire(void* addr);
}
// A switch without this flag would order everything before it before everything after it,
// hiding every race; barriers alone order the threads of a block.
constexpr unsigned kTsanNoSync = 1;
#endif

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer's fiber API: it must know which stack is current, or it reports the
// fibers' stack accesses as overflows of the host thread's stack.
#define TFGPUAUG_EMU_ASAN 1
extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size);
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, size_t* size_old);
}
#endif

namespace cuda_emu {
namespace {

// New device memory is filled with this byte, so an output a kernel forgets to write shows.
constexpr unsigned char kPoison = 0xA7;
// CUDA's limits on every current device.
constexpr unsigned kMaxThreadsPerBlock = 1024;
constexpr unsigned kMaxGridYZ = 65535;
constexpr unsigned kMaxBlockZ = 64;
constexpr size_t kMaxSharedBytes = 48 << 10;
// Each CUDA thread's stack (the kernels keep small arrays on it).
#if defined(__SANITIZE_ADDRESS__) || defined(TFGPUAUG_EMU_TSAN)
constexpr size_t kFiberStack = 256 << 10;
#else
constexpr size_t kFiberStack = 64 << 10;
#endif

struct Allocation {
  size_t size;
  bool pinned_host;
};

std::mutex g_mutex;
std::map<const char*, Allocation>& Allocations() {
  static auto* m = new std::map<const char*, Allocation>();
  return *m;
}

thread_local cudaError_t t_last_error = cudaSuccess;
thread_local int t_device = 0;

bool Report(const char* what) {
  if (std::getenv("TFGPUAUG_CUDA_EMU_QUIET") == nullptr) std::fprintf(stderr, "cuda_emu: %s\n", what);
  return false;
}

// Which registered allocation holds [p, p + n); null when none does.
const Allocation* Find(const void* p, size_t n, const char** base) {
  auto& m = Allocations();
  const char* c = static_cast<const char*>(p);
  auto it = m.upper_bound(c);
  if (it == m.begin()) return nullptr;
  --it;
  if (c < it->first || c + n > it->first + it->second.size) return nullptr;
  if (base != nullptr) *base = it->first;
  return &it->second;
}

bool OnDevice(const void* p, size_t n) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const Allocation* a = Find(p, n, nullptr);
  return a != nullptr && !a->pinned_host;
}

cudaError_t Fail(cudaError_t e, const char* what) {
  SetLastError(e, what);
  return e;
}

cudaError_t Register(void** ptr, size_t size, bool pinned_host) {
  if (ptr == nullptr) return Fail(cudaErrorInvalidValue, "allocation without a pointer to fill");
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) return Fail(cudaErrorMemoryAllocation, "out of host memory for emulated device memory");
  if (!pinned_host) std::memset(p, kPoison, size);
  std::lock_guard<std::mutex> lock(g_mutex);
  Allocations()[static_cast<const char*>(p)] = Allocation{size == 0 ? 1 : size, pinned_host};
  *ptr = p;
  return cudaSuccess;
}

cudaError_t Unregister(void* ptr, bool pinned_host) {
  if (ptr == nullptr) return cudaSuccess;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = Allocations().find(static_cast<const char*>(ptr));
    if (it == Allocations().end() || it->second.pinned_host != pinned_host) {
      return Fail(cudaErrorInvalidValue, pinned_host ? "cudaFreeHost of memory cudaHostAlloc did not return"
                                                     : "cudaFree of memory cudaMalloc did not return");
    }
    Allocations().erase(it);
  }
  std::free(ptr);
  return cudaSuccess;
}

// ---------------------------------------------------------------- the block scheduler

// A saved execution context. On x86-64 a switch saves and restores the callee-saved registers
// and the stack pointer (ContextSwitch below): swapcontext also saves the signal mask, two
// system calls per switch, which made a barrier kernel over 65537 blocks take ~35 s.
#if defined(__x86_64__)
struct Context {
  void* sp = nullptr;
};
extern "C" void tfgpuaug_emu_switch(void** save_sp, void* load_sp);
asm(R"(
  .text
  .p2align 4
  .globl tfgpuaug_emu_switch
  .hidden tfgpuaug_emu_switch
  .type tfgpuaug_emu_switch, @function
tfgpuaug_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size tfgpuaug_emu_switch, .-tfgpuaug_emu_switch
)");
// Not instrumented: the switch reads the target's stack pointer after TSan already counts the
// target fiber as running, which TSan would report against the scheduler's ContextInit.
__attribute__((no_sanitize_thread)) void ContextSwitch(Context* from, Context* to) {
  tfgpuaug_emu_switch(&from->sp, to->sp);
}
// A context that starts `entry` (which never returns) on [stack, stack + size): the six
// registers the switch pops, then entry's address for its `ret`, at a 16-byte boundary so
// that entry starts with the stack aligned as after a call.
__attribute__((no_sanitize_thread)) void ContextInit(Context* c, char* stack, size_t size, void (*entry)()) {
  auto* top = reinterpret_cast<uint64_t*>((reinterpret_cast<uintptr_t>(stack + size) & ~uintptr_t(15)));
  top[-1] = 0;  // entry's own return address: never used
  top[-2] = reinterpret_cast<uint64_t>(entry);
  for (int i = 3; i <= 8; ++i) top[-i] = 0;  // rbp, rbx, r12-r15
  c->sp = top - 8;
}
#else
struct Context {
  ucontext_t uc;
};
void ContextSwitch(Context* from, Context* to) { swapcontext(&from->uc, &to->uc); }
void ContextInit(Context* c, char* stack, size_t size, void (*entry)()) {
  getcontext(&c->uc);
  c->uc.uc_stack.ss_sp = stack;
  c->uc.uc_stack.ss_size = size;
  c->uc.uc_link = nullptr;
  makecontext(&c->uc, entry, 0);
}
#endif

// Fields the scheduler and the fibers both touch are read and written as relaxed atomics: they
// order nothing (a barrier alone orders the threads of a block) but are not races to TSan.
template <typename T>
T Get(const T& v) {
  return __atomic_load_n(&v, __ATOMIC_RELAXED);
}
template <typename T>
void Put(T& v, T x) {
  __atomic_store_n(&v, x, __ATOMIC_RELAXED);
}

struct Fiber {
  Context context;
  ThreadState state;
  bool started = false;       // has a context on its stack
  bool first_switch = false;  // not yet switched to since it was started (TSan: synchronises)
  bool done = false;
  bool waiting = false;  // at a barrier
  int barriers = 0;
#if TFGPUAUG_EMU_TSAN
  void* tsan = nullptr;
#endif
  void* asan_fake_stack = nullptr;  // ASan's fake stack of the fiber while it is switched out
};

struct Block {
  std::vector<Fiber> fibers;
  Fiber* running = nullptr;
  Context scheduler;
  void (*body)(void*) = nullptr;
  void* context = nullptr;
  char* stacks = nullptr;
  // The addresses TSan's release/acquire pair on at barrier n (n % 64): one per barrier, so a
  // thread that leaves barrier 1 is not ordered after what a faster one did before barrier 2.
  int barrier_words[64] = {};
  int launch_word = 0;    // ... from the scheduler's setup of a block to its threads
  int finish_word = 0;    // ... from the threads' last writes to the host after the grid
  bool direct = false;    // threads run as plain calls (see RunBlock)
  bool diverged = false;  // a plain-call thread reached a barrier
#if TFGPUAUG_EMU_TSAN
  void* scheduler_fiber = nullptr;
#endif
  const void* host_stack = nullptr;  // the scheduler's stack, for ASan's switches back to it
  size_t host_stack_size = 0;
  void* host_fake_stack = nullptr;
};

// The fibers' stacks, mapped once per host thread and grown when a launch needs more: a fresh
// mapping per launch cost TSan (which clears its shadow of every new mapping) most of its time.
// Reuse is ordered for TSan: a block's threads release the block's finish word when they end,
// which the scheduler acquires before it releases the next launch's start to the new threads.
struct FiberStacks {
  char* base = nullptr;
  size_t count = 0;
  ~FiberStacks() {
    if (base != nullptr) munmap(base, count * kFiberStack);
  }
  char* For(size_t threads) {
    if (threads <= count) return base;
    if (base != nullptr) munmap(base, count * kFiberStack);
    void* p =
        mmap(nullptr, threads * kFiberStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    base = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
    count = base == nullptr ? 0 : threads;
    return base;
  }
};
thread_local FiberStacks t_fiber_stacks;

#if TFGPUAUG_EMU_TSAN
// TSan's fiber contexts, kept per host thread for the same reason (creating one maps memory).
// A fiber that finishes never returns from FiberMain, so every run leaves FiberMain's frames
// on its TSan fiber's shadow stack; past 65536 frames TSan CHECK-fails (and then deadlocks
// printing it). A context is therefore replaced after kRunsPerTsanFiber runs: the stack stays
// a few thousand frames deep and creation is paid once per that many block runs.
constexpr unsigned kRunsPerTsanFiber = 1024;
struct TsanFibers {
  std::vector<void*> fibers;
  std::vector<unsigned> runs;
  ~TsanFibers() {
    for (void* f : fibers) __tsan_destroy_fiber(f);
  }
  // The context for thread i's next block run (never the running fiber: called by the scheduler).
  void* ForRun(size_t i) {
    while (fibers.size() <= i) {
      fibers.push_back(__tsan_create_fiber(0));
      runs.push_back(0);
    }
    if (++runs[i] > kRunsPerTsanFiber) {
      __tsan_destroy_fiber(fibers[i]);
      fibers[i] = __tsan_create_fiber(0);
      runs[i] = 1;
    }
    return fibers[i];
  }
};
thread_local TsanFibers t_tsan_fibers;
#endif

thread_local Block* t_block = nullptr;
thread_local ThreadState t_host_state;  // what threadIdx reads outside a kernel

// A fiber has just been switched to (ASan: learn the scheduler's stack, restore ours).
void EnteredFiber(Block* b, Fiber* f) {
#if TFGPUAUG_EMU_ASAN
  __sanitizer_finish_switch_fiber(f->asan_fake_stack, &b->host_stack, &b->host_stack_size);
#else
  (void)b, (void)f;
#endif
}

// Back to the scheduler from fiber f. A fiber that is done first publishes its writes
// (TSan: release) and touches nothing of the block after that: the block lives on the host's
// stack, which the host reuses once the grid is over.
void SwitchToScheduler(Block* b, Fiber* f, bool done) {
#if TFGPUAUG_EMU_TSAN
  void* scheduler_fiber = b->scheduler_fiber;
  if (done) __tsan_release(&b->finish_word);
  __tsan_switch_to_fiber(scheduler_fiber, kTsanNoSync);
#endif
#if TFGPUAUG_EMU_ASAN  // a fiber that is done leaves for good: its fake stack goes
  __sanitizer_start_switch_fiber(done ? nullptr : &f->asan_fake_stack, b->host_stack, b->host_stack_size);
#endif
  ContextSwitch(&f->context, &b->scheduler);
  EnteredFiber(b, f);
}

void FiberMain() {
  Block* b = t_block;
  Fiber* f = Get(b->running);
  EnteredFiber(b, f);
#if TFGPUAUG_EMU_TSAN
  __tsan_acquire(&b->launch_word);
#endif
  b->body(b->context);
  Put(f->done, true);
  SwitchToScheduler(b, f, true);
}

// The scheduler's switch into fiber i, and back.
void SwitchToFiber(Block* b, size_t i) {
  Fiber& f = b->fibers[i];
  Put(b->running, &f);
#if TFGPUAUG_EMU_TSAN
  // A fiber's first switch in a launch synchronises, as creating it would: TSan's fiber
  // contexts are reused across launches, and the new thread reads what the scheduler set up.
  const unsigned flags = f.first_switch ? 0 : kTsanNoSync;
  f.first_switch = false;  // by the scheduler, before the switch: after it TSan sees the fiber
  __tsan_switch_to_fiber(f.tsan, flags);
#endif
#if TFGPUAUG_EMU_ASAN
  __sanitizer_start_switch_fiber(&b->host_fake_stack, b->stacks + i * kFiberStack, kFiberStack);
#endif
  ContextSwitch(&b->scheduler, &f.context);
#if TFGPUAUG_EMU_ASAN
  __sanitizer_finish_switch_fiber(b->host_fake_stack, nullptr, nullptr);
#endif
}

// Gives fiber i its context on its stack, the first time it runs.
void Prepare(Block* b, size_t i) {
  Fiber& f = b->fibers[i];
  if (f.started) return;
  f.started = true;
  f.first_switch = true;
  ContextInit(&f.context, b->stacks + i * kFiberStack, kFiberStack, FiberMain);
}

// Runs the threads of a block that reach barriers: round-robin until each waits at the
// barrier (then all are released) or returns. False when they passed different numbers of
// barriers.
bool RunFibers(Block* b) {
  for (;;) {
    bool progressed = false;
    for (size_t i = 0; i < b->fibers.size(); ++i) {
      Fiber& f = b->fibers[i];
      if (Get(f.done) || Get(f.waiting)) continue;
      Prepare(b, i);
      SwitchToFiber(b, i);
      progressed = true;
    }
    size_t done = 0, waiting = 0;
    for (const Fiber& f : b->fibers) {
      done += Get(f.done);
      waiting += Get(f.waiting);
    }
    if (done == b->fibers.size()) return true;
    if (done > 0 && waiting > 0) return false;  // some returned while others wait at a barrier
    if (waiting == b->fibers.size()) {          // everyone arrived: release the barrier
      for (Fiber& f : b->fibers) Put(f.waiting, false);
      continue;
    }
    if (!progressed) return false;
  }
}

// Runs one block. Thread 0 goes first, on a fiber: when it returns without reaching a barrier,
// no thread of a correct kernel reaches one (a barrier must be reached by all or none), so the
// others run as plain calls, which is ~100x cheaper than a fiber each; a barrier one of them
// reaches then is a divergence, reported. TFGPUAUG_CUDA_EMU_FIBERS=1 keeps every thread on
// its fiber (the ThreadSanitizer lane needs them apart).
bool RunBlock(Block* b, bool always_fibers) {
  Fiber& first = b->fibers[0];
  Prepare(b, 0);
  SwitchToFiber(b, 0);
  if (!Get(first.done) || Get(first.barriers) > 0 || always_fibers) return RunFibers(b);
  b->direct = true;
  for (size_t i = 1; i < b->fibers.size() && !b->diverged; ++i) {
    Put(b->running, &b->fibers[i]);
    b->body(b->context);
    Put(b->fibers[i].done, true);
  }
  b->direct = false;
  return !b->diverged;
}

}  // namespace

ThreadState& Current() {
  Fiber* running = t_block != nullptr ? Get(t_block->running) : nullptr;
  return running != nullptr ? running->state : t_host_state;
}

void SyncThreads() {
  Block* b = t_block;
  Fiber* f = b != nullptr ? Get(b->running) : nullptr;
  if (f == nullptr) {
    Report("__syncthreads outside a kernel");
    return;
  }
  if (b->direct) {  // thread 0 returned without this barrier (plain calls: no other fiber runs)
    b->diverged = true;
    return;
  }
#if TFGPUAUG_EMU_TSAN
  int* word = &b->barrier_words[Get(f->barriers) % 64];
  __tsan_release(word);
#endif
  Put(f->waiting, true);
  Put(f->barriers, Get(f->barriers) + 1);
  SwitchToScheduler(b, f, false);
#if TFGPUAUG_EMU_TSAN
  __tsan_acquire(word);
#endif
}

struct QueuedCopy {
  void* dst;
  const void* src;
  size_t count;
  uint64_t ticket;
};
std::mutex g_queue_mutex;
std::vector<QueuedCopy> g_queued_copies;  // every stream's, in issue order
uint64_t g_next_ticket = 0;

void QueueCopy(void* dst, const void* src, size_t count) {
  std::lock_guard<std::mutex> lock(g_queue_mutex);
  g_queued_copies.push_back({dst, src, count, g_next_ticket++});
}

uint64_t NextCopyTicket() {
  std::lock_guard<std::mutex> lock(g_queue_mutex);
  return g_next_ticket;
}

void RunQueuedCopies(uint64_t before = ~uint64_t(0)) {
  std::lock_guard<std::mutex> lock(g_queue_mutex);
  size_t done = 0;
  while (done < g_queued_copies.size() && g_queued_copies[done].ticket < before) {
    const QueuedCopy& c = g_queued_copies[done++];
    std::memmove(c.dst, c.src, c.count);
  }
  g_queued_copies.erase(g_queued_copies.begin(), g_queued_copies.begin() + done);
}

void SetLastError(cudaError_t error, const char* what) {
  if (error != cudaSuccess) {
    Report(what);
    t_last_error = error;
  }
}

bool IsDeviceAccessible(const void* p) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return Find(p, 1, nullptr) != nullptr;
}

cudaError_t CheckLaunch(dim3 grid, dim3 block, size_t shared_bytes) {
  const unsigned long threads = (unsigned long)block.x * block.y * block.z;
  const char* why = nullptr;
  if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0) why = "an empty grid or block";
  if (threads > kMaxThreadsPerBlock) why = "more than 1024 threads per block";
  if (block.z > kMaxBlockZ) why = "block z over 64";
  if (grid.y > kMaxGridYZ || grid.z > kMaxGridYZ) why = "grid y or z over 65535";
  if (grid.x > 0x7fffffffu) why = "grid x over 2^31 - 1";
  if (shared_bytes > kMaxSharedBytes) why = "over 48 KB of dynamic shared memory";
  if (why == nullptr) return cudaSuccess;
  SetLastError(cudaErrorInvalidConfiguration, (std::string("launch refused: ") + why).c_str());
  return cudaErrorInvalidConfiguration;
}

void RunGrid(dim3 grid, dim3 block, void (*body)(void*), void* context) {
  if (t_block != nullptr) {
    SetLastError(cudaErrorLaunchFailure, "a kernel launched from inside a kernel");
    return;
  }
  RunQueuedCopies();  // copies queued before the launch come first in stream order
  const size_t threads = size_t(block.x) * block.y * block.z;
  Block b;
  b.body = body;
  b.context = context;
  char* stacks = t_fiber_stacks.For(threads);
  if (stacks == nullptr) {
    SetLastError(cudaErrorMemoryAllocation, "no memory for the emulated threads' stacks");
    return;
  }
  b.stacks = stacks;
  b.fibers.resize(threads);
  t_block = &b;
#if TFGPUAUG_EMU_TSAN
  b.scheduler_fiber = __tsan_get_current_fiber();
#endif
  const bool always_fibers = std::getenv("TFGPUAUG_CUDA_EMU_FIBERS") != nullptr;
  bool ok = true;
  for (unsigned bz = 0; bz < grid.z && ok; ++bz) {
    for (unsigned by = 0; by < grid.y && ok; ++by) {
      for (unsigned bx = 0; bx < grid.x && ok; ++bx) {
        size_t i = 0;
        for (unsigned tz = 0; tz < block.z; ++tz) {
          for (unsigned ty = 0; ty < block.y; ++ty) {
            for (unsigned tx = 0; tx < block.x; ++tx, ++i) {
              Fiber& f = b.fibers[i];
              f.started = false;
              Put(f.done, false);
              Put(f.waiting, false);
              Put(f.barriers, 0);
              f.asan_fake_stack = nullptr;
#if TFGPUAUG_EMU_TSAN
              f.tsan = t_tsan_fibers.ForRun(i);
#endif
              f.state = ThreadState{dim3(tx, ty, tz), dim3(bx, by, bz), block, grid};
            }
          }
        }
        b.diverged = false;
#if TFGPUAUG_EMU_TSAN
        __tsan_release(&b.launch_word);  // the states above, and the host's writes before the launch
#endif
        const bool block_ok = RunBlock(&b, always_fibers);
#if TFGPUAUG_EMU_TSAN
        __tsan_acquire(&b.finish_word);  // blocks run one after another: this orders them
#endif
        if (!block_ok) {
          ok = false;
          SetLastError(cudaErrorLaunchFailure,
                       "the threads of a block passed different numbers of __syncthreads (a thread returned "
                       "or branched around a barrier the others wait at)");
        }
      }
    }
  }
  Put(b.running, static_cast<Fiber*>(nullptr));
#if TFGPUAUG_EMU_TSAN
  __tsan_acquire(&b.finish_word);  // the threads' writes, before the host reads the outputs
  __tsan_switch_to_fiber(b.scheduler_fiber, 0);
#endif
  t_block = nullptr;
}

}  // namespace cuda_emu

// ---------------------------------------------------------------- the runtime API

using cuda_emu::Fail;

int EmulatedDriverVersion();
// With an emulated driver older than the runtime, every call that needs the device fails, as
// the real runtime's do.
bool DriverTooOld() {
  const int driver = EmulatedDriverVersion();
  return driver > 0 && driver < CUDART_VERSION;
}

cudaError_t cudaMalloc(void** ptr, size_t size) {
  if (DriverTooOld())
    return Fail(cudaErrorInsufficientDriver, "cudaMalloc with a driver older than the runtime");
  return cuda_emu::Register(ptr, size, false);
}
cudaError_t cudaFree(void* ptr) {
  cuda_emu::RunQueuedCopies();
  return cuda_emu::Unregister(ptr, false);
}
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int) {
  return cuda_emu::Register(ptr, size, true);
}
cudaError_t cudaMallocHost(void** ptr, size_t size) { return cuda_emu::Register(ptr, size, true); }
cudaError_t cudaFreeHost(void* ptr) {
  cuda_emu::RunQueuedCopies();
  return cuda_emu::Unregister(ptr, true);
}

// Whether a copy's pointers are where its kind says (device memory is cudaMalloc'd).
bool CopyKindMatches(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  const bool dst_device = cuda_emu::OnDevice(dst, count), src_device = cuda_emu::OnDevice(src, count);
  const bool ok = kind == cudaMemcpyDefault || kind == cudaMemcpyHostToHost ||
                  (kind == cudaMemcpyHostToDevice && dst_device && !src_device) ||
                  (kind == cudaMemcpyDeviceToHost && src_device && !dst_device) ||
                  (kind == cudaMemcpyDeviceToDevice && src_device && dst_device);
  return ok;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  cuda_emu::RunQueuedCopies();
  if (count == 0) return cudaSuccess;
  if (!CopyKindMatches(dst, src, count, kind)) {
    return Fail(cudaErrorInvalidValue, "cudaMemcpy whose pointers do not match its kind or its sizes");
  }
  std::memmove(dst, src, count);
  return cudaSuccess;
}
// Asynchronous copies are checked when queued and run at the next point that orders them: a
// launch, a synchronous copy or memset, a synchronize, a free. Until then their source may
// still change, as on a GPU, so a host buffer rewritten before its copy ran is caught (one
// valid schedule of many: the emulator cannot overlap a copy with later host work otherwise).
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t) {
  if (count == 0) return cudaSuccess;
  if (!CopyKindMatches(dst, src, count, kind))
    return Fail(cudaErrorInvalidValue, "cudaMemcpyAsync whose pointers do not match its kind or its sizes");
  cuda_emu::QueueCopy(dst, src, count);
  return cudaSuccess;
}
cudaError_t cudaMemset(void* dst, int value, size_t count) {
  cuda_emu::RunQueuedCopies();
  if (count == 0) return cudaSuccess;
  if (!cuda_emu::OnDevice(dst, count)) return Fail(cudaErrorInvalidValue, "cudaMemset outside device memory");
  std::memset(dst, value, count);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* dst, int value, size_t count, cudaStream_t) {
  return cudaMemset(dst, value, count);
}

struct CUstream_st {
  int id;
};
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  *stream = new CUstream_st{1};
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  cuda_emu::RunQueuedCopies();
  delete stream;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  cuda_emu::RunQueuedCopies();
  return cudaSuccess;
}

// Events: every call completes before it returns, so an event is passed once recorded.
struct CUevent_st {
  bool recorded = false;
  uint64_t ticket = 0;  // the copies queued before the record: a synchronize runs only those
};
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) {
  *event = new CUevent_st();
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (event == nullptr) return Fail(cudaErrorInvalidResourceHandle, "cudaEventRecord of no event");
  event->recorded = true;
  event->ticket = cuda_emu::NextCopyTicket();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (event == nullptr) return Fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize of no event");
  cuda_emu::RunQueuedCopies(event->ticket);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize() {
  cuda_emu::RunQueuedCopies();
  return cudaSuccess;
}

cudaError_t cudaGetLastError() {
  const cudaError_t e = cuda_emu::t_last_error;
  cuda_emu::t_last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() { return cuda_emu::t_last_error; }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return "cudaSuccess";
    case cudaErrorInvalidValue:
      return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
      return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration:
      return "cudaErrorInvalidConfiguration";
    case cudaErrorInsufficientDriver:
      return "cudaErrorInsufficientDriver";
    case cudaErrorNoKernelImageForDevice:
      return "cudaErrorNoKernelImageForDevice";
    case cudaErrorUnsupportedPtxVersion:
      return "cudaErrorUnsupportedPtxVersion";
    case cudaErrorNoDevice:
      return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice:
      return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle:
      return "cudaErrorInvalidResourceHandle";
    case cudaErrorIllegalAddress:
      return "cudaErrorIllegalAddress";
    case cudaErrorLaunchFailure:
      return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}
const char* cudaGetErrorString(cudaError_t error) { return cudaGetErrorName(error); }

// TFGPUAUG_CUDA_EMU_DRIVER=<version> plays a machine whose driver is older than the runtime
// (as TensorFlow's CUDA 12 drivers are for a CUDA 13 runtime): no device can be used.
int EmulatedDriverVersion() {
  const char* v = std::getenv("TFGPUAUG_CUDA_EMU_DRIVER");
  return v == nullptr ? 0 : std::atoi(v);
}

cudaError_t cudaGetDeviceCount(int* count) {
  const int driver = EmulatedDriverVersion();
  if (driver > 0 && driver < CUDART_VERSION) {
    *count = 0;
    return Fail(cudaErrorInsufficientDriver,
                "the driver is older than the runtime (TFGPUAUG_CUDA_EMU_DRIVER)");
  }
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  *device = cuda_emu::t_device;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  if (device != 0) return Fail(cudaErrorInvalidDevice, "the emulator has one device, 0");
  cuda_emu::t_device = device;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  *version = EmulatedDriverVersion();  // 0 (no driver) unless played
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  *version = CUDART_VERSION;
  return cudaSuccess;
}
