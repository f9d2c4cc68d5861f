#include "cc/kernels/decode/image_decode_gpu.h"

#include "cc/kernels/decode/jpeg_restart.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <nvjpeg.h>

#include "cc/kernels/common/cuda_launch.h"
#include "cc/kernels/decode/gpu_decode_route.h"
#include "cc/kernels/decode/pixel_convert.h"

namespace tfgpuaug {
namespace {

// nvJPEG entry points, resolved once per process.
struct NvjpegLibrary {
  std::string path;  // the file dlopen loaded
  decltype(&nvjpegCreateSimple) create_simple = nullptr;
  decltype(&nvjpegCreateExV2) create_ex_v2 = nullptr;  // absent before nvJPEG 11.6: then createSimple
  decltype(&nvjpegJpegStateCreate) state_create = nullptr;
  decltype(&nvjpegDecodeBatchedInitialize) batched_initialize = nullptr;
  decltype(&nvjpegDecodeBatched) decode_batched = nullptr;
  std::string error;
};

template <typename F>
bool Resolve(void* lib, const char* name, F* fn) {
  *fn = reinterpret_cast<F>(dlsym(lib, name));
  return *fn != nullptr;
}

const NvjpegLibrary& LoadNvjpeg() {
  static const NvjpegLibrary* nv = [] {
    auto* n = new NvjpegLibrary();
    std::vector<std::string> names;
    if (const char* path = std::getenv("TFGPUAUG_NVJPEG_PATH")) names.push_back(path);
    names.insert(names.end(), {"libnvjpeg.so.12", "libnvjpeg.so.13", "libnvjpeg.so"});
    void* lib = nullptr;
    std::string tried;
    for (const std::string& name : names) {
      lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (lib != nullptr) {
        n->path = name;
        break;
      }
      tried += (tried.empty() ? "" : ", ") + name;
    }
    if (lib == nullptr) {
      n->error = "nvJPEG could not be loaded (tried " + tried +
                 "): `pip install nvidia-nvjpeg-cu12` or install CUDA's libnvjpeg";
      return n;
    }
    Resolve(lib, "nvjpegCreateExV2", &n->create_ex_v2);
    if (!Resolve(lib, "nvjpegCreateSimple", &n->create_simple) ||
        !Resolve(lib, "nvjpegJpegStateCreate", &n->state_create) ||
        !Resolve(lib, "nvjpegDecodeBatchedInitialize", &n->batched_initialize) ||
        !Resolve(lib, "nvjpegDecodeBatched", &n->decode_batched)) {
      n->error = "the loaded libnvjpeg lacks the batched decode API";
    }
    return n;
  }();
  return *nv;
}

// nvJPEG's V2 allocator callbacks over GpuMemoryHooks. A free waits for the stream nvJPEG
// names first: the buffer may still be read by work queued on it (frees are rare: nvJPEG
// keeps its buffers and grows them only for larger images).
// A failed allocation makes nvJPEG refuse its batch, which the CPU then decodes; the flag makes
// the warning say why (out of GPU memory, not an unsupported image).
std::atomic<bool> g_allocation_failed{false};

int HookMalloc(void* hooks, void** ptr, size_t size, cudaStream_t) {
  const auto* h = static_cast<const GpuMemoryHooks*>(hooks);
  *ptr = h->allocate(h->context, size == 0 ? 1 : size);  // a 0-byte request is not a failure
  if (*ptr != nullptr) return 0;
  g_allocation_failed = true;
  return 1;
}

int HookFree(void* hooks, void* ptr, size_t, cudaStream_t stream) {
  const auto* h = static_cast<const GpuMemoryHooks*>(hooks);
  if (cudaStreamSynchronize(stream) != cudaSuccess) return 1;
  h->deallocate(h->context, ptr);
  return 0;
}

// One handle and decode state per device, used by one decode at a time. Decodes on a device
// run in its stream's order, so the state is reused without waiting for the stream.
struct NvjpegOnDevice {
  std::once_flag created;
  std::mutex mutex;  // the decode state is not thread-safe
  GpuMemoryHooks device_memory, pinned_memory;
  nvjpegHandle_t handle = nullptr;
  nvjpegJpegState_t state = nullptr;
  // Recorded after each decode on the stream it ran on. The state's buffers (nvJPEG's pinned
  // staging among them) may still be read by copies queued on that stream, and the next decode
  // may come from another stream (another op, or a second virtual device on this GPU): it waits
  // for this event before the state is reused.
  cudaEvent_t last_use = nullptr;
  bool used = false;
  std::string error;
};

constexpr int kMaxDevices = 64;
NvjpegOnDevice g_devices[kMaxDevices];

// This device's nvJPEG, created on its first use with the caller's allocators.
NvjpegOnDevice* NvjpegFor(const GpuDecodeDevice& device) {
  if (device.ordinal < 0 || device.ordinal >= kMaxDevices) return nullptr;
  NvjpegOnDevice* d = &g_devices[device.ordinal];
  std::call_once(d->created, [&] {
    const NvjpegLibrary& nv = LoadNvjpeg();
    if (!nv.error.empty()) {
      d->error = nv.error;
      return;
    }
    int previous = 0;
    cudaError_t e = cudaGetDevice(&previous);
    if (e == cudaSuccess) e = cudaSetDevice(device.ordinal);
    if (e != cudaSuccess) {
      d->error = "nvJPEG could not be created on GPU " + std::to_string(device.ordinal) + ": " +
                 cudaGetErrorString(e);
      return;
    }
    d->device_memory = device.device_memory;
    d->pinned_memory = device.pinned_memory;
    nvjpegStatus_t status;
    if (nv.create_ex_v2 != nullptr && d->device_memory.allocate != nullptr &&
        d->pinned_memory.allocate != nullptr) {
      nvjpegDevAllocatorV2_t dev = {HookMalloc, HookFree, &d->device_memory};
      nvjpegPinnedAllocatorV2_t pinned = {HookMalloc, HookFree, &d->pinned_memory};
      status = nv.create_ex_v2(NVJPEG_BACKEND_DEFAULT, &dev, &pinned, 0, &d->handle);
    } else {
      status = nv.create_simple(&d->handle);
    }
    if (cudaEventCreateWithFlags(&d->last_use, cudaEventDisableTiming) != cudaSuccess) {
      d->error = "nvJPEG's event could not be created on GPU " + std::to_string(device.ordinal);
      cudaSetDevice(previous);
      return;
    }
    const char* step = "nvjpegCreate";
    if (status == NVJPEG_STATUS_SUCCESS) {
      step = "nvjpegJpegStateCreate";
      status = nv.state_create(d->handle, &d->state);
    }
    if (status != NVJPEG_STATUS_SUCCESS) {  // the status of the call that failed
      d->error = "nvJPEG could not be created on GPU " + std::to_string(device.ordinal) + " (" + step +
                 " returned status " + std::to_string(int(status)) + ")";
    }
    e = cudaSetDevice(previous);
    if (e != cudaSuccess && d->error.empty()) {
      d->error = std::string("restoring the current GPU after creating nvJPEG: ") + cudaGetErrorString(e);
    }
  });
  return d;
}

NvjpegMode Mode() {
  static const NvjpegMode mode = NvjpegModeFrom(std::getenv("TFGPUAUG_NVJPEG"));
  return mode;
}

// Once per process, why images that nvJPEG would take are decoded on the CPU instead.
void WarnOnce(std::once_flag* flag, const std::string& why) {
  std::call_once(
      *flag, [&why] { std::fprintf(stderr, "tfgpuaug: %s; decoding on the CPU instead\n", why.c_str()); });
}

std::once_flag g_unavailable_warning, g_rejected_warning;

// This device's nvJPEG when it can take images now (creating it the first time); warns once
// and returns nullptr when it cannot.
NvjpegOnDevice* ReadyNvjpeg(const GpuDecodeDevice& device) {
  if (Mode() == NvjpegMode::kOff) return nullptr;
  NvjpegOnDevice* d = NvjpegFor(device);
  const std::string error = d == nullptr ? "GPU ordinal out of range for nvJPEG" : d->error;
  if (!error.empty()) {
    WarnOnce(&g_unavailable_warning, error);
    return nullptr;
  }
  return d;
}

// Whether nvJPEG can be used at all (for sizing, before a device is known): not when the
// switch is off or the library cannot be loaded.
bool NvjpegLoadable() { return Mode() != NvjpegMode::kOff && LoadNvjpeg().error.empty(); }

bool UsesNvjpeg(const GpuDecodeTarget& t, bool ready) {
  return RoutesToNvjpeg(t.data, t.size, *t.plan, *t.request, ready);
}

size_t FullRgbBytes(const GpuDecodeTarget& t) { return size_t(t.plan->info.height) * t.plan->info.width * 3; }

size_t OutputBytes(const GpuDecodeTarget& t) {
  return size_t(t.plan->out_height) * t.plan->out_width * t.plan->out_channels;
}

// Copies a window of a full RGB image to the output, converting channels per pixel with
// the same inline conversion the CPU decoder uses.
__global__ void WindowFromRgbKernel(const uint8_t* rgb, int full_width, int y0, int x0, int height, int width,
                                    uint8_t* out, int out_c) {
  const size_t total = size_t(height) * width;  // past 2^31 for windows over 2 gigapixels
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < total;
       i += size_t(blockDim.x) * gridDim.x) {
    const int r = static_cast<int>(i / width), c = static_cast<int>(i % width);
    const uint8_t* src = rgb + (size_t(y0 + r) * full_width + (x0 + c)) * 3;
    ConvertPixel(src, 3, out + size_t(i) * out_c, out_c);
  }
}

std::vector<size_t> NvjpegImageBytes(const GpuDecodeTarget* targets, int n, bool ready) {
  std::vector<size_t> bytes;
  for (int i = 0; i < n; ++i) {
    if (UsesNvjpeg(targets[i], ready)) bytes.push_back(FullRgbBytes(targets[i]));
  }
  return bytes;
}

// Pinned staging: a slot of its own for each image routed to the CPU decoder (they are decoded
// in parallel), and one shared slot, as large as the largest image meant for nvJPEG, for those
// nvJPEG refuses after all (rare: they go one at a time). Staging for every image of the batch
// would pin ~2.3 GB for 64 12-MP photos that nvJPEG decodes without it.
struct StagingLayout {
  std::vector<size_t> offset;  // per image; the shared slot's offset for images meant for nvJPEG
  std::vector<bool> shared;    // meant for nvJPEG: staged in the shared slot if it falls back
  size_t shared_slot = 0, shared_bytes = 0;
};

StagingLayout PlanStaging(const GpuDecodeTarget* targets, int n, bool loadable) {
  StagingLayout layout;
  layout.offset.assign(n, 0);
  layout.shared.assign(n, false);
  for (int i = 0; i < n; ++i) {
    layout.shared[i] = UsesNvjpeg(targets[i], loadable);
    if (layout.shared[i]) {
      layout.shared_bytes = std::max(layout.shared_bytes, OutputBytes(targets[i]));
    } else {
      layout.offset[i] = layout.shared_slot;
      layout.shared_slot += OutputBytes(targets[i]);
    }
  }
  for (int i = 0; i < n; ++i) {
    if (layout.shared[i]) layout.offset[i] = layout.shared_slot;
  }
  return layout;
}

}  // namespace

