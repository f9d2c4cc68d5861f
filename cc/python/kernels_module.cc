// tfgpuaug_kernels: a TensorFlow-free Python module over cc/kernels, so the CUDA kernels
// can be checked against the CPU kernels on a GPU machine that has no TensorFlow.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cc/kernels/augment/augment_cpu.h"
#include "cc/kernels/augment/channel_histograms_cpu.h"
#include "cc/kernels/augment/filter2d.h"
#include "cc/kernels/augment/filter2d_cpu.h"
#include "cc/kernels/augment/flare_blend_cpu.h"
#include "cc/kernels/augment/glass_swaps_cpu.h"
#include "cc/kernels/augment/he_stain_cpu.h"
#include "cc/kernels/augment/hls_lightness_cpu.h"
#include "cc/kernels/augment/level_tables.h"
#include "cc/kernels/augment/level_tables_cpu.h"
#include "cc/kernels/augment/pattern_blend_cpu.h"
#include "cc/kernels/augment/plasma.h"
#include "cc/kernels/augment/plasma_cpu.h"
#include "cc/kernels/augment/separable_blur.h"
#include "cc/kernels/augment/separable_blur_cpu.h"
#include "cc/kernels/augment/span_raster_cpu.h"
#include "cc/kernels/augment/spatter_cpu.h"
#include "cc/kernels/augment/spatter_rain_cpu.h"
#include "cc/kernels/augment/stain_nmf_cpu.h"
#include "cc/kernels/augment/sun_flare_cpu.h"
#include "cc/kernels/augment/superpixels.h"
#include "cc/kernels/augment/superpixels_cpu.h"
#include "cc/kernels/augment/tissue_plane_cpu.h"
#include "cc/kernels/augment/unsharp_mask.h"
#include "cc/kernels/augment/unsharp_mask_cpu.h"
#include "cc/kernels/augment/zoom_blur_cpu.h"
#include "cc/kernels/common/large_block_pool.h"
#include "cc/kernels/decode/codecs.h"
#include "cc/kernels/decode/decode_crop_resize.h"
#include "cc/kernels/decode/gpu_decode_route.h"
#include "cc/kernels/decode/image_decode.h"
#include "cc/kernels/normalize/normalize_cpu.h"
#include "cc/kernels/resample/resample_cpu.h"
#include "cc/kernels/warp/cell_maps.h"
#include "cc/kernels/warp/cell_maps_cpu.h"
#include "cc/kernels/warp/elastic_maps_cpu.h"
#include "cc/kernels/warp/remap_cpu.h"
#include "cc/kernels/warp/tile_shuffle_cpu.h"
#include "cc/kernels/warp/warp_cpu.h"
#ifndef TFGPUAUG_CUDA
#define TFGPUAUG_CUDA 0
#endif
#if TFGPUAUG_CUDA
#include <cuda_runtime.h>
#ifdef TFGPUAUG_CUDA_EMULATION  // cc/testing/cuda_emu
#define TFGPUAUG_CUDA_EMULATED 1
#else
#define TFGPUAUG_CUDA_EMULATED 0
#endif

#include "cc/kernels/augment/augment_gpu.h"
#include "cc/kernels/augment/channel_histograms_gpu.h"
#include "cc/kernels/augment/filter2d_gpu.h"
#include "cc/kernels/augment/flare_blend_gpu.h"
#include "cc/kernels/augment/glass_swaps_gpu.h"
#include "cc/kernels/augment/he_stain_gpu.h"
#include "cc/kernels/augment/hls_lightness_gpu.h"
#include "cc/kernels/augment/level_tables_gpu.h"
#include "cc/kernels/augment/pattern_blend_gpu.h"
#include "cc/kernels/augment/plasma_gpu.h"
#include "cc/kernels/augment/separable_blur_gpu.h"
#include "cc/kernels/augment/span_raster_gpu.h"
#include "cc/kernels/augment/spatter_gpu.h"
#include "cc/kernels/augment/stain_nmf_gpu.h"
#include "cc/kernels/augment/sun_flare_gpu.h"
#include "cc/kernels/augment/superpixels_gpu.h"
#include "cc/kernels/augment/tissue_plane_gpu.h"
#include "cc/kernels/augment/unsharp_mask_gpu.h"
#include "cc/kernels/augment/zoom_blur_gpu.h"
#include "cc/kernels/common/cuda_launch.h"
#include "cc/kernels/decode/image_decode_gpu.h"
#include "cc/kernels/normalize/normalize_gpu.h"
#include "cc/kernels/resample/resample_gpu.h"
#include "cc/kernels/warp/cell_maps_gpu.h"
#include "cc/kernels/warp/elastic_maps_gpu.h"
#include "cc/kernels/warp/remap_gpu.h"
#include "cc/kernels/warp/tile_shuffle_gpu.h"
#include "cc/kernels/warp/warp_gpu.h"
#endif

namespace py = pybind11;
using tfgpuaug::DecodePlan;
using tfgpuaug::DecodeRequest;

