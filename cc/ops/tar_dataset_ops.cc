// TarSampleDataset: WebDataset samples streamed from tar shards (cc/kernels/readers), a
// source dataset like TFRecordDataset. Files open through TensorFlow's Env, so every
// filesystem TensorFlow knows works; iterator checkpoints hold (shard, byte offset).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_split.h"
#include "cc/kernels/readers/tar_samples.h"
#include "cc/ops/decode_common.h"
#include "cc/ops/guarded_kernel.h"
#include "tensorflow/core/data/name_utils.h"
#include "tensorflow/core/framework/common_shape_fns.h"
#include "tensorflow/core/framework/dataset.h"
#include "tensorflow/core/framework/op.h"
#include "tensorflow/core/framework/shape_inference.h"

namespace tensorflow {
namespace data {
namespace {

constexpr char kOpName[] = "TfGpuAug>TarSampleDataset";

REGISTER_OP("TfGpuAug>TarSampleDataset")
    .Input("filenames: string")
    .Output("handle: variant")
    .Attr("extensions: list(string) >= 1")
    .Attr("missing_ok: bool = false")
    .SetIsStateful()  // a source: keeps constant folding away, as TFRecordDataset
    .SetShapeFn(shape_inference::ScalarShape)
    .Doc(R"doc(
WebDataset samples from tar shards, read in order: per sample its key, its shard and, for
each entry of `extensions` (alternatives separated by ';', e.g. "jpg;png"), the bytes of the
member with that extension.
)doc");

// A shard opened through TensorFlow's filesystems; keeps the first I/O error's status.
class EnvShardFile : public tfgpuaug::ShardFile {
 public:
  explicit EnvShardFile(std::unique_ptr<RandomAccessFile> file) : file_(std::move(file)) {}
  tfgpuaug::Status ReadAt(uint64_t offset, size_t n, char* out, size_t* got) override {
    absl::string_view result;
    const absl::Status s = file_->Read(offset, n, &result, out);
    if (!s.ok() && !absl::IsOutOfRange(s)) {
      io_error = s;
      return tfgpuaug::Status::Invalid(std::string(s.message()));
    }
    if (result.data() != out) std::memcpy(out, result.data(), result.size());
    *got = result.size();
    return tfgpuaug::Status::Ok();
  }
  absl::Status io_error;

 private:
  std::unique_ptr<RandomAccessFile> file_;
};

class TarSampleDatasetOp : public DatasetOpKernel {
 public:
  explicit TarSampleDatasetOp(OpKernelConstruction* ctx) : DatasetOpKernel(ctx) {
    OP_REQUIRES_OK(ctx, ctx->GetAttr("extensions", &extensions_));
    OP_REQUIRES_OK(ctx, ctx->GetAttr("missing_ok", &missing_ok_));
    for (const std::string& field : extensions_) {
      std::vector<std::string> alternatives = absl::StrSplit(field, ';', absl::SkipEmpty());
      OP_REQUIRES(ctx, !alternatives.empty(), errors::InvalidArgument("empty extension in ", field));
      spec_.fields.push_back(std::move(alternatives));
    }
    spec_.missing_ok = missing_ok_;
  }

  void MakeDataset(OpKernelContext* ctx, DatasetBase** output) override {
    OP_REQUIRES_OK(ctx,
                   tfgpuaug::GuardedTfStatus(kOpName, [&] { return MakeDatasetUnguarded(ctx, output); }));
  }

 private:
  absl::Status MakeDatasetUnguarded(OpKernelContext* ctx, DatasetBase** output) {
    const Tensor& filenames = ctx->input(0);
    if (filenames.dims() > 1) {
      return errors::InvalidArgument("filenames must be a scalar or a vector, got shape ",
                                     filenames.shape().DebugString());
    }
    std::vector<std::string> files;
    for (int64_t i = 0; i < filenames.NumElements(); ++i) files.push_back(filenames.flat<tstring>()(i));
    *output = new Dataset(ctx, std::move(files), extensions_, missing_ok_, spec_);
    return absl::OkStatus();
  }

  class Dataset : public DatasetBase {
   public:
    Dataset(OpKernelContext* ctx, std::vector<std::string> files, std::vector<std::string> extensions,
            bool missing_ok, tfgpuaug::SampleSpec spec)
        : DatasetBase(DatasetContext(ctx)),
          files_(std::move(files)),
          extensions_(std::move(extensions)),
          missing_ok_(missing_ok),
          spec_(std::move(spec)),
          dtypes_(2 + extensions_.size(), DT_STRING),
          shapes_(2 + extensions_.size(), PartialTensorShape({})) {}

    std::unique_ptr<IteratorBase> MakeIteratorInternal(const std::string& prefix) const override {
      return std::make_unique<Iterator>(Iterator::Params{this, name_utils::IteratorPrefix(kOpName, prefix)});
    }
    const DataTypeVector& output_dtypes() const override { return dtypes_; }
    const std::vector<PartialTensorShape>& output_shapes() const override { return shapes_; }
    std::string DebugString() const override { return "TarSampleDatasetOp::Dataset"; }
    absl::Status InputDatasets(std::vector<const DatasetBase*>*) const override { return absl::OkStatus(); }
    absl::Status CheckExternalState() const override { return absl::OkStatus(); }

