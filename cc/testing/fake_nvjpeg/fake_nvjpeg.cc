// A stand-in libnvjpeg for the CUDA emulation (cc/testing/cuda_emu), a test harness written
// here: the five entry points tfgpuaug's GPU decoder resolves, decoding with libjpeg on the
// CPU into the "device" buffers (host memory under the emulator). Loaded through
// TFGPUAUG_NVJPEG_PATH, it lets CI run the nvJPEG route of a GPU decode: the groups, the
// allocator hooks (nvjpegCreateExV2 allocates and frees a buffer through them on every
// batch), the window copy kernel and the fallback when a batch is refused.
//
// Refuses a batch as nvJPEG's batched decoder would refuse it, with the whole batch's status:
// NVJPEG_STATUS_JPEG_NOT_SUPPORTED for progressive, arithmetic-coded, 12-bit or CMYK data,
// NVJPEG_STATUS_BAD_JPEG when libjpeg fails. What real nvJPEG does with corrupt entropy data it
// can still parse is not modelled (libjpeg's warnings are ignored here, as an error-tolerant
// decoder would), nor its IDCT and upsampling, which differ from libjpeg's by a few levels.
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <jpeglib.h>
#include <nvjpeg.h>

struct nvjpegHandle {
  bool hooks = false;
  nvjpegDevAllocatorV2_t device{};
  nvjpegPinnedAllocatorV2_t pinned{};
};
struct nvjpegJpegState {
  int batch_size = 0;
  nvjpegOutputFormat_t format = NVJPEG_OUTPUT_RGBI;
  // Buffers from the caller's hooks, kept and grown as nvJPEG keeps its own (4 KB per image).
  void* device = nullptr;
  void* pinned = nullptr;
  size_t buffer_bytes = 0;
};

namespace {

struct ErrorManager {
  jpeg_error_mgr pub;
  jmp_buf jump;
};

[[noreturn]] void OnError(j_common_ptr cinfo) {
  longjmp(reinterpret_cast<ErrorManager*>(cinfo->err)->jump, 1);
}
void OnMessage(j_common_ptr, int) {}

// Decodes one JPEG as interleaved RGB rows `pitch` bytes apart.
nvjpegStatus_t DecodeOne(const unsigned char* data, size_t length, unsigned char* out, size_t pitch) {
  jpeg_decompress_struct cinfo;
  ErrorManager err;
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = OnError;
  err.pub.emit_message = OnMessage;
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return NVJPEG_STATUS_BAD_JPEG;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, data, static_cast<unsigned long>(length));
  jpeg_read_header(&cinfo, TRUE);
  if (cinfo.progressive_mode || cinfo.arith_code || cinfo.data_precision != 8 ||
      cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    jpeg_destroy_decompress(&cinfo);
    return NVJPEG_STATUS_JPEG_NOT_SUPPORTED;
  }
  cinfo.out_color_space = JCS_RGB;
  cinfo.dct_method = JDCT_ISLOW;
  jpeg_start_decompress(&cinfo);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = out + size_t(cinfo.output_scanline) * pitch;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return NVJPEG_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

nvjpegStatus_t nvjpegCreateSimple(nvjpegHandle_t* handle) {
  if (handle == nullptr) return NVJPEG_STATUS_INVALID_PARAMETER;
  *handle = new nvjpegHandle();
  return NVJPEG_STATUS_SUCCESS;
}

nvjpegStatus_t nvjpegCreateExV2(nvjpegBackend_t, nvjpegDevAllocatorV2_t* device,
                                nvjpegPinnedAllocatorV2_t* pinned, unsigned int flags,
                                nvjpegHandle_t* handle) {
  if (handle == nullptr || flags != 0) return NVJPEG_STATUS_INVALID_PARAMETER;
  auto* h = new nvjpegHandle();
  if (device != nullptr && pinned != nullptr) {
    h->hooks = true;
    h->device = *device;
    h->pinned = *pinned;
  }
  *handle = h;
  return NVJPEG_STATUS_SUCCESS;
}

nvjpegStatus_t nvjpegJpegStateCreate(nvjpegHandle_t handle, nvjpegJpegState_t* state) {
  if (handle == nullptr || state == nullptr) return NVJPEG_STATUS_INVALID_PARAMETER;
  *state = new nvjpegJpegState();
  return NVJPEG_STATUS_SUCCESS;
}

nvjpegStatus_t nvjpegDecodeBatchedInitialize(nvjpegHandle_t handle, nvjpegJpegState_t state, int batch_size,
                                             int max_cpu_threads, nvjpegOutputFormat_t format) {
  if (handle == nullptr || state == nullptr || batch_size <= 0 || max_cpu_threads <= 0) {
    return NVJPEG_STATUS_INVALID_PARAMETER;
  }
  if (format != NVJPEG_OUTPUT_RGBI) return NVJPEG_STATUS_JPEG_NOT_SUPPORTED;  // all tfgpuaug asks for
  state->batch_size = batch_size;
  state->format = format;
  return NVJPEG_STATUS_SUCCESS;
}

nvjpegStatus_t nvjpegDecodeBatched(nvjpegHandle_t handle, nvjpegJpegState_t state,
                                   const unsigned char* const* data, const size_t* lengths,
                                   nvjpegImage_t* destinations, cudaStream_t stream) {
  if (handle == nullptr || state == nullptr || state->batch_size <= 0) return NVJPEG_STATUS_NOT_INITIALIZED;
  // Buffers through the caller's hooks, as nvJPEG allocates its own: kept in the state and
  // replaced (freed, then allocated larger) only when a batch needs more.
  const size_t needed = size_t(4096) * state->batch_size;
  if (handle->hooks && needed > state->buffer_bytes) {
    if (state->device != nullptr) {
      handle->device.dev_free(handle->device.dev_ctx, state->device, state->buffer_bytes, stream);
      handle->pinned.pinned_free(handle->pinned.pinned_ctx, state->pinned, state->buffer_bytes, stream);
      state->device = state->pinned = nullptr;
      state->buffer_bytes = 0;
    }
    if (handle->device.dev_malloc(handle->device.dev_ctx, &state->device, needed, stream) != 0 ||
        handle->pinned.pinned_malloc(handle->pinned.pinned_ctx, &state->pinned, needed, stream) != 0) {
      return NVJPEG_STATUS_ALLOCATOR_FAILURE;
    }
    state->buffer_bytes = needed;
  }
  nvjpegStatus_t status = NVJPEG_STATUS_SUCCESS;
  for (int i = 0; i < state->batch_size && status == NVJPEG_STATUS_SUCCESS; ++i) {
    status = DecodeOne(data[i], lengths[i], destinations[i].channel[0], destinations[i].pitch[0]);
  }
  return status;
}

}  // extern "C"