namespace {

tfgpuaug::JpegBuild JpegBuildNamed(const std::string& name) {
  if (name == "auto") return tfgpuaug::JpegBuild::kAuto;
  if (name == "linked") return tfgpuaug::JpegBuild::kLinked;
  if (name == "x86_64_v3") return tfgpuaug::JpegBuild::kX86_64V3;
  throw std::invalid_argument("jpeg_build must be auto, linked or x86_64_v3, got " + name);
}

DecodeRequest MakeRequest(int channels, std::optional<std::vector<int>> window, int dct_denom,
                          bool orientation, const std::string& jpeg_build) {
  DecodeRequest r;
  r.channels = channels;
  r.jpeg_build = JpegBuildNamed(jpeg_build);
  r.dct_denom = dct_denom;
  r.apply_exif_orientation = orientation;
  if (window) {
    if (window->size() != 4) throw std::invalid_argument("window must be [y, x, height, width]");
    r.has_window = true;
    r.window = tfgpuaug::Window{(*window)[0], (*window)[1], (*window)[2], (*window)[3]};
  }
  return r;
}

// A failed Status as a Python exception: MemoryError when memory ran out, else ValueError.
// (This module's exception barrier is pybind11's dispatcher, which catches whatever a bound
// function throws and raises it in Python; the decoders also catch their own, as in the ops.)
void Check(const tfgpuaug::Status& s) {
  if (s.ok()) return;
  if (s.kind() == tfgpuaug::Status::Kind::kOutOfMemory) {
    PyErr_SetString(PyExc_MemoryError, s.message().c_str());
    throw py::error_already_set();
  }
  throw std::invalid_argument(s.message());
}

// `strided`: through ExecuteDecodeStrided (rows left where libjpeg writes them), copied
// out packed so tests can compare it with the packed decode.
// `jpeg_build`: which libjpeg decodes a JPEG ("auto", "linked" or "x86_64_v3").
py::array_t<uint8_t> Decode(py::bytes data, int channels, std::optional<std::vector<int>> window,
                            int dct_denom, bool apply_exif_orientation, bool strided,
                            const std::string& jpeg_build) {
  const std::string bytes = data;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  DecodeRequest r = MakeRequest(channels, window, dct_denom, apply_exif_orientation, jpeg_build);
  DecodePlan plan;
  Check(tfgpuaug::PlanDecode(p, bytes.size(), r, &plan));
  py::array_t<uint8_t> out({plan.out_height, plan.out_width, plan.out_channels});
  if (!strided) {
    Check(tfgpuaug::ExecuteDecode(p, bytes.size(), r, plan, out.mutable_data()));
    return out;
  }
  std::unique_ptr<uint8_t[]> storage;
  tfgpuaug::StridedPixels pixels;
  Check(tfgpuaug::ExecuteDecodeStrided(p, bytes.size(), r, plan, &storage, &pixels));
  const size_t row = size_t(plan.out_width) * plan.out_channels;
  for (int y = 0; y < plan.out_height; ++y) {
    std::memcpy(out.mutable_data() + y * row, pixels.first + y * pixels.row_stride, row);
  }
  return out;
}

using U8Image = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;

tfgpuaug::ResizeMethod Method(const std::string& m) {
  if (m == "nearest") return tfgpuaug::ResizeMethod::kNearest;
  if (m == "bilinear") return tfgpuaug::ResizeMethod::kBilinear;
  if (m == "bicubic") return tfgpuaug::ResizeMethod::kBicubic;
  if (m == "area") return tfgpuaug::ResizeMethod::kArea;
  throw std::invalid_argument("unknown method " + m);
}

// The resampler's fused epilogue: mirror, and (x - mean) / std when mean is given.
tfgpuaug::Epilogue MakeEpilogue(int c, bool mirror, const std::optional<std::vector<float>>& mean,
                                const std::optional<std::vector<float>>& std) {
  tfgpuaug::Epilogue e;
  e.mirror = mirror;
  if (mean.has_value() != std.has_value()) throw std::invalid_argument("give both mean and std, or neither");
  if (mean) {
    if (int(mean->size()) != c || int(std->size()) != c) throw std::invalid_argument("mean/std per channel");
    e.normalize = true;
    for (int k = 0; k < c; ++k) e.mean[k] = (*mean)[k], e.inv_std[k] = 1.f / (*std)[k];
  }
  return e;
}

// [H, W, C] uint8 -> [out_h, out_w, C]: float (unrounded, to compare devices), or uint8
// (rounded) with uint8_out; mirror and normalize through the fused epilogue.
py::array Resize(U8Image img, int out_h, int out_w, const std::string& method, bool antialias, bool mirror,
                 std::optional<std::vector<float>> mean, std::optional<std::vector<float>> std,
                 bool uint8_out) {
  const int h = img.shape(0), w = img.shape(1), c = img.shape(2);
  const auto ay = tfgpuaug::MakeAxis(Method(method), antialias, 0.f, h, out_h, h);
  const auto ax = tfgpuaug::MakeAxis(Method(method), antialias, 0.f, w, out_w, w);
  const tfgpuaug::Epilogue e = MakeEpilogue(c, mirror, mean, std);
  if (uint8_out) {
    if (e.normalize) throw std::invalid_argument("normalized output is float");
    py::array_t<uint8_t> out({out_h, out_w, c});
    tfgpuaug::ResampleImageCpu<uint8_t, uint8_t>(img.data(), h, w, c, long(w) * c, ay, ax, out_h, out_w,
                                                 out.mutable_data(), e);
    return out;
  }
  py::array_t<float> out({out_h, out_w, c});
  tfgpuaug::ResampleImageCpu<uint8_t, float>(img.data(), h, w, c, long(w) * c, ay, ax, out_h, out_w,
                                             out.mutable_data(), e);
  return out;
}

// The warp of an [H, W, C] image (or of each of a [B, H, W, C] batch) to out_h x out_w
// (0: the input's size).
tfgpuaug::AffineParams Affine(const U8Image& img, bool bilinear, float fill, int out_h = 0, int out_w = 0) {
  const int d = img.ndim() == 4 ? 1 : 0;
  return {int(img.shape(d)),
          int(img.shape(d + 1)),
          int(img.shape(d + 2)),
          out_h > 0 ? out_h : int(img.shape(d)),
          out_w > 0 ? out_w : int(img.shape(d + 1)),
          bilinear ? tfgpuaug::Interpolation::kBilinear : tfgpuaug::Interpolation::kNearest,
          fill};
}

py::array_t<uint8_t> WarpAffine(U8Image img, std::vector<float> m, bool bilinear, float fill, bool general,
                                int out_h, int out_w) {
  if (m.size() != 6) throw std::invalid_argument("matrix must have 6 values");
  if (img.ndim() != 3) throw std::invalid_argument("image must be [H, W, C]");
  const auto p = Affine(img, bilinear, fill, out_h, out_w);
  py::array_t<uint8_t> out({p.out_h, p.out_w, p.channels});
  if (general) {
    tfgpuaug::WarpAffineGeneralCpu(img.data(), p, m.data(), out.mutable_data());
  } else {
    tfgpuaug::WarpAffineCpu(img.data(), p, m.data(), out.mutable_data());
  }
  return out;
}

// Remap of a batch [B, H, W, C] through maps [B, h, w, 2] (border: cv2's BORDER_* number).
tfgpuaug::RemapParams RemapOf(const py::array& images, const py::array& maps, bool bilinear, int border,
                              float fill) {
  if (images.ndim() != 4 || maps.ndim() != 4 || maps.shape(3) != 2 || maps.shape(0) != images.shape(0)) {
    throw std::invalid_argument("need images [B, H, W, C] and maps [B, h, w, 2]");
  }
  if (border < 0 || border > 4) throw std::invalid_argument("border must be 0..4 (cv2.BORDER_*)");
  return {int(images.shape(1)),
          int(images.shape(2)),
          int(images.shape(3)),
          int(maps.shape(1)),
          int(maps.shape(2)),
          bilinear ? tfgpuaug::Interpolation::kBilinear : tfgpuaug::Interpolation::kNearest,
          static_cast<tfgpuaug::BorderMode>(border),
          tfgpuaug::RoundHalfEvenToUint8(fill)};
}

py::array_t<uint8_t> Remap(U8Image images, py::array_t<float, py::array::c_style | py::array::forcecast> maps,
                           bool bilinear, int border, float fill) {
  const auto p = RemapOf(images, maps, bilinear, border, fill);
  const int b = images.shape(0);
  py::array_t<uint8_t> out({b, p.out_h, p.out_w, p.channels});
  const int64_t in_per = int64_t{p.in_h} * p.in_w * p.channels, pixels = int64_t{p.out_h} * p.out_w;
  for (int i = 0; i < b; ++i) {
    tfgpuaug::RemapCpu(images.data() + i * in_per, p, maps.data() + 2 * i * pixels,
                       out.mutable_data() + i * pixels * p.channels);
  }
  return out;
}

// Affine remap of a batch [B, H, W, C] by matrices [B, 2, 3] to out_h x out_w.
tfgpuaug::RemapParams RemapAffineOf(const py::array& images, const py::array& matrices, int out_h, int out_w,
                                    bool bilinear, int border, float fill) {
  if (images.ndim() != 4 || matrices.ndim() != 3 || matrices.shape(0) != images.shape(0) ||
      matrices.shape(1) != 2 || matrices.shape(2) != 3 || out_h < 0 || out_w < 0) {
    throw std::invalid_argument("need images [B, H, W, C], matrices [B, 2, 3] and a size of at least 0");
  }
  if (border < 0 || border > 4) throw std::invalid_argument("border must be 0..4 (cv2.BORDER_*)");
  return {int(images.shape(1)),
          int(images.shape(2)),
          int(images.shape(3)),
          out_h,
          out_w,
          bilinear ? tfgpuaug::Interpolation::kBilinear : tfgpuaug::Interpolation::kNearest,
          static_cast<tfgpuaug::BorderMode>(border),
          tfgpuaug::RoundHalfEvenToUint8(fill)};
}

py::array_t<uint8_t> RemapAffine(U8Image images,
                                 py::array_t<float, py::array::c_style | py::array::forcecast> matrices,
                                 int out_h, int out_w, bool bilinear, int border, float fill) {
  const auto p = RemapAffineOf(images, matrices, out_h, out_w, bilinear, border, fill);
  const int b = images.shape(0);
  py::array_t<uint8_t> out({b, p.out_h, p.out_w, p.channels});
  const int64_t in_per = int64_t{p.in_h} * p.in_w * p.channels,
                out_per = int64_t{p.out_h} * p.out_w * p.channels;
  for (int i = 0; i < b; ++i) {
    tfgpuaug::RemapAffineCpu(images.data() + i * in_per, p, matrices.data() + 6 * i,
                             out.mutable_data() + i * out_per);
  }
  return out;
}

// Checks a radial remap's coefficients [B, 2] against images [B, H, W, C]; the params (output
// the input's size).
tfgpuaug::RemapParams RemapRadialOf(const py::array& images, const py::array& coefficients, bool bilinear,
                                    int border, float fill) {
  const bool per_image = coefficients.ndim() == 2 && coefficients.shape(1) == 2;
  const bool per_channel = images.ndim() == 4 && coefficients.ndim() == 3 &&
                           coefficients.shape(1) == images.shape(3) && coefficients.shape(2) == 2;
  if (images.ndim() != 4 || !(per_image || per_channel) || coefficients.shape(0) != images.shape(0)) {
    throw std::invalid_argument("need images [B, H, W, C] and coefficients [B, 2] or [B, C, 2]");
  }
  if (border < 0 || border > 4) throw std::invalid_argument("border must be 0..4 (cv2.BORDER_*)");
  const int h = int(images.shape(1)), w = int(images.shape(2));
  return {h,
          w,
          int(images.shape(3)),
          h,
          w,
          bilinear ? tfgpuaug::Interpolation::kBilinear : tfgpuaug::Interpolation::kNearest,
          static_cast<tfgpuaug::BorderMode>(border),
          tfgpuaug::RoundHalfEvenToUint8(fill)};
}

py::array_t<uint8_t> RemapRadial(U8Image images,
                                 py::array_t<float, py::array::c_style | py::array::forcecast> coefficients,
                                 bool bilinear, int border, float fill) {
  const auto p = RemapRadialOf(images, coefficients, bilinear, border, fill);
  const int b = images.shape(0);
  py::array_t<uint8_t> out({b, p.out_h, p.out_w, p.channels});
  const int64_t per = int64_t{p.in_h} * p.in_w * p.channels;
  std::vector<uint8_t> planes(coefficients.ndim() == 3 ? 2 * size_t(p.in_h) * p.in_w : 0);
  for (int i = 0; i < b; ++i) {
    if (coefficients.ndim() == 3) {
      tfgpuaug::RemapRadialChannelsCpu(images.data() + i * per, p, coefficients.data() + 2 * p.channels * i,
                                       planes.data(), out.mutable_data() + i * per);
    } else {
      tfgpuaug::RemapRadialCpu(images.data() + i * per, p, coefficients.data() + 2 * i,
                               out.mutable_data() + i * per);
    }
  }
  return out;
}

using I32Array = py::array_t<int32_t, py::array::c_style | py::array::forcecast>;
using F32Array = py::array_t<float, py::array::c_style | py::array::forcecast>;

// Checks the separable resampling's tables against a batch [B, H, W, C]; returns (out_h, out_w).
std::pair<int, int> SeparableShape(const py::array& images, const I32Array& row_index,
                                   const F32Array& row_weight, const I32Array& col_index,
                                   const F32Array& col_weight) {
  const auto b = images.ndim() == 4 ? images.shape(0) : -1;
  const auto ok = [b](const I32Array& index, const F32Array& weight) {
    return index.ndim() == 3 && index.shape(0) == b && index.shape(2) == 2 && weight.ndim() == 2 &&
           weight.shape(0) == b && weight.shape(1) == index.shape(1);
  };
  if (!ok(row_index, row_weight) || !ok(col_index, col_weight)) {
    throw std::invalid_argument("need images [B, H, W, C], index tables [B, n, 2] and weights [B, n]");
  }
  return {int(row_index.shape(1)), int(col_index.shape(1))};
}

py::array_t<uint8_t> SeparableResample(U8Image images, I32Array row_index, F32Array row_weight,
                                       I32Array col_index, F32Array col_weight, float fill) {
  const auto [out_h, out_w] = SeparableShape(images, row_index, row_weight, col_index, col_weight);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array_t<uint8_t> out({b, out_h, out_w, c});
  for (int i = 0; i < b; ++i) {
    const tfgpuaug::SeparableTaps rows{row_index.data() + 2 * i * out_h, row_weight.data() + i * out_h};
    const tfgpuaug::SeparableTaps cols{col_index.data() + 2 * i * out_w, col_weight.data() + i * out_w};
    tfgpuaug::SeparableResampleCpu(images.data() + int64_t{i} * h * w * c, h, w, c, rows, out_h, cols, out_w,
                                   tfgpuaug::RoundHalfEvenToUint8(fill),
                                   out.mutable_data() + int64_t{i} * out_h * out_w * c);
  }
  return out;
}

// Checks the elastic maps' arguments: seeds [B], alpha [B], an odd kernel; the shape.
tfgpuaug::ElasticShape ElasticShapeOf(const I32Array& seeds, const F32Array& alpha, const F32Array& kernel,
                                      int h, int w, bool same_dxdy, bool gaussian) {
  if (seeds.ndim() != 1 || alpha.ndim() != 1 || seeds.shape(0) != alpha.shape(0) || kernel.ndim() != 1 ||
      kernel.shape(0) % 2 != 1 || h < 1 || w < 1 || h > tfgpuaug::kMaxElasticSide ||
      w > tfgpuaug::kMaxElasticSide) {
    throw std::invalid_argument("need seeds [B], alpha [B], an odd kernel [taps] and a size of at least 1");
  }
  return {h, w, same_dxdy ? 1 : 2, gaussian, int(kernel.shape(0))};
}

py::array_t<float> ElasticMaps(I32Array seeds, F32Array alpha, F32Array kernel, int h, int w, bool same_dxdy,
                               bool gaussian) {
  const auto s = ElasticShapeOf(seeds, alpha, kernel, h, w, same_dxdy, gaussian);
  const int b = seeds.shape(0);
  std::vector<float> weights(2 * (size_t(w) + h)), scratch(tfgpuaug::ElasticScratchFloats(s));
  tfgpuaug::ElasticEdgeWeights(kernel.data(), s.taps, w, weights.data(), weights.data() + w);
  tfgpuaug::ElasticEdgeWeights(kernel.data(), s.taps, h, weights.data() + 2 * w, weights.data() + 2 * w + h);
  const tfgpuaug::ElasticEdges edges{weights.data(), weights.data() + w, weights.data() + 2 * w,
                                     weights.data() + 2 * w + h};
  py::array_t<float> out({b, h, w, 2});
  for (int i = 0; i < b; ++i) {
    tfgpuaug::ElasticMapsCpu(s, kernel.data(), edges, static_cast<uint32_t>(seeds.data()[i]), alpha.data()[i],
                             scratch.data(), out.mutable_data() + int64_t{i} * h * w * 2);
  }
  return out;
}

// Checks a batch [B, H, W, C] and its tile plans; returns (rows, cols).
std::pair<int, int> TileShuffleShape(const py::array& images, const I32Array& row_starts,
                                     const I32Array& col_starts, const I32Array& sources) {
  const auto b = images.ndim() == 4 ? images.shape(0) : -1;
  if (row_starts.ndim() != 2 || col_starts.ndim() != 2 || sources.ndim() != 2 || row_starts.shape(0) != b ||
      col_starts.shape(0) != b || sources.shape(0) != b || row_starts.shape(1) < 2 ||
      col_starts.shape(1) < 2 || row_starts.shape(1) > tfgpuaug::kMaxTileShuffleParts + 1 ||
      col_starts.shape(1) > tfgpuaug::kMaxTileShuffleParts + 1 ||
      sources.shape(1) != (row_starts.shape(1) - 1) * (col_starts.shape(1) - 1)) {
    throw std::invalid_argument(
        "need images [B, H, W, C], row_starts [B, rows + 1], col_starts [B, cols + 1], "
        "sources [B, rows * cols]");
  }
  return {int(row_starts.shape(1)) - 1, int(col_starts.shape(1)) - 1};
}

py::array_t<uint8_t> TileShuffle(U8Image images, I32Array row_starts, I32Array col_starts, I32Array sources) {
  const auto [rows, cols] = TileShuffleShape(images, row_starts, col_starts, sources);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array_t<uint8_t> out({b, h, w, c});
  for (int i = 0; i < b; ++i) {
    const tfgpuaug::TilePlan p{row_starts.data() + i * (rows + 1), rows, col_starts.data() + i * (cols + 1),
                               cols, sources.data() + i * rows * cols};
    const std::string bad = tfgpuaug::CheckTilePlan(p, h, w);
    if (!bad.empty()) throw std::invalid_argument("tile plan: " + bad);
    tfgpuaug::TileShuffleCpu(images.data() + int64_t{i} * h * w * c, h, w, c, p,
                             out.mutable_data() + int64_t{i} * h * w * c);
  }
  return out;
}

// Checks a batch [B, H, W, C] and its unsharp mask arguments; returns the taps.
int UnsharpShape(const py::array& images, const F32Array& weights, const F32Array& alpha,
                 const F32Array& threshold) {
  const auto b = images.ndim() == 4 ? images.shape(0) : -1;
  if (weights.ndim() != 2 || weights.shape(0) != b || weights.shape(1) % 2 != 1 ||
      weights.shape(1) > tfgpuaug::kMaxUnsharpTaps || alpha.ndim() != 1 || alpha.shape(0) != b ||
      threshold.ndim() != 1 || threshold.shape(0) != b) {
    throw std::invalid_argument(
        "need images [B, H, W, C], weights [B, taps] (taps odd), alpha [B], threshold [B]");
  }
  return int(weights.shape(1));
}

py::array_t<uint8_t> UnsharpMask(U8Image images, F32Array weights, F32Array alpha, F32Array threshold) {
  const int taps = UnsharpShape(images, weights, alpha, threshold);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array_t<uint8_t> out({b, h, w, c});
  std::vector<float> scratch(tfgpuaug::UnsharpScratchFloats(h, w, c));
  for (int i = 0; i < b; ++i) {
    tfgpuaug::UnsharpMaskCpu(images.data() + int64_t{i} * h * w * c, h, w, c, weights.data() + i * taps, taps,
                             alpha.data()[i], threshold.data()[i], scratch.data(),
                             out.mutable_data() + int64_t{i} * h * w * c);
  }
  return out;
}

using F64Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Checks a batch [B, H, W, C] and its SunFlare arguments (sun_flare_ops.cc's shapes); returns (N, M).
std::pair<int, int> SunFlareShape(const py::array& images, const I32Array& circles,
                                  const F32Array& circle_weights, const U8Image& colours,
                                  const I32Array& suns, const I32Array& radii, const F32Array& weights,
                                  const U8Image& sun_colour) {
  const auto b = images.ndim() == 4 ? images.shape(0) : -1, c = images.ndim() == 4 ? images.shape(3) : -1;
  const auto n = circles.ndim() == 3 ? circles.shape(1) : -1, m = radii.ndim() == 1 ? radii.shape(0) : -1;
  const auto is = [](const py::array& a, std::vector<py::ssize_t> dims) {
    return a.ndim() == py::ssize_t(dims.size()) && std::equal(dims.begin(), dims.end(), a.shape());
  };
  if (b < 0 || n < 0 || n > tfgpuaug::kMostFlareCircles || m < 0 || m > tfgpuaug::kMostSunDiscs ||
      !is(circles, {b, n, 3}) || !is(circle_weights, {b, n, 2}) || !is(colours, {b, n, c}) ||
      !is(suns, {b, 2}) || !is(weights, {b, m, 2}) || !is(sun_colour, {c})) {
    throw std::invalid_argument(
        "need images [B, H, W, C], circles [B, N, 3], circle_weights [B, N, 2], circle_colours [B, N, C], "
        "suns [B, 2], sun_radii [M], sun_weights [B, M, 2], sun_colour [C]");
  }
  return {int(n), int(m)};
}

py::array_t<uint8_t> SunFlare(U8Image images, I32Array circles, F32Array circle_weights, U8Image colours,
                              I32Array suns, I32Array radii, F32Array weights, U8Image sun_colour) {
  const auto [n, m] =
      SunFlareShape(images, circles, circle_weights, colours, suns, radii, weights, sun_colour);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array_t<uint8_t> out({b, h, w, c});
  std::vector<uint8_t> tables(tfgpuaug::SunFlareScratchBytes(m, c));
  for (int i = 0; i < b; ++i) {
    const tfgpuaug::SunFlarePlan plan{circles.data() + i * n * 3,
                                      circle_weights.data() + i * n * 2,
                                      colours.data() + i * n * c,
                                      n,
                                      suns.data()[2 * i],
                                      suns.data()[2 * i + 1],
                                      radii.data(),
                                      weights.data() + i * m * 2,
                                      m,
                                      sun_colour.data()};
    tfgpuaug::SunFlareCpu(images.data() + int64_t{i} * h * w * c, h, w, c, plan, tables.data(),
                          out.mutable_data() + int64_t{i} * h * w * c);
  }
  return out;
}

// The counter-hash standard normals of one seed (the elastic fields' and Spatter's noise).
py::array_t<float> CounterNormals(int32_t seed, int64_t count) {
  if (count < 0 || count > tfgpuaug::kMaxSpatterPixels) throw std::invalid_argument("count out of range");
  py::array_t<float> out(count);
  tfgpuaug::ElasticNoiseCpu(static_cast<uint32_t>(seed), static_cast<uint32_t>(count), true,
                            out.mutable_data());
  return out;
}

// Checks a batch [B, H, W, 3] and its SpatterMud arguments (spatter_ops.cc's shapes).
// Checks owners [B, H, W] and matrices [B, K, 9]; returns K.
int CellMapsShape(const I32Array& owners, const F64Array& matrices) {
  if (owners.ndim() != 3 || matrices.ndim() != 3 || matrices.shape(0) != owners.shape(0) ||
      matrices.shape(2) != 9 || owners.shape(1) > tfgpuaug::kMaxCellMapsSide ||
      owners.shape(2) > tfgpuaug::kMaxCellMapsSide || matrices.shape(1) > tfgpuaug::kMaxCellMapsCells) {
    throw std::invalid_argument(
        "need owners [B, H, W] and matrices [B, K, 9] (sides and cells within bounds)");
  }
  return static_cast<int>(matrices.shape(1));
}

py::array_t<float> CellMaps(I32Array owners, F64Array matrices) {
  const int cells = CellMapsShape(owners, matrices);
  const int b = owners.shape(0), h = owners.shape(1), w = owners.shape(2);
  py::array_t<float> out({b, h, w, 2});
  for (int i = 0; i < b; ++i) {
    tfgpuaug::CellMapsCpu(owners.data() + int64_t{i} * h * w, matrices.data() + int64_t{i} * cells * 9, cells,
                          h, w, out.mutable_data() + int64_t{i} * h * w * 2);
  }
  return out;
}

void SpatterMudShape(const py::array& images, const F64Array& params, const I32Array& seeds,
                     const F64Array& taps1, const F32Array& taps2, const F64Array& colour) {
  const auto b = images.ndim() == 4 ? images.shape(0) : -1;
  const auto odd = [](const py::array& t, py::ssize_t b) {
    return t.ndim() == 2 && t.shape(0) == b && t.shape(1) % 2 == 1 && t.shape(1) <= tfgpuaug::kMaxSpatterTaps;
  };
  if (b < 0 || images.shape(3) != 3 || params.ndim() != 2 || params.shape(0) != b || params.shape(1) != 4 ||
      seeds.ndim() != 1 || seeds.shape(0) != b || !odd(taps1, b) || !odd(taps2, b) || colour.ndim() != 1 ||
      colour.shape(0) != 3) {
    throw std::invalid_argument(
        "need images [B, H, W, 3], params [B, 4], seeds [B], liquid_taps [B, T1], mask_taps [B, T2] (odd) "
        "and colour [3]");
  }
}

py::array_t<uint8_t> SpatterMud(U8Image images, F64Array params, I32Array seeds, F64Array taps1,
                                F32Array taps2, F64Array colour) {
  SpatterMudShape(images, params, seeds, taps1, taps2, colour);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2);
  const int t1 = taps1.shape(1), t2 = taps2.shape(1);
  py::array_t<uint8_t> out({b, h, w, 3});
  std::vector<uint8_t> scratch(tfgpuaug::SpatterScratchBytes(h, w));
  for (int i = 0; i < b; ++i) {
    const double* p = params.data() + 4 * i;
    const tfgpuaug::SpatterMudPlan plan{{p[0], p[1], p[2], p[3]},
                                        static_cast<uint32_t>(seeds.data()[i]),
                                        taps1.data() + i * t1,
                                        t1,
                                        taps2.data() + i * t2,
                                        t2,
                                        colour.data()};
    tfgpuaug::SpatterMudCpu(images.data() + int64_t{i} * h * w * 3, h, w, plan, scratch.data(),
                            out.mutable_data() + int64_t{i} * h * w * 3);
  }
  return out;
}

// Checks a batch [B, H, W, 3] and its SpatterRain arguments (spatter_ops.cc's shapes).
void SpatterRainShape(const py::array& images, const F64Array& params, const I32Array& seeds,
                      const F64Array& taps1, const F64Array& colour) {
  const auto b = images.ndim() == 4 ? images.shape(0) : -1;
  if (b < 0 || images.shape(3) != 3 || params.ndim() != 2 || params.shape(0) != b || params.shape(1) != 4 ||
      seeds.ndim() != 1 || seeds.shape(0) != b || taps1.ndim() != 2 || taps1.shape(0) != b ||
      taps1.shape(1) % 2 != 1 || taps1.shape(1) > tfgpuaug::kMaxSpatterTaps || colour.ndim() != 1 ||
      colour.shape(0) != 3) {
    throw std::invalid_argument(
        "need images [B, H, W, 3], params [B, 4], seeds [B], liquid_taps [B, T1] (odd) and colour [3]");
  }
}

py::array_t<uint8_t> SpatterRain(U8Image images, F64Array params, I32Array seeds, F64Array taps1,
                                 F64Array colour) {
  SpatterRainShape(images, params, seeds, taps1, colour);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), t1 = taps1.shape(1);
  py::array_t<uint8_t> out({b, h, w, 3});
  std::vector<uint8_t> scratch(tfgpuaug::SpatterRainScratchBytes(h, w));
  for (int i = 0; i < b; ++i) {
    const double* p = params.data() + 4 * i;
    const tfgpuaug::SpatterRainPlan plan{{p[0], p[1], p[2], p[3]},
                                         static_cast<uint32_t>(seeds.data()[i]),
                                         taps1.data() + i * t1,
                                         t1,
                                         colour.data()};
    tfgpuaug::SpatterRainCpu(images.data() + int64_t{i} * h * w * 3, h, w, plan, scratch.data(),
                             out.mutable_data() + int64_t{i} * h * w * 3);
  }
  return out;
}

