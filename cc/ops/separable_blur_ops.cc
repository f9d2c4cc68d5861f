// Registration of the SeparableBlur op (a separable float blur of planes,
// cc/kernels/augment/separable_blur.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>SeparableBlur")
    .Input("planes: float")
    .Input("kernels: float")
    .Output("blurred: float")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle planes, kernels;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 3, &planes));
      TF_RETURN_IF_ERROR(c->WithRank(c->input(1), 2, &kernels));
      c->set_output(0, planes);
      return absl::OkStatus();
    })
    .Doc(R"doc(
Float planes [P, H, W] blurred along each row, then along each column, by kernels[p % K] of
kernels [K, T] (T odd, at most 1023, centred on tap T // 2; cv2.sepFilter2D's correlation with
the same kernel both ways), over OpenCV's reflect-101 border (repeated reflections for sides
shorter than the kernel; a side of 1 reads its one value). Each output is the fused
multiply-adds of the kernel's non-zero taps in ascending order from 0, the row pass kept as
float32, so the CPU and the GPU give the same floats.
)doc");

}  // namespace tensorflow