   protected:
    absl::Status AsGraphDefInternal(SerializationContext* ctx, DatasetGraphDefBuilder* b,
                                    Node** output) const override {
      Node* filenames = nullptr;
      TF_RETURN_IF_ERROR(b->AddVector(files_, &filenames));
      AttrValue extensions, missing_ok;
      b->BuildAttrValue(extensions_, &extensions);
      b->BuildAttrValue(missing_ok_, &missing_ok);
      return b->AddDataset(this, {filenames}, {{"extensions", extensions}, {"missing_ok", missing_ok}},
                           output);
    }

   private:
    class Iterator : public DatasetIterator<Dataset> {
     public:
      explicit Iterator(const Params& params) : DatasetIterator<Dataset>(params) {}

      bool SymbolicCheckpointCompatible() const override { return true; }

      absl::Status GetNextInternal(IteratorContext* ctx, std::vector<Tensor>* out, bool* end) override {
        return tfgpuaug::GuardedTfStatus(kOpName, [&] { return GetNextUnguarded(ctx, out, end); });
      }

     private:
      absl::Status GetNextUnguarded(IteratorContext* ctx, std::vector<Tensor>* out, bool* end) {
        mutex_lock lock(mu_);
        const size_t n = dataset()->spec_.fields.size();
        while (true) {
          if (reader_ != nullptr) {
            std::vector<tstring> fields(n);
            std::vector<bool> present;
            std::string key;
            bool shard_end = false;
            const auto allocate = [&fields](int i, size_t size) {
              fields[i].resize_uninitialized(size);
              return fields[i].mdata();
            };
            const tfgpuaug::Status s = reader_->Next(allocate, &key, &present, &shard_end);
            if (!s.ok()) {
              const absl::Status io = file_->io_error;
              // A missing member loses only its sample; a cut or corrupt archive ends its shard.
              if (!reader_->broken()) return tfgpuaug::ToTfStatus(s);
              reader_.reset();
              ++file_index_;
              return io.ok() ? tfgpuaug::ToTfStatus(s) : io;
            }
            if (!shard_end) {
              out->reserve(2 + n);
              out->emplace_back(tstring(key));
              out->emplace_back(tstring(dataset()->files_[file_index_]));
              for (size_t i = 0; i < n; ++i) out->emplace_back(std::move(fields[i]));
              *end = false;
              return absl::OkStatus();
            }
            reader_.reset();
            ++file_index_;
          }
          if (file_index_ >= dataset()->files_.size()) {
            *end = true;
            return absl::OkStatus();
          }
          TF_RETURN_IF_ERROR(Open(ctx->env(), 0));
        }
      }

     protected:
      std::shared_ptr<model::Node> CreateNode(IteratorContext* ctx, model::Node::Args args) const override {
        return model::MakeSourceNode(std::move(args));
      }

      absl::Status SaveInternal(SerializationContext* ctx, IteratorStateWriter* writer) override {
        mutex_lock lock(mu_);
        TF_RETURN_IF_ERROR(writer->WriteScalar(prefix(), "file_index", static_cast<int64_t>(file_index_)));
        const int64_t offset = reader_ != nullptr ? static_cast<int64_t>(reader_->next_sample_offset()) : -1;
        return writer->WriteScalar(prefix(), "offset", offset);
      }

      absl::Status RestoreInternal(IteratorContext* ctx, IteratorStateReader* reader) override {
        return tfgpuaug::GuardedTfStatus(kOpName, [&] { return RestoreUnguarded(ctx, reader); });
      }

     private:
      absl::Status RestoreUnguarded(IteratorContext* ctx, IteratorStateReader* reader) {
        mutex_lock lock(mu_);
        int64_t file_index = 0, offset = -1;
        TF_RETURN_IF_ERROR(reader->ReadScalar(prefix(), "file_index", &file_index));
        TF_RETURN_IF_ERROR(reader->ReadScalar(prefix(), "offset", &offset));
        file_index_ = static_cast<size_t>(file_index);
        reader_.reset();
        if (offset >= 0 && file_index_ < dataset()->files_.size()) {
          TF_RETURN_IF_ERROR(Open(ctx->env(), static_cast<uint64_t>(offset)));
        }
        return absl::OkStatus();
      }

      absl::Status Open(Env* env, uint64_t offset) TF_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        const std::string& name = dataset()->files_[file_index_];
        std::unique_ptr<RandomAccessFile> file;
        TF_RETURN_IF_ERROR(env->NewRandomAccessFile(name, &file));
        auto shard = std::make_unique<EnvShardFile>(std::move(file));
        file_ = shard.get();
        reader_ =
            std::make_unique<tfgpuaug::TarSampleReader>(std::move(shard), name, dataset()->spec_, offset);
        return absl::OkStatus();
      }

      mutex mu_;
      size_t file_index_ TF_GUARDED_BY(mu_) = 0;
      std::unique_ptr<tfgpuaug::TarSampleReader> reader_ TF_GUARDED_BY(mu_);
      EnvShardFile* file_ TF_GUARDED_BY(mu_) = nullptr;  // owned by reader_
    };

    const std::vector<std::string> files_;
    const std::vector<std::string> extensions_;
    const bool missing_ok_;
    const tfgpuaug::SampleSpec spec_;
    const DataTypeVector dtypes_;
    const std::vector<PartialTensorShape> shapes_;
  };

  std::vector<std::string> extensions_;
  bool missing_ok_ = false;
  tfgpuaug::SampleSpec spec_;
};

REGISTER_KERNEL_BUILDER(Name("TfGpuAug>TarSampleDataset").Device(DEVICE_CPU), TarSampleDatasetOp);

}  // namespace
}  // namespace data
}  // namespace tensorflow
