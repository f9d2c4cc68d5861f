// WebDataset samples from a tar shard, framework-free: members are read in order, grouped
// into samples by key (the member's path up to the first '.' of its file name; the rest is
// its extension), and the members of the requested extensions are handed out. POSIX ustar,
// GNU long names and PAX path records are read; checksums are verified; a cut or corrupt
// shard is an error naming the shard, the member and the offset.
#ifndef TFGPUAUG_CC_KERNELS_READERS_TAR_SAMPLES_H_
#define TFGPUAUG_CC_KERNELS_READERS_TAR_SAMPLES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cc/kernels/common/status.h"

namespace tfgpuaug {

// Random access to a shard's bytes (a local file, or anything the op layer opens).
class ShardFile {
 public:
  virtual ~ShardFile() = default;
  // Reads up to `n` bytes at `offset` into `out`; `*got` < n only at the end of the file.
  virtual Status ReadAt(uint64_t offset, size_t n, char* out, size_t* got) = 0;
};

// Which members make a sample's fields: each field lists the extensions it accepts, in
// order of preference (WebDataset's "jpg;png"), compared without case.
struct SampleSpec {
  std::vector<std::vector<std::string>> fields;
  bool missing_ok = false;  // a field no member fills is empty, instead of an error
};

// Where a field's bytes go: returns a buffer of `size` bytes for field `index`.
using FieldAllocator = std::function<char*(int index, size_t size)>;

class TarSampleReader {
 public:
  TarSampleReader(std::unique_ptr<ShardFile> file, std::string shard_name, SampleSpec spec,
                  uint64_t start_offset = 0);

  // The next sample: its key, and each field's member written through `allocate` (fields
  // left out are marked in `present`). `*end` at the end of the archive.
  Status Next(const FieldAllocator& allocate, std::string* key, std::vector<bool>* present, bool* end);

  // Where the next sample's first member starts: resuming there continues the shard.
  uint64_t next_sample_offset() const { return pending_ ? pending_header_offset_ : offset_; }

  // After a read or format error the archive cannot be followed further (a missing member
  // is not such an error: the next sample reads on).
  bool broken() const { return broken_; }

 private:
  struct Member {
    std::string name;
    uint64_t size = 0;
    uint64_t data_offset = 0;
    uint64_t header_offset = 0;
  };
  Status ReadMember(Member* member, bool* end);
  // Whether the member's last byte lies in the file (read before its buffer is allocated).
  Status CheckInFile(const Member& member);
  // Reads through a read-ahead window (headers and small members cost no extra request).
  Status Fetch(uint64_t offset, size_t n, char* out, size_t* got);
  Status ReadExact(uint64_t offset, size_t n, char* out, const std::string& what);
  Status Invalid(const std::string& what, uint64_t offset) const;
  Status Broken(Status status) {
    if (!status.ok()) broken_ = true;
    return status;
  }

  std::unique_ptr<ShardFile> file_;
  std::string shard_;
  SampleSpec spec_;
  uint64_t offset_ = 0;   // the next header
  bool pending_ = false;  // a member read ahead that starts the next sample
  Member pending_member_;
  uint64_t pending_header_offset_ = 0;
  bool finished_ = false;
  bool broken_ = false;
  std::vector<char> buffer_;  // bytes [buffer_offset_, buffer_offset_ + size) of the file
  uint64_t buffer_offset_ = 0;
};

// Splits a member path into WebDataset's key and extension ("a/b.seg.png" -> "a/b", "seg.png").
void SplitKey(const std::string& path, std::string* key, std::string* extension);

}  // namespace tfgpuaug

#endif  // TFGPUAUG_CC_KERNELS_READERS_TAR_SAMPLES_H_
