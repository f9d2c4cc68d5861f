// Registrations of the remap ops: an image resampled through a per-pixel map, and the boxes
// and points that follow it.
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace {

using shape_inference::DimensionHandle;
using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

// maps [B, H, W, 2].
absl::Status MapsShape(InferenceContext* c, int input, ShapeHandle* maps) {
  TF_RETURN_IF_ERROR(c->WithRank(c->input(input), 4, maps));
  DimensionHandle unused;
  return c->WithValue(c->Dim(*maps, 3), 2, &unused);
}

// rows [M, width] and their image indices [M].
absl::Status RowsShape(InferenceContext* c, int rows, int width, DimensionHandle* m) {
  ShapeHandle values, images;
  TF_RETURN_IF_ERROR(c->WithRank(c->input(rows), 2, &values));
  TF_RETURN_IF_ERROR(c->WithRank(c->input(rows + 1), 1, &images));
  DimensionHandle unused;
  TF_RETURN_IF_ERROR(c->WithValue(c->Dim(values, 1), width, &unused));
  return c->Merge(c->Dim(values, 0), c->Dim(images, 0), m);
}

REGISTER_OP("TfGpuAug>Remap")
    .Input("images: uint8")
    .Input("maps: float")
    .Output("remapped: uint8")
    .Attr("interpolation: {'nearest', 'bilinear'} = 'bilinear'")
    .Attr("border_mode: {'constant', 'replicate', 'reflect', 'wrap', 'reflect_101'} = 'constant'")
    .Attr("fill_value: float = 0")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, maps;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(MapsShape(c, 1, &maps));
      DimensionHandle batch;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(maps, 0), &batch));
      c->set_output(0, c->MakeShape({batch, c->Dim(maps, 1), c->Dim(maps, 2), c->Dim(images, 3)}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Resamples each image through its own map, as cv2.remap (OpenCV 4.11+): maps [B, H, W, 2] give
for each output pixel the (x, y) input coordinates it samples, in pixel indices (pixel k's
centre at k). Output [B, H, W, C]. Neighbours outside the image follow border_mode
(OpenCV's BORDER_* rules; constant takes fill_value); NaN or far-away coordinates take fill_value.
)doc");

REGISTER_OP("TfGpuAug>RemapAffine")
    .Input("images: uint8")
    .Input("matrices: float")
    .Input("size: int32")
    .Output("remapped: uint8")
    .Attr("interpolation: {'nearest', 'bilinear'} = 'bilinear'")
    .Attr("border_mode: {'constant', 'replicate', 'reflect', 'wrap', 'reflect_101'} = 'constant'")
    .Attr("fill_value: float = 0")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, matrices, size, hw;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &matrices));
      DimensionHandle batch, unused;
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(matrices, 1), 2, &unused));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(matrices, 2), 3, &unused));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(matrices, 0), &batch));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &size));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(size, 0), 2, &unused));
      TF_RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(2, &hw));
      c->set_output(0, c->MakeShape({batch, c->Dim(hw, 0), c->Dim(hw, 1), c->Dim(images, 3)}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Remap through an affine map per image, computed in the kernel instead of read from a maps
tensor (cv2.warpAffine with WARP_INVERSE_MAP, in Remap's float arithmetic): output pixel (x, y)
of image b samples the input at matrices[b] @ [x, y, 1] (pixel indices). Output
[B, size[0], size[1], C]; borders, interpolation and fill_value as Remap.
)doc");

REGISTER_OP("TfGpuAug>RemapRadial")
    .Input("images: uint8")
    .Input("coefficients: float")
    .Output("remapped: uint8")
    .Attr("interpolation: {'nearest', 'bilinear'} = 'bilinear'")
    .Attr("border_mode: {'constant', 'replicate', 'reflect', 'wrap', 'reflect_101'} = 'constant'")
    .Attr("fill_value: float = 0")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, coefficients;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRankAtLeast(c->input(1), 2, &coefficients));
      TF_RETURN_IF_ERROR(c->WithRankAtMost(coefficients, 3, &coefficients));
      DimensionHandle unused;
      if (c->RankKnown(coefficients)) {
        const int rank = c->Rank(coefficients);
        TF_RETURN_IF_ERROR(c->WithValue(c->Dim(coefficients, rank - 1), 2, &unused));
        if (rank == 3) TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 3), c->Dim(coefficients, 1), &unused));
      }
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(coefficients, 0), &unused));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Remap through a radial lens map per image, computed in the kernel instead of read from a
maps tensor (the map of cv2.initUndistortRectifyMap for the camera with focal lengths (W, H),
centre (W / 2, H / 2) and distortion (k1, k2, 0, 0)), coefficients [B, 2] holding (k1, k2),
or [B, C, 2] for a map per channel (ChromaticAberration's red and blue); output the input's
size; borders, interpolation and fill_value as Remap.
)doc");

