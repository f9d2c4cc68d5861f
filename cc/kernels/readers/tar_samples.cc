#include "cc/kernels/readers/tar_samples.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

namespace tfgpuaug {
namespace {

constexpr size_t kBlock = 512;
constexpr size_t kReadAhead = size_t{1} << 20;  // headers and small members come from here
constexpr uint64_t kMaxNameBytes = 64 << 10;    // GNU long names and PAX headers
constexpr uint64_t kMaxMemberBytes = uint64_t{1} << 31;

uint64_t RoundUp(uint64_t n) { return (n + kBlock - 1) / kBlock * kBlock; }

// A numeric header field: octal digits (spaces and NULs around them), or base-256 when the
// first byte has its high bit set (GNU, for sizes of 8 GiB and more).
bool ParseNumber(const char* field, size_t width, uint64_t* out) {
  const auto* f = reinterpret_cast<const uint8_t*>(field);
  uint64_t v = 0;
  if (f[0] & 0x80) {
    for (size_t i = 1; i < width; ++i) {
      if (v >> 56) return false;
      v = (v << 8) | f[i];
    }
    *out = v;
    return (f[0] & 0x7F) == 0;
  }
  size_t i = 0;
  while (i < width && (f[i] == ' ' || f[i] == 0)) ++i;
  bool digits = false;
  for (; i < width && f[i] >= '0' && f[i] <= '7'; ++i, digits = true) {
    if (v >> 60) return false;
    v = v * 8 + (f[i] - '0');
  }
  for (; i < width; ++i) {
    if (f[i] != ' ' && f[i] != 0) return false;
  }
  *out = v;
  return digits || v == 0;
}

bool ChecksumOk(const uint8_t* h) {
  uint64_t stored = 0;
  if (!ParseNumber(reinterpret_cast<const char*>(h) + 148, 8, &stored)) return false;
  uint64_t unsigned_sum = 0;
  int64_t signed_sum = 0;
  for (size_t i = 0; i < kBlock; ++i) {
    const uint8_t b = (i >= 148 && i < 156) ? ' ' : h[i];
    unsigned_sum += b;
    signed_sum += static_cast<int8_t>(b);
  }
  return stored == unsigned_sum || int64_t(stored) == signed_sum;  // old tars summed signed bytes
}

std::string Field(const uint8_t* h, size_t at, size_t width) {
  const char* s = reinterpret_cast<const char*>(h) + at;
  return std::string(s, strnlen(s, width));
}

// The "path" record of a PAX extended header ("<length> path=<value>\n" records).
bool PaxPath(const std::string& records, std::string* path) {
  size_t p = 0;
  bool found = false;
  while (p < records.size()) {
    size_t space = records.find(' ', p);
    if (space == std::string::npos) return found;
    const size_t length = std::strtoull(records.c_str() + p, nullptr, 10);
    if (length == 0 || p + length > records.size()) return found;
    const std::string record = records.substr(space + 1, p + length - space - 1);
    if (record.compare(0, 5, "path=") == 0) {
      *path = record.substr(5, record.size() - 6);  // without the trailing newline
      found = true;
    }
    p += length;
  }
  return found;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

void SplitKey(const std::string& path, std::string* key, std::string* extension) {
  const size_t slash = path.rfind('/');
  const size_t start = slash == std::string::npos ? 0 : slash + 1;
  const size_t dot = path.find('.', start);
  if (dot == std::string::npos) {
    *key = path;
    extension->clear();
  } else {
    *key = path.substr(0, dot);
    *extension = path.substr(dot + 1);
  }
}

TarSampleReader::TarSampleReader(std::unique_ptr<ShardFile> file, std::string shard_name, SampleSpec spec,
                                 uint64_t start_offset)
    : file_(std::move(file)), shard_(std::move(shard_name)), spec_(std::move(spec)), offset_(start_offset) {
  for (auto& alternatives : spec_.fields) {
    for (auto& e : alternatives) e = Lower(e);
  }
}

Status TarSampleReader::Invalid(const std::string& what, uint64_t offset) const {
  return Status::Invalid("tar shard " + shard_ + ": " + what + " (at byte " + std::to_string(offset) + ")");
}

Status TarSampleReader::Fetch(uint64_t offset, size_t n, char* out, size_t* got) {
  if (offset >= buffer_offset_ && offset + n <= buffer_offset_ + buffer_.size()) {
    std::memcpy(out, buffer_.data() + (offset - buffer_offset_), n);
    *got = n;
    return Status::Ok();
  }
  if (n >= kReadAhead) return file_->ReadAt(offset, n, out, got);  // large members go straight there
  buffer_.resize(kReadAhead);
  size_t filled = 0;
  TFGPUAUG_RETURN_IF_ERROR(file_->ReadAt(offset, kReadAhead, buffer_.data(), &filled));
  buffer_.resize(filled);
  buffer_offset_ = offset;
  *got = std::min(n, filled);
  std::memcpy(out, buffer_.data(), *got);
  return Status::Ok();
}

Status TarSampleReader::ReadExact(uint64_t offset, size_t n, char* out, const std::string& what) {
  size_t got = 0;
  TFGPUAUG_RETURN_IF_ERROR(Fetch(offset, n, out, &got));
  if (got < n) return Invalid("truncated " + what, offset + got);
  return Status::Ok();
}

Status TarSampleReader::CheckInFile(const Member& m) {
  if (m.size == 0) return Status::Ok();
  const uint64_t last = m.data_offset + m.size - 1;
  if (last >= buffer_offset_ && last < buffer_offset_ + buffer_.size()) return Status::Ok();
  char byte = 0;
  size_t got = 0;
  TFGPUAUG_RETURN_IF_ERROR(file_->ReadAt(last, 1, &byte, &got));
  if (got < 1) {
    return Invalid("truncated member '" + m.name + "'", m.data_offset);  // as ReadExact says it
  }
  return Status::Ok();
}

Status TarSampleReader::ReadMember(Member* member, bool* end) {
  std::string long_name;
  bool has_long_name = false;
  uint64_t chain_start = offset_;
  uint8_t h[kBlock];
  for (;;) {
    const uint64_t at = offset_;
    size_t got = 0;
    TFGPUAUG_RETURN_IF_ERROR(Fetch(at, kBlock, reinterpret_cast<char*>(h), &got));
    if (got == 0 || (got == kBlock && std::all_of(h, h + kBlock, [](uint8_t b) { return b == 0; }))) {
      if (has_long_name) return Invalid("the archive ends after a long-name header", at);
      *end = true;  // end of the file, or the zero blocks that end an archive
      return Status::Ok();
    }
    if (got < kBlock) return Invalid("truncated member header", at);
    if (!ChecksumOk(h)) return Invalid("corrupt member header (checksum mismatch)", at);
    uint64_t size = 0;
    if (!ParseNumber(reinterpret_cast<const char*>(h) + 124, 12, &size))
      return Invalid("corrupt member size", at);
    const char type = static_cast<char>(h[156]);
    std::string name = Field(h, 0, 100);
    if (std::memcmp(h + 257, "ustar", 5) == 0 && h[345] != 0) name = Field(h, 345, 155) + "/" + name;
    offset_ = at + kBlock + RoundUp(size);
    if (type == 'L' || type == 'x') {  // the next member's name
      if (size > kMaxNameBytes) return Invalid("long-name header of " + std::to_string(size) + " bytes", at);
      std::string text(size, '\0');
      TFGPUAUG_RETURN_IF_ERROR(ReadExact(at + kBlock, size, &text[0], "long-name header"));
      if (type == 'L') {
        long_name = std::string(text.c_str());
        has_long_name = true;
      } else if (PaxPath(text, &long_name)) {
        has_long_name = true;
      }
      continue;
    }
    if (type != '0' && type != '\0' && type != '7') {  // directories, links, global headers
      has_long_name = false;
      chain_start = offset_;
      continue;
    }
    if (size > kMaxMemberBytes)
      return Invalid("member '" + name + "' of " + std::to_string(size) + " bytes", at);
    member->name = has_long_name ? long_name : name;
    member->size = size;
    member->data_offset = at + kBlock;
    member->header_offset = chain_start;
    *end = false;
    return Status::Ok();
  }
}

Status TarSampleReader::Next(const FieldAllocator& allocate, std::string* key, std::vector<bool>* present,
                             bool* end) {
  *end = false;
  present->assign(spec_.fields.size(), false);
  if (finished_) {
    *end = true;
    return Status::Ok();
  }
  Member m;
  if (pending_) {
    m = pending_member_;
    pending_ = false;
  } else {
    bool archive_end = false;
    TFGPUAUG_RETURN_IF_ERROR(Broken(ReadMember(&m, &archive_end)));
    if (archive_end) {
      finished_ = true;
      *end = true;
      return Status::Ok();
    }
  }
  std::string extension, next_key;
  SplitKey(m.name, key, &extension);
  std::vector<size_t> rank(spec_.fields.size(), SIZE_MAX);  // preference of the member kept
  std::string seen;
  for (;;) {
    const std::string ext = Lower(extension);
    seen += (seen.empty() ? "" : ", ") + m.name;
    for (size_t f = 0; f < spec_.fields.size(); ++f) {
      const auto& alternatives = spec_.fields[f];
      const size_t r = std::find(alternatives.begin(), alternatives.end(), ext) - alternatives.begin();
      if (r >= alternatives.size() || r >= rank[f]) continue;
      TFGPUAUG_RETURN_IF_ERROR(Broken(CheckInFile(m)));  // before allocating what the header says
      char* out = allocate(static_cast<int>(f), m.size);
      TFGPUAUG_RETURN_IF_ERROR(Broken(ReadExact(m.data_offset, m.size, out, "member '" + m.name + "'")));
      rank[f] = r;
      (*present)[f] = true;
    }
    bool archive_end = false;
    Member next;
    TFGPUAUG_RETURN_IF_ERROR(Broken(ReadMember(&next, &archive_end)));
    if (archive_end) {
      finished_ = true;
      break;
    }
    SplitKey(next.name, &next_key, &extension);
    if (next_key != *key) {
      pending_ = true;
      pending_member_ = next;
      pending_header_offset_ = next.header_offset;
      break;
    }
    m = next;
  }
  if (!spec_.missing_ok) {
    for (size_t f = 0; f < spec_.fields.size(); ++f) {
      if ((*present)[f]) continue;
      std::string wanted;
      for (const auto& e : spec_.fields[f]) wanted += (wanted.empty() ? "" : ";") + e;
      return Status::Invalid("tar shard " + shard_ + ": sample '" + *key +
                             "' has no member with extension '" + wanted + "' (members: " + seen + ")");
    }
  }
  return Status::Ok();
}

}  // namespace tfgpuaug
