// The wire format of the rendezvous store (StoreServer <-> StoreClient over TCP). Private to npurt.
//
// Every message, both ways, is one frame: a 4-byte little-endian length, then that many bytes of body.
// A request body starts with a StoreOp byte; a reply body with a StoreReply byte. Integers are
// little-endian; a string is a 4-byte length and its bytes. A client sends one request and reads its
// reply before the next (the server answers in order, holding later requests of a connection while a
// Get or Wait on it is pending).
//
//   kHello  u64 magic                         -> kOk u64 magic
//   kSet    str key, value = rest of frame     -> kOk
//   kGet    u64 timeout_ms, str key            -> kOk value = rest | kTimeout u32 n, n x str (missing keys)
//   kAdd    str key, i64 delta                 -> kOk i64 new value (the value is kept as decimal text)
//   kCheck  u32 n, n x str                     -> kOk u8 (1: every key exists)
//   kWait   u64 timeout_ms, u32 n, n x str     -> kOk | kTimeout u32 n, n x str
//   any                                        -> kError i32 HcclResult, message = rest
//
// timeout_ms is relative (the two ends' monotonic clocks are unrelated); kNoTimeoutMs waits forever.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace npurt::hccl::wire {

inline constexpr uint64_t kStoreMagic = 0x31564b545255504eull;  // "NPURTKV1" (little-endian): protocol, version
inline constexpr size_t kMaxKeyBytes = 4096;
inline constexpr size_t kMaxValueBytes = size_t{64} << 20;
inline constexpr size_t kMaxKeysPerRequest = 4096;
// The largest body either side accepts: a Set of the largest value, or a Wait of the most keys.
inline constexpr size_t kMaxFrameBytes = kMaxValueBytes + kMaxKeyBytes + 64;
static_assert(kMaxKeysPerRequest * (kMaxKeyBytes + 4) + 64 <= kMaxFrameBytes);
inline constexpr uint64_t kNoTimeoutMs = UINT64_MAX;

enum class StoreOp : uint8_t { kHello = 1, kSet = 2, kGet = 3, kAdd = 4, kCheck = 5, kWait = 6 };
enum class StoreReply : uint8_t { kOk = 0, kTimeout = 1, kError = 2 };

// Builds one frame. Finish patches in the length prefix.
class FrameWriter {
 public:
  FrameWriter() : buf_(4, '\0') {}
  FrameWriter& U8(uint8_t v) {
    buf_.push_back(static_cast<char>(v));
    return *this;
  }
  FrameWriter& U32(uint32_t v) { return Le(v, 4); }
  FrameWriter& U64(uint64_t v) { return Le(v, 8); }
  FrameWriter& I64(int64_t v) { return Le(static_cast<uint64_t>(v), 8); }
  FrameWriter& Str(std::string_view s) {
    U32(static_cast<uint32_t>(s.size()));
    return Raw(s.data(), s.size());
  }
  FrameWriter& Raw(const void* p, size_t n) {
    buf_.append(static_cast<const char*>(p), n);
    return *this;
  }
  // The frame; the writer is left empty.
  std::string Finish() {
    const uint64_t body = buf_.size() - 4;
    for (int i = 0; i < 4; ++i) buf_[i] = static_cast<char>(body >> (8 * i));
    return std::move(buf_);
  }

 private:
  FrameWriter& Le(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) buf_.push_back(static_cast<char>(v >> (8 * i)));
    return *this;
  }
  std::string buf_;
};

// Reads a frame body. Every read checks the remaining length; a short or malformed body leaves ok() false
// (and later reads return zeros), so a parser checks once at the end.
class FrameReader {
 public:
  FrameReader(const char* p, size_t n) : p_(p), left_(n) {}
  uint8_t U8() { return static_cast<uint8_t>(Le(1)); }
  uint32_t U32() { return static_cast<uint32_t>(Le(4)); }
  uint64_t U64() { return Le(8); }
  int64_t I64() { return static_cast<int64_t>(Le(8)); }
  // A string of at most `max` bytes.
  std::string Str(size_t max) {
    const uint32_t n = U32();
    if (!ok_ || n > max || n > left_) {
      ok_ = false;
      return {};
    }
    std::string s(p_, n);
    Skip(n);
    return s;
  }
  std::string_view Rest() {
    std::string_view v(p_, left_);
    Skip(left_);
    return v;
  }
  bool ok() const { return ok_; }
  bool done() const { return ok_ && left_ == 0; }  // parsed to the end: trailing bytes are malformed

 private:
  uint64_t Le(int bytes) {
    if (!ok_ || left_ < static_cast<size_t>(bytes)) {
      ok_ = false;
      return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(p_[i])) << (8 * i);
    Skip(bytes);
    return v;
  }
  void Skip(size_t n) {
    p_ += n;
    left_ -= n;
  }
  const char* p_;
  size_t left_;
  bool ok_ = true;
};

inline uint32_t ReadFrameLength(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

// A key (or any byte string) fit for a message: printable ASCII as is, other bytes as \xNN, long keys cut.
inline std::string PrintableKey(std::string_view key) {
  constexpr size_t kShown = 80;
  std::string out;
  for (size_t i = 0; i < key.size() && i < kShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(key[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  if (key.size() > kShown) out += "...";
  return out;
}

}  // namespace npurt::hccl::wire