using BoolArray = py::array_t<bool, py::array::c_style | py::array::forcecast>;

// Checks RGB images [B, H, W, 3] and the HeStain op's arguments.
void HeStainShape(const py::array& images, const F32Array& densities, const F64Array& thresholds,
                  const U8Image& cells, const F64Array& projections, const F64Array& matrices,
                  const F64Array& scales, const F64Array& shifts, const BoolArray& apply) {
  const auto b = images.ndim() == 4 && images.shape(3) == 3 ? images.shape(0) : -1;
  const auto is = [](const py::array& a, std::initializer_list<py::ssize_t> dims) {
    return a.ndim() == static_cast<py::ssize_t>(dims.size()) &&
           std::equal(dims.begin(), dims.end(), a.shape());
  };
  if (b < 0 || !is(densities, {256}) || !is(thresholds, {tfgpuaug::kHeThresholds}) ||
      !is(cells, {tfgpuaug::kHeCells}) || !is(projections, {b, 2, 3}) || !is(matrices, {b, 2, 3}) ||
      !is(scales, {b, 2}) || !is(shifts, {b, 2}) || !is(apply, {b})) {
    throw std::invalid_argument(
        "need RGB images [B, H, W, 3], densities [256], thresholds [255], cells [3226], "
        "projections and matrices [B, 2, 3], scales and shifts [B, 2], apply [B]");
  }
}

py::array_t<uint8_t> HeStain(U8Image images, F32Array densities, F64Array thresholds, U8Image cells,
                             F64Array projections, F64Array matrices, F64Array scales, F64Array shifts,
                             BoolArray apply, bool background) {
  HeStainShape(images, densities, thresholds, cells, projections, matrices, scales, shifts, apply);
  const int b = images.shape(0);
  const size_t pixels = size_t(images.shape(1)) * images.shape(2);
  py::array_t<uint8_t> out({b, int(images.shape(1)), int(images.shape(2)), 3});
  for (int i = 0; i < b; ++i) {
    const uint8_t* src = images.data() + i * pixels * 3;
    uint8_t* dst = out.mutable_data() + i * pixels * 3;
    if (!apply.data()[i]) {
      std::copy(src, src + pixels * 3, dst);
      continue;
    }
    const tfgpuaug::HeStainPlan plan{projections.data() + 6 * i, matrices.data() + 6 * i,
                                     scales.data() + 2 * i, shifts.data() + 2 * i};
    tfgpuaug::HeStainCpu(src, pixels, densities.data(), thresholds.data(), cells.data(), plan, background,
                         dst);
  }
  return out;
}

// Checks RGB images [B, H, W, 3] and a density table [256].
void RgbDensityShape(const py::array& images, const F32Array& densities) {
  if (images.ndim() != 4 || images.shape(3) != 3 || densities.ndim() != 1 || densities.shape(0) != 256) {
    throw std::invalid_argument("need RGB images [B, H, W, 3] and densities [256]");
  }
}

// Checks float planes [P, H, W] and kernels [K >= 1, T] with T odd.
void SeparableBlurShape(const F32Array& planes, const F32Array& kernels) {
  if (planes.ndim() != 3 || kernels.ndim() != 2 || kernels.shape(0) < 1 || kernels.shape(1) % 2 != 1 ||
      kernels.shape(1) > tfgpuaug::kMaxBlurTaps) {
    throw std::invalid_argument("need float planes [P, H, W] and kernels [K, T], T odd and at most 1023");
  }
}

py::array_t<float> SeparableBlur(F32Array planes, F32Array kernels) {
  SeparableBlurShape(planes, kernels);
  const int p = planes.shape(0), h = planes.shape(1), w = planes.shape(2);
  const int count = kernels.shape(0), taps = kernels.shape(1);
  py::array_t<float> out({p, h, w});
  std::vector<float> scratch(tfgpuaug::SeparableBlurScratchFloats(h, w, taps));
  const size_t per = size_t(h) * w;
  for (int i = 0; i < p; ++i) {
    tfgpuaug::SeparableBlurCpu(planes.data() + i * per, h, w, kernels.data() + size_t(i % count) * taps, taps,
                               scratch.data(), out.mutable_data() + i * per);
  }
  return out;
}

// Checks RGB images [B, H, W, 3], the packed layer [B, H, W], sun [B, 2], apply [B], the flare
// kernel [T] and kernels [3, T2].
void FlareBlendShape(const U8Image& images, const I32Array& layer, const I32Array& sun,
                     const BoolArray& apply, const F32Array& flare_kernel, const F32Array& kernels) {
  if (images.ndim() != 4 || images.shape(3) != 3 || layer.ndim() != 3 || layer.shape(0) != images.shape(0) ||
      layer.shape(1) != images.shape(1) || layer.shape(2) != images.shape(2) || sun.ndim() != 2 ||
      sun.shape(0) != images.shape(0) || sun.shape(1) != 2 || apply.ndim() != 1 ||
      apply.shape(0) != images.shape(0) || flare_kernel.ndim() != 1 || flare_kernel.shape(0) % 2 != 1 ||
      flare_kernel.shape(0) > tfgpuaug::kMaxBlurTaps || kernels.ndim() != 2 || kernels.shape(0) != 3 ||
      kernels.shape(1) % 2 != 1 || kernels.shape(1) > tfgpuaug::kMaxBlurTaps) {
    throw std::invalid_argument(
        "need images [B, H, W, 3], layer [B, H, W], sun [B, 2], apply [B], flare_kernel [T], kernels [3, T2] "
        "(T, T2 odd)");
  }
}

py::array_t<uint8_t> FlareBlend(U8Image images, I32Array layer, I32Array sun, BoolArray apply,
                                F32Array flare_kernel, F32Array kernels) {
  FlareBlendShape(images, layer, sun, apply, flare_kernel, kernels);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2);
  const int flare_taps = flare_kernel.shape(0), taps = kernels.shape(1);
  py::array_t<uint8_t> out({b, h, w, 3});
  std::vector<float> scratch(tfgpuaug::FlareBlendScratchFloats(h, w, flare_taps, taps));
  const size_t per = size_t(h) * w;
  for (int i = 0; i < b; ++i) {
    if (!apply.data()[i]) {
      std::copy(images.data() + i * per * 3, images.data() + (i + 1) * per * 3,
                out.mutable_data() + i * per * 3);
      continue;
    }
    tfgpuaug::FlareBlendCpu(images.data() + i * per * 3, h, w, layer.data() + i * per, sun.data()[2 * i],
                            sun.data()[2 * i + 1], flare_kernel.data(), flare_taps, kernels.data(), taps,
                            scratch.data(), out.mutable_data() + i * per * 3);
  }
  return out;
}

py::array_t<float> StainNmf(U8Image images, F32Array densities) {
  RgbDensityShape(images, densities);
  const int b = images.shape(0);
  const size_t pixels = size_t(images.shape(1)) * images.shape(2);
  py::array_t<float> out({b, 2, 3});
  std::vector<float> scratch(tfgpuaug::StainNmfScratchFloats(pixels));
  for (int i = 0; i < b; ++i) {
    tfgpuaug::StainNmfCpu(images.data() + i * pixels * 3, pixels, densities.data(), scratch.data(),
                          out.mutable_data() + i * 6);
  }
  return out;
}

py::tuple TissuePlane(U8Image images, F32Array densities) {
  RgbDensityShape(images, densities);
  const int b = images.shape(0);
  const py::ssize_t n = images.shape(1) * images.shape(2);
  py::array_t<double> planes({b, 3, 2}), coordinates({py::ssize_t(b), n, py::ssize_t(2)});
  py::array_t<float> keys({py::ssize_t(b), n});
  py::array_t<bool> tissue({py::ssize_t(b), n});
  py::array_t<int32_t> counts(b);
  for (int i = 0; i < b; ++i) {
    counts.mutable_data()[i] = static_cast<int32_t>(tfgpuaug::TissuePlaneCpu(
        images.data() + i * n * 3, size_t(n), densities.data(), planes.mutable_data() + 6 * i,
        coordinates.mutable_data() + 2 * i * n, keys.mutable_data() + i * n, tissue.mutable_data() + i * n));
  }
  return py::make_tuple(planes, coordinates, keys, tissue, counts);
}

// Checks a batch [B, H, W, C] and its Superpixels arguments segments [B], replace [B, M >= 1].
void SuperpixelsShape(const py::array& images, const I32Array& segments, const U8Image& replace) {
  const auto b = images.ndim() == 4 ? images.shape(0) : -1;
  if (segments.ndim() != 1 || segments.shape(0) != b || replace.ndim() != 2 || replace.shape(0) != b ||
      replace.shape(1) < 1) {
    throw std::invalid_argument("need images [B, H, W, C], segments [B] and replace [B, M] with M >= 1");
  }
}

py::array_t<uint8_t> Superpixels(U8Image images, I32Array segments, U8Image replace) {
  SuperpixelsShape(images, segments, replace);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  const int m = replace.shape(1);
  py::array_t<uint8_t> out({b, h, w, c});
  for (int i = 0; i < b; ++i) {
    const int n = tfgpuaug::SlicSegments(segments.data()[i], m);
    std::vector<double> scratch((tfgpuaug::SuperpixelsScratchBytes(h, w, c, n) + 7) / 8);
    tfgpuaug::SuperpixelsCpu(images.data() + int64_t{i} * h * w * c, h, w, c, n,
                             replace.data() + int64_t{i} * m, reinterpret_cast<uint8_t*>(scratch.data()),
                             out.mutable_data() + int64_t{i} * h * w * c);
  }
  return out;
}

// Checks a batch [B, H, W, C] and its ZoomBlur arguments max_factors [B], steps [B].
void ZoomBlurShape(const py::array& images, const F64Array& max_factors, const F64Array& steps) {
  const auto b = images.ndim() == 4 ? images.shape(0) : -1;
  if (max_factors.ndim() != 1 || max_factors.shape(0) != b || steps.ndim() != 1 || steps.shape(0) != b) {
    throw std::invalid_argument("need images [B, H, W, C], max_factors [B] and steps [B]");
  }
}

py::array_t<uint8_t> ZoomBlur(U8Image images, F64Array max_factors, F64Array steps, bool scalar) {
  ZoomBlurShape(images, max_factors, steps);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array_t<uint8_t> out({b, h, w, c});
  std::vector<float> scratch(tfgpuaug::ZoomBlurScratchFloats(h, w, c));
  for (int i = 0; i < b; ++i) {
    const uint8_t* image = images.data() + int64_t{i} * h * w * c;
    uint8_t* dst = out.mutable_data() + int64_t{i} * h * w * c;
    if (scalar) {
      tfgpuaug::ZoomBlurScalar(image, h, w, c, max_factors.data()[i], steps.data()[i], scratch.data(), dst);
    } else {
      tfgpuaug::ZoomBlurCpu(image, h, w, c, max_factors.data()[i], steps.data()[i], scratch.data(), dst);
    }
  }
  return out;
}

// Checks a batch [B, H, W, C] and its kernels [B, K, K]; returns K.
int Filter2DShape(const py::array& images, const F32Array& kernels) {
  const auto b = images.ndim() == 4 ? images.shape(0) : -1;
  if (kernels.ndim() != 3 || kernels.shape(0) != b || kernels.shape(1) != kernels.shape(2) ||
      kernels.shape(1) % 2 != 1 || kernels.shape(1) > tfgpuaug::kMaxFilterSide) {
    throw std::invalid_argument("need images [B, H, W, C] and kernels [B, K, K] (K odd, at most 63)");
  }
  return int(kernels.shape(1));
}

py::array_t<uint8_t> Filter2D(U8Image images, F32Array kernels, bool ties_up, bool symmetric) {
  const int side = Filter2DShape(images, kernels);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array_t<uint8_t> out({b, h, w, c});
  std::vector<float> scratch(symmetric ? 0 : tfgpuaug::Filter2DScratchFloats(h, w, c, side));
  std::vector<uint16_t> scratch16(symmetric ? tfgpuaug::Filter2DSymmetricScratch(h, w, c, side) : 0);
  for (int i = 0; i < b; ++i) {
    const uint8_t* image = images.data() + int64_t{i} * h * w * c;
    uint8_t* dst = out.mutable_data() + int64_t{i} * h * w * c;
    if (symmetric) {
      tfgpuaug::Filter2DSymmetricCpu(image, h, w, c, kernels.data() + i * side * side, side, ties_up,
                                     scratch16.data(), dst);
    } else {
      tfgpuaug::Filter2DCpu(image, h, w, c, kernels.data() + i * side * side, side, ties_up, scratch.data(),
                            dst);
    }
  }
  return out;
}

// Checks images [B, H, W, C], tables [1 or B, R, 1 or C, 256] and rows [B, H, W] or empty.
void LevelTablesShape(const py::array& images, const py::array& tables, const py::array& rows) {
  const bool ok =
      images.ndim() == 4 && tables.ndim() == 4 &&
      (tables.shape(0) == 1 || tables.shape(0) == images.shape(0)) && tables.shape(1) >= 1 &&
      (tables.shape(2) == 1 || tables.shape(2) == images.shape(3)) && tables.shape(3) == 256 &&
      (rows.size() == 0 || (rows.ndim() == 3 && rows.shape(0) == images.shape(0) &&
                            rows.shape(1) == images.shape(1) && rows.shape(2) == images.shape(2)));
  if (!ok)
    throw std::invalid_argument("need images [B, H, W, C], tables [1 or B, R, 1 or C, 256], rows [B, H, W]");
}

py::array_t<uint8_t> LevelTables(U8Image images, U8Image tables, I32Array rows) {
  LevelTablesShape(images, tables, rows);
  const int b = images.shape(0), c = images.shape(3);
  const int64_t pixels = int64_t{images.shape(1)} * images.shape(2);
  const size_t set_bytes = size_t(tables.shape(1)) * tables.shape(2) * 256;
  py::array_t<uint8_t> out({b, int(images.shape(1)), int(images.shape(2)), c});
  for (int i = 0; i < b; ++i) {
    const tfgpuaug::LevelTableSet set{tables.data() + (tables.shape(0) == 1 ? 0 : i * set_bytes),
                                      int(tables.shape(1)), int(tables.shape(2))};
    tfgpuaug::LevelTablesCpu(images.data() + i * pixels * c, pixels, c, set,
                             rows.size() == 0 ? nullptr : rows.data() + i * pixels,
                             out.mutable_data() + i * pixels * c);
  }
  return out;
}

// Checks RGB images [B, H, W, 3], tables [1 or B, 256] and levels [B, H, W] or empty.
void HlsLightnessShape(const py::array& images, const py::array& tables, const py::array& levels) {
  const bool ok =
      images.ndim() == 4 && images.shape(3) == 3 && tables.ndim() == 2 &&
      (tables.shape(0) == 1 || tables.shape(0) == images.shape(0)) && tables.shape(1) == 256 &&
      (levels.size() == 0 || (levels.ndim() == 3 && levels.shape(0) == images.shape(0) &&
                              levels.shape(1) == images.shape(1) && levels.shape(2) == images.shape(2)));
  if (!ok) throw std::invalid_argument("need images [B, H, W, 3], tables [1 or B, 256], levels [B, H, W]");
}

py::array_t<uint8_t> HlsLightness(U8Image images, I32Array tables, I32Array levels) {
  HlsLightnessShape(images, tables, levels);
  const int b = images.shape(0);
  const int64_t pixels = int64_t{images.shape(1)} * images.shape(2);
  py::array_t<uint8_t> out({b, int(images.shape(1)), int(images.shape(2)), 3});
  for (int i = 0; i < b; ++i) {
    tfgpuaug::HlsLightnessCpu(
        images.data() + i * pixels * 3, pixels, tables.data() + (tables.shape(0) == 1 ? 0 : i * 256),
        levels.size() == 0 ? nullptr : levels.data() + i * pixels, out.mutable_data() + i * pixels * 3);
  }
  return out;
}

// Checks spans [4 (rows, starts, stops, values), B, K] (or lines [5 (x0, y0, x1, y1, values),
// B, K]: parts 5), the combine rule and the box side.
tfgpuaug::SpanCombine SpanRasterArgs(const py::array& spans, int height, int width,
                                     const std::string& combine, int box, int parts = 4) {
  if (spans.ndim() != 3 || spans.shape(0) != parts || height < 0 || width < 0 || box < 1 ||
      (combine != "sum" && combine != "max" && combine != "last"))
    throw std::invalid_argument(
        "need spans [4, B, K] (lines [5, B, K]), height, width >= 0, combine 'sum', 'max' or 'last', box >= "
        "1");
  if (combine == "last") return tfgpuaug::SpanCombine::kLast;
  return combine == "max" ? tfgpuaug::SpanCombine::kMax : tfgpuaug::SpanCombine::kSum;
}

tfgpuaug::SpanList SpanListOf(const int32_t* spans, int64_t b, int64_t k, int64_t image) {
  const int64_t part = b * k;
  return {spans + image * k, spans + part + image * k, spans + 2 * part + image * k,
          spans + 3 * part + image * k, k};
}

