// Built-ins: device work every driver provides as executables (Device::builtin), each with the parameter
// block core passes in Dispatch::params. They replace the host code core used to run as device work; a
// driver implements them on its hardware (the sim's, on the host CPU, are in drivers/host/). Data types are
// ACL's numbering (base/dtype.h). Part of the driver interface (hal/hal.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurt::hal {

enum class Builtin : uint32_t {
  // outputs[0][i] = op(outputs[0][i], inputs[0][i]) over ReduceParams::count elements (aclrtReduceAsync).
  // Integers wrap, or saturate with Dispatch::saturate; floats overflow to Inf, or to the largest finite
  // value. An overflow sets Dispatch::overflowed when check_overflow is set.
  kReduce = 0,
  // Random numbers with Philox4x32-10 (aclrtRandomNumAsync): RandomParams.
  kRandom,
  // Copies as the CopyDescriptor at inputs[0] says, read when the task runs (aclrtMemcpyAsyncWithDesc).
  kDescriptorCopy,
  // Copies IndirectCopyParams::count bytes from *src_slot + src_offset to *dst_slot + dst_offset, the two
  // pointers read from device memory when the task runs (aclrtMemcpyAsyncWithOffset).
  kIndirectCopy,
  kCount,
};

enum class ReduceOp : uint32_t { kSum = 0, kMax = 1, kMin = 2, kEqual = 3 };  // kEqual: d = d == s ? 1 : 0

struct ReduceParams {
  ReduceOp op = ReduceOp::kSum;
  int32_t dtype = 0;
  uint64_t count = 0;
};

// A random-number parameter: an immediate value of `size` bytes, or (is_addr) the address of device memory
// that holds it, read when the task runs.
struct RandomParam {
  uint8_t value_or_addr[8] = {};
  uint32_t size = 0;
  bool is_addr = false;
};
enum class RandomFunction : uint32_t { kDropoutBitmask = 0, kUniform = 1, kNormal = 2, kTruncatedNormal = 3 };
struct RandomParams {
  RandomFunction function = RandomFunction::kUniform;
  int32_t dtype = 0;
  void* result = nullptr;        // bytes: RandomResultBytes
  void* counter = nullptr;       // the 128-bit Philox counter; advanced by the numbers the task drew
  RandomParam seed;              // 64-bit key
  RandomParam count;             // how many numbers
  RandomParam a;                 // dropout: the drop ratio; uniform: min; normal: mean
  RandomParam b;                 // uniform: max; normal: standard deviation
};

// Element size of a type random numbers are generated in (fp16, bf16, fp32, 32- and 64-bit integers), 0
// for the others; and the result bytes of `n` numbers (a dropout mask holds a bit per number).
size_t RandomElementSize(int32_t dtype);
uint64_t RandomResultBytes(RandomFunction function, int32_t dtype, uint64_t n);
// A parameter's bits: its immediate value, or what its address holds now.
uint64_t RandomParamBits(const RandomParam& p);
// An integer uniform range is not empty (max > min, in the type's signedness); true for floats.
bool RandomUniformRangeValid(int32_t dtype, uint64_t min_bits, uint64_t max_bits);

// What aclrtSetMemcpyDesc writes into the descriptor memory the caller provides (64 bytes at most).
inline constexpr uint32_t kCopyDescriptorMagic = 0x4e504d44;  // "NPMD"
struct CopyDescriptor {
  uint32_t magic = kCopyDescriptorMagic;
  int32_t kind = 0;
  const void* src = nullptr;
  void* dst = nullptr;
  uint64_t count = 0;
};

struct IndirectCopyParams {
  void** dst_slot = nullptr;
  const void** src_slot = nullptr;
  size_t dst_offset = 0;
  size_t src_offset = 0;
  size_t count = 0;
};

}  // namespace npurt::hal