void GpuDecodeBufferSizes(const GpuDecodeTarget* targets, int n, size_t scratch_budget,
                          size_t* device_scratch_bytes, size_t* host_staging_bytes) {
  // Sized as if nvJPEG will take its images; if it turns out unavailable the scratch is unused.
  const bool loadable = NvjpegLoadable();
  *device_scratch_bytes = NvjpegScratchBytes(NvjpegImageBytes(targets, n, loadable), scratch_budget);
  const StagingLayout layout = PlanStaging(targets, n, loadable);
  *host_staging_bytes = layout.shared_slot + layout.shared_bytes;
}

namespace {

// The CPU decoder's window for a target, copied to its device output through `staging`.
Status HostDecode(const GpuDecodeTarget& t, uint8_t* staging, cudaStream_t stream) {
  TFGPUAUG_RETURN_IF_ERROR(ExecuteDecode(t.data, t.size, *t.request, *t.plan, staging));
  return CudaStatus(cudaMemcpyAsync(t.device_out, staging, OutputBytes(t), cudaMemcpyHostToDevice, stream),
                    "copying a host-decoded image to the GPU");
}

// nvJPEG decodes targets[index[0..count)] into `scratch` (full RGB images, back to back), and
// a kernel per image copies its window to the output, converting channels. False when nvJPEG
// refuses the group.
bool NvjpegDecodeGroup(NvjpegOnDevice* d, const GpuDecodeTarget* targets, const int* index, int count,
                       uint8_t* scratch, cudaStream_t stream, Status* launch) {
  const NvjpegLibrary& nv = LoadNvjpeg();
  std::vector<const unsigned char*> data(count);
  std::vector<size_t> lengths(count);
  std::vector<nvjpegImage_t> images(count);
  for (int k = 0; k < count; ++k) {
    const GpuDecodeTarget& t = targets[index[k]];
    data[k] = t.data;
    lengths[k] = t.size;
    images[k] = nvjpegImage_t{};
    images[k].channel[0] = scratch;
    images[k].pitch[0] = size_t(t.plan->info.width) * 3;
    scratch += FullRgbBytes(t);
  }
  std::lock_guard<std::mutex> lock(d->mutex);
  if (d->used) {  // the previous decode's queued work may still read the state's buffers
    const cudaError_t e = cudaEventSynchronize(d->last_use);
    if (e != cudaSuccess) {
      *launch = CudaError(e, "waiting for nvJPEG's previous decode");
      return true;  // a device error fails the call; it is not the images'
    }
  }
  const bool decoded =
      Mode() != NvjpegMode::kReject &&
      nv.batched_initialize(d->handle, d->state, count, 1, NVJPEG_OUTPUT_RGBI) == NVJPEG_STATUS_SUCCESS &&
      nv.decode_batched(d->handle, d->state, data.data(), lengths.data(), images.data(), stream) ==
          NVJPEG_STATUS_SUCCESS;
  const cudaError_t recorded = cudaEventRecord(d->last_use, stream);
  d->used = recorded == cudaSuccess;
  if (recorded != cudaSuccess) {
    *launch = CudaError(recorded, "recording nvJPEG's decode");
    return true;
  }
  if (!decoded) return false;
  for (int k = 0; k < count; ++k) {
    const GpuDecodeTarget& t = targets[index[k]];
    const DecodePlan& p = *t.plan;
    const Window w = t.request->has_window ? t.request->window : Window{0, 0, p.out_height, p.out_width};
    WindowFromRgbKernel<<<GridBlocks(size_t(w.height) * w.width), kThreadsPerBlock, 0, stream>>>(
        images[k].channel[0], p.info.width, w.y, w.x, w.height, w.width, t.device_out, p.out_channels);
  }
  *launch = CudaStatus(cudaGetLastError(), "launching the window copy");
  return true;
}

}  // namespace

