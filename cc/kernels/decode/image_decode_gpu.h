// Batched decode into GPU memory: nvJPEG (loaded lazily with dlopen, so the library
// loads on machines without it) for the JPEGs it handles, the CPU decoder plus a copy
// for the rest. Framework-free: the caller provides the memory, the stream and (for nvJPEG's
// own buffers) allocator hooks.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_IMAGE_DECODE_GPU_H_
#define TFGPUAUG_CC_KERNELS_DECODE_IMAGE_DECODE_GPU_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include <cuda_runtime_api.h>

#include "cc/kernels/decode/image_decode.h"

namespace tfgpuaug {

struct GpuDecodeTarget {
  const uint8_t* data;
  size_t size;
  const DecodeRequest* request;
  const DecodePlan* plan;
  uint8_t* device_out;  // plan->out_height * out_width * out_channels bytes
};

// An allocator nvJPEG's buffers come from (the op layer passes TensorFlow's, so nvJPEG does
// not allocate behind its back); allocate returns nullptr when out of memory.
struct GpuMemoryHooks {
  void* context = nullptr;
  void* (*allocate)(void* context, size_t bytes) = nullptr;
  void (*deallocate)(void* context, void* ptr) = nullptr;
};

// The device a decode runs on. nvJPEG keeps one handle and decode state per device, created
// with these hooks on the device's first decode (unset hooks: cudaMalloc and cudaHostAlloc).
struct GpuDecodeDevice {
  int ordinal = 0;
  cudaStream_t stream = nullptr;
  GpuMemoryHooks device_memory, pinned_memory;
  // Runs fn(context, i) for every i in [0, n), in parallel where it can: the images nvJPEG
  // does not take are decoded on the CPU through it (the op layer passes TensorFlow's worker
  // pool; unset, they are decoded one after another on the calling thread).
  void (*parallel_for)(void* pool, int n, void (*fn)(void* context, int i), void* context) = nullptr;
  void* pool = nullptr;
};

// Which decoder produced an image of a GPU decode.
enum class GpuDecodeRoute : uint8_t {
  kHost = 0,           // routed to the CPU decoder (not a JPEG nvJPEG takes, or nvJPEG unavailable)
  kNvjpeg = 1,         // decoded by nvJPEG
  kNvjpegRefused = 2,  // nvJPEG refused its group; the CPU decoder took it
};

// Why nvJPEG cannot be used in this process ("" when it loaded), and the file it was loaded
// from (TFGPUAUG_NVJPEG_PATH, else the first of libnvjpeg.so.12/.13/.so found).
std::string NvjpegLoadError();
std::string NvjpegLoadedFrom();

// Device scratch (nvJPEG's full-size RGB outputs, at most `scratch_budget` bytes unless one
// image alone is larger: see NvjpegGroupEnds) and pinned host staging (CPU-decoded windows)
// that GpuDecodeBatch needs for these targets.
void GpuDecodeBufferSizes(const GpuDecodeTarget* targets, int n, size_t scratch_budget,
                          size_t* device_scratch_bytes, size_t* host_staging_bytes);

// Queues the decode of every target on device.stream and returns without waiting for it:
// the targets' encoded bytes and `host_staging` must stay alive until the stream has passed
// the work (the op layer holds them with TensorFlow's event manager). Device scratch is
// reused in stream order. With `image_statuses` (n entries), an image the CPU decoder finds
// bad is reported there and the rest go on; without, it fails the call, naming the image.
// With `routes` (n entries), each image's decoder is reported there.
Status GpuDecodeBatch(const GpuDecodeTarget* targets, int n, const GpuDecodeDevice& device,
                      size_t scratch_budget, uint8_t* device_scratch, uint8_t* host_staging,
                      Status* image_statuses = nullptr, GpuDecodeRoute* routes = nullptr);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_IMAGE_DECODE_GPU_H_