py::array_t<int32_t> SpanRaster(I32Array spans, int height, int width, const std::string& combine, int box,
                                int32_t fill) {
  const tfgpuaug::SpanCombine how = SpanRasterArgs(spans, height, width, combine, box);
  const int64_t b = spans.shape(1), k = spans.shape(2), pixels = int64_t{height} * width;
  py::array_t<int32_t> out({b, int64_t{height}, int64_t{width}});
  std::vector<int32_t> painted(pixels);
  std::vector<uint32_t> column_sums(width);
  for (int64_t i = 0; i < b; ++i) {
    int32_t* dst = out.mutable_data() + i * pixels;
    tfgpuaug::SpanPaintCpu(SpanListOf(spans.data(), b, k, i), height, width, how, fill,
                           box > 1 ? painted.data() : dst);
    if (box > 1) tfgpuaug::BoxSumsCpu(painted.data(), height, width, box, column_sums.data(), dst);
  }
  return out;
}

// GlassBlur's swaps: images [B, H, W, C], seeds [B], apply [B] (0 or 1); shapes checked here.
void GlassSwapsArgs(const U8Image& images, const I32Array& seeds, const U8Image& apply, int max_delta,
                    int iterations) {
  if (images.ndim() != 4) throw std::invalid_argument("need images [B, H, W, C]");
  if (seeds.ndim() != 1 || apply.ndim() != 1 || seeds.shape(0) != images.shape(0) ||
      apply.shape(0) != images.shape(0)) {
    throw std::invalid_argument("need seeds [B] and apply [B]");
  }
  if (max_delta < 1 || max_delta > 64 || iterations < 1 || iterations > 16) {
    throw std::invalid_argument("need max_delta in [1, 64] and iterations in [1, 16]");
  }
}

py::array_t<uint8_t> GlassSwaps(U8Image images, I32Array seeds, U8Image apply, int max_delta,
                                int iterations) {
  GlassSwapsArgs(images, seeds, apply, max_delta, iterations);
  const int64_t b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  const size_t bytes = size_t(h) * w * c;
  py::array_t<uint8_t> out({b, h, w, c});
  std::vector<uint8_t> before(bytes);
  std::vector<int64_t> targets(size_t(h) * w);
  for (int64_t i = 0; i < b; ++i) {
    if (apply.data()[i]) {
      tfgpuaug::GlassSwapsCpu(images.data() + i * bytes, int(h), int(w), int(c), max_delta, iterations,
                              static_cast<uint32_t>(seeds.data()[i]), before.data(), targets.data(),
                              out.mutable_data() + i * bytes);
    } else {
      std::memcpy(out.mutable_data() + i * bytes, images.data() + i * bytes, bytes);
    }
  }
  return out;
}

py::array_t<int32_t> LineRaster(I32Array lines, int height, int width, int span_width,
                                const std::string& combine, int box, int32_t fill) {
  const tfgpuaug::SpanCombine how = SpanRasterArgs(lines, height, width, combine, box, 5);
  if (span_width < 1) throw std::invalid_argument("need span_width >= 1");
  const int64_t b = lines.shape(1), k = lines.shape(2), pixels = int64_t{height} * width;
  py::array_t<int32_t> out({b, int64_t{height}, int64_t{width}});
  std::vector<int32_t> painted(pixels);
  std::vector<uint32_t> column_sums(width);
  const int32_t* d = lines.data();
  for (int64_t i = 0; i < b; ++i) {
    int32_t* dst = out.mutable_data() + i * pixels;
    auto part = [&](int j) { return d + j * b * k + i * k; };
    tfgpuaug::LinePaintCpu(tfgpuaug::LineList{part(0), part(1), part(2), part(3), part(4), k}, height, width,
                           span_width, how, fill, box > 1 ? painted.data() : dst);
    if (box > 1) tfgpuaug::BoxSumsCpu(painted.data(), height, width, box, column_sums.data(), dst);
  }
  return out;
}

// The plasma fractal's steps and noise scales for an h x w pattern and `roughness`.
int PlasmaArgs(int h, int w, float roughness, float* scales) {
  if (h < 1 || w < 1 || h > tfgpuaug::kPlasmaLargestSide || w > tfgpuaug::kPlasmaLargestSide ||
      !(roughness > 0.f))
    throw std::invalid_argument("need 1 <= height, width <= " + std::to_string(tfgpuaug::kPlasmaLargestSide) +
                                " and roughness > 0");
  const int steps = tfgpuaug::PlasmaSteps(h, w);
  tfgpuaug::PlasmaNoiseScales(roughness, steps, scales);
  return steps;
}

py::array_t<float> PlasmaPattern(I32Array seeds, int height, int width, float roughness) {
  float scales[16];
  const int steps = PlasmaArgs(height, width, roughness, scales);
  const int64_t b = seeds.shape(0), side = (int64_t{1} << (steps + 1)) + 1;
  py::array_t<float> out({b, int64_t{height}, int64_t{width}});
  std::vector<float> grids(3 * side * side);
  for (int64_t i = 0; i < b; ++i) {
    tfgpuaug::PlasmaPatternCpu(static_cast<uint32_t>(seeds.data()[i]), height, width, scales, steps,
                               grids.data(), grids.data() + side * side, grids.data() + 2 * side * side,
                               out.mutable_data() + i * height * width);
  }
  return out;
}

// The plasma blend's mode; images [B, H, W, C], patterns [B, H, W], factors [B, 2] checked here.
tfgpuaug::PatternBlendMode PatternBlendArgs(const U8Image& images, const F32Array& patterns,
                                            const F32Array& factors, const std::string& mode) {
  if (images.ndim() != 4 || patterns.ndim() != 3 || factors.ndim() != 2 ||
      patterns.shape(0) != images.shape(0) || patterns.shape(1) != images.shape(1) ||
      patterns.shape(2) != images.shape(2) || factors.shape(0) != images.shape(0) || factors.shape(1) != 2 ||
      (mode != "shadow" && mode != "brightness_contrast"))
    throw std::invalid_argument(
        "need images [B, H, W, C], patterns [B, H, W], factors [B, 2], mode 'shadow' or "
        "'brightness_contrast'");
  return mode == "shadow" ? tfgpuaug::PatternBlendMode::kShadow
                          : tfgpuaug::PatternBlendMode::kBrightnessContrast;
}

py::array_t<uint8_t> PatternBlend(U8Image images, F32Array patterns, F32Array factors,
                                  const std::string& mode) {
  const tfgpuaug::PatternBlendMode how = PatternBlendArgs(images, patterns, factors, mode);
  const int64_t b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array_t<uint8_t> out({b, h, w, c});
  for (int64_t i = 0; i < b; ++i) {
    tfgpuaug::PatternBlendCpu(images.data() + i * h * w * c, h, w, int(c), patterns.data() + i * h * w,
                              factors.data() + 2 * i, how, out.mutable_data() + i * h * w * c);
  }
  return out;
}

py::array_t<int32_t> ChannelHistograms(U8Image images) {
  if (images.ndim() != 4) throw std::invalid_argument("need images [B, H, W, C]");
  const int64_t b = images.shape(0), c = images.shape(3), pixels = int64_t{images.shape(1)} * images.shape(2);
  py::array_t<int32_t> out({b, c, int64_t{256}});
  std::vector<uint32_t> scratch(size_t(2) * c * 256);
  for (int64_t i = 0; i < b; ++i) {
    tfgpuaug::ChannelHistogramsCpu(images.data() + i * pixels * c, pixels, int(c), scratch.data(),
                                   out.mutable_data() + i * c * 256);
  }
  return out;
}

py::array_t<uint8_t> AugmentStage(U8Image img, int op, float param, std::vector<float> aux, float fill,
                                  bool general) {
  if (aux.size() != 2) throw std::invalid_argument("aux must have 2 values");
  if (op < 0 || op >= int(tfgpuaug::AugmentOp::kNumOps)) throw std::invalid_argument("unknown op id");
  const tfgpuaug::AugmentImage image_info{int(img.shape(0)), int(img.shape(1)), int(img.shape(2)), fill,
                                          tfgpuaug::Interpolation::kBilinear};
  py::array_t<uint8_t> out({image_info.h, image_info.w, image_info.c});
  uint8_t* o = out.mutable_data();
  if (!general) {
    tfgpuaug::AugmentStageCpu(op, param, aux.data(), img.data(), image_info, o);
    return out;
  }
  if (tfgpuaug::IsLutOp(op)) throw std::invalid_argument("general=True is for per-pixel (non-LUT) ops");
  auto stage_params = tfgpuaug::PrepareStage(op, param, aux.data(), image_info);
  if (tfgpuaug::NeedsLightness(op) && image_info.c >= 3)
    tfgpuaug::SetLightnessStatsCpu(img.data(), image_info, &stage_params);
  for (int y = 0; y < image_info.h; ++y)
    for (int x = 0; x < image_info.w; ++x, o += image_info.c)
      tfgpuaug::AugmentPixel(stage_params, img.data(), image_info, y, x, o);
  return out;
}

using F32 = py::array_t<float, py::array::c_style | py::array::forcecast>;
using I32 = py::array_t<int32_t, py::array::c_style | py::array::forcecast>;

// A batch of images of different sizes packed back to back in one flat buffer, as the
// CropResize op receives ragged images (values, [n, 2] shapes), with a crop box per image in
// its pixels: the job of each image, its source at its packed offset.
struct PackedCrops {
  std::vector<int64_t> pixel_offsets;
  std::vector<int> heights, widths;
  std::vector<tfgpuaug::ResampleAxis> ay, ax;
};

PackedCrops PlanPackedCrops(size_t values_size, int c, const I32& shapes, const F32& boxes,
                            const tfgpuaug::ResizeSpec& spec) {
  if (shapes.ndim() != 2 || shapes.shape(1) != 2 || boxes.ndim() != 2 || boxes.shape(1) != 4 ||
      boxes.shape(0) != shapes.shape(0)) {
    throw std::invalid_argument("shapes must be [n, 2] and boxes [n, 4] (y, x, height, width)");
  }
  PackedCrops p;
  int64_t offset = 0;
  for (py::ssize_t i = 0; i < shapes.shape(0); ++i) {
    const int h = shapes.at(i, 0), w = shapes.at(i, 1);
    const tfgpuaug::CropBox box{boxes.at(i, 0), boxes.at(i, 1), boxes.at(i, 2), boxes.at(i, 3)};
    Check(tfgpuaug::ValidateBox(box, h, w));
    p.pixel_offsets.push_back(offset);
    p.heights.push_back(h);
    p.widths.push_back(w);
    p.ay.emplace_back();
    p.ax.emplace_back();
    tfgpuaug::CropAxes(box, h, w, spec, &p.ay.back(), &p.ax.back());
    offset += int64_t{h} * w;
  }
  if (size_t(offset) * c != values_size) throw std::invalid_argument("values do not hold the shapes' pixels");
  return p;
}

tfgpuaug::ResizeSpec MakeResizeSpec(int out_h, int out_w, const std::string& method, bool antialias) {
  return {out_h, out_w, Method(method), antialias};
}

// CropResize on the CPU over packed uint8 or float32 values: [n, out_h, out_w, c] float32.
template <typename In>
py::array_t<float> CropResizePackedCpu(
    const py::array_t<In, py::array::c_style | py::array::forcecast>& values, int c, const I32& shapes,
    const F32& boxes, int out_h, int out_w, const std::string& method, bool antialias) {
  const tfgpuaug::ResizeSpec spec = MakeResizeSpec(out_h, out_w, method, antialias);
  const PackedCrops p = PlanPackedCrops(values.size(), c, shapes, boxes, spec);
  const py::ssize_t n = p.heights.size();
  py::array_t<float> out({n, py::ssize_t(out_h), py::ssize_t(out_w), py::ssize_t(c)});
  for (py::ssize_t i = 0; i < n; ++i) {
    tfgpuaug::ResampleImageCpu<In, float>(values.data() + p.pixel_offsets[i] * c, p.heights[i], p.widths[i],
                                          c, long(p.widths[i]) * c, p.ay[i], p.ax[i], out_h, out_w,
                                          out.mutable_data() + i * out_h * out_w * c);
  }
  return out;
}

// fn(values as float32 or uint8 array_t): the packed crop-resize bindings take either.
template <typename Fn>
py::array_t<float> OnFloatOrUint8(const py::array& values, Fn fn) {
  if (py::dtype::of<float>().is(values.dtype())) {
    return fn(py::array_t<float, py::array::c_style | py::array::forcecast>(values));
  }
  return fn(py::array_t<uint8_t, py::array::c_style | py::array::forcecast>(values));
}

py::array_t<float> CropResizePacked(py::array values, int channels, I32 shapes, F32 boxes, int out_h,
                                    int out_w, const std::string& method, bool antialias) {
  return OnFloatOrUint8(values, [&](const auto& v) {
    return CropResizePackedCpu(v, channels, shapes, boxes, out_h, out_w, method, antialias);
  });
}
using Flags = py::array_t<bool, py::array::c_style | py::array::forcecast>;

tfgpuaug::OutputType OutType(const std::string& dtype) {
  if (dtype == "float32") return tfgpuaug::OutputType::kFloat32;
  if (dtype == "float16") return tfgpuaug::OutputType::kFloat16;
  if (dtype == "bfloat16") return tfgpuaug::OutputType::kBfloat16;
  throw std::invalid_argument("dtype must be float32, float16 or bfloat16, got " + dtype);
}

// Crop-mirror-normalize of a [B, H, W, C] batch: offsets [B, 2], mirror [B]; float32 output
// as float32, 16-bit outputs as their uint16 bit patterns (compare bits across devices).
struct CropMirrorNormalizeCall {
  tfgpuaug::CropMirrorNormalizeParams p;
  std::vector<float> mean4, inv_std4;
  size_t out_elements_per_image, out_element_bytes;
};

CropMirrorNormalizeCall MakeCropMirrorNormalizeCall(const U8Image& images, int crop_h, int crop_w,
                                                    const std::vector<float>& mean,
                                                    const std::vector<float>& std, bool nchw,
                                                    const std::string& dtype, bool pad) {
  const int c = images.shape(3);
  if (int(mean.size()) != c || int(std.size()) != c) throw std::invalid_argument("mean/std per channel");
  CropMirrorNormalizeCall call;
  call.p = {int(images.shape(1)), int(images.shape(2)), c, crop_h, crop_w, pad ? 4 : c, nchw, OutType(dtype)};
  call.mean4.assign(4, 0.f);
  call.inv_std4.assign(4, 0.f);
  for (int i = 0; i < c; ++i) call.mean4[i] = mean[i], call.inv_std4[i] = 1.f / std[i];
  call.out_elements_per_image = size_t(crop_h) * crop_w * call.p.out_channels;
  call.out_element_bytes = dtype == "float32" ? 4 : 2;
  return call;
}

py::array MakeCropMirrorNormalizeOutput(const CropMirrorNormalizeCall& call, int batch) {
  const auto& p = call.p;
  std::vector<py::ssize_t> shape = p.nchw
                                       ? std::vector<py::ssize_t>{batch, p.out_channels, p.crop_h, p.crop_w}
                                       : std::vector<py::ssize_t>{batch, p.crop_h, p.crop_w, p.out_channels};
  if (call.out_element_bytes == 4) return py::array_t<float>(shape);
  return py::array_t<uint16_t>(shape);
}

py::array CropMirrorNormalizeBatch(U8Image images, int crop_h, int crop_w, I32 offsets, Flags mirror,
                                   std::vector<float> mean, std::vector<float> std, bool nchw,
                                   const std::string& dtype, bool pad_channels) {
  const CropMirrorNormalizeCall call =
      MakeCropMirrorNormalizeCall(images, crop_h, crop_w, mean, std, nchw, dtype, pad_channels);
  const int b = images.shape(0);
  py::array out = MakeCropMirrorNormalizeOutput(call, b);
  const size_t in_bytes = size_t(call.p.in_h) * call.p.in_w * call.p.channels;
  auto* o = static_cast<uint8_t*>(out.mutable_data());
  for (int i = 0; i < b; ++i) {
    tfgpuaug::CropMirrorNormalizeCpu(images.data() + i * in_bytes, call.p, offsets.data()[2 * i],
                                     offsets.data()[2 * i + 1], mirror.data()[i], call.mean4.data(),
                                     call.inv_std4.data(),
                                     o + i * call.out_elements_per_image * call.out_element_bytes);
  }
  return out;
}

