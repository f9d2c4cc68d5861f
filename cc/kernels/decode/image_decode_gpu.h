// Batched decode into GPU memory: nvJPEG (loaded lazily with dlopen, so the library
// loads on machines without it) for the JPEGs it handles, the CPU decoder plus a copy
// for the rest. Framework-free: the caller provides scratch memory and the stream.
#ifndef TFGPUAUG_CC_KERNELS_DECODE_IMAGE_DECODE_GPU_H_
#define TFGPUAUG_CC_KERNELS_DECODE_IMAGE_DECODE_GPU_H_

#include <cstddef>
#include <cstdint>

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

// Device scratch (nvJPEG's full-size RGB outputs) and pinned host staging (CPU-decoded
// windows) that GpuDecodeBatch needs for these targets.
void GpuDecodeBufferSizes(const GpuDecodeTarget* targets, int n, size_t* device_scratch_bytes,
                          size_t* host_staging_bytes);

// Decodes every target on `stream` and waits for the stream before returning, so the
// buffers may be released afterwards.
Status GpuDecodeBatch(const GpuDecodeTarget* targets, int n, uint8_t* device_scratch, uint8_t* host_staging,
                      cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_DECODE_IMAGE_DECODE_GPU_H_
