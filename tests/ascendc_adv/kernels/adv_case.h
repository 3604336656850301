// The library functions the adv test kernels run (shared by the kernels and the host tests).
#pragma once

#include <cstdint>

enum AdvDtype : uint32_t { kAdvF16 = 0, kAdvF32, kAdvI16, kAdvI32 };

// One-source functions (adv_unary kernel); the ones marked "scalar" take the kernel's scalar argument.
enum AdvUnaryOp : uint32_t {
  kAdvAcosh = 0, kAdvCeil, kAdvFrac, kAdvErf, kAdvLog, kAdvSigmoid, kAdvExp, kAdvGelu, kAdvSilu,
  kAdvSwish,     // scalar = beta
  kAdvClampMin,  // scalar
  kAdvClampMax,  // scalar
  kAdvFasterGelu,
  kAdvUnaryCount
};

// Two-source functions (adv_binary kernel). Power's scalar forms take element 0 of the scalar side.
// SwiGLU takes the kernel's scalar (beta).
enum AdvBinaryOp : uint32_t {
  kAdvGeGLU = 0, kAdvFmod, kAdvXor, kAdvPowerTT, kAdvPowerTS, kAdvPowerST, kAdvSwiGLU, kAdvBinaryCount
};

// How the call is written: the whole source (no calCount), calCount; each with or without a
// sharedTmpBuffer. Functions that have no whole-tensor form are called with calCount = n there.
enum AdvForm : uint32_t { kAdvWhole = 0, kAdvCount, kAdvWholeTmp, kAdvCountTmp, kAdvFormCount };