// K augment stages per sample of a [B, H, W, C] batch, stage after stage, on the CPU.
py::array_t<uint8_t> AugmentBatch(U8Image images, I32 ops, F32 params, F32 aux, float fill, bool bilinear) {
  const int b = images.shape(0), k = ops.shape(1);
  const tfgpuaug::AugmentImage image_info{
      int(images.shape(1)), int(images.shape(2)), int(images.shape(3)), fill,
      bilinear ? tfgpuaug::Interpolation::kBilinear : tfgpuaug::Interpolation::kNearest};
  const size_t bytes = size_t(image_info.h) * image_info.w * image_info.c;
  py::array_t<uint8_t> out({b, image_info.h, image_info.w, image_info.c});
  std::vector<uint8_t> a(bytes), t(bytes);
  for (int i = 0; i < b; ++i) {
    std::memcpy(a.data(), images.data() + i * bytes, bytes);
    for (int s = 0; s < k; ++s) {
      const int op = ops.data()[i * k + s];
      if (op < 0 || op >= int(tfgpuaug::AugmentOp::kNumOps)) throw std::invalid_argument("unknown op id");
      tfgpuaug::AugmentStageCpu(op, params.data()[i * k + s], aux.data() + 2 * (i * k + s), a.data(),
                                image_info, t.data());
      std::swap(a, t);
    }
    std::memcpy(out.mutable_data() + i * bytes, a.data(), bytes);
  }
  return out;
}

py::array_t<uint8_t> FlipBatch(U8Image images, Flags horizontal, Flags vertical) {
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array_t<uint8_t> out({b, h, w, c});
  const size_t bytes = size_t(h) * w * c;
  for (int i = 0; i < b; ++i) {
    tfgpuaug::FlipCpu(images.data() + i * bytes, h, w, c, 1, horizontal.data()[i], vertical.data()[i],
                      out.mutable_data() + i * bytes);
  }
  return out;
}

bool CudaBuilt() { return TFGPUAUG_CUDA != 0; }

bool GpuAvailable() {
#if TFGPUAUG_CUDA
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
#else
  return false;
#endif
}

#if TFGPUAUG_CUDA
void CudaOk(cudaError_t e) {  // with the op library's message (and advice for a too-old driver)
  if (e != cudaSuccess) throw std::runtime_error(tfgpuaug::CudaError(e, "CUDA").message());
}

// Decodes a batch through the GPU path and copies the results back to numpy.
// nvJPEG's buffers through allocator hooks, as the op library passes TensorFlow's: the
// self-check then creates nvJPEG the way the op does (nvjpegCreateExV2), not with its defaults.
void* DeviceAllocate(void*, size_t bytes) {
  void* p = nullptr;
  return cudaMalloc(&p, bytes) == cudaSuccess ? p : nullptr;
}
void DeviceFree(void*, void* p) { cudaFree(p); }
void* PinnedAllocate(void*, size_t bytes) {
  void* p = nullptr;
  return cudaHostAlloc(&p, bytes, cudaHostAllocDefault) == cudaSuccess ? p : nullptr;
}
void PinnedFree(void*, void* p) { cudaFreeHost(p); }

// The CPU decodes of a GPU decode on a few threads, as the op runs them on TensorFlow's pool.
void ParallelForOnThreads(void*, int n, void (*fn)(void* context, int i), void* context) {
  std::atomic<int> next{0};
  auto work = [&] {
    for (int i = next++; i < n; i = next++) fn(context, i);
  };
  std::vector<std::thread> threads;
  const int extra = std::min(n, int(std::max(2u, std::thread::hardware_concurrency()))) - 1;
  for (int t = 0; t < extra; ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
}

const char* RouteName(tfgpuaug::GpuDecodeRoute r) {
  switch (r) {
    case tfgpuaug::GpuDecodeRoute::kNvjpeg:
      return "nvjpeg";
    case tfgpuaug::GpuDecodeRoute::kNvjpegRefused:
      return "nvjpeg_refused";
    case tfgpuaug::GpuDecodeRoute::kHost:
      break;
  }
  return "host";
}

// Decodes a batch into GPU memory; with routes=True also returns which decoder took each image.
py::object DecodeGpu(std::vector<py::bytes> blobs, int channels, bool routes,
                     std::optional<std::vector<std::vector<int>>> windows, bool errors) {
  const size_t n = blobs.size();
  if (windows && windows->size() != n) throw std::invalid_argument("give one window per image, or none");
  std::vector<std::string> bytes(blobs.begin(), blobs.end());
  std::vector<DecodeRequest> requests;
  for (size_t i = 0; i < n; ++i) {
    requests.push_back(MakeRequest(
        channels, windows ? std::optional<std::vector<int>>((*windows)[i]) : std::nullopt, 1, false, "auto"));
  }
  std::vector<DecodePlan> plans(n);
  std::vector<tfgpuaug::GpuDecodeTarget> targets(n);
  std::vector<uint8_t*> device(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes[i].data());
    Check(tfgpuaug::PlanDecode(p, bytes[i].size(), requests[i], &plans[i]));
    const size_t size = size_t(plans[i].out_height) * plans[i].out_width * channels;
    CudaOk(cudaMalloc(&device[i], size));
    CudaOk(cudaMemset(device[i], 0, size));  // a skipped image reads back as zeros, as the op's
    targets[i] = {p, bytes[i].size(), &requests[i], &plans[i], device[i]};
  }
  // A budget of 2 images' worth makes a batch of several decode in groups (bounded scratch).
  size_t budget = 0;
  for (const DecodePlan& p : plans) budget = std::max(budget, size_t(p.info.height) * p.info.width * 3 * 2);
  size_t scratch_bytes, staging_bytes;
  tfgpuaug::GpuDecodeBufferSizes(targets.data(), int(n), budget, &scratch_bytes, &staging_bytes);
  uint8_t *scratch = nullptr, *staging = nullptr;
  CudaOk(cudaMalloc(&scratch, scratch_bytes + 1));
  CudaOk(cudaMallocHost(&staging, staging_bytes + 1));
  cudaStream_t stream;
  CudaOk(cudaStreamCreate(&stream));
  int ordinal = 0;
  CudaOk(cudaGetDevice(&ordinal));
  tfgpuaug::GpuDecodeDevice on;
  on.ordinal = ordinal;
  on.stream = stream;
  on.device_memory = {nullptr, DeviceAllocate, DeviceFree};
  on.pinned_memory = {nullptr, PinnedAllocate, PinnedFree};
  on.parallel_for = ParallelForOnThreads;
  std::vector<tfgpuaug::GpuDecodeRoute> taken(n, tfgpuaug::GpuDecodeRoute::kHost);
  // With errors=True, each image's status comes back (as the op's on_error="skip" gets it)
  // instead of the first bad image failing the call.
  std::vector<tfgpuaug::Status> image_status(n);
  tfgpuaug::Status status = tfgpuaug::GpuDecodeBatch(targets.data(), int(n), on, budget, scratch, staging,
                                                     errors ? image_status.data() : nullptr, taken.data());
  if (status.ok()) status = tfgpuaug::CudaStatus(cudaStreamSynchronize(stream), "GPU decode");
  std::vector<py::array_t<uint8_t>> out;
  for (size_t i = 0; i < n && status.ok(); ++i) {
    py::array_t<uint8_t> a({plans[i].out_height, plans[i].out_width, channels});
    CudaOk(cudaMemcpy(a.mutable_data(), device[i], a.nbytes(), cudaMemcpyDeviceToHost));
    out.push_back(a);
  }
  for (uint8_t* d : device) cudaFree(d);
  cudaFree(scratch);
  cudaFreeHost(staging);
  cudaStreamDestroy(stream);
  Check(status);
  std::vector<std::string> names, messages;
  for (tfgpuaug::GpuDecodeRoute r : taken) names.push_back(RouteName(r));
  for (const tfgpuaug::Status& st : image_status) messages.push_back(st.ok() ? "" : st.message());
  if (errors) return py::make_tuple(out, names, messages);
  if (!routes) return py::cast(out);
  return py::make_tuple(out, names);
}

// GpuDecodeBufferSizes for a batch (full-image decodes): (device scratch, pinned staging) bytes.
py::tuple DecodeGpuBufferSizes(std::vector<py::bytes> blobs, int channels, size_t budget) {
  const size_t n = blobs.size();
  std::vector<std::string> bytes(blobs.begin(), blobs.end());
  std::vector<DecodeRequest> requests(n, MakeRequest(channels, std::nullopt, 1, false, "auto"));
  std::vector<DecodePlan> plans(n);
  std::vector<tfgpuaug::GpuDecodeTarget> targets(n);
  for (size_t i = 0; i < n; ++i) {
    const auto* p = reinterpret_cast<const uint8_t*>(bytes[i].data());
    Check(tfgpuaug::PlanDecode(p, bytes[i].size(), requests[i], &plans[i]));
    targets[i] = {p, bytes[i].size(), &requests[i], &plans[i], nullptr};
  }
  size_t scratch_bytes = 0, staging_bytes = 0;
  tfgpuaug::GpuDecodeBufferSizes(targets.data(), int(n), budget, &scratch_bytes, &staging_bytes);
  return py::make_tuple(scratch_bytes, staging_bytes);
}

// The CUDA runtime's view of this machine: device count, the error of cudaGetDeviceCount
// ("" when none), driver and runtime versions (e.g. 12080 for 12.8).
py::dict CudaStatusInfo() {
  py::dict d;
  int count = 0, driver = 0, runtime = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  d["device_count"] = e == cudaSuccess ? count : 0;
  d["error"] = e == cudaSuccess ? "" : cudaGetErrorName(e);
  d["error_text"] = e == cudaSuccess ? "" : cudaGetErrorString(e);
  d["driver_version"] = driver;
  d["runtime_version"] = runtime;
  d["emulated"] = bool(TFGPUAUG_CUDA_EMULATED);
  return d;
}

// Whether nvJPEG loaded (and from where), the way a GPU decode loads it.
py::dict NvjpegStatusInfo() {
  py::dict d;
  d["error"] = tfgpuaug::NvjpegLoadError();
  d["path"] = tfgpuaug::NvjpegLoadedFrom();
  return d;
}

// Device buffer owned for the length of one call.
struct DeviceBuffer {
  void* ptr = nullptr;
  explicit DeviceBuffer(size_t bytes) { CudaOk(cudaMalloc(&ptr, bytes ? bytes : 1)); }
  ~DeviceBuffer() { cudaFree(ptr); }
  template <typename T>
  T* as() {
    return static_cast<T*>(ptr);
  }
};

template <typename A>
DeviceBuffer Upload(const A& a) {
  DeviceBuffer d(a.nbytes());
  CudaOk(cudaMemcpy(d.ptr, a.data(), a.nbytes(), cudaMemcpyHostToDevice));
  return d;
}

void Download(DeviceBuffer& d, py::array& out) {
  CudaOk(cudaDeviceSynchronize());
  CudaOk(cudaMemcpy(out.mutable_data(), d.ptr, out.nbytes(), cudaMemcpyDeviceToHost));
}

// Resamples a batch of images of different sizes in one launch per pass (the job table in
// device memory, as the op kernel uploads it).
std::vector<py::array> ResizeBatchGpu(std::vector<U8Image> images, int out_h, int out_w,
                                      const std::string& method, bool antialias, bool mirror,
                                      std::optional<std::vector<float>> mean,
                                      std::optional<std::vector<float>> std, bool uint8_out) {
  const size_t n = images.size();
  if (n == 0) return {};
  const int c = images[0].shape(2);
  const tfgpuaug::Epilogue e = MakeEpilogue(c, mirror, mean, std);
  if (uint8_out && e.normalize) throw std::invalid_argument("normalized output is float");
  std::vector<py::array> outs;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  std::vector<tfgpuaug::ResampleJob> jobs;
  int max_h = 0;
  for (U8Image& img : images) {
    const int h = img.shape(0), w = img.shape(1);
    if (img.shape(2) != c) throw std::invalid_argument("every image needs the same channels");
    max_h = std::max(max_h, h);
    outs.push_back(uint8_out ? py::array(py::array_t<uint8_t>({out_h, out_w, c}))
                             : py::array(py::array_t<float>({out_h, out_w, c})));
    auto src = std::make_unique<DeviceBuffer>(img.nbytes());
    CudaOk(cudaMemcpy(src->ptr, img.data(), img.nbytes(), cudaMemcpyHostToDevice));
    auto scratch = std::make_unique<DeviceBuffer>(size_t(h) * out_w * c * 4);
    auto dst = std::make_unique<DeviceBuffer>(outs.back().nbytes());
    jobs.push_back(
        {src->ptr, h, w, long(w) * c, tfgpuaug::MakeAxis(Method(method), antialias, 0.f, h, out_h, h),
         tfgpuaug::MakeAxis(Method(method), antialias, 0.f, w, out_w, w), dst->ptr, scratch->as<float>(), e});
    buffers.push_back(std::move(src));
    buffers.push_back(std::move(scratch));
    buffers.push_back(std::move(dst));
  }
  DeviceBuffer table(jobs.size() * sizeof(tfgpuaug::ResampleJob));
  CudaOk(cudaMemcpy(table.ptr, jobs.data(), jobs.size() * sizeof(tfgpuaug::ResampleJob),
                    cudaMemcpyHostToDevice));
  Check(tfgpuaug::ResampleBatchGpu(table.as<tfgpuaug::ResampleJob>(), int(n), max_h, c, out_h, out_w, false,
                                   !uint8_out, nullptr));
  for (size_t i = 0; i < n; ++i) Download(*buffers[3 * i + 2], outs[i]);
  return outs;
}

// CropResize on the GPU, one job per image at its packed offset (as the op's GPU launcher
// builds them): float32 or uint8 values in, [n, out_h, out_w, c] float32 out.
template <typename In>
py::array_t<float> CropResizePackedGpuOf(
    const py::array_t<In, py::array::c_style | py::array::forcecast>& values, int c, const I32& shapes,
    const F32& boxes, int out_h, int out_w, const std::string& method, bool antialias) {
  const tfgpuaug::ResizeSpec spec = MakeResizeSpec(out_h, out_w, method, antialias);
  const PackedCrops p = PlanPackedCrops(values.size(), c, shapes, boxes, spec);
  const size_t n = p.heights.size();
  py::array_t<float> out({py::ssize_t(n), py::ssize_t(out_h), py::ssize_t(out_w), py::ssize_t(c)});
  if (n == 0) return out;
  DeviceBuffer src(values.nbytes() + 1), dst(out.nbytes());
  CudaOk(cudaMemcpy(src.ptr, values.data(), values.nbytes(), cudaMemcpyHostToDevice));
  size_t scratch_floats = 0;
  int max_h = 0;
  for (size_t i = 0; i < n; ++i) {
    scratch_floats += size_t(p.heights[i]) * out_w * c;
    max_h = std::max(max_h, p.heights[i]);
  }
  DeviceBuffer scratch(scratch_floats * sizeof(float) + 1);
  std::vector<tfgpuaug::ResampleJob> jobs(n);
  float* sp = scratch.as<float>();
  for (size_t i = 0; i < n; ++i) {
    jobs[i] = {src.as<In>() + p.pixel_offsets[i] * c,
               p.heights[i],
               p.widths[i],
               long(p.widths[i]) * c,
               p.ay[i],
               p.ax[i],
               dst.as<float>() + i * size_t(out_h) * out_w * c,
               sp,
               tfgpuaug::Epilogue()};
    sp += size_t(p.heights[i]) * out_w * c;
  }
  DeviceBuffer table(n * sizeof(tfgpuaug::ResampleJob));
  CudaOk(cudaMemcpy(table.ptr, jobs.data(), n * sizeof(tfgpuaug::ResampleJob), cudaMemcpyHostToDevice));
  Check(tfgpuaug::ResampleBatchGpu(table.as<tfgpuaug::ResampleJob>(), int(n), max_h, c, out_h, out_w,
                                   std::is_same<In, float>::value, true, nullptr));
  Download(dst, out);
  return out;
}

py::array_t<float> CropResizePackedGpu(py::array values, int channels, I32 shapes, F32 boxes, int out_h,
                                       int out_w, const std::string& method, bool antialias) {
  return OnFloatOrUint8(values, [&](const auto& v) {
    return CropResizePackedGpuOf(v, channels, shapes, boxes, out_h, out_w, method, antialias);
  });
}

py::array ResizeGpu(U8Image img, int out_h, int out_w, const std::string& method, bool antialias, bool mirror,
                    std::optional<std::vector<float>> mean, std::optional<std::vector<float>> std,
                    bool uint8_out) {
  return ResizeBatchGpu({img}, out_h, out_w, method, antialias, mirror, mean, std, uint8_out)[0];
}

py::array CropMirrorNormalizeBatchGpu(U8Image images, int crop_h, int crop_w, I32 offsets, Flags mirror,
                                      std::vector<float> mean, std::vector<float> std, bool nchw,
                                      const std::string& dtype, bool pad_channels) {
  const CropMirrorNormalizeCall call =
      MakeCropMirrorNormalizeCall(images, crop_h, crop_w, mean, std, nchw, dtype, pad_channels);
  const int b = images.shape(0);
  py::array out = MakeCropMirrorNormalizeOutput(call, b);
  DeviceBuffer src = Upload(images), off = Upload(offsets), mir = Upload(mirror), dst(out.nbytes());
  // mean and 1/std travel by value in the launch (host pointers here, as in the op kernel)
  Check(tfgpuaug::CropMirrorNormalizeGpu(src.as<uint8_t>(), b, call.p, off.as<int32_t>(), mir.as<bool>(),
                                         call.mean4.data(), call.inv_std4.data(), dst.ptr, nullptr));
  Download(dst, out);
  return out;
}

