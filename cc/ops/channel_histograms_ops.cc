// Registration of the ChannelHistograms op (per-channel level counts of uint8 images,
// cc/kernels/augment/channel_histograms_cpu.h).
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {

using shape_inference::InferenceContext;
using shape_inference::ShapeHandle;

REGISTER_OP("TfGpuAug>ChannelHistograms")
    .Input("images: uint8")
    .Output("counts: int32")
    .SetShapeFn([](InferenceContext* c) {
      ShapeHandle images;
      TF_RETURN_IF_ERROR(c->WithRank(c->input(0), 4, &images));
      c->set_output(0, c->MakeShape({c->Dim(images, 0), c->Dim(images, 3), 256}));
      return absl::OkStatus();
    })
    .Doc(R"doc(
counts [B, C, 256]: how many pixels of each image of uint8 images [B, H, W, C] hold each level
in each channel.
)doc");

}  // namespace tensorflow