REGISTER_OP("TfGpuAug>SeparableResample")
    .Input("images: uint8")
    .Input("row_index: int32")
    .Input("row_weight: float")
    .Input("col_index: int32")
    .Input("col_weight: float")
    .Output("resampled: uint8")
    .Attr("fill_value: float = 0")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, row_index, row_weight, col_index, col_weight;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 3, &row_index));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &row_weight));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 3, &col_index));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(4), 2, &col_weight));
      DimensionHandle batch, h, w, unused;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(row_index, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(col_index, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(row_index, 1), c->Dim(row_weight, 1), &h));
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(col_index, 1), c->Dim(col_weight, 1), &w));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(row_index, 2), 2, &unused));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(col_index, 2), 2, &unused));
      c->set_output(0, c->MakeShape({batch, h, w, c->Dim(images, 3)}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Separable resampling through per-sample tap tables: output pixel (y, x) of image b blends input
rows row_index[b, y, 0..1] (weight row_weight[b, y] on the second), then columns col_index[b,
x, 0..1] (weight col_weight[b, x]): float32 lerps, rounded half to even.
An index outside the image reads fill_value. Border rules and windows are the caller's, in the
tables (CropAndPad).
)doc");

REGISTER_OP("TfGpuAug>ElasticMaps")
    .Input("seeds: int32")
    .Input("alpha: float")
    .Input("kernel: float")
    .Input("size: int32")
    .Output("maps: float")
    .Attr("same_dxdy: bool = false")
    .Attr("noise_distribution: {'gaussian', 'uniform'} = 'gaussian'")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle seeds, alpha, kernel, size, hw;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 1, &seeds));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 1, &alpha));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 1, &kernel));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 1, &size));
      DimensionHandle batch, unused;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(seeds, 0), c->Dim(alpha, 0), &batch));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(size, 0), 2, &unused));
      TF_RETURN_IF_ERROR(c->MakeShapeFromShapeTensor(3, &hw));
      c->set_output(0, c->MakeShape({batch, c->Dim(hw, 0), c->Dim(hw, 1), 2}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Albumentations' ElasticTransform maps, drawn and blurred in the kernel: per sample, noise fields
from the counter hash of seeds[b] (standard normal, or uniform in (-1, 1)), blurred separably
by kernel (odd length, edges replicated, as cv2.GaussianBlur with BORDER_REPLICATE), times
alpha[b] (over the noise's largest magnitude for normal noise), added to the pixel grid.
Output [B, size[0], size[1], 2]: cv2.remap maps for Remap. same_dxdy: one field for both axes.
)doc");

REGISTER_OP("TfGpuAug>CellMaps")
    .Input("owners: int32")
    .Input("matrices: double")
    .Output("maps: float")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle owners, matrices;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 3, &owners));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 4, &matrices));
      DimensionHandle batch, unused;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(owners, 0), c->Dim(matrices, 0), &batch));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(matrices, 2), 3, &unused));
      TF_RETURN_IF_ERROR(c->WithValue(c->Dim(matrices, 3), 3, &unused));
      c->set_output(0, c->MakeShape({batch, c->Dim(owners, 1), c->Dim(owners, 2), 2}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Maps of a piecewise perspective warp: pixel (x, y) of sample b samples the input through
matrices[b, owners[b, y, x]] (3x3, output pixel indices to input pixel indices) in
cv2.warpPerspective's arithmetic (OpenCV 5): per row float(y m1 + m2), float(y m4 + m5),
float(y m7 + m8), then float32 fma(m0, x, .) / fma(m6, x, .) and fma(m3, x, .) / fma(m6, x, .).
Owners outside [0, K) give NaN (Remap's fill). Output [B, H, W, 2]: cv2.remap maps for Remap.
)doc");

REGISTER_OP("TfGpuAug>TileShuffle")
    .Input("images: uint8")
    .Input("row_starts: int32")
    .Input("col_starts: int32")
    .Input("sources: int32")
    .Output("shuffled: uint8")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images, rows, cols, sources;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &rows));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(2), 2, &cols));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 2, &sources));
      DimensionHandle batch;
      TF_RETURN_IF_ERROR(c->Merge(c->Dim(images, 0), c->Dim(rows, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(cols, 0), &batch));
      TF_RETURN_IF_ERROR(c->Merge(batch, c->Dim(sources, 0), &batch));
      c->set_output(0, images);
      return absl::OkStatus();
    })
    .Doc(R"doc(
RandomGridShuffle's pixel move: per image, tiles between row_starts [B, rows + 1] and
col_starts [B, cols + 1] (from 0 to the image's size), and sources [B, rows * cols]: the tile
(row-major) whose pixels each destination tile takes, at the same place in the tile (a
permutation among tiles of one shape). Output: the images, tiles moved, bytes as they are.
)doc");

REGISTER_OP("TfGpuAug>RemapBoxes")
    .Input("maps: float")
    .Input("boxes: float")
    .Input("box_images: int64")
    .Input("input_size: int32")
    .Output("moved: float")
    .Output("found: bool")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle maps, size;
      TF_RETURN_IF_ERROR(MapsShape(c, 0, &maps));
      DimensionHandle m;
      TF_RETURN_IF_ERROR(RowsShape(c, 1, 4, &m));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(3), 1, &size));
      c->set_output(0, c->MakeShape({m, 4}));
      c->set_output(1, c->MakeShape({m}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Boxes through the maps of a Remap: box k (xyxy, continuous pixels of an input image of
input_size [h, w]) of image box_images[k] covers the input pixels whose centres are inside it;
its moved box is the extent of the output pixels whose nearest input pixel it covers. found[k]
is false (and the box unchanged) when no output pixel samples it.
)doc");

REGISTER_OP("TfGpuAug>RemapPoints")
    .Input("maps: float")
    .Input("points: float")
    .Input("point_images: int64")
    .Output("moved: float")
    .Output("found: bool")
    .Attr("reach: float = 1.0")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle maps;
      TF_RETURN_IF_ERROR(MapsShape(c, 0, &maps));
      DimensionHandle m;
      TF_RETURN_IF_ERROR(RowsShape(c, 1, 2, &m));
      c->set_output(0, c->MakeShape({m, 2}));
      c->set_output(1, c->MakeShape({m}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
Points (xy, continuous pixels) through the maps of a Remap: the output position whose map
value is the point (the nearest output pixel's, refined by Newton steps on the bilinear map).
found[k] is false when no output position maps within `reach` pixels of the point.
)doc");

}  // namespace
}  // namespace tensorflow
