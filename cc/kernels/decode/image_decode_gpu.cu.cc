#include "cc/kernels/decode/image_decode_gpu.h"

#include <dlfcn.h>

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

// nvJPEG entry points, resolved at first use.
struct Nvjpeg {
  decltype(&nvjpegCreateSimple) create_simple = nullptr;
  decltype(&nvjpegJpegStateCreate) state_create = nullptr;
  decltype(&nvjpegDecodeBatchedInitialize) batched_initialize = nullptr;
  decltype(&nvjpegDecodeBatched) decode_batched = nullptr;
  nvjpegHandle_t handle = nullptr;
  nvjpegJpegState_t state = nullptr;
  std::string error;
};

std::mutex g_nvjpeg_mutex;  // guards the shared handle and decode state

template <typename F>
bool Resolve(void* lib, const char* name, F* fn) {
  *fn = reinterpret_cast<F>(dlsym(lib, name));
  return *fn != nullptr;
}

Nvjpeg* LoadNvjpeg() {
  static Nvjpeg* nv = [] {
    auto* n = new Nvjpeg();
    std::vector<std::string> names;
    if (const char* path = std::getenv("TFGPUAUG_NVJPEG_PATH")) names.push_back(path);
    names.insert(names.end(), {"libnvjpeg.so.12", "libnvjpeg.so.13", "libnvjpeg.so"});
    void* lib = nullptr;
    std::string tried;
    for (const std::string& name : names) {
      lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (lib != nullptr) break;
      tried += (tried.empty() ? "" : ", ") + name;
    }
    if (lib == nullptr) {
      n->error = "nvJPEG could not be loaded (tried " + tried +
                 "): `pip install nvidia-nvjpeg-cu12` or install CUDA's libnvjpeg";
      return n;
    }
    if (!Resolve(lib, "nvjpegCreateSimple", &n->create_simple) ||
        !Resolve(lib, "nvjpegJpegStateCreate", &n->state_create) ||
        !Resolve(lib, "nvjpegDecodeBatchedInitialize", &n->batched_initialize) ||
        !Resolve(lib, "nvjpegDecodeBatched", &n->decode_batched)) {
      n->error = "the loaded libnvjpeg lacks the batched decode API";
      return n;
    }
    if (n->create_simple(&n->handle) != NVJPEG_STATUS_SUCCESS ||
        n->state_create(n->handle, &n->state) != NVJPEG_STATUS_SUCCESS) {
      n->error = "nvjpegCreateSimple failed (is a CUDA driver present?)";
    }
    return n;
  }();
  return nv;
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

// Whether nvJPEG can take images now (loading it the first time); warns once when not.
bool NvjpegReady() {
  if (Mode() == NvjpegMode::kOff) return false;
  std::lock_guard<std::mutex> lock(g_nvjpeg_mutex);
  Nvjpeg* nv = LoadNvjpeg();
  if (!nv->error.empty()) WarnOnce(&g_unavailable_warning, nv->error);
  return nv->error.empty();
}

bool UsesNvjpeg(const GpuDecodeTarget& t, bool ready) { return RoutesToNvjpeg(*t.plan, *t.request, ready); }

size_t FullRgbBytes(const GpuDecodeTarget& t) { return size_t(t.plan->info.height) * t.plan->info.width * 3; }

size_t OutputBytes(const GpuDecodeTarget& t) {
  return size_t(t.plan->out_height) * t.plan->out_width * t.plan->out_channels;
}

// Copies a window of a full RGB image to the output, converting channels per pixel with
// the same inline conversion the CPU decoder uses.
__global__ void WindowFromRgbKernel(const uint8_t* rgb, int full_width, int y0, int x0, int height, int width,
                                    uint8_t* out, int out_c) {
  const int total = height * width;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += blockDim.x * gridDim.x) {
    const int r = i / width, c = i % width;
    const uint8_t* src = rgb + (size_t(y0 + r) * full_width + (x0 + c)) * 3;
    ConvertPixel(src, 3, out + size_t(i) * out_c, out_c);
  }
}

}  // namespace

void GpuDecodeBufferSizes(const GpuDecodeTarget* targets, int n, size_t* device_scratch_bytes,
                          size_t* host_staging_bytes) {
  *device_scratch_bytes = 0;
  *host_staging_bytes = 0;
  const bool ready = NvjpegReady();
  for (int i = 0; i < n; ++i) {
    if (UsesNvjpeg(targets[i], ready)) *device_scratch_bytes += FullRgbBytes(targets[i]);
    // Staging for every image: the ones nvJPEG rejects are decoded on the CPU too.
    *host_staging_bytes += OutputBytes(targets[i]);
  }
}

