// CUDA launchers of Spatter's "mud" (spatter.h) and "rain" (spatter_rain.h) modes: a batch of
// images each.
#ifndef TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_GPU_H_
#define TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_GPU_H_

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cc/kernels/augment/spatter.h"
#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// The batch's draws, every array on the device: params [batch, 4] (mean, std, cutout,
// intensity), seeds [batch], the liquid's blur frames [batch, t1] (float64) and the mask's
// [batch, t2] (float32), the colour [3] in levels.
struct SpatterMudBatch {
  const double* params;
  const int32_t* seeds;
  const double* taps1;
  int t1;
  const float* taps2;
  int t2;
  const double* colour;
};

// Bytes of device scratch SpatterMudGpu needs for a batch of h x w images.
size_t SpatterMudGpuScratchBytes(int batch, int h, int w);

// images [batch, h, w, 3] (device) into out (device, not aliasing them); scratch:
// SpatterMudGpuScratchBytes.
Status SpatterMudGpu(const uint8_t* images, int batch, int h, int w, const SpatterMudBatch& mud,
                     void* scratch, uint8_t* out, cudaStream_t stream);

// Bytes of device scratch SpatterRainGpu needs for a batch of h x w images.
size_t SpatterRainGpuScratchBytes(int batch, int h, int w);

// The rain: the same draws as the mud but the mask's frames (taps2, t2 unused), into out
// (device, not aliasing images); scratch: SpatterRainGpuScratchBytes. Hysteresis and the
// distance transform run one thread a sample (both are sequential scans).
Status SpatterRainGpu(const uint8_t* images, int batch, int h, int w, const SpatterMudBatch& rain,
                      void* scratch, uint8_t* out, cudaStream_t stream);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_AUGMENT_SPATTER_GPU_H_