py::array_t<uint8_t> AugmentBatchGpu(U8Image images, I32 ops, F32 params, F32 aux, float fill,
                                     bool bilinear) {
  const int b = images.shape(0), k = ops.shape(1);
  const tfgpuaug::AugmentImage image_info{
      int(images.shape(1)), int(images.shape(2)), int(images.shape(3)), fill,
      bilinear ? tfgpuaug::Interpolation::kBilinear : tfgpuaug::Interpolation::kNearest};
  py::array out = py::array_t<uint8_t>({b, image_info.h, image_info.w, image_info.c});
  DeviceBuffer src = Upload(images), o = Upload(ops), pr = Upload(params), ax = Upload(aux);
  DeviceBuffer scratch(
      tfgpuaug::AugmentGpuScratchBytes(b, size_t(image_info.h) * image_info.w * image_info.c, ops.data(), k)),
      dst(out.nbytes());
  Check(tfgpuaug::AugmentBatchGpu(src.as<uint8_t>(), b, image_info, o.as<int32_t>(), ops.data(),
                                  pr.as<float>(), ax.as<float>(), k, scratch.as<uint8_t>(), dst.as<uint8_t>(),
                                  nullptr));
  Download(dst, out);
  return out;
}

py::array_t<uint8_t> FlipBatchGpu(U8Image images, Flags horizontal, Flags vertical) {
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array out = py::array_t<uint8_t>({b, h, w, c});
  DeviceBuffer src = Upload(images), hz = Upload(horizontal), vt = Upload(vertical), dst(out.nbytes());
  Check(tfgpuaug::FlipGpu(src.as<uint8_t>(), b, h, w, c, 1, hz.as<bool>(), vt.as<bool>(), dst.as<uint8_t>(),
                          nullptr));
  Download(dst, out);
  return out;
}