std::string NvjpegLoadError() { return LoadNvjpeg().error; }
std::string NvjpegLoadedFrom() { return LoadNvjpeg().path; }

Status GpuDecodeBatch(const GpuDecodeTarget* targets, int n, const GpuDecodeDevice& device,
                      size_t scratch_budget, uint8_t* device_scratch, uint8_t* host_staging,
                      Status* image_statuses, GpuDecodeRoute* routes) {
  auto route = [routes](int i, GpuDecodeRoute r) {
    if (routes != nullptr) routes[i] = r;
  };
  // The same layout GpuDecodeBufferSizes sized (NvjpegLoadable() does not change once loaded).
  const StagingLayout staging = PlanStaging(targets, n, NvjpegLoadable());
  bool shared_slot_used = false;
  // The CPU decoder for image i: a bad image is reported in image_statuses when given (a
  // device error never is: it fails the call). Images meant for nvJPEG share one slot, so
  // the copy out of it must have run before it is written again.
  auto host_decode = [&](int i) -> Status {
    if (staging.shared[i]) {
      if (shared_slot_used) {
        TFGPUAUG_RETURN_IF_ERROR(CudaStatus(cudaStreamSynchronize(device.stream),
                                            "waiting for the copy out of the shared staging"));
      }
      shared_slot_used = true;
    }
    Status s = HostDecode(targets[i], host_staging + staging.offset[i], device.stream);
    if (s.ok() || s.kind() != Status::Kind::kInvalidInput) return s;
    if (image_statuses == nullptr) return s.Prefixed("image " + std::to_string(i) + ": ");
    image_statuses[i] = s;
    return Status::Ok();
  };
  NvjpegOnDevice* nvjpeg = ReadyNvjpeg(device);
  std::vector<int> gpu_index, host_index, fallback_index;
  for (int i = 0; i < n; ++i) {
    const bool gpu = nvjpeg != nullptr && UsesNvjpeg(targets[i], true);
    if (gpu) {
      gpu_index.push_back(i);
    } else {  // meant for nvJPEG when it loaded but could not be created here: the shared slot
      (staging.shared[i] ? fallback_index : host_index).push_back(i);
    }
    route(i, gpu ? GpuDecodeRoute::kNvjpeg : GpuDecodeRoute::kHost);
  }
  // nvJPEG decodes a damaged scan into made-up pixels without an error (seen on an H100: a
  // scan cut short with its end marker kept, zeroed, or a frame taller than its scan; see
  // docs/gpu-runs), so each image meant for it is entropy-decoded on the CPU first, in
  // parallel with the CPU's share, and a bad one is reported as the CPU decoder reports it.
  const size_t scratch_bytes =
      NvjpegScratchBytes(NvjpegImageBytes(targets, n, nvjpeg != nullptr), scratch_budget);
  std::vector<Status> entropy(gpu_index.size());
  std::vector<Status> host_status(host_index.size());
  // A window of a JPEG with restart markers goes to nvJPEG as the smaller JPEG of the intervals
  // that cover it (jpeg_restart.h): nvJPEG, the entropy check and the scratch see only that.
  std::vector<GpuDecodeTarget> offered(targets, targets + n);
  std::vector<std::vector<uint8_t>> smaller(gpu_index.size());
  std::vector<DecodeRequest> smaller_requests(gpu_index.size());
  std::vector<DecodePlan> smaller_plans(gpu_index.size());
  auto cut_restart_crop = [&](size_t k) {
    GpuDecodeTarget& t = offered[gpu_index[k]];
    if (!t.request->has_window) return;
    Window window = t.request->window;
    RestartCrop crop;
    if (!CutRestartCrop(t.data, t.size, 1, &window, &smaller[k], &crop)) return;
    smaller_requests[k] = *t.request;
    smaller_requests[k].window = window;
    smaller_plans[k] = *t.plan;
    smaller_plans[k].info.height = smaller_plans[k].full_height = crop.height;
    smaller_plans[k].info.width = smaller_plans[k].full_width = crop.width;
    t = GpuDecodeTarget{smaller[k].data(), smaller[k].size(), &smaller_requests[k], &smaller_plans[k],
                        t.device_out};
  };
  const size_t jobs = gpu_index.size() + host_index.size();
  auto run_one = [&](int k) {
    if (size_t(k) < gpu_index.size()) {
      cut_restart_crop(size_t(k));
      const GpuDecodeTarget& t = offered[gpu_index[k]];
      entropy[k] = CheckJpegEntropy(t.data, t.size);
    } else {  // the CPU's share: each image has its own staging; the copies share the stream
      const size_t h = size_t(k) - gpu_index.size();
      host_status[h] = host_decode(host_index[h]);
    }
  };
  using RunOne = decltype(run_one);
  if (device.parallel_for != nullptr && jobs > 1) {
    device.parallel_for(
        device.pool, static_cast<int>(jobs),
        [](void* context, int k) { (*static_cast<RunOne*>(context))(k); }, &run_one);
  } else {
    for (size_t k = 0; k < jobs; ++k) run_one(static_cast<int>(k));
  }
  for (const Status& s : host_status) TFGPUAUG_RETURN_IF_ERROR(s);
  std::vector<int> checked;
  for (size_t k = 0; k < gpu_index.size(); ++k) {
    const Status& s = entropy[k];
    if (s.ok()) {
      checked.push_back(gpu_index[k]);
      continue;
    }
    if (s.kind() != Status::Kind::kInvalidInput) return s;
    if (image_statuses == nullptr) return s.Prefixed("image " + std::to_string(gpu_index[k]) + ": ");
    image_statuses[gpu_index[k]] = s;
    route(gpu_index[k], GpuDecodeRoute::kHost);  // the CPU found it bad; nvJPEG never saw it
  }
  gpu_index.swap(checked);
  for (int i : fallback_index) TFGPUAUG_RETURN_IF_ERROR(host_decode(i));
  // Groups of the images left, within the scratch sized for all of them (every image fits it).
  std::vector<size_t> bytes;
  for (int i : gpu_index) bytes.push_back(FullRgbBytes(offered[i]));
  const std::vector<size_t> ends = NvjpegGroupEnds(bytes, scratch_bytes);
  size_t begin = 0;
  for (size_t end : ends) {
    Status launch;
    const int* index = gpu_index.data() + begin;
    const int count = static_cast<int>(end - begin);
    if (!NvjpegDecodeGroup(nvjpeg, offered.data(), index, count, device_scratch, device.stream, &launch)) {
      // nvJPEG refused the group (an arithmetic-coded, 12-bit or lossless JPEG, or a corrupt
      // one), which one image can do for all: each is offered to nvJPEG alone, and the CPU
      // decodes those it refuses again (a truly corrupt file fails there, by index).
      WarnOnce(&g_rejected_warning,
               g_allocation_failed
                   ? "nvJPEG could not decode a batch: it ran out of GPU memory"
                   : "nvJPEG could not decode a batch (an image it does not support, or a corrupt one)");
      for (int k = 0; k < count; ++k) {
        if (count > 1 &&
            NvjpegDecodeGroup(nvjpeg, offered.data(), index + k, 1, device_scratch, device.stream, &launch)) {
          TFGPUAUG_RETURN_IF_ERROR(launch);
          continue;
        }
        route(index[k], GpuDecodeRoute::kNvjpegRefused);
        TFGPUAUG_RETURN_IF_ERROR(host_decode(index[k]));
      }
    }
    TFGPUAUG_RETURN_IF_ERROR(launch);
    begin = end;
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