namespace {

// The CPU decoder's window for target i, copied to its device output through `staging`.
Status HostDecode(const GpuDecodeTarget& t, int i, uint8_t* staging, cudaStream_t stream) {
  Status s = ExecuteDecode(t.data, t.size, *t.request, *t.plan, staging);
  if (!s.ok()) return s.Prefixed("image " + std::to_string(i) + ": ");
  return CudaStatus(cudaMemcpyAsync(t.device_out, staging, OutputBytes(t), cudaMemcpyHostToDevice, stream),
                    "copying a host-decoded image to the GPU");
}

}  // namespace

Status GpuDecodeBatch(const GpuDecodeTarget* targets, int n, uint8_t* device_scratch, uint8_t* host_staging,
                      cudaStream_t stream) {
  std::vector<const unsigned char*> data;
  std::vector<size_t> lengths;
  std::vector<nvjpegImage_t> images;
  std::vector<int> gpu_index;
  std::vector<uint8_t*> staging_of(n);
  uint8_t* scratch = device_scratch;
  uint8_t* staging = host_staging;
  const bool ready = NvjpegReady();
  for (int i = 0; i < n; ++i) {  // every image has staging, in order (see GpuDecodeBufferSizes)
    staging_of[i] = staging;
    staging += OutputBytes(targets[i]);
  }
  for (int i = 0; i < n; ++i) {
    const GpuDecodeTarget& t = targets[i];
    if (UsesNvjpeg(t, ready)) {
      nvjpegImage_t image = {};
      image.channel[0] = scratch;
      image.pitch[0] = size_t(t.plan->info.width) * 3;
      scratch += FullRgbBytes(t);
      data.push_back(t.data);
      lengths.push_back(t.size);
      images.push_back(image);
      gpu_index.push_back(i);
      continue;
    }
    TFGPUAUG_RETURN_IF_ERROR(HostDecode(t, i, staging_of[i], stream));
  }
  if (!gpu_index.empty()) {
    bool decoded = false;
    {
      std::lock_guard<std::mutex> lock(g_nvjpeg_mutex);
      Nvjpeg* nv = LoadNvjpeg();
      const int count = static_cast<int>(gpu_index.size());
      decoded = Mode() != NvjpegMode::kReject &&
                nv->batched_initialize(nv->handle, nv->state, count, 1, NVJPEG_OUTPUT_RGBI) ==
                    NVJPEG_STATUS_SUCCESS &&
                nv->decode_batched(nv->handle, nv->state, data.data(), lengths.data(), images.data(),
                                   stream) == NVJPEG_STATUS_SUCCESS;
      if (decoded) {
        for (int k = 0; k < count; ++k) {
          const GpuDecodeTarget& t = targets[gpu_index[k]];
          const DecodePlan& p = *t.plan;
          const Window w =
              t.request->has_window ? t.request->window : Window{0, 0, p.out_height, p.out_width};
          WindowFromRgbKernel<<<GridBlocks(size_t(w.height) * w.width), kThreadsPerBlock, 0, stream>>>(
              images[k].channel[0], p.info.width, w.y, w.x, w.height, w.width, t.device_out, p.out_channels);
        }
        TFGPUAUG_RETURN_IF_ERROR(CudaStatus(cudaGetLastError(), "launching the window copy"));
        // The shared nvJPEG state may be reused only once this batch has finished.
        TFGPUAUG_RETURN_IF_ERROR(CudaStatus(cudaStreamSynchronize(stream), "GPU decode"));
      }
    }
    if (!decoded) {
      // nvJPEG refused the batch (an arithmetic-coded, 12-bit or lossless JPEG, or a corrupt
      // one): the CPU decodes those images, and a truly corrupt file fails there, by index.
      WarnOnce(&g_rejected_warning,
               "nvJPEG could not decode a batch (an image it does not support, or a corrupt one)");
      for (int i : gpu_index) TFGPUAUG_RETURN_IF_ERROR(HostDecode(targets[i], i, staging_of[i], stream));
    }
  }
  return CudaStatus(cudaStreamSynchronize(stream), "GPU decode");
}

}  // namespace tfgpuaug