// One image [H, W, C] and its matrix, or a batch [B, H, W, C] and [B, 6] matrices, in one launch.
py::array_t<uint8_t> WarpAffineGpu(U8Image img, F32 matrices, bool bilinear, float fill, int out_h,
                                   int out_w) {
  const bool batched = img.ndim() == 4;
  const int b = batched ? int(img.shape(0)) : 1;
  if (!batched && img.ndim() != 3) throw std::invalid_argument("image must be [H, W, C] or [B, H, W, C]");
  if (matrices.size() != 6 * b) throw std::invalid_argument("give 6 matrix values per image");
  const auto p = Affine(img, bilinear, fill, out_h, out_w);
  py::array_t<uint8_t> out = batched ? py::array_t<uint8_t>({b, p.out_h, p.out_w, p.channels})
                                     : py::array_t<uint8_t>({p.out_h, p.out_w, p.channels});
  DeviceBuffer src = Upload(img), mat = Upload(matrices), dst(out.nbytes());
  Check(tfgpuaug::WarpAffineGpu(src.as<uint8_t>(), b, p, mat.as<float>(), dst.as<uint8_t>(), nullptr));
  py::array o = out;
  Download(dst, o);
  return out;
}
py::array_t<uint8_t> RemapBatchGpu(U8Image images,
                                   py::array_t<float, py::array::c_style | py::array::forcecast> maps,
                                   bool bilinear, int border, float fill) {
  const auto p = RemapOf(images, maps, bilinear, border, fill);
  const int b = images.shape(0);
  py::array out = py::array_t<uint8_t>({b, p.out_h, p.out_w, p.channels});
  DeviceBuffer src = Upload(images), mp = Upload(maps), dst(out.nbytes());
  Check(tfgpuaug::RemapGpu(src.as<uint8_t>(), b, p, mp.as<float>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> SeparableResampleGpu(U8Image images, I32Array row_index, F32Array row_weight,
                                          I32Array col_index, F32Array col_weight, float fill) {
  const auto [out_h, out_w] = SeparableShape(images, row_index, row_weight, col_index, col_weight);
  const int b = images.shape(0);
  py::array out = py::array_t<uint8_t>({b, out_h, out_w, int(images.shape(3))});
  DeviceBuffer src = Upload(images), ri = Upload(row_index), rw = Upload(row_weight), ci = Upload(col_index),
               cw = Upload(col_weight), dst(out.nbytes());
  Check(tfgpuaug::SeparableResampleGpu(src.as<uint8_t>(), b, int(images.shape(1)), int(images.shape(2)),
                                       int(images.shape(3)), {ri.as<int32_t>(), rw.as<float>()}, out_h,
                                       {ci.as<int32_t>(), cw.as<float>()}, out_w,
                                       tfgpuaug::RoundHalfEvenToUint8(fill), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<float> ElasticMapsGpu(I32Array seeds, F32Array alpha, F32Array kernel, int h, int w,
                                  bool same_dxdy, bool gaussian) {
  const auto s = ElasticShapeOf(seeds, alpha, kernel, h, w, same_dxdy, gaussian);
  const int b = seeds.shape(0);
  py::array out = py::array_t<float>({b, h, w, 2});
  DeviceBuffer sd = Upload(seeds), ad = Upload(alpha), kd = Upload(kernel), dst(out.nbytes()),
               scratch(sizeof(float) * tfgpuaug::ElasticScratchFloatsGpu(s, b));
  Check(tfgpuaug::ElasticMapsGpu(s, b, kd.as<float>(), sd.as<int32_t>(), ad.as<float>(), scratch.as<float>(),
                                 dst.as<float>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<float> CellMapsBatchGpu(I32Array owners, F64Array matrices) {
  const int cells = CellMapsShape(owners, matrices);
  const int b = owners.shape(0), h = owners.shape(1), w = owners.shape(2);
  py::array out = py::array_t<float>({b, h, w, 2});
  DeviceBuffer od = Upload(owners), md = Upload(matrices), dst(out.nbytes());
  Check(tfgpuaug::CellMapsGpu(od.as<int32_t>(), md.as<double>(), b, cells, h, w, dst.as<float>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> TileShuffleBatchGpu(U8Image images, I32Array row_starts, I32Array col_starts,
                                         I32Array sources) {
  const auto [rows, cols] = TileShuffleShape(images, row_starts, col_starts, sources);
  const int b = images.shape(0);
  py::array out = py::array_t<uint8_t>({b, int(images.shape(1)), int(images.shape(2)), int(images.shape(3))});
  DeviceBuffer src = Upload(images), rs = Upload(row_starts), cs = Upload(col_starts), so = Upload(sources),
               dst(out.nbytes());
  Check(tfgpuaug::TileShuffleGpu(src.as<uint8_t>(), b, int(images.shape(1)), int(images.shape(2)),
                                 int(images.shape(3)), rs.as<int32_t>(), rows, cs.as<int32_t>(), cols,
                                 so.as<int32_t>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> Filter2DBatchGpu(U8Image images, F32Array kernels, bool ties_up, bool symmetric) {
  const int side = Filter2DShape(images, kernels);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array out = py::array_t<uint8_t>({b, h, w, c});
  DeviceBuffer src = Upload(images), kn = Upload(kernels),
               plans(size_t(b) * tfgpuaug::kFilter2DPlanInts * sizeof(int)), dst(out.nbytes());
  Check(tfgpuaug::Filter2DGpu(src.as<uint8_t>(), b, h, w, c, kn.as<float>(), side, ties_up, symmetric,
                              plans.as<int>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
// in_place: the output written over the input's device buffer, as the op does when TensorFlow
// forwards its input.
py::array_t<uint8_t> LevelTablesBatchGpu(U8Image images, U8Image tables, I32Array rows, bool in_place) {
  LevelTablesShape(images, tables, rows);
  const int b = images.shape(0), c = images.shape(3);
  py::array out = py::array_t<uint8_t>({b, int(images.shape(1)), int(images.shape(2)), c});
  DeviceBuffer src = Upload(images), tb = Upload(tables), rw = Upload(rows), dst(in_place ? 0 : out.nbytes());
  DeviceBuffer& written = in_place ? src : dst;
  Check(tfgpuaug::LevelTablesGpu(src.as<uint8_t>(), b, int64_t{images.shape(1)} * images.shape(2), c,
                                 tb.as<uint8_t>(), int(tables.shape(0)), int(tables.shape(1)),
                                 int(tables.shape(2)), rows.size() == 0 ? nullptr : rw.as<int32_t>(),
                                 written.as<uint8_t>(), nullptr));
  Download(written, out);
  return out;
}
py::array_t<uint8_t> HlsLightnessBatchGpu(U8Image images, I32Array tables, I32Array levels) {
  HlsLightnessShape(images, tables, levels);
  const int b = images.shape(0);
  py::array out = py::array_t<uint8_t>({b, int(images.shape(1)), int(images.shape(2)), 3});
  DeviceBuffer src = Upload(images), tb = Upload(tables), lv = Upload(levels), dst(out.nbytes());
  Check(tfgpuaug::HlsLightnessGpu(
      src.as<uint8_t>(), b, int64_t{images.shape(1)} * images.shape(2), tb.as<int32_t>(),
      int(tables.shape(0)), levels.size() == 0 ? nullptr : lv.as<int32_t>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<int32_t> SpanRasterBatchGpu(I32Array spans, int height, int width, const std::string& combine,
                                        int box, int32_t fill) {
  const tfgpuaug::SpanCombine how = SpanRasterArgs(spans, height, width, combine, box);
  const int64_t b = spans.shape(1), k = spans.shape(2);
  py::array out = py::array_t<int32_t>({b, int64_t{height}, int64_t{width}});
  DeviceBuffer sp = Upload(spans), painted(out.nbytes()), dst(out.nbytes());
  const int32_t* d = sp.as<int32_t>();
  Check(tfgpuaug::SpanRasterGpu(d, d + b * k, d + 2 * b * k, d + 3 * b * k, int(b), k, height, width, how,
                                fill, box, painted.as<int32_t>(), dst.as<int32_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> GlassSwapsBatchGpu(U8Image images, I32Array seeds, U8Image apply, int max_delta,
                                        int iterations) {
  GlassSwapsArgs(images, seeds, apply, max_delta, iterations);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array out = py::array_t<uint8_t>({b, h, w, c});
  DeviceBuffer src = Upload(images), sd = Upload(seeds), ap = Upload(apply), before(out.nbytes()),
               last(size_t(b) * h * w * sizeof(int32_t)), dst(out.nbytes());
  Check(tfgpuaug::GlassSwapsGpu(
      src.as<uint8_t>(), sd.as<int32_t>(), reinterpret_cast<const bool*>(ap.as<uint8_t>()), b, h, w, c,
      max_delta, iterations, before.as<uint8_t>(), last.as<int32_t>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<int32_t> LineRasterBatchGpu(I32Array lines, int height, int width, int span_width,
                                        const std::string& combine, int box, int32_t fill) {
  const tfgpuaug::SpanCombine how = SpanRasterArgs(lines, height, width, combine, box, 5);
  if (span_width < 1) throw std::invalid_argument("need span_width >= 1");
  const int64_t b = lines.shape(1), k = lines.shape(2);
  py::array out = py::array_t<int32_t>({b, int64_t{height}, int64_t{width}});
  DeviceBuffer ln = Upload(lines), painted(out.nbytes()), dst(out.nbytes());
  const int32_t* d = ln.as<int32_t>();
  Check(tfgpuaug::LineRasterGpu(d, d + b * k, d + 2 * b * k, d + 3 * b * k, d + 4 * b * k, int(b), k, height,
                                width, span_width, how, fill, box, painted.as<int32_t>(), dst.as<int32_t>(),
                                nullptr));
  Download(dst, out);
  return out;
}
py::array_t<float> PlasmaPatternBatchGpu(I32Array seeds, int height, int width, float roughness) {
  tfgpuaug::PlasmaScales scales{};
  const int steps = PlasmaArgs(height, width, roughness, scales.value);
  const int64_t b = seeds.shape(0), side = (int64_t{1} << (steps + 1)) + 1;
  py::array out = py::array_t<float>({b, int64_t{height}, int64_t{width}});
  DeviceBuffer sd = Upload(seeds), grids(size_t(2 * b * side * side) * sizeof(float)),
               bounds(size_t(2 * b) * sizeof(float)), dst(out.nbytes());
  Check(tfgpuaug::PlasmaPatternGpu(sd.as<int32_t>(), int(b), height, width, scales, steps, grids.as<float>(),
                                   grids.as<float>() + b * side * side, bounds.as<float>(), dst.as<float>(),
                                   nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> PatternBlendBatchGpu(U8Image images, F32Array patterns, F32Array factors,
                                          const std::string& mode) {
  const tfgpuaug::PatternBlendMode how = PatternBlendArgs(images, patterns, factors, mode);
  const int64_t b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array out = py::array_t<uint8_t>({b, h, w, c});
  DeviceBuffer src = Upload(images), pt = Upload(patterns), fc = Upload(factors),
               sums(size_t(b) * sizeof(unsigned long long)), dst(out.nbytes());
  Check(tfgpuaug::PatternBlendGpu(src.as<uint8_t>(), int(b), h * w, int(c), pt.as<float>(), fc.as<float>(),
                                  how, sums.as<unsigned long long>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<int32_t> ChannelHistogramsBatchGpu(U8Image images) {
  if (images.ndim() != 4) throw std::invalid_argument("need images [B, H, W, C]");
  const int64_t b = images.shape(0), c = images.shape(3);
  py::array out = py::array_t<int32_t>({b, c, int64_t{256}});
  DeviceBuffer src = Upload(images), dst(out.nbytes());
  Check(tfgpuaug::ChannelHistogramsGpu(src.as<uint8_t>(), int(b), int64_t{images.shape(1)} * images.shape(2),
                                       int(c), dst.as<int32_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> UnsharpMaskBatchGpu(U8Image images, F32Array weights, F32Array alpha,
                                         F32Array threshold) {
  const int taps = UnsharpShape(images, weights, alpha, threshold);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array out = py::array_t<uint8_t>({b, h, w, c});
  DeviceBuffer src = Upload(images), wt = Upload(weights), al = Upload(alpha), th = Upload(threshold),
               scratch(tfgpuaug::UnsharpScratchFloatsGpu(b, h, w, c) * sizeof(float)), dst(out.nbytes());
  Check(tfgpuaug::UnsharpMaskGpu(src.as<uint8_t>(), b, h, w, c, wt.as<float>(), taps, al.as<float>(),
                                 th.as<float>(), scratch.as<float>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> SunFlareBatchGpu(U8Image images, I32Array circles, F32Array circle_weights,
                                      U8Image colours, I32Array suns, I32Array radii, F32Array weights,
                                      U8Image sun_colour) {
  const auto [n, m] =
      SunFlareShape(images, circles, circle_weights, colours, suns, radii, weights, sun_colour);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array out = py::array_t<uint8_t>({b, h, w, c});
  DeviceBuffer src = Upload(images), ci = Upload(circles), cw = Upload(circle_weights), co = Upload(colours),
               su = Upload(suns), ra = Upload(radii), we = Upload(weights), sc = Upload(sun_colour),
               dst(out.nbytes());
  const tfgpuaug::SunFlareBatch flares{ci.as<int32_t>(), cw.as<float>(),   co.as<uint8_t>(), n,
                                       su.as<int32_t>(), ra.as<int32_t>(), we.as<float>(),   m,
                                       sc.as<uint8_t>()};
  Check(tfgpuaug::SunFlareGpu(src.as<uint8_t>(), b, h, w, c, flares, dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> SpatterMudBatchGpu(U8Image images, F64Array params, I32Array seeds, F64Array taps1,
                                        F32Array taps2, F64Array colour) {
  SpatterMudShape(images, params, seeds, taps1, taps2, colour);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2);
  py::array out = py::array_t<uint8_t>({b, h, w, 3});
  DeviceBuffer src = Upload(images), pa = Upload(params), se = Upload(seeds), t1 = Upload(taps1),
               t2 = Upload(taps2), co = Upload(colour), scratch(tfgpuaug::SpatterMudGpuScratchBytes(b, h, w)),
               dst(out.nbytes());
  const tfgpuaug::SpatterMudBatch mud{pa.as<double>(),     se.as<int32_t>(), t1.as<double>(),
                                      int(taps1.shape(1)), t2.as<float>(),   int(taps2.shape(1)),
                                      co.as<double>()};
  Check(tfgpuaug::SpatterMudGpu(src.as<uint8_t>(), b, h, w, mud, scratch.as<uint8_t>(), dst.as<uint8_t>(),
                                nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> SpatterRainBatchGpu(U8Image images, F64Array params, I32Array seeds, F64Array taps1,
                                         F64Array colour) {
  SpatterRainShape(images, params, seeds, taps1, colour);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2);
  py::array out = py::array_t<uint8_t>({b, h, w, 3});
  DeviceBuffer src = Upload(images), pa = Upload(params), se = Upload(seeds), t1 = Upload(taps1),
               co = Upload(colour), scratch(tfgpuaug::SpatterRainGpuScratchBytes(b, h, w)), dst(out.nbytes());
  const tfgpuaug::SpatterMudBatch rain{
      pa.as<double>(), se.as<int32_t>(), t1.as<double>(), int(taps1.shape(1)), nullptr, 0, co.as<double>()};
  Check(tfgpuaug::SpatterRainGpu(src.as<uint8_t>(), b, h, w, rain, scratch.as<uint8_t>(), dst.as<uint8_t>(),
                                 nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> HeStainBatchGpu(U8Image images, F32Array densities, F64Array thresholds, U8Image cells,
                                     F64Array projections, F64Array matrices, F64Array scales,
                                     F64Array shifts, BoolArray apply, bool background) {
  HeStainShape(images, densities, thresholds, cells, projections, matrices, scales, shifts, apply);
  const int b = images.shape(0);
  const size_t pixels = size_t(images.shape(1)) * images.shape(2);
  py::array out = py::array_t<uint8_t>({b, int(images.shape(1)), int(images.shape(2)), 3});
  DeviceBuffer src = Upload(images), de = Upload(densities), th = Upload(thresholds), ce = Upload(cells),
               pr = Upload(projections), ma = Upload(matrices), sc = Upload(scales), sh = Upload(shifts),
               ap = Upload(apply), dst(out.nbytes());
  const tfgpuaug::HeStainBatch jitter{de.as<float>(),  th.as<double>(),  ce.as<uint8_t>(),
                                      pr.as<double>(), ma.as<double>(),  sc.as<double>(),
                                      sh.as<double>(), ap.as<uint8_t>(), background};
  Check(tfgpuaug::HeStainGpu(src.as<uint8_t>(), b, pixels, jitter, dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::tuple TissuePlaneBatchGpu(U8Image images, F32Array densities) {
  RgbDensityShape(images, densities);
  const int b = images.shape(0);
  const py::ssize_t n = images.shape(1) * images.shape(2);
  py::array planes = py::array_t<double>({b, 3, 2}),
            coordinates = py::array_t<double>({py::ssize_t(b), n, py::ssize_t(2)});
  py::array keys = py::array_t<float>({py::ssize_t(b), n}), tissue = py::array_t<bool>({py::ssize_t(b), n});
  py::array counts = py::array_t<int32_t>(b);
  DeviceBuffer src = Upload(images), de = Upload(densities), pl(planes.nbytes()), co(coordinates.nbytes()),
               ke(keys.nbytes()), ti(tissue.nbytes()), cn(counts.nbytes());
  Check(tfgpuaug::TissuePlaneGpu(src.as<uint8_t>(), b, size_t(n), de.as<float>(), pl.as<double>(),
                                 co.as<double>(), ke.as<float>(), ti.as<bool>(), cn.as<int32_t>(), nullptr));
  Download(pl, planes);
  Download(co, coordinates);
  Download(ke, keys);
  Download(ti, tissue);
  Download(cn, counts);
  return py::make_tuple(planes, coordinates, keys, tissue, counts);
}
py::array_t<float> SeparableBlurBatchGpu(F32Array planes, F32Array kernels) {
  SeparableBlurShape(planes, kernels);
  const int p = planes.shape(0), h = planes.shape(1), w = planes.shape(2);
  py::array out = py::array_t<float>({p, h, w});
  DeviceBuffer src = Upload(planes), kn = Upload(kernels), across(out.nbytes()), dst(out.nbytes());
  Check(tfgpuaug::SeparableBlurGpu(src.as<float>(), p, h, w, kn.as<float>(), int(kernels.shape(0)),
                                   int(kernels.shape(1)), across.as<float>(), dst.as<float>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> FlareBlendBatchGpu(U8Image images, I32Array layer, I32Array sun, BoolArray apply,
                                        F32Array flare_kernel, F32Array kernels) {
  FlareBlendShape(images, layer, sun, apply, flare_kernel, kernels);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2);
  py::array out = py::array_t<uint8_t>({b, h, w, 3});
  const size_t plane_bytes = size_t(b) * 3 * h * w * sizeof(float);
  DeviceBuffer src = Upload(images), ly = Upload(layer), su = Upload(sun), ap = Upload(apply),
               fk = Upload(flare_kernel), kn = Upload(kernels), planes(plane_bytes), across(plane_bytes),
               dst(out.nbytes());
  Check(tfgpuaug::FlareBlendGpu(src.as<uint8_t>(), b, h, w, ly.as<int32_t>(), su.as<int32_t>(), ap.as<bool>(),
                                fk.as<float>(), int(flare_kernel.shape(0)), kn.as<float>(),
                                int(kernels.shape(1)), planes.as<float>(), across.as<float>(),
                                dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<float> StainNmfBatchGpu(U8Image images, F32Array densities) {
  RgbDensityShape(images, densities);
  const int b = images.shape(0);
  const size_t pixels = size_t(images.shape(1)) * images.shape(2);
  py::array out = py::array_t<float>({b, 2, 3});
  DeviceBuffer src = Upload(images), de = Upload(densities),
               scratch(tfgpuaug::StainNmfGpuScratchFloats(b, pixels) * sizeof(float)), dst(out.nbytes());
  Check(tfgpuaug::StainNmfGpu(src.as<uint8_t>(), b, pixels, de.as<float>(), scratch.as<float>(),
                              dst.as<float>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> SuperpixelsBatchGpu(U8Image images, I32Array segments, U8Image replace) {
  SuperpixelsShape(images, segments, replace);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  const int m = replace.shape(1);
  py::array out = py::array_t<uint8_t>({b, h, w, c});
  DeviceBuffer src = Upload(images), se = Upload(segments), re = Upload(replace),
               scratch(tfgpuaug::SuperpixelsGpuScratchBytes(b, h, w, c, m)), dst(out.nbytes());
  Check(tfgpuaug::SuperpixelsGpu(src.as<uint8_t>(), b, h, w, c, se.as<int32_t>(), re.as<uint8_t>(), m,
                                 scratch.as<uint8_t>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> ZoomBlurBatchGpu(U8Image images, F64Array max_factors, F64Array steps) {
  ZoomBlurShape(images, max_factors, steps);
  const int b = images.shape(0), h = images.shape(1), w = images.shape(2), c = images.shape(3);
  py::array out = py::array_t<uint8_t>({b, h, w, c});
  DeviceBuffer src = Upload(images), mf = Upload(max_factors), st = Upload(steps),
               scratch(tfgpuaug::ZoomBlurGpuScratchBytes(b)), dst(out.nbytes());
  Check(tfgpuaug::ZoomBlurGpu(src.as<uint8_t>(), mf.as<double>(), st.as<double>(), b, h, w, c,
                              scratch.as<uint8_t>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
py::array_t<uint8_t> RemapAffineBatchGpu(
    U8Image images, py::array_t<float, py::array::c_style | py::array::forcecast> matrices, int out_h,
    int out_w, bool bilinear, int border, float fill) {
  const auto p = RemapAffineOf(images, matrices, out_h, out_w, bilinear, border, fill);
  const int b = images.shape(0);
  py::array out = py::array_t<uint8_t>({b, p.out_h, p.out_w, p.channels});
  DeviceBuffer src = Upload(images), mt = Upload(matrices), dst(out.nbytes());
  Check(tfgpuaug::RemapAffineGpu(src.as<uint8_t>(), b, p, mt.as<float>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}

py::array_t<uint8_t> RemapRadialBatchGpu(
    U8Image images, py::array_t<float, py::array::c_style | py::array::forcecast> coefficients, bool bilinear,
    int border, float fill) {
  const auto p = RemapRadialOf(images, coefficients, bilinear, border, fill);
  const int b = images.shape(0);
  py::array out = py::array_t<uint8_t>({b, p.out_h, p.out_w, p.channels});
  DeviceBuffer src = Upload(images), ks = Upload(coefficients), dst(out.nbytes());
  Check(coefficients.ndim() == 3
            ? tfgpuaug::RemapRadialChannelsGpu(src.as<uint8_t>(), b, p, ks.as<float>(), dst.as<uint8_t>(),
                                               nullptr)
            : tfgpuaug::RemapRadialGpu(src.as<uint8_t>(), b, p, ks.as<float>(), dst.as<uint8_t>(), nullptr));
  Download(dst, out);
  return out;
}
#endif

}  // namespace

// Where a GPU decode sends this image ("nvjpeg" or "host"), by the rules and the
// TFGPUAUG_NVJPEG value `mode` the GPU path uses, with nvJPEG loaded or not.
std::string NvjpegRoute(py::bytes data, int channels, int dct_denom, bool apply_exif_orientation,
                        const std::string& mode, bool nvjpeg_loaded) {
  const std::string bytes = data;
  DecodeRequest r = MakeRequest(channels, std::nullopt, dct_denom, apply_exif_orientation, "auto");
  DecodePlan plan;
  Check(tfgpuaug::PlanDecode(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), r, &plan));
  const bool ready = nvjpeg_loaded && tfgpuaug::NvjpegModeFrom(mode.c_str()) != tfgpuaug::NvjpegMode::kOff;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  return tfgpuaug::RoutesToNvjpeg(p, bytes.size(), plan, r, ready) ? "nvjpeg" : "host";
}

PYBIND11_MODULE(tfgpuaug_kernels, m) {
  m.def("nvjpeg_group_ends", &tfgpuaug::NvjpegGroupEnds, py::arg("bytes"), py::arg("budget"),
        "End indices of the groups a GPU decode hands nvJPEG, so its full-size scratch fits `budget`.");
  m.def("nvjpeg_scratch_bytes", &tfgpuaug::NvjpegScratchBytes, py::arg("bytes"), py::arg("budget"),
        "The device scratch those groups need.");
  m.doc() = "tfgpuaug's framework-free CPU and CUDA kernels (no TensorFlow needed)";
  py::class_<tfgpuaug::LargeBlockPool>(m, "LargeBlockPool",
                                       "The host block pool the op library's large CPU outputs come from.")
      .def(py::init<size_t, size_t>(), py::arg("min_bytes"), py::arg("max_cached_bytes"))
      .def(
          "acquire",
          [](tfgpuaug::LargeBlockPool& pool, size_t bytes) {
            return reinterpret_cast<uintptr_t>(pool.Acquire(bytes));
          },
          py::arg("bytes"), "A block's address (0: declined).")
      .def(
          "release",
          [](tfgpuaug::LargeBlockPool& pool, uintptr_t block) {
            return pool.Release(reinterpret_cast<void*>(block));
          },
          py::arg("block"), "Takes a block back (False: not one of this pool's).")
      .def("stats", [](const tfgpuaug::LargeBlockPool& pool) {
        const tfgpuaug::LargeBlockPool::Stats s = pool.stats();
        py::dict d;
        d["live_blocks"] = s.live_blocks;
        d["cached_blocks"] = s.cached_blocks;
        d["cached_bytes"] = s.cached_bytes;
        d["mapped"] = s.mapped;
        d["reused"] = s.reused;
        d["unmapped"] = s.unmapped;
        return d;
      });
  m.attr("LARGE_BLOCK_GRANULE") = tfgpuaug::LargeBlockPool::kBlockGranule;
  m.def(
      "check_jpeg_entropy",
      [](py::bytes data) {
        const std::string bytes = data;
        Check(tfgpuaug::CheckJpegEntropy(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
      },
      py::arg("data"), "Entropy-decodes a JPEG's scan without making pixels; raises where a decode would.");
  m.def("decode", &Decode, py::arg("data"), py::arg("channels") = 3, py::arg("window") = py::none(),
        py::arg("dct_denom") = 1, py::arg("apply_exif_orientation") = false, py::arg("strided") = false,
        py::arg("jpeg_build") = "auto",
        "Decodes JPEG/PNG bytes on the CPU (strided: through ExecuteDecodeStrided).");
  m.def(
      "jpeg_build_available",
      [](const std::string& name) { return tfgpuaug::JpegBuildAvailable(JpegBuildNamed(name)); },
      py::arg("name"), "Whether this module can decode with the named libjpeg here.");
  m.def("crop_resize_packed", &CropResizePacked, py::arg("values"), py::arg("channels"), py::arg("shapes"),
        py::arg("boxes"), py::arg("height"), py::arg("width"), py::arg("method") = "bilinear",
        py::arg("antialias") = false,
        "CropResize over ragged images packed in one flat uint8 or float32 buffer ([n, 2] shapes, [n, 4] "
        "boxes y, x, height, width in pixels): [n, height, width, channels] float32");
  m.def("resize", &Resize, py::arg("image"), py::arg("height"), py::arg("width"),
        py::arg("method") = "bilinear", py::arg("antialias") = false, py::arg("mirror") = false,
        py::arg("mean") = py::none(), py::arg("std") = py::none(), py::arg("uint8_out") = false,
        "Resamples uint8 [H, W, C] on the CPU: float (or rounded uint8) [height, width, C], "
        "mirrored and normalized through the fused epilogue.");
  m.def("warp_affine", &WarpAffine, py::arg("image"), py::arg("matrix"), py::arg("bilinear") = true,
        py::arg("fill") = 128.f, py::arg("general") = false, py::arg("out_h") = 0, py::arg("out_w") = 0,
        "PIL-style affine warp on the CPU; general=True forces the per-pixel loop the GPU runs.");
  m.def("separable_resample", &SeparableResample, py::arg("images"), py::arg("row_index"),
        py::arg("row_weight"), py::arg("col_index"), py::arg("col_weight"), py::arg("fill") = 0.f,
        "Separable resampling of a batch [B, H, W, C] through per-sample row and column tap tables on the "
        "CPU.");
  m.def("remap_affine", &RemapAffine, py::arg("images"), py::arg("matrices"), py::arg("out_h"),
        py::arg("out_w"), py::arg("bilinear") = true, py::arg("border") = 0, py::arg("fill") = 0.f,
        "Remap of a batch [B, H, W, C] through the affine maps of matrices [B, 2, 3] (output pixel x, y "
        "samples "
        "M @ [x, y, 1]) to out_h x out_w, on the CPU.");
  m.def("remap_radial", &RemapRadial, py::arg("images"), py::arg("coefficients"), py::arg("bilinear") = true,
        py::arg("border") = 0, py::arg("fill") = 0.f,
        "Remap of a batch [B, H, W, C] through the radial lens maps of coefficients [B, 2] (k1, k2; "
        "cv2.initUndistortRectifyMap's camera), on the CPU.");
  m.def("cell_maps", &CellMaps, py::arg("owners"), py::arg("matrices"),
        "GridElasticDeform's maps [B, H, W, 2] on the CPU: each pixel through the 3x3 matrix of its owner "
        "(matrices [B, K, 9]) in cv2.warpPerspective's arithmetic; NaN where the owner is not a cell.");
  m.def("elastic_maps", &ElasticMaps, py::arg("seeds"), py::arg("alpha"), py::arg("kernel"),
        py::arg("height"), py::arg("width"), py::arg("same_dxdy") = false, py::arg("gaussian") = true,
        "ElasticTransform's maps [B, height, width, 2] on the CPU: counter-hash noise per seed, blurred "
        "by kernel (replicated edges), times alpha (over the peak for normal noise), plus the grid.");
  m.def("level_tables", &LevelTables, py::arg("images"), py::arg("tables"), py::arg("rows"),
        "Each byte of a batch [B, H, W, C] through tables [1 or B, R, 1 or C, 256], row rows[b, y, x] (rows "
        "[B, H, W], or empty: row 0), on the CPU.");
  m.def(
      "span_raster", &SpanRaster, py::arg("spans"), py::arg("height"), py::arg("width"),
      py::arg("combine") = "sum", py::arg("box") = 1, py::arg("fill") = 0,
      "Spans [4 (rows, starts, stops, values), B, K] painted into int32 planes [B, height, width] that start "
      "at fill (combine 'sum', 'max' or 'last'), then box-summed (reflect-101) when box > 1, on the CPU.");
  m.def("glass_swaps", &GlassSwaps, py::arg("images"), py::arg("seeds"), py::arg("apply"),
        py::arg("max_delta"), py::arg("iterations"),
        "GlassBlur's swaps of uint8 images [B, H, W, C] where apply [B] says, drawn from seeds [B], on the "
        "CPU.");
  m.def("line_raster", &LineRaster, py::arg("lines"), py::arg("height"), py::arg("width"),
        py::arg("span_width") = 1, py::arg("combine") = "sum", py::arg("box") = 1, py::arg("fill") = 0,
        "Lines [5 (x0, y0, x1, y1, values), B, K] (cv2.line LINE_4, each pixel span_width columns) painted "
        "into "
        "int32 planes [B, height, width] as span_raster paints spans, on the CPU.");
  m.def("plasma_pattern", &PlasmaPattern, py::arg("seeds"), py::arg("height"), py::arg("width"),
        py::arg("roughness") = 3.f, "Plasma fractals [B, height, width] in [0, 1] of seeds [B], on the CPU.");
  m.def("pattern_blend", &PatternBlend, py::arg("images"), py::arg("patterns"), py::arg("factors"),
        py::arg("mode"), "The plasma blends ('shadow', 'brightness_contrast') of uint8 images on the CPU.");
  m.def("channel_histograms", &ChannelHistograms, py::arg("images"),
        "Level counts [B, C, 256] of each channel of uint8 images [B, H, W, C] on the CPU.");
  m.def("hls_lightness", &HlsLightness, py::arg("images"), py::arg("tables"), py::arg("levels"),
        "RGB images [B, H, W, 3] with their 8-bit HLS lightness rewritten by tables [1 or B, 256] and "
        "levels [B, H, W] (or empty) on the CPU.");
  m.def("filter2d", &Filter2D, py::arg("images"), py::arg("kernels"), py::arg("ties_up") = false,
        py::arg("symmetric") = false,
        "cv2.filter2D of each image of a batch [B, H, W, C] with its kernel of kernels [B, K, K] on the CPU "
        "(reflect-101, rounded and saturated; symmetric: each kernel read in its octant).");
  m.def("unsharp_mask", &UnsharpMask, py::arg("images"), py::arg("weights"), py::arg("alpha"),
        py::arg("threshold"),
        "Albumentations' UnsharpMask of a batch [B, H, W, C] on the CPU: weights [B, taps], alpha [B], "
        "threshold [B] in levels.");
  m.def(
      "counter_normals", &CounterNormals, py::arg("seed"), py::arg("count"),
      "The counter-hash standard normals 0 .. count of a seed (float32; elastic fields', Spatter's noise).");
  m.def("spatter_rain", &SpatterRain, py::arg("images"), py::arg("params"), py::arg("seeds"),
        py::arg("liquid_taps"), py::arg("colour"),
        "Albumentations' Spatter ('rain') of a batch [B, H, W, 3] on the CPU (the op's arguments).");
  m.def("spatter_mud", &SpatterMud, py::arg("images"), py::arg("params"), py::arg("seeds"),
        py::arg("liquid_taps"), py::arg("mask_taps"), py::arg("colour"),
        "Albumentations' Spatter ('mud') of a batch [B, H, W, 3] on the CPU (the op's arguments).");
  m.def(
      "sun_flare", &SunFlare, py::arg("images"), py::arg("circles"), py::arg("circle_weights"),
      py::arg("circle_colours"), py::arg("suns"), py::arg("sun_radii"), py::arg("sun_weights"),
      py::arg("sun_colour"),
      "Albumentations' RandomSunFlare ('overlay') of a batch [B, H, W, C] on the CPU (the op's arguments).");
  m.def("he_stain", &HeStain, py::arg("images"), py::arg("densities"), py::arg("thresholds"),
        py::arg("cells"), py::arg("projections"), py::arg("matrices"), py::arg("scales"), py::arg("shifts"),
        py::arg("apply"), py::arg("background") = false,
        "Albumentations' HEStain jitter of RGB images [B, H, W, 3] on the CPU (the HeStain op's arguments).");
  m.def("tissue_plane", &TissuePlane, py::arg("images"), py::arg("densities"),
        "The Macenko fit's tissue plane of RGB images [B, H, W, 3] on the CPU: (planes, coordinates, keys, "
        "tissue, "
        "counts).");
  m.def(
      "separable_blur", &SeparableBlur, py::arg("planes"), py::arg("kernels"),
      "Float planes [P, H, W] blurred along rows, then columns, by kernels[p % K] of [K, T] (reflect-101) on "
      "the CPU.");
  m.def("flare_blend", &FlareBlend, py::arg("images"), py::arg("layer"), py::arg("sun"), py::arg("apply"),
        py::arg("flare_kernel"), py::arg("kernels"),
        "RandomSunFlare physics_based's blurs, fade and screen of its packed layer over RGB images "
        "[B, H, W, 3] on the CPU (the FlareBlend op's arguments).");
  m.def("stain_nmf", &StainNmf, py::arg("images"), py::arg("densities"),
        "Albumentations' 'vahadane' stain fit of RGB images [B, H, W, 3] on the CPU: rows [B, 2, 3] (NMF "
        "order).");
  m.def("superpixels", &Superpixels, py::arg("images"), py::arg("segments"), py::arg("replace"),
        "Albumentations' Superpixels of a batch [B, H, W, C] on the CPU: SLIC into about segments[b] "
        "superpixels, the i-th label present (0 excepted) replaced by its mean where replace[b, i mod n].");
  m.def(
      "zoom_blur", &ZoomBlur, py::arg("images"), py::arg("max_factors"), py::arg("steps"),
      py::arg("scalar") = false,
      "Albumentations' ZoomBlur of a batch [B, H, W, C] on the CPU over arange(1, max_factors[b], steps[b]); "
      "scalar=True runs the scalar loop (CPUs without AVX2).");
  m.def("tile_shuffle", &TileShuffle, py::arg("images"), py::arg("row_starts"), py::arg("col_starts"),
        py::arg("sources"),
        "RandomGridShuffle's tile move of a batch [B, H, W, C] on the CPU (plans checked).");
  m.def("remap", &Remap, py::arg("images"), py::arg("maps"), py::arg("bilinear") = true,
        py::arg("border") = 0, py::arg("fill") = 0.f,
        "cv2.remap (OpenCV 4.11+) of a batch [B, H, W, C] through maps [B, h, w, 2] on the CPU.");
  m.def("augment_stage", &AugmentStage, py::arg("image"), py::arg("op"), py::arg("param") = 0.f,
        py::arg("aux") = std::vector<float>{0.f, 0.f}, py::arg("fill") = 128.f, py::arg("general") = false,
        "One augment stage on the CPU; general=True runs the per-pixel function the GPU runs.");
  m.def("crop_mirror_normalize", &CropMirrorNormalizeBatch, py::arg("images"), py::arg("crop_h"),
        py::arg("crop_w"), py::arg("offsets"), py::arg("mirror"), py::arg("mean"), py::arg("std"),
        py::arg("nchw") = false, py::arg("dtype") = "float32", py::arg("pad_channels") = false,
        "Crop-mirror-normalize of a uint8 [B, H, W, C] batch on the CPU (16-bit outputs as bits).");
  m.def("augment_batch", &AugmentBatch, py::arg("images"), py::arg("ops"), py::arg("params"), py::arg("aux"),
        py::arg("fill") = 128.f, py::arg("bilinear") = true,
        "K augment stages per sample of a uint8 batch on the CPU, one sample at a time.");
  m.def("flip", &FlipBatch, py::arg("images"), py::arg("horizontal"), py::arg("vertical"));
  m.def("nvjpeg_route", &NvjpegRoute, py::arg("data"), py::arg("channels") = 3, py::arg("dct_denom") = 1,
        py::arg("apply_exif_orientation") = false, py::arg("mode") = "", py::arg("nvjpeg_loaded") = true);
  m.def("cuda_built", &CudaBuilt);
  m.def("gpu_available", &GpuAvailable);
#if TFGPUAUG_CUDA
  m.def("decode_gpu", &DecodeGpu, py::arg("blobs"), py::arg("channels") = 3, py::arg("routes") = false,
        py::arg("windows") = py::none(), py::arg("errors") = false,
        "Decodes a batch into GPU memory (nvJPEG or host decode + copy), returned as numpy; windows: "
        "[y, x, height, width] per image; with routes=True, (images, routes): 'nvjpeg', "
        "'nvjpeg_refused' or 'host' per image; with errors=True, (images, routes, errors): a bad image's "
        "reason ('' when it decoded) instead of an exception.");
  m.def("decode_gpu_buffer_sizes", &DecodeGpuBufferSizes, py::arg("blobs"), py::arg("channels") = 3,
        py::arg("budget") = size_t(1) << 30,
        "(device scratch, pinned staging) bytes a GPU decode of blobs needs");
  m.def("cuda_status", &CudaStatusInfo,
        "device_count, error (of cudaGetDeviceCount), error_text, driver_version, runtime_version, emulated");
  m.def("nvjpeg_status", &NvjpegStatusInfo, "error ('' when libnvjpeg loaded) and path");
  m.def("crop_resize_packed_gpu", &CropResizePackedGpu, py::arg("values"), py::arg("channels"),
        py::arg("shapes"), py::arg("boxes"), py::arg("height"), py::arg("width"),
        py::arg("method") = "bilinear", py::arg("antialias") = false, "crop_resize_packed on the GPU");
  m.def("resize_gpu", &ResizeGpu, py::arg("image"), py::arg("height"), py::arg("width"),
        py::arg("method") = "bilinear", py::arg("antialias") = false, py::arg("mirror") = false,
        py::arg("mean") = py::none(), py::arg("std") = py::none(), py::arg("uint8_out") = false);
  m.def("resize_batch_gpu", &ResizeBatchGpu, py::arg("images"), py::arg("height"), py::arg("width"),
        py::arg("method") = "bilinear", py::arg("antialias") = false, py::arg("mirror") = false,
        py::arg("mean") = py::none(), py::arg("std") = py::none(), py::arg("uint8_out") = false,
        "Resamples images of different sizes in one launch per pass.");
  m.def("warp_affine_gpu", &WarpAffineGpu, py::arg("image"), py::arg("matrix"), py::arg("bilinear") = true,
        py::arg("fill") = 128.f, py::arg("out_h") = 0, py::arg("out_w") = 0,
        "The affine warp on the GPU: one image and its 6 values, or a batch and [B, 6] matrices.");
  m.def("separable_resample_gpu", &SeparableResampleGpu, py::arg("images"), py::arg("row_index"),
        py::arg("row_weight"), py::arg("col_index"), py::arg("col_weight"), py::arg("fill") = 0.f,
        "The separable resampling on the GPU, the batch in one launch.");
  m.def("remap_affine_gpu", &RemapAffineBatchGpu, py::arg("images"), py::arg("matrices"), py::arg("out_h"),
        py::arg("out_w"), py::arg("bilinear") = true, py::arg("border") = 0, py::arg("fill") = 0.f,
        "The affine remap on the GPU, the batch in one launch.");
  m.def("remap_radial_gpu", &RemapRadialBatchGpu, py::arg("images"), py::arg("coefficients"),
        py::arg("bilinear") = true, py::arg("border") = 0, py::arg("fill") = 0.f,
        "The radial remap on the GPU, the batch in one launch.");
  m.def("cell_maps_gpu", &CellMapsBatchGpu, py::arg("owners"), py::arg("matrices"),
        "The cell maps on the GPU, the batch in one launch.");
  m.def("elastic_maps_gpu", &ElasticMapsGpu, py::arg("seeds"), py::arg("alpha"), py::arg("kernel"),
        py::arg("height"), py::arg("width"), py::arg("same_dxdy") = false, py::arg("gaussian") = true,
        "The elastic maps on the GPU, the batch in three launches.");
  m.def("level_tables_gpu", &LevelTablesBatchGpu, py::arg("images"), py::arg("tables"), py::arg("rows"),
        py::arg("in_place") = false,
        "The per-pixel level tables on the GPU, the batch in one launch (in_place: over the input's "
        "buffer, as the op when TensorFlow forwards its input).");
  m.def("span_raster_gpu", &SpanRasterBatchGpu, py::arg("spans"), py::arg("height"), py::arg("width"),
        py::arg("combine") = "sum", py::arg("box") = 1, py::arg("fill") = 0,
        "The span raster on the GPU, the batch in three or four launches.");
  m.def("glass_swaps_gpu", &GlassSwapsBatchGpu, py::arg("images"), py::arg("seeds"), py::arg("apply"),
        py::arg("max_delta"), py::arg("iterations"),
        "GlassBlur's swaps on the GPU, two launches a round (take and bid, then give).");
  m.def("line_raster_gpu", &LineRasterBatchGpu, py::arg("lines"), py::arg("height"), py::arg("width"),
        py::arg("span_width") = 1, py::arg("combine") = "sum", py::arg("box") = 1, py::arg("fill") = 0,
        "The line raster on the GPU: one thread a (line, plane row) pair, then the span raster's finishing "
        "passes.");
  m.def("plasma_pattern_gpu", &PlasmaPatternBatchGpu, py::arg("seeds"), py::arg("height"), py::arg("width"),
        py::arg("roughness") = 3.f, "The plasma fractals on the GPU, five launches a step.");
  m.def("pattern_blend_gpu", &PatternBlendBatchGpu, py::arg("images"), py::arg("patterns"),
        py::arg("factors"), py::arg("mode"),
        "The plasma blends on the GPU (one launch, or three with the means).");
  m.def("channel_histograms_gpu", &ChannelHistogramsBatchGpu, py::arg("images"),
        "The per-channel level counts on the GPU (shared-memory counts up to 4 channels, global beyond).");
  m.def("hls_lightness_gpu", &HlsLightnessBatchGpu, py::arg("images"), py::arg("tables"), py::arg("levels"),
        "The 8-bit HLS lightness edit on the GPU, the batch in one launch.");
  m.def("filter2d_gpu", &Filter2DBatchGpu, py::arg("images"), py::arg("kernels"), py::arg("ties_up") = false,
        py::arg("symmetric") = false,
        "The per-image filter on the GPU, the batch in two launches (reaches, then values).");
  m.def("unsharp_mask_gpu", &UnsharpMaskBatchGpu, py::arg("images"), py::arg("weights"), py::arg("alpha"),
        py::arg("threshold"), "The unsharp mask on the GPU, the batch in four launches.");
  m.def("spatter_rain_gpu", &SpatterRainBatchGpu, py::arg("images"), py::arg("params"), py::arg("seeds"),
        py::arg("liquid_taps"), py::arg("colour"),
        "Spatter ('rain') on the GPU: per-pixel kernels, hysteresis and the distance transform a thread a "
        "sample.");
  m.def("spatter_mud_gpu", &SpatterMudBatchGpu, py::arg("images"), py::arg("params"), py::arg("seeds"),
        py::arg("liquid_taps"), py::arg("mask_taps"), py::arg("colour"),
        "Spatter ('mud') on the GPU, the batch in seven launches.");
  m.def("sun_flare_gpu", &SunFlareBatchGpu, py::arg("images"), py::arg("circles"), py::arg("circle_weights"),
        py::arg("circle_colours"), py::arg("suns"), py::arg("sun_radii"), py::arg("sun_weights"),
        py::arg("sun_colour"), "RandomSunFlare on the GPU, one thread a pixel.");
  m.def("he_stain_gpu", &HeStainBatchGpu, py::arg("images"), py::arg("densities"), py::arg("thresholds"),
        py::arg("cells"), py::arg("projections"), py::arg("matrices"), py::arg("scales"), py::arg("shifts"),
        py::arg("apply"), py::arg("background") = false,
        "The HEStain jitter on the GPU, one thread a pixel.");
  m.def("tissue_plane_gpu", &TissuePlaneBatchGpu, py::arg("images"), py::arg("densities"),
        "The tissue plane on the GPU, a block an image (a thread a lane of the sums).");
  m.def("separable_blur_gpu", &SeparableBlurBatchGpu, py::arg("planes"), py::arg("kernels"),
        "The separable float blur on the GPU, a thread an output value in each pass.");
  m.def("flare_blend_gpu", &FlareBlendBatchGpu, py::arg("images"), py::arg("layer"), py::arg("sun"),
        py::arg("apply"), py::arg("flare_kernel"), py::arg("kernels"),
        "The physics-based flare's blurs, fade and screen on the GPU, a thread an element in each launch.");
  m.def("stain_nmf_gpu", &StainNmfBatchGpu, py::arg("images"), py::arg("densities"),
        "The 'vahadane' stain fit on the GPU, a block an image (a thread a lane of the sums).");
  m.def("superpixels_gpu", &SuperpixelsBatchGpu, py::arg("images"), py::arg("segments"), py::arg("replace"),
        "Superpixels on the GPU, a block an image (a thread a pixel in each SLIC round).");
  m.def("zoom_blur_gpu", &ZoomBlurBatchGpu, py::arg("images"), py::arg("max_factors"), py::arg("steps"),
        "ZoomBlur on the GPU, the batch in two launches (each sample's zoom plan, then a thread a byte).");
  m.def("tile_shuffle_gpu", &TileShuffleBatchGpu, py::arg("images"), py::arg("row_starts"),
        py::arg("col_starts"), py::arg("sources"),
        "The tile shuffle on the GPU (plans unchecked: a pixel sent outside the image is 0).");
  m.def("remap_gpu", &RemapBatchGpu, py::arg("images"), py::arg("maps"), py::arg("bilinear") = true,
        py::arg("border") = 0, py::arg("fill") = 0.f, "The remap on the GPU, the batch in one launch.");
  m.def("crop_mirror_normalize_gpu", &CropMirrorNormalizeBatchGpu, py::arg("images"), py::arg("crop_h"),
        py::arg("crop_w"), py::arg("offsets"), py::arg("mirror"), py::arg("mean"), py::arg("std"),
        py::arg("nchw") = false, py::arg("dtype") = "float32", py::arg("pad_channels") = false);
  m.def("augment_batch_gpu", &AugmentBatchGpu, py::arg("images"), py::arg("ops"), py::arg("params"),
        py::arg("aux"), py::arg("fill") = 128.f, py::arg("bilinear") = true);
  m.def("flip_gpu", &FlipBatchGpu, py::arg("images"), py::arg("horizontal"), py::arg("vertical"));
#endif
}
