// The cube unit's local memories of a simulated AI core: L1, L0A, L0B, L0C, the bias table (BT) and the
// fixpipe buffer (FB), with the Ascend910B sizes of npurt/sim_core.h (what the tiling SDK reports).
// Which memory a TPosition lives in, and TPipe's carving of them (TPipe::InitBuffer gives a queue or TBuf
// of a cube position its bytes here, as it gives VECIN/VECOUT/VECCALC theirs in the unified buffer;
// asking for more than a memory holds fails the kernel). Part of kernel_operator.h (included by base.h).
//
// Each AI-core thread owns one set of these memories, allocated on its first use and freed when the thread
// ends; a block starts with all of them free again (TPipe's constructor).
#pragma once

#include <npurt/sim_core.h>

namespace AscendC {
namespace npurt_detail {

enum class LocalMem : uint8_t { kUB, kL1, kL0A, kL0B, kL0C, kBT, kFB, kCount };

constexpr uint64_t LocalMemBytes(LocalMem m) {
  switch (m) {
    case LocalMem::kL1: return NPURT_SIM_L1_BYTES;
    case LocalMem::kL0A: return NPURT_SIM_L0A_BYTES;
    case LocalMem::kL0B: return NPURT_SIM_L0B_BYTES;
    case LocalMem::kL0C: return NPURT_SIM_L0C_BYTES;
    case LocalMem::kBT: return NPURT_SIM_BT_BYTES;
    case LocalMem::kFB: return NPURT_SIM_FB_BYTES;
    default: return NPURT_SIM_UB_BYTES;
  }
}

constexpr const char* LocalMemName(LocalMem m) {
  switch (m) {
    case LocalMem::kL1: return "L1 buffer";
    case LocalMem::kL0A: return "L0A buffer";
    case LocalMem::kL0B: return "L0B buffer";
    case LocalMem::kL0C: return "L0C buffer";
    case LocalMem::kBT: return "bias table";
    case LocalMem::kFB: return "fixpipe buffer";
    default: return "unified buffer";
  }
}

// The memory behind a position: A1/B1/C1 and TSCM (the cube's share of L1) are L1, A2 L0A, B2 L0B, CO1 L0C,
// C2 the bias table, C2PIPE2GM the fixpipe buffer; the vector positions (and CO2, the cube's output staging
// in the unified buffer) UB.
constexpr LocalMem MemOf(TPosition p) {
  switch (p) {
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM: return LocalMem::kL1;
    case TPosition::A2: return LocalMem::kL0A;
    case TPosition::B2: return LocalMem::kL0B;
    case TPosition::CO1: return LocalMem::kL0C;
    case TPosition::C2: return LocalMem::kBT;
    case TPosition::C2PIPE2GM: return LocalMem::kFB;
    default: return LocalMem::kUB;
  }
}
// A queue between two positions lives in the cube memory of either end (TQueBind<CO1, ...> in L0C).
constexpr LocalMem QueueMemOf(TPosition src, TPosition dst) {
  return MemOf(src) != LocalMem::kUB ? MemOf(src) : MemOf(dst);
}

struct CubeMemories {
  uint8_t* base[static_cast<int>(LocalMem::kCount)] = {};
  uint64_t used[static_cast<int>(LocalMem::kCount)] = {};
  ~CubeMemories() {
    for (uint8_t* p : base) std::free(p);
  }
};
inline thread_local CubeMemories g_cube;

// The running core's memory `m` (not the unified buffer), allocated on first use.
inline uint8_t* CubeBase(LocalMem m) {
  uint8_t*& base = g_cube.base[static_cast<int>(m)];
  if (base == nullptr) {
    base = static_cast<uint8_t*>(std::aligned_alloc(64, LocalMemBytes(m)));
    if (base == nullptr) Fail("out of host memory for the core's %s", LocalMemName(m));
  }
  return base;
}

// Hands out `bytes` (rounded up to 32) of cube memory `m`.
inline uint8_t* CarveCubeBuffer(LocalMem m, uint64_t bytes, const char* what) {
  const uint64_t rounded = (bytes + 31) / 32 * 32;
  uint64_t& used = g_cube.used[static_cast<int>(m)];
  if (used + rounded > LocalMemBytes(m)) {
    Fail("%s: %llu bytes requested, but only %llu of the core's %llu-byte %s are left", what,
         static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(LocalMemBytes(m) - used),
         static_cast<unsigned long long>(LocalMemBytes(m)), LocalMemName(m));
  }
  uint8_t* p = CubeBase(m) + used;
  used += rounded;
  return p;
}

inline void ResetCubeBuffers() {
  for (uint64_t& u : g_cube.used) u = 0;
}

// Whether [addr, addr+bytes) lies inside one of the running core's cube memories (then its memory).
inline bool FindCubeMemory(const void* addr, uint64_t bytes, LocalMem* which) {
  const auto p = reinterpret_cast<uintptr_t>(addr);
  for (int i = 1; i < static_cast<int>(LocalMem::kCount); ++i) {
    const auto base = reinterpret_cast<uintptr_t>(g_cube.base[i]);
    if (base != 0 && p >= base && p + bytes <= base + LocalMemBytes(static_cast<LocalMem>(i))) {
      if (which != nullptr) *which = static_cast<LocalMem>(i);
      return true;
    }
  }
  return false;
}
inline bool InCubeMemory(const void* addr, uint64_t bytes) { return FindCubeMemory(addr, bytes, nullptr); }

// A cube operand [addr, +bytes) lies in memory `m` of this core.
inline void CheckCube(const void* addr, uint64_t bytes, LocalMem m, const char* what) {
  LocalMem found = LocalMem::kUB;
  if (!FindCubeMemory(addr, bytes, &found) || found != m) {
    Fail("%s: local tensor [%p, +%llu bytes) is not inside the core's %llu-byte %s", what, addr,
         static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(LocalMemBytes(m)), LocalMemName(m));
  }
}

}  // namespace npurt_detail
}  // namespace AscendC
