// Size classes and rounding of the caching allocator (docs/memory.md, "Size classes").
//
//   request -> need       aclrtMalloc: round up to 32 B, plus 32 B of padding (kernels may over-read);
//                         aclrtMallocAlign32 and pool allocations: round up to 32 B
//   need -> block size    512 B multiples (every pointer is 512-byte aligned; ACL promises 64), or with
//                         roundup_power2_divisions N: one of N steps between consecutive powers of two
//   block size -> pool    <= 1 MiB: the small pool (2 MiB segments); above: the large pool
//   large segment size    < 10 MiB: segment_size_mb (20 MiB) segments; >= 10 MiB: rounded to 2 MiB pages
//   thread cache          blocks <= 64 KiB, one bin per 512 B step
//   page kinds            normal (4 KiB pages), huge (2 MiB), huge1g (1 GiB: segments and alignment of
//                         1 GiB); every segment is a whole number of 2 MiB physical pages
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace npurt::core::alloc {

inline constexpr size_t kMinBlock = 512;
inline constexpr size_t kSmallLimit = 1u << 20;          // largest small-pool block
inline constexpr size_t kSmallSegment = 2u << 20;        // small-pool segment
inline constexpr size_t kPage = 2u << 20;                // physical page (hal::Device::kPhysicalPage)
inline constexpr size_t kHuge1GPage = 1u << 30;
inline constexpr size_t kMinLargeAlloc = 10u << 20;      // from here segments fit the request
inline constexpr size_t kThreadCacheLimit = 64u << 10;   // largest thread-cached block
inline constexpr size_t kThreadCacheBins = kThreadCacheLimit / kMinBlock;
inline constexpr size_t kAclPad = 32;                    // aclrtMalloc's over-read padding

enum class PageKind : uint8_t { kNormal = 0, kHuge = 1, kHuge1G = 2 };
inline constexpr int kPageKinds = 3;

inline constexpr size_t RoundUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

// Bytes the allocation needs from the user's size (0 if the sum overflows).
inline constexpr size_t NeedFor(size_t size, bool pad) {
  const size_t r = RoundUp(size, 32);
  if (r < size) return 0;
  const size_t need = pad ? r + kAclPad : r;
  return need < r ? 0 : need;
}

// Block size for `need` bytes.
inline size_t BlockSizeFor(size_t need, uint32_t power2_divisions) {
  if (need <= kMinBlock) return kMinBlock;
  if (power2_divisions > 0 && need > kMinBlock * power2_divisions) {
    // Step = (next power of two - previous) / divisions, at least 512 B.
    const size_t floor = std::bit_floor(need);
    if (floor == need) return need;
    const size_t step = floor / power2_divisions > kMinBlock ? floor / power2_divisions : kMinBlock;
    return RoundUp(need, step);
  }
  return RoundUp(need, kMinBlock);
}

inline constexpr bool IsSmall(size_t block_size, PageKind kind) {
  return block_size <= kSmallLimit && kind != PageKind::kHuge1G;
}

// Bytes of a new segment for a block of `block_size` in a pool of `kind`.
inline constexpr size_t SegmentSizeFor(size_t block_size, PageKind kind, size_t large_segment) {
  if (kind == PageKind::kHuge1G) return RoundUp(block_size, kHuge1GPage);
  if (block_size <= kSmallLimit) return kSmallSegment;
  if (block_size < kMinLargeAlloc) return large_segment >= block_size ? large_segment : RoundUp(block_size, kPage);
  return RoundUp(block_size, kPage);
}

inline constexpr size_t SegmentAlignment(PageKind kind) { return kind == PageKind::kHuge1G ? kHuge1GPage : kPage; }

// aclrtMemMallocPolicy (low byte; bandwidth and read-only bits ignored) -> page kind for `block_size`.
inline constexpr PageKind PageKindForPolicy(uint32_t policy, size_t block_size) {
  switch (policy & 0xff) {
    case 0:  // ACL_MEM_MALLOC_HUGE_FIRST: small requests use normal pages
    case 3:  // ..._P2P (every device reaches every device's memory on the sim)
      return block_size <= kSmallLimit ? PageKind::kNormal : PageKind::kHuge;
    case 1:
    case 4: return PageKind::kHuge;
    case 2:
    case 5: return PageKind::kNormal;
    case 6:
    case 7: return PageKind::kHuge1G;
    default:  // out of range: huge pages from 2 MiB on, as CANN does
      return block_size >= kPage ? PageKind::kHuge : PageKind::kNormal;
  }
}

inline constexpr const char* PageKindName(PageKind k) {
  return k == PageKind::kNormal ? "normal" : k == PageKind::kHuge ? "huge" : "huge1g";
}

inline constexpr size_t PageSizeOf(PageKind k) {
  return k == PageKind::kNormal ? 4096 : k == PageKind::kHuge ? kPage : kHuge1GPage;
}

}  // namespace npurt::core::alloc
